/// Why a change to the layer tree was refused. The tree is left as it was.
public enum LayerHierarchyError: Error, Equatable, CustomStringConvertible {
    /// Adding `layer` under `parent` would make a layer its own ancestor.
    case cycle(layer: String, parent: String)
    /// An insertion index outside `0...count`.
    case indexOutOfRange(index: Int, count: Int)
    /// The sibling (or the layer to replace) is not a sublayer of the receiver.
    case notASublayer(layer: String, parent: String)

    public var description: String {
        switch self {
        case let .cycle(layer, parent):
            return "cannot add \(layer) to \(parent): \(layer) is \(parent) or one of its ancestors (a cycle)"
        case let .indexOutOfRange(index, count):
            return "sublayer index \(index) is out of range 0...\(count)"
        case let .notASublayer(layer, parent):
            return "\(layer) is not a sublayer of \(parent)"
        }
    }
}

extension Layer {
    /// Appends `layer` as the topmost sublayer, removing it from its current superlayer first.
    /// Corresponds to `-[CALayer addSublayer:]`. Throws (and changes nothing) when `layer` is the receiver or
    /// one of its ancestors.
    public func addSublayer(_ layer: Layer) throws(LayerHierarchyError) {
        try insertSublayer(layer, at: sublayers.count - (layer.superlayer === self ? 1 : 0))
    }

    /// Inserts `layer` at `index` of `sublayers` (0 is the bottom), removing it from its current superlayer
    /// first; `index` counts in the array as it is once `layer` has been removed. Corresponds to
    /// `-[CALayer insertSublayer:atIndex:]`.
    public func insertSublayer(_ layer: Layer, at index: Int) throws(LayerHierarchyError) {
        try checkNoCycle(adding: layer)
        let count = sublayers.count - (layer.superlayer === self ? 1 : 0)
        guard index >= 0, index <= count else { throw .indexOutOfRange(index: index, count: count) }
        layer.removeFromSuperlayer()
        sublayers.insert(layer, at: index)
        layer.superlayer = self
        setNeedsLayout()
    }

    /// Inserts `layer` just above `sibling`. Corresponds to `-[CALayer insertSublayer:above:]`.
    public func insertSublayer(_ layer: Layer, above sibling: Layer) throws(LayerHierarchyError) {
        try insert(layer, besides: sibling, offset: 1)
    }

    /// Inserts `layer` just below `sibling`. Corresponds to `-[CALayer insertSublayer:below:]`.
    public func insertSublayer(_ layer: Layer, below sibling: Layer) throws(LayerHierarchyError) {
        try insert(layer, besides: sibling, offset: 0)
    }

    private func insert(_ layer: Layer, besides sibling: Layer, offset: Int) throws(LayerHierarchyError) {
        guard sibling.superlayer === self else {
            throw .notASublayer(layer: sibling.description, parent: description)
        }
        if layer === sibling { return }
        try checkNoCycle(adding: layer)
        layer.removeFromSuperlayer()
        guard let i = sublayers.firstIndex(where: { $0 === sibling }) else { return }
        sublayers.insert(layer, at: i + offset)
        layer.superlayer = self
        setNeedsLayout()
    }

    /// Detaches the layer from its superlayer. Corresponds to `-[CALayer removeFromSuperlayer]`.
    public func removeFromSuperlayer() {
        guard let s = superlayer else { return }
        s.sublayers.removeAll { $0 === self }
        superlayer = nil
        s.setNeedsLayout()
    }

    /// Puts `newLayer` where `oldLayer` is. Corresponds to `-[CALayer replaceSublayer:with:]`.
    public func replaceSublayer(_ oldLayer: Layer, with newLayer: Layer) throws(LayerHierarchyError) {
        guard oldLayer.superlayer === self else {
            throw .notASublayer(layer: oldLayer.description, parent: description)
        }
        if oldLayer === newLayer { return }
        try checkNoCycle(adding: newLayer)
        newLayer.removeFromSuperlayer()
        guard let i = sublayers.firstIndex(where: { $0 === oldLayer }) else { return }
        sublayers[i] = newLayer
        newLayer.superlayer = self
        oldLayer.superlayer = nil
        setNeedsLayout()
    }

    /// Replaces all sublayers at once (each checked as by `addSublayer`). On error nothing changes.
    public func setSublayers(_ layers: [Layer]) throws(LayerHierarchyError) {
        for l in layers { try checkNoCycle(adding: l) }
        for l in sublayers { l.superlayer = nil }
        sublayers = []
        for l in layers { try addSublayer(l) }
    }

    private func checkNoCycle(adding layer: Layer) throws(LayerHierarchyError) {
        var a: Layer? = self
        while let x = a {
            if x === layer { throw .cycle(layer: layer.description, parent: description) }
            a = x.superlayer
        }
    }

    /// The ancestors from the superlayer up to the root.
    public var ancestors: [Layer] {
        var result: [Layer] = []
        var a = superlayer
        while let x = a { result.append(x); a = x.superlayer }
        return result
    }

    /// The topmost ancestor (the receiver itself when it has no superlayer).
    public var root: Layer { ancestors.last ?? self }

    /// True when `self` is `other` or lies in its subtree.
    public func isDescendant(of other: Layer) -> Bool {
        var a: Layer? = self
        while let x = a { if x === other { return true }; a = x.superlayer }
        return false
    }

    /// The subtree in pre-order (the receiver first), without recursion, so any depth is safe.
    public var subtree: [Layer] {
        var result: [Layer] = []
        var stack: [Layer] = [self]
        while let l = stack.popLast() {
            result.append(l)
            stack.append(contentsOf: l.sublayers.reversed())
        }
        return result
    }

    /// The first layer in the subtree (pre-order) with this name.
    public func sublayer(named name: String) -> Layer? { subtree.first { $0.name == name } }
}

// MARK: - Layout

extension Layer {
    /// Marks the layer for layout; `layoutIfNeeded()` performs it. Called when `bounds.size` or the sublayers
    /// change. Corresponds to `-[CALayer setNeedsLayout]`.
    ///
    /// The ancestors are marked as holding a layer that needs layout, up to the first one already marked, so
    /// a tree with nothing to lay out is recognised by one flag at its root.
    public func setNeedsLayout() {
        needsLayout = true
        var a: Layer? = self
        while let x = a, !x.subtreeNeedsLayout {
            x.subtreeNeedsLayout = true
            a = x.superlayer
        }
    }

    /// Lays out the subtree where needed, top-down, each layer at most once: a layer's layout runs before its
    /// sublayers are visited, so sizes it gives them are laid out in the same pass. Branches with nothing to lay
    /// out are not walked. Corresponds to `-[CALayer layoutIfNeeded]`.
    public func layoutIfNeeded() {
        guard subtreeNeedsLayout else { return }
        var stack: [Layer] = [self]
        while let l = stack.popLast() {
            if l.needsLayout {
                l.needsLayout = false
                l.layoutError = nil
                if let handler = l.layoutHandler { handler(l) } else { l.layoutSublayers() }
            }
            // Cleared after the layout, so the sublayers it resized find the flag set and stop their walk up here.
            if l !== self { l.subtreeNeedsLayout = false }
            for s in l.sublayers.reversed() where s.subtreeNeedsLayout { stack.append(s) }
        }
        // The receiver's flag last: a reader that finds it clear finds the layout done. It stays set when a layout
        // marked a branch this pass had already left (a handler resizing a sibling), for the next reading.
        subtreeNeedsLayout = needsLayout || sublayers.contains { $0.subtreeNeedsLayout }
    }

    /// Lays out the whole tree the layer is in where needed, as Core Animation does before it commits a frame:
    /// from the topmost ancestor, whose layout may move this layer. A tree with nothing to lay out costs a walk
    /// to the top and one flag check; otherwise one reader lays it out while readers on other threads wait.
    public func layoutTreeIfNeeded() {
        var top = self
        while let s = top.superlayer { top = s }
        guard top.subtreeNeedsLayout else { return }
        Layer.layoutLock.lock()
        defer { Layer.layoutLock.unlock() }
        top.layoutIfNeeded()
    }

    /// The first layout problem met in the tree below this layer (itself included), in pre-order, with the
    /// layer that met it.
    public func firstLayoutError() -> (layer: Layer, error: LayoutError)? {
        for l in subtree { if let e = l.layoutError { return (l, e) } }
        return nil
    }
}
