import Foundation

/// Why a solid could not be built. Nothing is built when one is thrown.
public enum SolidError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A size (`width`, `height`, `depth`, `radius`, `size`) that is zero, negative, NaN or infinite.
    case invalidSize(name: String, value: Double)
    /// A prism or pyramid needs between 3 and `Solid.maximumSides` sides.
    case invalidSideCount(Int)
    /// A polyhedron needs at least four faces.
    case tooFewFaces(Int)
    /// A face needs at least three vertices.
    case tooFewVertices(face: Int, count: Int)
    /// A vertex with NaN or ∞.
    case nonFiniteVertex(face: Int, vertex: Int)
    /// A face whose vertices do not span a polygon (repeated or collinear points, zero area).
    case degenerateFace(face: Int)
    /// A face whose vertices do not lie in one plane; `deviation` is the largest distance from its plane.
    case nonPlanarFace(face: Int, deviation: Double)
    /// A face that is not a simple convex polygon (it turns both ways or winds more than once).
    case nonConvexFace(face: Int)
    /// The faces do not bound a convex solid: a vertex lies outside the plane of `face`, or the faces are flat.
    case notConvex(face: Int)
    /// Assembling the layers failed (a layer-tree error; should not happen for freshly built faces).
    case assembly(String)

    public var description: String {
        switch self {
        case let .invalidSize(name, value):
            return "solid \(name) must be a finite number greater than 0, got \(value)"
        case let .invalidSideCount(n):
            return "a prism or pyramid needs 3...\(Solid.maximumSides) sides, got \(n)"
        case let .tooFewFaces(n):
            return "a polyhedron needs at least 4 faces, got \(n)"
        case let .tooFewVertices(face, count):
            return "face \(face) needs at least 3 vertices, got \(count)"
        case let .nonFiniteVertex(face, vertex):
            return "face \(face), vertex \(vertex) is not finite (NaN or infinity)"
        case let .degenerateFace(face):
            return "face \(face) is degenerate: its vertices are repeated or collinear (zero area)"
        case let .nonPlanarFace(face, deviation):
            return "face \(face) is not planar: a vertex lies \(deviation) points off its plane"
        case let .nonConvexFace(face):
            return "face \(face) is not a convex polygon (list its vertices in order around it)"
        case let .notConvex(face):
            return "the faces do not bound a convex solid: some vertex lies outside the plane of face \(face)"
        case let .assembly(message):
            return "could not assemble the solid: \(message)"
        }
    }
}
