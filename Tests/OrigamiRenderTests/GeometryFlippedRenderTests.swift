import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// DESIGN §2 `geometryFlipped` as drawn: Apple's flip "does not affect the rendering of the layer's content" —
/// sublayers are placed from the bottom, but text, images and faces keep their orientation.
@Suite("geometryFlipped renders content upright")
struct GeometryFlippedRenderTests {
    static func isInk(_ c: Color?) -> Bool {
        guard let c else { return false }
        return (c.red + c.green + c.blue) / 3 < 0.5
    }

    @Test("text on a face under a flipped container reads upright: the L's ink is at the top, its foot at the bottom")
    func text() throws {
        // R 200×200 ⊃ C (flipped, 200×200) ⊃ face F at (20, 20, 160, 160) ⊃ text T at (10, 10, 140, 100).
        // C's flip y ↦ 200 − y puts F's frame at R's y 200 − 180 … 200 − 20 = 20 … 180, with F's bounds y = b at
        // R's y = 180 − b (F is measured from the bottom too: its space is C's, shifted). T's frame, F's y 10 … 110,
        // is R's y 70 … 170, x 20 + 10 … = 30 … 170. A left-aligned text layer draws from the top of its bounds,
        // so upright 36-point text has its glyphs just below R's y 70 (DejaVu's ascent ≈ 0.93 em puts the
        // baseline near y 103, the cap height ≈ 0.73 em the top of an "L" near y 77): all ink above y 115, none
        // in y 115 … 170. Upside down it would sit at the bottom of T, y ≈ 137 … 163.
        let root = Layer(name: "R", frame: CGRect(0, 0, 200, 200))
        root.backgroundColor = .white
        let container = Layer(name: "C", frame: CGRect(0, 0, 200, 200))
        container.isGeometryFlipped = true
        let face = Layer(name: "F", frame: CGRect(20, 20, 160, 160))
        let text = TextLayer()
        text.frame = CGRect(10, 10, 140, 100)
        text.string = "L"
        text.fontSize = 36
        text.foregroundColor = .black
        try root.addSublayer(container)
        try container.addSublayer(face)
        try face.addSublayer(text)
        let image = try Renderer.render(root, size: CGSize(width: 200, height: 200))
        try Probe.save(image, "flipped-text.png")
        let inkRows = (0..<200).filter { y in (0..<200).contains { Self.isInk(image.pixel(x: $0, y: y)) } }
        let top = try #require(inkRows.first), bottom = try #require(inkRows.last)
        #expect(top >= 70 && bottom < 115, "ink rows \(top)…\(bottom)")
        // An upright "L": a stem (narrow rows) above a foot (one wide row band) at the bottom of the ink.
        func width(_ y: Int) -> Int { (0..<200).filter { Self.isInk(image.pixel(x: $0, y: y)) }.count }
        let mid = (top + bottom) / 2
        let upper = (top...mid).map(width).max() ?? 0, lower = (mid...bottom).map(width).max() ?? 0
        #expect(lower > 2 * upper, "widest row below the middle \(lower), above \(upper)")
        // And the ink starts at T's left edge, x ≈ 30 (plus the glyph's side bearing), not mirrored in x.
        let inkColumns = (0..<200).filter { x in inkRows.contains { Self.isInk(image.pixel(x: x, y: $0)) } }
        let left = try #require(inkColumns.first)
        #expect(left >= 30 && left < 40, "ink starts at x \(left)")
    }

    @Test("an image on a sublayer of a flipped layer is not upside down")
    func image() throws {
        // An 8×8 picture, rows 0…3 red and 4…7 blue: red on top as stored. C (flipped, 100×100) ⊃ L at
        // (20, 20, 60, 60): by y ↦ 100 − y, L covers R's y 20 … 80 (symmetric), x 20 … 80. Drawn upright, the
        // picture's top half, red, fills R's y 20 … 50 and blue y 50 … 80. Probes a quarter in from each end
        // (y 35 and 65) are far from the bilinear blend at the seam.
        let red: UInt32 = 0xFFFF_0000, blue: UInt32 = 0xFF00_00FF
        let pixels = (0..<64).map { $0 / 8 < 4 ? red : blue }
        let root = Layer(name: "R", frame: CGRect(0, 0, 100, 100))
        let container = Layer(name: "C", frame: CGRect(0, 0, 100, 100))
        container.isGeometryFlipped = true
        let l = Layer(name: "L", frame: CGRect(20, 20, 60, 60))
        l.contents = Bitmap(width: 8, height: 8, pixels: pixels)
        try root.addSublayer(container)
        try container.addSublayer(l)
        let image = try Renderer.render(root, size: CGSize(width: 100, height: 100))
        Probe.expect(image, 50, 35, .red, "top half of the picture")
        Probe.expect(image, 50, 65, .blue, "bottom half of the picture")
    }

    @Test("two nested flips: positions from the top again, the picture still upright (the parity, not a second correction)")
    func nestedFlips() throws {
        // R ⊃ C (flipped, 100×100) ⊃ B (flipped, frame (0, 0, 50, 50)) ⊃ L (frame (10, 10, 20, 20), the picture
        // above). L's placement y 10 … 30 → B's flip y ↦ 50 − y → 20 … 40 in B's bounds = C's placement (B sits
        // at C's origin unscaled) → C's flip y ↦ 100 − y → R's y 60 … 80; x 10 … 30. Two mirrors compose to a
        // translation, so the picture is upright with no correction: red at R's y 60 … 70, blue 70 … 80.
        let red: UInt32 = 0xFFFF_0000, blue: UInt32 = 0xFF00_00FF
        let root = Layer(name: "R", frame: CGRect(0, 0, 100, 100))
        let c = Layer(name: "C", frame: CGRect(0, 0, 100, 100))
        c.isGeometryFlipped = true
        let b = Layer(name: "B", frame: CGRect(0, 0, 50, 50))
        b.isGeometryFlipped = true
        let l = Layer(name: "L", frame: CGRect(10, 10, 20, 20))
        l.contents = Bitmap(width: 8, height: 8, pixels: (0..<64).map { $0 / 8 < 4 ? red : blue })
        try root.addSublayer(c)
        try c.addSublayer(b)
        try b.addSublayer(l)
        expectApprox(l.convert(l.bounds, to: root), CGRect(10, 60, 20, 20))
        #expect(l.contentsAreFlipped() == false)
        let image = try Renderer.render(root, size: CGSize(width: 100, height: 100))
        Probe.expect(image, 20, 62.5, .red, "top quarter of L")
        Probe.expect(image, 20, 77.5, .blue, "bottom quarter of L")
        #expect(root.hitTest(CGPoint(20, 62.5)) === l)
    }

    @Test("the book's cube, single-sided, in a flipped container: exactly faces 1, 2 and 4 are drawn")
    func cube() throws {
        // Which faces face the viewer, and where: see GeometryFlippedTests.cube. The flip mirrors the cube in y
        // about its centre, so face 4 is drawn where face 3 is in the unflipped cube — at the projection of the
        // cube point (0, −100, 0) — and faces 1 and 2 where they were, at (0, 0, 100) and (100, 0, 0) (the
        // probes' projection, written out by hand). Faces 3, 5, 6 are culled: no pixel has their colours.
        let colors: [Color] = [.red, .green, Color(red: 1, green: 1, blue: 0), .blue,
                               Color(red: 1, green: 0, blue: 1), Color(red: 0, green: 1, blue: 1)]
        let cube = try BookCube(faceColors: colors, isDoubleSided: false)
        cube.container.isGeometryFlipped = true
        let image = try Renderer.render(cube.container, size: CGSize(width: 400, height: 400))
        try Probe.save(image, "flipped-cube.png")
        for (point, number) in [([0.0, -100, 0], 4), ([0, 0, 100], 1), ([100, 0, 0], 2)] {
            let p = BookCubeProbes.project(point).point
            Probe.expect(image, Double(p.x), Double(p.y), colors[number - 1], "face \(number)")
        }
        var culled = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let c = image.pixel(x: x, y: y)
                if [2, 4, 5].contains(where: { Probe.close(c, colors[$0], tolerance: 0.01) }) { culled += 1 }
            }
        }
        #expect(culled == 0, "\(culled) pixels in the colours of faces 3, 5, 6")
    }
}
