import Foundation
import Origami
import Testing
import TestSupport

// Issue 7: hostile input to the pure-Swift model. Deep trees get answers without recursion; non-finite,
// singular, behind-the-eye and edge-on cases give nil (or a named error); degenerate solids are refused.

/// A chain of `depth` layers, each the only sublayer of the one above, all with frame (0, 0, 10, 10). Built
/// from the leaf up so every `addSublayer` is O(1) (its cycle check walks the new parent's ancestors).
private func chain(depth: Int) -> (root: Layer, leaf: Layer) {
    let leaf = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
    var top = leaf
    for _ in 1..<depth {
        let l = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        try? l.addSublayer(top)
        top = l
    }
    return (top, leaf)
}

/// Expects `body` to throw the `LayerGeometryError` naming `layer` and `property`.
private func expectGeometryError(layer: String, property: String, sourceLocation: SourceLocation = #_sourceLocation,
                                 _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected \(layer): \(property) to be refused", sourceLocation: sourceLocation)
    } catch let error as LayerGeometryError {
        #expect(error.layer == layer && error.property == property, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
}

@Suite("Hostile input: deep trees")
struct HostileDeepTreeTests {
    static let deep = 200_000

    @Test("validateGeometry walks a 200 000-level tree and names the bad layer at the bottom")
    func validateDeep() {
        let (root, leaf) = chain(depth: Self.deep)
        leaf.name = "bottom"
        leaf.zPosition = .nan
        expectGeometryError(layer: "Layer \"bottom\"", property: "zPosition") { try root.validateGeometry() }
        leaf.zPosition = 0
        var valid = true
        do { try root.validateGeometry() } catch { valid = false }
        #expect(valid)
    }

    @Test("hit testing a 200 000-level tree finds the deepest layer under every policy")
    func hitDeep() {
        let (root, leaf) = chain(depth: Self.deep)
        // Every level has identity placement (frame origin 0, anchor centre → position (5, 5) in a 10×10 parent):
        // the point (5, 5) is (5, 5) at every level, and the leaf is the farthest descendant containing it.
        #expect(root.hitTest(CGPoint(x: 5, y: 5)) === leaf)
        #expect(root.hitTest(CGPoint(x: 5, y: 5), policy: .coreAnimation) === leaf)
        #expect(root.hitTest(CGPoint(x: 5, y: 5), policy: .frontmost) === leaf)
        #expect(root.hitTest(CGPoint(x: 50, y: 5)) == nil)
    }

    @Test("hitTestAll on a 3 000-level tree lists every level once, in both orders")
    func hitAllDeep() {
        let (root, leaf) = chain(depth: 3000)
        let all = root.hitTestAll(CGPoint(x: 5, y: 5))
        #expect(all.count == 3000)
        #expect(all.first?.layer === leaf && all.last?.layer === root)
        #expect(all.allSatisfy { $0.treeRank == $0.depthRank })
    }

    @Test("conversion through a 200 000-level tree is exact (identity at every level)")
    func convertDeep() {
        let (root, leaf) = chain(depth: Self.deep)
        let p = leaf.convert(CGPoint(x: 3, y: 4), to: root)
        #expect(p == CGPoint(x: 3, y: 4))
    }

    @Test("dropping a 500 000-level tree releases it without recursing")
    func releaseDeep() {
        weak var weakLeaf: Layer?
        do {
            let (_, leaf) = chain(depth: 500_000)
            weakLeaf = leaf
        }
        #expect(weakLeaf == nil)
    }

    @Test("a chain of 100 000 sibling constraints is laid out without recursion; a cycle through it is named")
    func constraintChain() throws {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        root.layoutManager = ConstraintLayoutManager()
        let n = 100_000
        var layers: [Layer] = []
        for i in 0..<n {
            let l = Layer(frame: CGRect(x: 0, y: 0, width: 1, height: 1))
            l.name = "l\(i)"
            // Each layer's minX is the previous one's maxX: layer i ends up at x = i (the first at the superlayer's 0).
            l.constraints = [i == 0 ? Constraint(attribute: .minX, relativeTo: "superlayer", attribute: .minX)
                                    : Constraint(attribute: .minX, relativeTo: "l\(i - 1)", attribute: .maxX)]
            layers.append(l)
        }
        // Listed last-first, so the sort has to follow the whole chain from the first layer it meets.
        try root.setSublayers(layers.reversed())
        root.layoutIfNeeded()
        #expect(root.layoutError == nil)
        #expect(layers.last?.frame.minX == CGFloat(n - 1))
        // Close the chain into a cycle: l0 now also depends on the last layer.
        layers[0].constraints = [Constraint(attribute: .minX, relativeTo: "l\(n - 1)", attribute: .maxX)]
        root.setNeedsLayout()
        root.layoutIfNeeded()
        guard case let .constraintCycle(names)? = root.layoutError else {
            Issue.record("expected a cycle, got \(String(describing: root.layoutError))")
            return
        }
        #expect(names.count == n + 1 && names.first == names.last)
    }

    @Test("a tree 500 000 wide is searched and released")
    func wide() throws {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        try root.setSublayers((0..<500_000).map { _ in Layer(frame: CGRect(x: 0, y: 0, width: 1, height: 1)) })
        #expect(root.hitTest(CGPoint(x: 5, y: 5)) === root)
        #expect(root.hitTest(CGPoint(x: 0.5, y: 0.5)) === root.sublayers.last)
    }
}

@Suite("Hostile input: numbers in the model")
struct HostileModelNumberTests {
    static let specials: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, .greatestFiniteMagnitude, 1e-300, 0]

    @Test("hit testing and conversion at non-finite points answer nil", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinitePoint(_ v: Double) {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(root.hitTest(CGPoint(x: v, y: 1)) == nil)
        #expect(root.hitTestAll(CGPoint(x: 1, y: v)).isEmpty)
        #expect(root.convert(CGPoint(x: v, y: 1), from: nil) == nil)
        #expect(root.convert(CGPoint(x: 1, y: v), to: nil) == nil)
        #expect(root.convert(CGRect(x: v, y: 0, width: 1, height: 1), to: nil) == nil)
    }

    @Test("every matrix element set to a special value: hit testing, conversion and frame never crash",
          arguments: specials, 0..<16)
    func specialElement(_ v: Double, _ index: Int) throws {
        var values = Transform3D.identity.rowMajor
        values[index] = v
        let t = try #require(Transform3D(rowMajor: values))
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        root.sublayerTransform = t
        let l = Layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        l.transform = t
        try root.addSublayer(l)
        for policy in HitTestPolicy.allCases { _ = root.hitTestResult(CGPoint(x: 20, y: 20), policy: policy) }
        _ = root.hitTestAll(CGPoint(x: 20, y: 20))
        if let p = l.convert(CGPoint(x: 20, y: 20), from: root) { #expect(p.x.isFinite && p.y.isFinite) }
        if let r = l.convert(CGRect(x: 0, y: 0, width: 5, height: 5), to: root) {
            #expect([r.minX, r.minY, r.width, r.height].allSatisfy { $0.isFinite })
        }
        let f = l.frame
        #expect(f.isNull || [f.minX, f.minY, f.width, f.height].allSatisfy { $0.isFinite })
        _ = t.inverted()
        _ = Homography(t).inverted()
    }

    @Test("non-finite geometry makes conversion and hit testing through the layer nil, and validateGeometry names it",
          arguments: ["bounds", "position", "anchorPoint", "anchorPointZ", "zPosition", "transform", "sublayerTransform"])
    func nonFiniteGeometry(_ property: String) throws {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let l = Layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        l.name = "bad"
        try root.addSublayer(l)
        switch property {
        case "bounds": l.bounds = CGRect(x: 0, y: 0, width: CGFloat.nan, height: 1)
        case "position": l.position = CGPoint(x: CGFloat.infinity, y: 0)
        case "anchorPoint": l.anchorPoint = CGPoint(x: CGFloat.nan, y: 0)
        case "anchorPointZ": l.anchorPointZ = .infinity
        case "zPosition": l.zPosition = .nan
        case "transform": var t = Transform3D.identity; t.m34 = .nan; l.transform = t
        default: var t = Transform3D.identity; t.m11 = .infinity; l.sublayerTransform = t
        }
        expectGeometryError(layer: "Layer \"bad\"", property: property) { try root.validateGeometry() }
        // The sublayerTransform only acts on sublayers: the layer itself is still placed by finite values.
        if property != "sublayerTransform" {
            #expect(l.convert(CGPoint(x: 20, y: 20), from: root) == nil)
            #expect(root.hitTest(CGPoint(x: 20, y: 20)) === root)
        }
    }

    @Test("singular and near-singular homographies have no inverse; applying them never yields non-finite points")
    func singularHomographies() {
        let zero = Homography(Matrix3(m11: 0, m12: 0, m13: 0, m21: 0, m22: 0, m23: 0, m31: 0, m32: 0, m33: 0))
        #expect(zero.inverted() == nil)
        #expect(zero.apply(CGPoint(x: 1, y: 1)) == nil) // W = 0: no image
        #expect(zero.unapply(CGPoint(x: 1, y: 1)) == nil)
        // Rank 2: the x row equals the y row.
        let rank2 = Homography(Matrix3(m11: 1, m12: 2, m13: 0, m21: 1, m22: 2, m23: 0, m31: 0, m32: 0, m33: 1))
        #expect(rank2.inverted() == nil)
        // A row collapsed to 1e-200 next to rows of 1: relative to Hadamard's bound, singular.
        let tiny = Homography(Matrix3(m11: 1e-200, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1))
        #expect(tiny.inverted() == nil)
        // Uniformly small is not singular: the inverse of 1e-100·I is 1e100·I (the test is relative to scale).
        // (At 1e-200·I the determinant, 1e-600, underflows to 0 and the answer is nil: no non-finite inverse.)
        let small = Homography(Matrix3(m11: 1e-100, m12: 0, m13: 0, m21: 0, m22: 1e-100, m23: 0, m31: 0, m32: 0, m33: 1e-100))
        expectApprox((small.inverted()?.matrix.m11 ?? 0) / 1e100, 1, tolerance: 1e-12)
    }

    @Test("a point behind the eye (w < 0) has no image; one on the vanishing line (w = 0) neither")
    func behindTheEye() {
        // Perspective d = 100 (m34 = −0.01 → with z = 0 only the plane's own m14/m24 matter): W = 1 − x/100.
        let h = Homography(Matrix3(m11: 1, m12: 0, m13: -0.01, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1))
        #expect(h.apply(CGPoint(x: 100, y: 0)) == nil) // W = 0
        #expect(h.apply(CGPoint(x: 150, y: 0)) == nil) // W = −0.5
        expectApprox(h.apply(CGPoint(x: 50, y: 10)), CGPoint(x: 100, y: 20)) // W = 0.5: (50, 10) / 0.5
    }
}

@Suite("Hostile input: degenerate solids")
struct HostileSolidTests {
    @Test("zero, negative and non-finite sizes are refused, naming the size",
          arguments: [0.0, -1, .nan, .infinity, -.infinity])
    func badSizes(_ v: Double) {
        // NaN ≠ NaN, so the error is matched by its name and the value's bit pattern.
        func expectSize(_ name: String, _ build: () throws(SolidError) -> Solid) {
            do {
                _ = try build()
                Issue.record("\(name) = \(v) should be refused")
            } catch let .invalidSize(n, value) {
                #expect(n == name && value.bitPattern == v.bitPattern)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        expectSize("size") { () throws(SolidError) in try Solid.cube(size: v) }
        expectSize("height") { () throws(SolidError) in try Solid.box(width: 10, height: v, depth: 10) }
        expectSize("radius") { () throws(SolidError) in try Solid.prism(sides: 4, radius: v, height: 10) }
        expectSize("height") { () throws(SolidError) in try Solid.pyramid(sides: 4, radius: 10, height: v) }
    }

    @Test("a 2-sided (or fewer, or absurdly many) prism or pyramid is refused",
          arguments: [Int.min, -1, 0, 1, 2, Solid.maximumSides + 1, Int.max])
    func badSides(_ n: Int) {
        #expect(throws: SolidError.invalidSideCount(n)) { _ = try Solid.prism(sides: n, radius: 10, height: 10) }
        #expect(throws: SolidError.invalidSideCount(n)) { _ = try Solid.pyramid(sides: n, radius: 10, height: 10) }
    }

    @Test("flat, empty and non-finite polyhedra are refused with the face named")
    func badPolyhedra() {
        let square = [Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(1, 1, 0), Vector3(0, 1, 0)]
        // Four copies of one square: every vertex lies in every face's plane — a solid with no volume.
        #expect(throws: SolidError.self) { _ = try Solid.polyhedron(faces: Array(repeating: square, count: 4)) }
        #expect(throws: SolidError.tooFewFaces(0)) { _ = try Solid.polyhedron(faces: []) }
        #expect(throws: SolidError.tooFewVertices(face: 1, count: 2)) {
            _ = try Solid.polyhedron(faces: [[Vector3(0, 0, 0), Vector3(1, 0, 0)]] + Array(repeating: square, count: 3))
        }
        #expect(throws: SolidError.nonFiniteVertex(face: 1, vertex: 2)) {
            _ = try Solid.polyhedron(faces: [[Vector3(0, 0, 0), Vector3(.nan, 0, 0), Vector3(0, 1, 0)]]
                                     + Array(repeating: square, count: 3))
        }
        // Every vertex at one point: zero size.
        let dot = Array(repeating: Vector3(1, 1, 1), count: 3)
        #expect(throws: SolidError.self) { _ = try Solid.polyhedron(faces: Array(repeating: dot, count: 4)) }
        // Coordinates at 1e300: the size overflows to ∞ and is refused rather than producing NaN faces.
        let huge = [Vector3(-1e300, 0, 0), Vector3(1e300, 0, 0), Vector3(0, 1e300, 0)]
        #expect(throws: SolidError.self) { _ = try Solid.polyhedron(faces: Array(repeating: huge, count: 4)) }
    }
}
