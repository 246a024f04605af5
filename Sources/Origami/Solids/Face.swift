import Foundation

/// One face of a `Solid`: an ordinary layer, so labels, images and buttons hung on it are flattened onto it,
/// exactly as on the book's cube faces (which are plain `CALayer`s).
///
/// A face's `+z` axis is its outward normal. Its bounds are the bounding rectangle of the face's polygon in the
/// face's plane; its anchor point is the centre and its position is the solid's centre, with the placement in
/// `transform` written as the book writes it (`t = MakeTranslation(…); t = Rotate(t, …)`).
public final class Face: Layer {
    /// Which face of its solid this is.
    public enum Kind: Hashable, Sendable {
        /// The six faces of a cube or box (and the caps of a prism: `top`, `bottom`).
        case front, right, top, bottom, left, back
        /// A lateral face of a prism or pyramid, numbered from 1 (side 1 faces the viewer, +z).
        case side(Int)
        /// The base of a pyramid.
        case base
        /// A face of a general polyhedron, numbered from 1 in the order given.
        case polygon(Int)
    }

    /// The solid this face belongs to. Weak: the solid owns its faces through `sublayers`.
    public internal(set) weak var solid: Solid?
    /// The face's number in its solid, from 1 — for a cube, the book's numbering: 1 front, 2 right, 3 top,
    /// 4 bottom, 5 left, 6 back.
    public let index: Int
    /// Which face of its solid this is (`front`, `side 2`, …).
    public let kind: Kind
    /// The face's outline in its own bounds space, in order around it, when the face is not its whole bounds
    /// rectangle (a pyramid's triangles, a prism's caps, most polyhedron faces); `nil` for a rectangular face.
    ///
    /// Only the inside of this polygon belongs to the face: a renderer draws the face (background, contents,
    /// sublayers, border) clipped to it, as Core Animation does with a `CAShapeLayer` mask whose path is this
    /// polygon. Hit testing follows it too: a touch on the bounds' empty corners reaches what lies behind
    /// (`contains(_:)`, the bounds test of `CALayer`, does not).
    // Unchecked as `Layer`'s drawing properties are: set once by `Solid` before the face is shared, read per face
    // by every freeze, where the dynamic exclusivity check cost more than the read.
    @exclusivity(unchecked) public internal(set) var polygon: [CGPoint]?

    init(kind: Kind, index: Int) {
        self.kind = kind
        self.index = index
        super.init()
        name = kind.description
    }
}

extension Face.Kind: CustomStringConvertible {
    /// `front` … `back`, `side 3`, `base`, `face 7`: also the face layer's default `name`.
    public var description: String {
        switch self {
        case .front: return "front"
        case .right: return "right"
        case .top: return "top"
        case .bottom: return "bottom"
        case .left: return "left"
        case .back: return "back"
        case let .side(n): return "side \(n)"
        case .base: return "base"
        case let .polygon(n): return "face \(n)"
        }
    }
}
