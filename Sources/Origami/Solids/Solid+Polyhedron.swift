import Foundation

extension Solid {
    /// A convex polyhedron from its faces, each a planar convex polygon given by its 3D vertices in order
    /// around it (either winding), in the solid's model space (x right, y down, z toward the viewer).
    ///
    /// Each face becomes a `Face` numbered in the order given (`kind == .polygon(i)`), whose bounds are the
    /// polygon's bounding rectangle in its plane and whose `polygon` is the outline in those bounds. The face
    /// is turned so that its `+z` points away from the solid's interior, its `y` (down on the face) follows the
    /// solid's `+y` where the face is not horizontal (text on side faces reads upright), and horizontal faces
    /// have their `x` along the solid's `+x` — the rule that reproduces the book's six cube transforms.
    ///
    /// Throws when there are fewer than four faces, a face has fewer than three vertices, a vertex is not
    /// finite, a face is degenerate, not planar or not convex, or the faces do not bound a convex solid.
    /// Planarity and convexity are tested to `1e-9` of the solid's size.
    public static func polyhedron(faces: [[Vector3]]) throws(SolidError) -> Solid {
        let shaped = try placements(forPolygons: faces, kinds: faces.indices.map { .polygon($0 + 1) })
        let solid = Solid(shape: .polyhedron(faceCount: faces.count))
        try solid.install(shaped.placements, modelBounds: shaped.bounds, zRange: shaped.zRange)
        return solid
    }

    /// Validates the polygons and computes each face's placement. `kinds[i]` names face `i`.
    static func placements(forPolygons polygons: [[Vector3]], kinds: [Face.Kind]) throws(SolidError)
        -> (placements: [FacePlacement], bounds: CGRect, zRange: ClosedRange<Double>)
    {
        guard polygons.count >= 4 else { throw .tooFewFaces(polygons.count) }
        for (f, polygon) in polygons.enumerated() {
            guard polygon.count >= 3 else { throw .tooFewVertices(face: f + 1, count: polygon.count) }
            if let v = polygon.firstIndex(where: { !$0.isFinite }) { throw .nonFiniteVertex(face: f + 1, vertex: v + 1) }
        }
        let all = polygons.flatMap { $0 }
        let lo = all.reduce(all[0]) { Vector3(min($0.x, $1.x), min($0.y, $1.y), min($0.z, $1.z)) }
        let hi = all.reduce(all[0]) { Vector3(max($0.x, $1.x), max($0.y, $1.y), max($0.z, $1.z)) }
        let size = (hi - lo).length
        guard size > 0, size.isFinite else { throw .notConvex(face: 1) }
        let tolerance = 1e-9 * size
        // The mean of every vertex occurrence is a convex combination of all vertices with positive weights,
        // so it lies strictly inside any convex solid with volume.
        let interior = all.reduce(Vector3.zero, +) / Double(all.count)

        var planes: [(normal: Vector3, point: Vector3)] = []
        for (f, polygon) in polygons.enumerated() {
            planes.append(try outwardPlane(of: polygon, face: f + 1, interior: interior, tolerance: tolerance))
        }
        // Convex solid: every vertex on the inner side of (or on) every face's plane.
        let vertices = VertexTree(all)
        for (f, plane) in planes.enumerated()
        where vertices.hasVertex(beyondPlaneThrough: plane.point, normal: plane.normal, tolerance: tolerance) {
            throw .notConvex(face: f + 1)
        }
        let bounds = CGRect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
        let centre = Vector3(bounds.midX, bounds.midY, 0)
        var placements: [FacePlacement] = []
        for (f, polygon) in polygons.enumerated() {
            placements.append(placement(of: polygon, plane: planes[f], kind: kinds[f], solidCentre: centre, tolerance: tolerance))
        }
        return (placements, bounds, lo.z...hi.z)
    }

    /// The polygon's plane with its normal pointing away from `interior`, after checking that the polygon is
    /// a planar, convex, non-degenerate polygon.
    private static func outwardPlane(of polygon: [Vector3], face: Int, interior: Vector3, tolerance: Double) throws(SolidError)
        -> (normal: Vector3, point: Vector3)
    {
        let count = polygon.count
        let centroid = polygon.reduce(Vector3.zero, +) / Double(count)
        let newell = Vector3.newellNormal(of: polygon)
        // Zero area, relative to the solid's size (tolerance = 1e-9 × size).
        guard newell.length > 1e6 * tolerance * tolerance, let n = newell.normalized() else { throw .degenerateFace(face: face) }
        let deviation = polygon.map { abs(($0 - centroid).dot(n)) }.max() ?? 0
        guard deviation <= tolerance else { throw .nonPlanarFace(face: face, deviation: deviation) }
        // Convex and simple: every turn goes the same way as the winding (collinear points allowed), and
        // the turns add up to one full revolution (a pentagram turns the same way throughout but twice).
        var turning = 0.0
        for i in 0..<count {
            let e0 = polygon[(i + 1) % count] - polygon[i]
            let e1 = polygon[(i + 2) % count] - polygon[(i + 1) % count]
            guard e0.length > tolerance, e1.length > tolerance else { throw .degenerateFace(face: face) }
            let sine = e0.cross(e1).dot(n), cosine = e0.dot(e1)
            guard sine >= -tolerance * max(e0.length, e1.length) else { throw .nonConvexFace(face: face) }
            turning += atan2(sine, cosine)
        }
        guard abs(turning - 2 * .pi) < 1e-6 else { throw .nonConvexFace(face: face) }
        let height = (centroid - interior).dot(n)
        guard abs(height) > tolerance else { throw .notConvex(face: face) }
        return (height > 0 ? n : -n, centroid)
    }

    /// The face's bounds (the polygon's bounding rectangle in its plane), its transform relative to the
    /// solid's centre, and its outline in its bounds.
    private static func placement(of polygon: [Vector3], plane: (normal: Vector3, point: Vector3), kind: Face.Kind,
                                  solidCentre: Vector3, tolerance: Double) -> FacePlacement
    {
        let n = plane.normal
        // The face's y (down) follows the solid's +y projected into the plane; a horizontal face has no such
        // direction, so its x follows the solid's +x instead. Both keep u × v = n, a proper rotation.
        let u: Vector3, v: Vector3
        let down = Vector3.unitY - n * n.y
        if let vy = down.normalized(), down.length > 1e-6 {
            v = vy
            u = v.cross(n)
        } else {
            u = (Vector3.unitX - n * n.x).normalized() ?? .unitX
            v = n.cross(u)
        }
        let coordinates = polygon.map { (($0 - plane.point).dot(u), ($0 - plane.point).dot(v)) }
        let minA = coordinates.map(\.0).min() ?? 0, maxA = coordinates.map(\.0).max() ?? 0
        let minB = coordinates.map(\.1).min() ?? 0, maxB = coordinates.map(\.1).max() ?? 0
        let middle = plane.point + u * ((minA + maxA) / 2) + v * ((minB + maxB) / 2)
        let t = middle - solidCentre
        // Rows u, v, n: the face's x, y and z in the solid; then the translation to the rectangle's middle —
        // the book's `t = MakeTranslation(…); t = Rotate(t, …)`, with the rotation applied first.
        let transform = Transform3D(
            m11: u.x, m12: u.y, m13: u.z, m14: 0,
            m21: v.x, m22: v.y, m23: v.z, m24: 0,
            m31: n.x, m32: n.y, m33: n.z, m34: 0,
            m41: t.x, m42: t.y, m43: t.z, m44: 1)
        let outline = coordinates.map { CGPoint(x: $0.0 - minA, y: $0.1 - minB) }
        let size = CGSize(width: maxA - minA, height: maxB - minB)
        let corners = [CGPoint(x: 0, y: 0), CGPoint(x: size.width, y: 0),
                       CGPoint(x: size.width, y: size.height), CGPoint(x: 0, y: size.height)]
        // A rectangle filling its bounds needs no outline.
        let isRectangle = outline.count == 4 && outline.allSatisfy { p in
            corners.contains { abs($0.x - p.x) <= tolerance && abs($0.y - p.y) <= tolerance }
        }
        return FacePlacement(kind: kind, size: size, transform: transform, polygon: isRectangle ? nil : outline)
    }
}
