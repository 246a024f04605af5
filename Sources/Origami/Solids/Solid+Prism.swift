import Foundation

extension Solid {
    /// A right prism standing on the y axis: `sides` rectangular faces around a regular polygon of
    /// circumradius `radius` in the x–z plane, `height` along y, and two polygonal caps.
    ///
    /// Faces: `side(1)` … `side(n)` numbered 1…n going from the front (+z) towards the right (+x), then
    /// `top` (n + 1, at y = −height/2: y grows downward) and `bottom` (n + 2). The caps' `polygon` is the
    /// n-gon in their bounds. Throws for `sides` outside 3…`maximumSides` and for non-positive or
    /// non-finite sizes.
    public static func prism(sides: Int, radius: Double, height: Double) throws(SolidError) -> Solid {
        try checkSides(sides)
        try checkSize(radius, "radius")
        try checkSize(height, "height")
        let top = ring(sides: sides, radius: radius, y: -height / 2)
        let bottom = ring(sides: sides, radius: radius, y: height / 2)
        var polygons: [[Vector3]] = []
        for k in 1...sides {
            let a = k - 1, b = k % sides
            polygons.append([top[a], top[b], bottom[b], bottom[a]])
        }
        polygons.append(top)
        polygons.append(bottom)
        let kinds = (1...sides).map { Face.Kind.side($0) } + [.top, .bottom]
        let shaped = try placements(forPolygons: polygons, kinds: kinds)
        let solid = Solid(shape: .prism(sides: sides, radius: radius, height: height))
        try solid.install(shaped.placements, modelBounds: shaped.bounds, zRange: shaped.zRange)
        return solid
    }

    /// A right pyramid: a regular `sides`-gon base of circumradius `radius` in the x–z plane at
    /// y = +height/2 (the bottom: y grows downward) and an apex at y = −height/2 above its centre.
    ///
    /// Faces: `side(1)` … `side(n)` (triangles, numbered from the front towards the right), then `base`
    /// (n + 1). Each triangle is a layer whose bounds hold the triangle and whose `polygon` is the triangle:
    /// only its inside is the face (see `Face.polygon`). Throws for `sides` outside 3…`maximumSides` and for
    /// non-positive or non-finite sizes.
    public static func pyramid(sides: Int, radius: Double, height: Double) throws(SolidError) -> Solid {
        try checkSides(sides)
        try checkSize(radius, "radius")
        try checkSize(height, "height")
        let base = ring(sides: sides, radius: radius, y: height / 2)
        let apex = Vector3(0, -height / 2, 0)
        var polygons: [[Vector3]] = []
        for k in 1...sides {
            polygons.append([base[k - 1], base[k % sides], apex])
        }
        polygons.append(base)
        let kinds = (1...sides).map { Face.Kind.side($0) } + [.base]
        let shaped = try placements(forPolygons: polygons, kinds: kinds)
        let solid = Solid(shape: .pyramid(sides: sides, radius: radius, height: height))
        try solid.install(shaped.placements, modelBounds: shaped.bounds, zRange: shaped.zRange)
        return solid
    }

    /// The regular polygon's vertices at height `y`, in order of increasing angle φ from +z towards +x,
    /// vertex k at φ = (2k − 1)π/n, so that the edge from vertex 0 to vertex 1 faces +z (side 1 is the front).
    private static func ring(sides n: Int, radius r: Double, y: Double) -> [Vector3] {
        (0..<n).map { k in
            let phi = Double(2 * k - 1) * .pi / Double(n)
            return Vector3(r * sin(phi), y, r * cos(phi))
        }
    }

    private static func checkSides(_ n: Int) throws(SolidError) {
        guard (3...maximumSides).contains(n) else { throw .invalidSideCount(n) }
    }
}
