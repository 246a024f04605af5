import Foundation

/// A hollow solid made of face layers held by a transform layer, the book's cube generalised
/// (ch. 5: a `CATransformLayer` whose six sublayers are the faces, so the cube turns as one).
///
/// The solid's own bounds space is its model space: x right, y down, z toward the viewer, with the bounds
/// centred on the solid's centre (a cube of side s has bounds `(−s/2, −s/2, s, s)`). Set `position` (and
/// `zPosition`) to place that centre in the superlayer, and `transform` to turn the solid about it; put a
/// perspective in the container's `sublayerTransform`, as the book does. Each face is an ordinary `Face` layer
/// positioned at the centre, carried outward by its `transform`, with `+z` as its outward normal.
///
/// Build one with `cube(size:)`, `box(width:height:depth:)`, `prism(sides:radius:height:)`,
/// `pyramid(sides:radius:height:)` or `polyhedron(faces:)`; bad input throws a `SolidError`.
public final class Solid: TransformLayer {
    /// What the solid was built as.
    public enum Shape: Hashable, Sendable {
        /// A cube of side `size` points: `cube(size:)`, the book's six faces.
        case cube(size: Double)
        /// A box of `width` × `height` × `depth` points: `box(width:height:depth:)`.
        case box(width: Double, height: Double, depth: Double)
        /// A right prism of `sides` lateral faces whose caps have circumradius `radius`, `height` points tall:
        /// `prism(sides:radius:height:)`.
        case prism(sides: Int, radius: Double, height: Double)
        /// A pyramid of `sides` lateral faces over a base of circumradius `radius`, `height` points tall:
        /// `pyramid(sides:radius:height:)`.
        case pyramid(sides: Int, radius: Double, height: Double)
        /// A convex polyhedron of `faceCount` faces: `polyhedron(faces:)`.
        case polyhedron(faceCount: Int)
    }

    /// The most sides a prism or pyramid may have: beyond it the input is taken for a mistake.
    public static let maximumSides = 1024

    /// What the solid was built as, with its dimensions.
    public let shape: Shape
    /// The faces in their numbering order (`faces[0]` is face 1).
    public private(set) var faces: [Face] = []

    init(shape: Shape) {
        self.shape = shape
        super.init()
    }

    /// The face with this number (1-based, the book's numbering for a cube), or `nil`.
    public func face(number: Int) -> Face? {
        faces.indices.contains(number - 1) ? faces[number - 1] : nil
    }

    /// The first face of this kind, or `nil`.
    public func face(_ kind: Face.Kind) -> Face? {
        faces.first { $0.kind == kind }
    }

    /// Installs the faces: the solid's bounds become `modelBounds` (its x/y extent in model space) and its
    /// anchorPointZ the middle of the z extent, so the solid turns about its centre; each face sits at that
    /// centre and is carried by its placement.
    func install(_ placements: [FacePlacement], modelBounds: CGRect, zRange: ClosedRange<Double>) throws(SolidError) {
        bounds = modelBounds
        anchorPointZ = (zRange.lowerBound + zRange.upperBound) / 2
        let centre = CGPoint(x: modelBounds.midX, y: modelBounds.midY)
        for (i, p) in placements.enumerated() {
            let face = Face(kind: p.kind, index: i + 1)
            face.bounds = CGRect(origin: .zero, size: p.size)
            face.position = centre
            face.transform = p.transform
            face.polygon = p.polygon
            face.solid = self
            do { try addSublayer(face) } catch { throw .assembly(error.description) }
            faces.append(face)
        }
    }
}

/// Where one face goes: its kind, bounds size, transform (relative to the solid's centre) and outline.
struct FacePlacement {
    var kind: Face.Kind
    var size: CGSize
    var transform: Transform3D
    var polygon: [CGPoint]?
}

// MARK: - Cube and box

extension Solid {
    /// The book's cube (ch. 5): six `size × size` faces numbered 1 front, 2 right, 3 top,
    /// 4 bottom, 5 left, 6 back, each placed with the book's transform.
    public static func cube(size: Double) throws(SolidError) -> Solid {
        try checkSize(size, "size")
        return try make(.cube(size: size), width: size, height: size, depth: size)
    }

    /// A box `width × height × depth` (x, y, z), faces numbered and placed as the book's cube: front and
    /// back are `width × height`, right and left `depth × height`, top and bottom `width × depth`.
    public static func box(width: Double, height: Double, depth: Double) throws(SolidError) -> Solid {
        try checkSize(width, "width")
        try checkSize(height, "height")
        try checkSize(depth, "depth")
        return try make(.box(width: width, height: height, depth: depth), width: width, height: height, depth: depth)
    }

    private static func make(_ shape: Shape, width w: Double, height h: Double, depth d: Double) throws(SolidError) -> Solid {
        // The book's code order, `t = CATransform3DMakeTranslation(…); t = CATransform3DRotate(t, …)`: the
        // rotation is prepended, so it applies first and the translation carries the turned face outward.
        func book(_ tx: Double, _ ty: Double, _ tz: Double, _ angle: Double, _ ax: Double, _ ay: Double, _ az: Double) -> Transform3D {
            let t = Transform3D(translationX: tx, y: ty, z: tz)
            return angle == 0 ? t : t.rotated(by: angle, x: ax, y: ay, z: az)
        }
        let placements = [
            FacePlacement(kind: .front, size: CGSize(width: w, height: h), transform: book(0, 0, d / 2, 0, 0, 0, 0)),
            FacePlacement(kind: .right, size: CGSize(width: d, height: h), transform: book(w / 2, 0, 0, .pi / 2, 0, 1, 0)),
            // y grows downward: the top face sits at −h/2 and its outward normal is −y.
            FacePlacement(kind: .top, size: CGSize(width: w, height: d), transform: book(0, -h / 2, 0, .pi / 2, 1, 0, 0)),
            FacePlacement(kind: .bottom, size: CGSize(width: w, height: d), transform: book(0, h / 2, 0, -.pi / 2, 1, 0, 0)),
            FacePlacement(kind: .left, size: CGSize(width: d, height: h), transform: book(-w / 2, 0, 0, -.pi / 2, 0, 1, 0)),
            FacePlacement(kind: .back, size: CGSize(width: w, height: h), transform: book(0, 0, -d / 2, .pi, 0, 1, 0)),
        ]
        let solid = Solid(shape: shape)
        try solid.install(placements, modelBounds: CGRect(x: -w / 2, y: -h / 2, width: w, height: h), zRange: -d / 2...d / 2)
        return solid
    }

    static func checkSize(_ value: Double, _ name: String) throws(SolidError) {
        guard value.isFinite, value > 0 else { throw .invalidSize(name: name, value: value) }
    }
}
