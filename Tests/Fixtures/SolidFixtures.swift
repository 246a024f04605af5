import Foundation
import Origami

// Helpers for the solids and lighting tests that read a solid's geometry back through the layer model (not
// through the code under test's own bookkeeping). The book's cube and its container are `BookCube`.

/// Maps a point of `face`'s plane into its solid's bounds space with the face's own layer geometry.
public func solidSpacePoint(_ p: CGPoint, of face: Layer) -> Vector3? {
    face.transformToSuperlayer.apply(Vector3(Double(p.x), Double(p.y), 0))
}

/// The face's outline (its `polygon`, or its bounds' corners) in its solid's bounds space.
public func solidSpaceOutline(of face: Face) -> [Vector3] {
    let b = face.bounds
    let outline = face.polygon ?? [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.maxX, y: b.minY),
                                   CGPoint(x: b.maxX, y: b.maxY), CGPoint(x: b.minX, y: b.maxY)]
    return outline.compactMap { solidSpacePoint($0, of: face) }
}

/// The face's centre and its +z direction (the image of a unit step along the face's z) in its solid's space,
/// read through the face's placement matrix.
public func solidSpaceCentreAndZ(of face: Layer) -> (centre: Vector3, z: Vector3)? {
    let m = face.transformToSuperlayer
    let c = Vector3(Double(face.bounds.midX), Double(face.bounds.midY), 0)
    guard let a = m.apply(c), let b = m.apply(c + .unitZ) else { return nil }
    return (a, b - a)
}

/// True when `a` and `b` are within `tolerance` in every component.
public func near(_ a: Vector3, _ b: Vector3, _ tolerance: Double = 1e-9) -> Bool {
    a.isApproximatelyEqual(to: b, absoluteTolerance: tolerance)
}

/// The faces of a right prism with `sides` sides as a list of polygons for `Solid.polyhedron(faces:)`: the
/// cap at y = −height/2, the cap at y = +height/2, then side `k` (face `k + 3`) between the cap vertices at
/// angles k·2π/sides and (k + 1)·2π/sides about the y axis (x = r·cos, z = r·sin). `sides + 2` faces in all:
/// the simplest convex solid with as many faces as a test needs.
public func prismPolyhedronFaces(sides n: Int, radius r: Double = 100, height h: Double = 60) -> [[Vector3]] {
    let ring = (0..<n).map { k -> (Double, Double) in
        let a = Double(k) * 2 * .pi / Double(n)
        return (r * cos(a), r * sin(a))
    }
    var faces = [ring.map { Vector3($0.0, -h / 2, $0.1) }, ring.reversed().map { Vector3($0.0, h / 2, $0.1) }]
    for k in 0..<n {
        let a = ring[k], b = ring[(k + 1) % n]
        faces.append([Vector3(a.0, -h / 2, a.1), Vector3(b.0, -h / 2, b.1), Vector3(b.0, h / 2, b.1), Vector3(a.0, h / 2, a.1)])
    }
    return faces
}
