import Foundation

extension Layer {
    /// `M(L→S)`: the 4×4 transform from this layer's bounds space into its superlayer's bounds space
    /// (for a root, into its virtual superlayer space):
    /// `T(−A_L) · transform · T(position, zPosition) · flip_S · [T(−A_S) · S.sublayerTransform · T(A_S)]`.
    public var transformToSuperlayer: Transform3D {
        geometry.transform(toSuperlayer: superlayer?.geometry)
    }

    /// The 4×4 transform from this layer's bounds space into `ancestor`'s, chained **without flattening**:
    /// what the renderer uses inside one 3D context. `nil` when `ancestor` is not an ancestor (or self).
    /// Passing `nil` chains up to the root's virtual superlayer space.
    public func transform3D(to ancestor: Layer?) -> Transform3D? {
        var m = Transform3D.identity
        var current: Layer = self
        while current !== ancestor {
            m = m.concatenating(current.transformToSuperlayer)
            guard let s = current.superlayer else { return ancestor == nil ? m : nil }
            current = s
        }
        return m
    }

    /// The maps from this layer's plane up to `ancestor`'s plane (`nil`: the root's virtual superlayer
    /// space), one homography per flattening step: 4×4 matrices chain through transform layers with z kept,
    /// and the z row and column are dropped at every ordinary layer (and at `ancestor`). `nil` when
    /// `ancestor` is not an ancestor of the receiver (or the receiver itself).
    public func planeMaps(to ancestor: Layer?) -> [Homography]? {
        var maps: [Homography] = []
        return forEachPlaneMap(to: ancestor) { maps.append($0); return true } ? maps : nil
    }

    /// The number of ancestors (0 for a root).
    private var depth: Int {
        var n = 0, a = superlayer
        while let x = a { n += 1; a = x.superlayer }
        return n
    }

    /// The space two layers meet in for conversion: their nearest common ancestor, lifted past transform layers
    /// to the layer that flattens them (what is seen); `nil` for the virtual space above the root(s).
    private func conversionSpace(with other: Layer?) -> Layer? {
        guard let other else { return nil }
        // Level the two walks, then climb in step until they meet (they do not when the trees differ).
        var a: Layer? = self, b: Layer? = other
        var da = depth, db = other.depth
        while da > db { a = a?.superlayer; da -= 1 }
        while db > da { b = b?.superlayer; db -= 1 }
        while let x = a, let y = b, x !== y { a = x.superlayer; b = y.superlayer }
        return a?.nearestFlatteningAncestorOrSelf
    }

    /// Maps `point` from `layer`'s bounds space into the receiver's. Corresponds to
    /// `-[CALayer convertPoint:fromLayer:]`. A `nil` layer means the virtual superlayer space of the receiver's
    /// root; layers in separate trees meet in their roots' virtual superlayer spaces.
    ///
    /// Through 3D and perspective transforms the point is carried onto each plane in turn (solving for the
    /// point on the receiver's plane). Returns `nil` when there is no answer: a non-finite input or geometry,
    /// a point behind the viewer (w ≤ 0), or an edge-on plane.
    public func convert(_ point: CGPoint, from layer: Layer?) -> CGPoint? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        let space = conversionSpace(with: layer)
        var p: CGPoint? = point
        if let layer {
            guard layer.forEachPlaneMap(to: space, { h in p = h.apply(p!); return p != nil }) else { return nil }
        }
        // Down to the receiver the maps are undone from the top, the reverse of the walk's order, so they are
        // gathered first — on the stack: a walk of n levels gives at most n + 1 maps.
        guard self !== space else { return p }
        var levels = 1, a = superlayer
        while let x = a, x !== space { levels += 1; a = x.superlayer }
        return withUnsafeTemporaryAllocation(of: Homography.self, capacity: levels + 1) { maps -> CGPoint? in
            var n = 0
            let reached = forEachPlaneMap(to: space) { maps.initializeElement(at: n, to: $0); n += 1; return true }
            defer { maps.baseAddress!.deinitialize(count: n) }
            guard reached else { return nil }
            for h in maps[..<n].reversed() { p = p.flatMap(h.unapply) }
            return p
        }
    }

    /// Maps `point` from the receiver's bounds space into `layer`'s. Corresponds to
    /// `-[CALayer convertPoint:toLayer:]`; `nil` under the same conditions as `convert(_:from:)`.
    public func convert(_ point: CGPoint, to layer: Layer?) -> CGPoint? {
        guard let layer else {
            guard point.x.isFinite, point.y.isFinite, let up = planeMaps(to: nil) else { return nil }
            var p = point
            for h in up { guard let q = h.apply(p) else { return nil }; p = q }
            return p
        }
        return layer.convert(point, from: self)
    }

    /// The bounding box of the four converted corners of `rect`. Corresponds to
    /// `-[CALayer convertRect:fromLayer:]`; `nil` when any corner has no image.
    public func convert(_ rect: CGRect, from layer: Layer?) -> CGRect? {
        guard let corners = rect.corners else { return nil }
        var mapped: [CGPoint] = []
        for c in corners { guard let p = convert(c, from: layer) else { return nil }; mapped.append(p) }
        return CGRect.boundingBox(of: mapped)
    }

    /// Corresponds to `-[CALayer convertRect:toLayer:]`.
    public func convert(_ rect: CGRect, to layer: Layer?) -> CGRect? {
        guard let corners = rect.corners else { return nil }
        var mapped: [CGPoint] = []
        for c in corners { guard let p = convert(c, to: layer) else { return nil }; mapped.append(p) }
        return CGRect.boundingBox(of: mapped)
    }
}

extension CGRect {
    /// The four corners (minX,minY), (maxX,minY), (maxX,maxY), (minX,maxY); `nil` for a null or non-finite rect.
    public var corners: [CGPoint]? {
        guard hasCorners else { return nil }
        let r = standardized
        return [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY)]
    }

    /// `corners` is not `nil`: the rect is not null and its origin and size are finite (asked without making the
    /// array, e.g. once per lit face).
    var hasCorners: Bool {
        !isNull && origin.x.isFinite && origin.y.isFinite && size.width.isFinite && size.height.isFinite
    }
}
