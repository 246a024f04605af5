import Foundation
import Origami
import Testing
import TestSupport

/// Every kind of solid the tests build, with a label for the test names.
enum SolidSample: String, CaseIterable, CustomTestStringConvertible {
    case cube, box, triangularPrism, hexagonalPrism, squarePyramid, pentagonalPyramid, octahedron

    var testDescription: String { rawValue }

    func make() throws -> Solid {
        switch self {
        case .cube: return try Solid.cube(size: 200)
        case .box: return try Solid.box(width: 300, height: 120, depth: 80)
        case .triangularPrism: return try Solid.prism(sides: 3, radius: 100, height: 150)
        case .hexagonalPrism: return try Solid.prism(sides: 6, radius: 80, height: 40)
        case .squarePyramid: return try Solid.pyramid(sides: 4, radius: 100, height: 120)
        case .pentagonalPyramid: return try Solid.pyramid(sides: 5, radius: 90, height: 60)
        case .octahedron: return try Solid.polyhedron(faces: octahedronFaces(radius: 100))
        }
    }

    var faceCount: Int {
        switch self {
        case .cube, .box: return 6
        case .triangularPrism: return 5
        case .hexagonalPrism: return 8
        case .squarePyramid: return 5
        case .pentagonalPyramid: return 6
        case .octahedron: return 8
        }
    }
}

/// The regular octahedron with vertices ±r on each axis, faces listed with mixed windings on purpose.
func octahedronFaces(radius r: Double) -> [[Vector3]] {
    let xs = [Vector3(r, 0, 0), Vector3(-r, 0, 0)]
    let ys = [Vector3(0, r, 0), Vector3(0, -r, 0)]
    let zs = [Vector3(0, 0, r), Vector3(0, 0, -r)]
    var faces: [[Vector3]] = []
    for x in xs { for y in ys { for z in zs { faces.append([x, y, z]) } } }
    return faces
}

/// The eight corners of an axis-aligned cube of side `s` centred on the origin, faces as the book orders them.
func cubeFaces(side s: Double) -> [[Vector3]] {
    let h = s / 2
    return [
        [Vector3(-h, -h, h), Vector3(h, -h, h), Vector3(h, h, h), Vector3(-h, h, h)],      // front
        [Vector3(h, -h, h), Vector3(h, -h, -h), Vector3(h, h, -h), Vector3(h, h, h)],      // right
        [Vector3(-h, -h, -h), Vector3(h, -h, -h), Vector3(h, -h, h), Vector3(-h, -h, h)],  // top (y = −h)
        [Vector3(-h, h, h), Vector3(h, h, h), Vector3(h, h, -h), Vector3(-h, h, -h)],      // bottom
        [Vector3(-h, -h, -h), Vector3(-h, -h, h), Vector3(-h, h, h), Vector3(-h, h, -h)],  // left
        [Vector3(h, -h, -h), Vector3(-h, -h, -h), Vector3(-h, h, -h), Vector3(h, h, -h)],  // back
    ]
}

@Suite("Solids: the book's cube")
struct SolidCubeTests {
    @Test("faces are numbered and named in the book's order")
    func numbering() throws {
        let cube = try Solid.cube(size: 200)
        #expect(cube.faces.map(\.index) == [1, 2, 3, 4, 5, 6])
        #expect(cube.faces.map(\.kind) == [.front, .right, .top, .bottom, .left, .back])
        #expect(cube.faces.compactMap(\.name) == ["front", "right", "top", "bottom", "left", "back"])
        #expect(cube.sublayers.count == 6)
        #expect(cube.faces.allSatisfy { $0.solid === cube && $0.superlayer === cube && $0.polygon == nil })
        #expect(cube.face(number: 3)?.kind == .top)
        #expect(cube.face(.back)?.index == 6)
        #expect(cube.face(number: 0) == nil && cube.face(number: 7) == nil)
    }

    @Test("a face that outlives its solid forgets it, whether it stayed on the solid or moved away")
    func faceOutlivesSolid() throws {
        var cube: Solid? = try Solid.cube(size: 200)
        let top = try #require(cube?.face(.top)), front = try #require(cube?.face(.front))
        let elsewhere = Layer(name: "elsewhere")
        try elsewhere.addSublayer(front)
        #expect(front.solid === cube && front.superlayer === elsewhere)
        cube = nil
        #expect(top.solid == nil && top.superlayer == nil)
        #expect(front.solid == nil && front.superlayer === elsewhere)
    }

    @Test("each face carries the book's transform, 200 × 200 bounds, at the solid's centre")
    func bookTransforms() throws {
        let cube = try Solid.cube(size: 200)
        // The transforms come from the book's listing, written with the Core Animation names in the fixture.
        for (face, expected) in zip(cube.faces, BookCube.faceTransforms(size: 200)) {
            #expect(face.transform.isApproximatelyEqual(to: expected), "face \(face.index)")
            #expect(face.bounds == CGRect(x: 0, y: 0, width: 200, height: 200))
            #expect(face.anchorPoint == CGPoint(x: 0.5, y: 0.5))
            #expect(face.position == CGPoint(x: cube.bounds.midX, y: cube.bounds.midY))
        }
    }

    @Test("the solid is centred on its bounds' middle, so position places the cube's centre")
    func placement() throws {
        let cube = try Solid.cube(size: 200)
        let container = try BookCube.container(holding: cube, camera: .identity)
        // With no camera, the front face's centre lands at (200, 200, 100): position + (0, 0, s/2).
        let front = try #require(cube.face(.front))
        let centre = try #require(front.transform3D(to: container)?.apply(Vector3(100, 100, 0)))
        #expect(near(centre, Vector3(200, 200, 100)))
    }

    @Test("layers hung on a face stay on it: they are not members of the 3D context")
    func labels() throws {
        let cube = try Solid.cube(size: 200)
        let label = TextLayer()
        label.frame = CGRect(x: 50, y: 90, width: 100, height: 20)
        try #require(cube.face(number: 3)).addSublayer(label)
        let container = try BookCube.container(holding: cube)
        #expect(container.sublayerScene().map(\.layer) == cube.faces)
        #expect(label.superlayer === cube.face(.top))
    }

    @Test("a box has the book's faces with w × h, d × h and w × d bounds")
    func box() throws {
        let box = try Solid.box(width: 300, height: 120, depth: 80)
        let sizes = box.faces.map { $0.bounds.size }
        #expect(sizes == [CGSize(width: 300, height: 120), CGSize(width: 80, height: 120), CGSize(width: 300, height: 80),
                          CGSize(width: 300, height: 80), CGSize(width: 80, height: 120), CGSize(width: 300, height: 120)])
        // The book's transforms with the half extents: front at z = d/2, right at x = w/2, top at y = −h/2.
        let expected = [
            CATransform3DMakeTranslation(0, 0, 40),
            CATransform3DRotate(CATransform3DMakeTranslation(150, 0, 0), .pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, -60, 0), .pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 60, 0), -.pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(-150, 0, 0), -.pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -40), .pi, 0, 1, 0),
        ]
        for (face, t) in zip(box.faces, expected) {
            #expect(face.transform.isApproximatelyEqual(to: t), "face \(face.index)")
        }
    }

    @Test("a polyhedron given the cube's faces reproduces the book's six transforms")
    func polyhedronCube() throws {
        let solid = try Solid.polyhedron(faces: cubeFaces(side: 200))
        for (face, expected) in zip(solid.faces, BookCube.faceTransforms(size: 200)) {
            #expect(face.transform.isApproximatelyEqual(to: expected), "face \(face.index)")
            #expect(face.bounds.size == CGSize(width: 200, height: 200))
            #expect(face.polygon == nil, "a square face fills its bounds")
        }
    }

    @Test("a 4-sided prism of circumradius s/√2 is the book's cube, sides numbered around from the front")
    func squarePrism() throws {
        let prism = try Solid.prism(sides: 4, radius: 100 * 2.0.squareRoot(), height: 200)
        let book = BookCube.faceTransforms(size: 200)
        // Sides go front (+z), right (+x), back, left; then the caps top and bottom: book faces 1, 2, 6, 5, 3, 4.
        let order = [0, 1, 5, 4, 2, 3]
        #expect(prism.faces.map(\.kind) == [.side(1), .side(2), .side(3), .side(4), .top, .bottom])
        for (face, b) in zip(prism.faces, order) {
            #expect(face.transform.isApproximatelyEqual(to: book[b]), "face \(face.index)")
            expectApprox(face.bounds.size, CGSize(width: 200, height: 200), tolerance: 1e-9)
        }
    }
}

@Suite("Solids: every kind")
struct SolidKindTests {
    @Test("face counts and numbering", arguments: SolidSample.allCases)
    func counts(_ sample: SolidSample) throws {
        let solid = try sample.make()
        #expect(solid.faces.count == sample.faceCount)
        #expect(solid.faces.map(\.index) == Array(1...sample.faceCount))
        #expect(solid.faces.allSatisfy { $0.solid === solid })
    }

    @Test("faces point outward: +z points away from the solid's centroid", arguments: SolidSample.allCases)
    func outward(_ sample: SolidSample) throws {
        let solid = try sample.make()
        let outlines = solid.faces.map(solidSpaceOutline(of:))
        let all = outlines.flatMap { $0 }
        let centroid = all.reduce(Vector3.zero, +) / Double(all.count)
        for (face, outline) in zip(solid.faces, outlines) {
            let frame = try #require(solidSpaceCentreAndZ(of: face))
            let z = try #require(frame.z.normalized())
            #expect((frame.centre - centroid).dot(z) > 1, "face \(face.index) faces inward")
            // +z is perpendicular to the face: every outline edge is orthogonal to it.
            for i in outline.indices {
                let edge = outline[(i + 1) % outline.count] - outline[i]
                expectApprox(edge.dot(z), 0, tolerance: 1e-9, "face \(face.index) edge \(i)")
            }
        }
    }

    @Test("faces meet edge to edge: every outline edge is shared by another face", arguments: SolidSample.allCases)
    func closed(_ sample: SolidSample) throws {
        let solid = try sample.make()
        let outlines = solid.faces.map(solidSpaceOutline(of:))
        for (f, outline) in outlines.enumerated() {
            #expect(outline.count >= 3)
            for i in outline.indices {
                let a = outline[i], b = outline[(i + 1) % outline.count]
                let partners = outlines.enumerated().filter { g, other in
                    g != f && other.indices.contains { j in
                        let c = other[j], d = other[(j + 1) % other.count]
                        return (near(a, c) && near(b, d)) || (near(a, d) && near(b, c))
                    }
                }
                #expect(partners.count == 1, "face \(f + 1) edge \(i) is shared by \(partners.count) faces")
            }
        }
    }

    @Test("a face's outline lies inside its bounds", arguments: SolidSample.allCases)
    func outlineInBounds(_ sample: SolidSample) throws {
        let solid = try sample.make()
        for face in solid.faces {
            let b = face.bounds.insetBy(dx: -1e-9, dy: -1e-9)
            for p in face.polygon ?? [] { #expect(b.contains(p), "face \(face.index)") }
        }
    }

    @Test("a square pyramid's triangles reach the hand-placed base corners and apex")
    func pyramidVertices() throws {
        let pyramid = try Solid.pyramid(sides: 4, radius: 100, height: 120)
        // Base corners at angles −45°, 45°, 135°, 225° from +z towards +x, radius 100, at y = +60 (the bottom);
        // apex at y = −60.
        let c = 100 / 2.0.squareRoot()
        let expected = [Vector3(-c, 60, c), Vector3(c, 60, c), Vector3(c, 60, -c), Vector3(-c, 60, -c), Vector3(0, -60, 0)]
        let found = pyramid.faces.flatMap(solidSpaceOutline(of:))
        for e in expected { #expect(found.contains { near($0, e) }, "missing \(e)") }
        #expect(found.allSatisfy { f in expected.contains { near($0, f) } })
        // Side 1 faces the front: its triangle has the base edge at z = c and its outline is a triangle.
        let side1 = try #require(pyramid.face(.side(1)))
        #expect(side1.polygon?.count == 3)
        #expect(try #require(solidSpaceCentreAndZ(of: side1)).z.z > 0)
        // The base's corners sit at (±c, ±c): an axis-aligned square of side 2c that fills its bounds.
        let base = try #require(pyramid.face(.base))
        #expect(base.polygon == nil)
        expectApprox(base.bounds.size, CGSize(width: 2 * c, height: 2 * c), tolerance: 1e-9)
        // A pentagon cannot fill its bounding rectangle.
        #expect(try Solid.pyramid(sides: 5, radius: 10, height: 10).face(.base)?.polygon?.count == 5)
    }

    @Test("side faces stand upright: their y follows the solid's +y")
    func upright() throws {
        let prism = try Solid.prism(sides: 6, radius: 80, height: 40)
        for k in 1...6 {
            let face = try #require(prism.face(.side(k)))
            let m = face.transformToSuperlayer
            let down = try #require(m.apply(Vector3(0, 1, 0))) - (try #require(m.apply(Vector3.zero)))
            #expect(near(down, Vector3(0, 1, 0)), "side \(k)")
        }
    }
}

@Suite("Solids: bad input is an error")
struct SolidErrorTests {
    @Test("sizes must be finite and positive", arguments: [0.0, -1, .nan, .infinity, -.infinity])
    func sizes(_ value: Double) {
        #expect(throws: SolidError.self) { try Solid.cube(size: value) }
        #expect(throws: SolidError.self) { try Solid.box(width: 10, height: 10, depth: value) }
        #expect(throws: SolidError.self) { try Solid.prism(sides: 5, radius: value, height: 10) }
        #expect(throws: SolidError.self) { try Solid.pyramid(sides: 5, radius: 10, height: value) }
    }

    @Test("prisms and pyramids need 3...maximumSides sides", arguments: [Int.min, -1, 0, 1, 2, Solid.maximumSides + 1])
    func sides(_ n: Int) throws {
        #expect(throws: SolidError.invalidSideCount(n)) { try Solid.prism(sides: n, radius: 10, height: 10) }
        #expect(throws: SolidError.invalidSideCount(n)) { try Solid.pyramid(sides: n, radius: 10, height: 10) }
    }

    @Test("the message names the problem")
    func message() {
        #expect(SolidError.invalidSize(name: "depth", value: -2).description
            == "solid depth must be a finite number greater than 0, got -2.0")
        #expect(SolidError.nonPlanarFace(face: 3, deviation: 5).description.contains("face 3 is not planar"))
    }

    @Test("too few faces or vertices, non-finite vertices")
    func counts() {
        let cube = cubeFaces(side: 10)
        #expect(throws: SolidError.tooFewFaces(3)) { try Solid.polyhedron(faces: Array(cube.prefix(3))) }
        var twoVertices = cube
        twoVertices[2] = Array(twoVertices[2].prefix(2))
        #expect(throws: SolidError.tooFewVertices(face: 3, count: 2)) { try Solid.polyhedron(faces: twoVertices) }
        var nan = cube
        nan[1][2] = Vector3(.nan, 0, 0)
        #expect(throws: SolidError.nonFiniteVertex(face: 2, vertex: 3)) { try Solid.polyhedron(faces: nan) }
    }

    @Test("degenerate faces: a repeated vertex, collinear vertices")
    func degenerate() {
        var repeated = cubeFaces(side: 10)
        repeated[0].insert(repeated[0][0], at: 1)
        #expect(throws: SolidError.degenerateFace(face: 1)) { try Solid.polyhedron(faces: repeated) }
        var collinear = cubeFaces(side: 10)
        collinear.append([Vector3(0, 0, 0), Vector3(1, 1, 1), Vector3(2, 2, 2)])
        #expect(throws: SolidError.degenerateFace(face: 7)) { try Solid.polyhedron(faces: collinear) }
    }

    @Test("a non-planar face")
    func nonPlanar() throws {
        var faces = cubeFaces(side: 10)
        faces[0][2] = Vector3(5, 5, 6)  // one corner of the front face lifted 1 off z = 5
        let error = try #require(throws: SolidError.self) { try Solid.polyhedron(faces: faces) }
        guard case let .nonPlanarFace(face, deviation) = error else { Issue.record("got \(error)"); return }
        #expect(face == 1)
        // Newell's plane through the lifted square tilts; the largest distance is a quarter of the lift.
        #expect(deviation > 0.2 && deviation < 0.3)
    }

    @Test("a face whose vertices wind twice (a pentagram) is not convex")
    func pentagram() throws {
        let prism = (0..<5).map { k -> (Vector3, Vector3) in
            let phi = Double(k) * 2 * .pi / 5
            return (Vector3(sin(phi), -1, cos(phi)), Vector3(sin(phi), 1, cos(phi)))
        }
        var faces: [[Vector3]] = (0..<5).map { k in
            let a = prism[k], b = prism[(k + 1) % 5]
            return [a.0, b.0, b.1, a.1]
        }
        faces.append([0, 2, 4, 1, 3].map { prism[$0].0 })  // the top cap in star order
        faces.append((0..<5).map { prism[$0].1 })
        #expect(throws: SolidError.nonConvexFace(face: 6)) { try Solid.polyhedron(faces: faces) }
        // The same prism with the cap in order is fine.
        faces[5] = (0..<5).map { prism[$0].0 }
        #expect(try Solid.polyhedron(faces: faces).faces.count == 7)
    }

    @Test("a convex polyhedron of thousands of faces builds, each face outward", arguments: [8, 2000])
    func manyFaces(sides: Int) throws {
        let solid = try Solid.polyhedron(faces: prismPolyhedronFaces(sides: sides))
        #expect(solid.faces.count == sides + 2)
        // Side k's outward normal points at the angle (k + ½)·2π/sides about y (it is the chord's middle).
        for k in [0, sides / 2, sides - 1] {
            let a = (Double(k) + 0.5) * 2 * .pi / Double(sides)
            let n = solid.faces[k + 2].transform
            expectApprox(Vector3(n.m31, n.m32, n.m33), Vector3(cos(a), 0, sin(a)), "side \(k)")
        }
    }

    /// Side `k` pushed 10 outward along its normal stays planar and convex, but its corners shared with side
    /// k − 1 (on that side's plane before the push) now lie 10·cos(2π/sides) > 0 beyond it. No face listed before
    /// side k − 1 is crossed: the caps keep every vertex in their planes, and for sides j < k − 1 the corners
    /// reach at most r + 10 along a direction ≥ 2·(2π/sides) from side j's normal, which falls short of its plane
    /// at distance r·cos(π/sides) for these sizes (8 sides: 110·cos 90° = 0 < 92.4).
    @Test("a side pushed out of a convex polyhedron is found, at the first face it crosses", arguments: [(8, 4), (8, 1), (2000, 1)])
    func pushedSide(sides: Int, k: Int) throws {
        var faces = prismPolyhedronFaces(sides: sides)
        let a = (Double(k) + 0.5) * 2 * .pi / Double(sides)
        let push = Vector3(cos(a), 0, sin(a)) * 10
        faces[k + 2] = faces[k + 2].map { $0 + push }
        #expect(throws: SolidError.notConvex(face: k + 2)) { try Solid.polyhedron(faces: faces) }
    }

    @Test("faces that do not bound a convex solid")
    func notConvex() {
        // The cube plus a triangle cutting off one corner: that corner lies outside the triangle's plane.
        var cut = cubeFaces(side: 10)
        cut.append([Vector3(5, 5, 0), Vector3(0, 5, 5), Vector3(5, 0, 5)])
        #expect(throws: SolidError.notConvex(face: 7)) { try Solid.polyhedron(faces: cut) }
        // Four copies of one square: flat, no inside.
        let square = cubeFaces(side: 10)[0]
        #expect(throws: SolidError.self) { try Solid.polyhedron(faces: [square, square, square, square]) }
    }
}
