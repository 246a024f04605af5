import Foundation
import Origami
@testable import OrigamiRender
import Testing

/// Glyph outlines are laid out once per process for the same string, font and bounds: what the memo hands out
/// again must be what laying the text out afresh gives, and whatever shapes the glyphs must tell entries apart.
@Suite("Glyph outline memo")
struct GlyphOutlineMemoTests {
    /// The frozen text style of a text layer set up by `configure`.
    static func style(_ configure: (TextLayer) -> Void) throws -> TextStyle {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        let text = TextLayer()
        text.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        text.string = "42\nOrigami"
        text.fontSize = 30
        configure(text)
        try root.addSublayer(text)
        let tree = PresentationTree(root)
        let found = (0..<tree.count).lazy.compactMap { tree.text(of: $0) }.first
        return try #require(found)
    }

    static let bounds = PlaneRect(minX: 0, minY: 0, maxX: 200, maxY: 100)

    @Test func aKnownLayoutIsTheFreshOne() throws {
        let memo = GlyphOutlineMemo(capacity: 8)
        let style = try Self.style { _ in }
        var layouts = 0
        func outlines() throws -> [Ring] {
            try memo.outlines(style, in: Self.bounds) {
                layouts += 1
                return try CairoContext.glyphOutlines(style, in: Self.bounds, tolerance: Outlines.tolerance)
            }
        }
        let first = try outlines(), second = try outlines()
        let fresh = try CairoContext.glyphOutlines(style, in: Self.bounds, tolerance: Outlines.tolerance)
        #expect(layouts == 1)
        #expect(!fresh.isEmpty)
        let firstIsFresh = first == fresh, secondIsFresh = second == fresh
        #expect(firstIsFresh)
        #expect(secondIsFresh)
    }

    /// Everything that moves or shapes a glyph is part of the key; the colour is not.
    @Test func whatShapesTheGlyphsTellsEntriesApart() throws {
        let memo = GlyphOutlineMemo(capacity: 64)
        let variants: [(TextLayer) -> Void] = [
            { _ in }, { $0.string = "43\nOrigami" }, { $0.fontSize = 31 }, { $0.fontWeight = .bold },
            { $0.isItalic = true }, { $0.alignment = .center }, { $0.isVerticallyCentered = true },
            { $0.fontFamily = "DejaVu Serif" },
        ]
        var seen: [[Ring]] = []
        for variant in variants {
            let style = try Self.style(variant)
            let rings = try memo.outlines(style, in: Self.bounds) {
                try CairoContext.glyphOutlines(style, in: Self.bounds, tolerance: Outlines.tolerance)
            }
            #expect(!seen.contains(rings), "a variant got another variant's outlines")
            seen.append(rings)
        }
        #expect(memo.count == variants.count)
        let moved = PlaneRect(minX: 5, minY: 0, maxX: 205, maxY: 100)
        let style = try Self.style { _ in }
        let shifted = try memo.outlines(style, in: moved) {
            try CairoContext.glyphOutlines(style, in: moved, tolerance: Outlines.tolerance)
        }
        #expect(shifted != seen[0])
        #expect(memo.count == variants.count + 1)
        let recoloured = try Self.style { $0.foregroundColor = .red }
        _ = try memo.outlines(recoloured, in: Self.bounds) { Issue.record("a colour change laid the text out again"); return [] }
        #expect(memo.count == variants.count + 1)
    }

    @Test func itHoldsAtMostItsCapacity() throws {
        let memo = GlyphOutlineMemo(capacity: 3)
        for i in 0 ..< 10 {
            let style = try Self.style { $0.string = "line \(i)" }
            _ = try memo.outlines(style, in: Self.bounds) { [] }
            #expect(memo.count <= 3)
        }
    }

    /// The points bound: layouts are kept until the next would pass `maxPoints`, then it starts again empty; a
    /// layout larger than the bound alone is handed out but not kept.
    @Test func itHoldsAtMostItsPoints() throws {
        let memo = GlyphOutlineMemo(capacity: 100, maxPoints: 10)
        let square: Ring = [PlanePoint(0, 0), PlanePoint(1, 0), PlanePoint(1, 1), PlanePoint(0, 1)]
        func add(_ string: String, _ rings: [Ring]) throws -> [Ring] {
            let style = try Self.style { $0.string = string }
            return try memo.outlines(style, in: Self.bounds) { rings }
        }
        _ = try add("a", [square])                   // 4 points
        _ = try add("b", [square])                   // 8
        #expect(memo.count == 2 && memo.points == 8)
        _ = try add("c", [square])                   // 12 > 10: emptied first, then kept
        #expect(memo.count == 1 && memo.points == 4)
        let big = try add("d", [square, square, square])  // 12 points alone: handed out, not kept
        #expect(big.count == 3)
        #expect(memo.count == 1 && memo.points == 4)
        var laidOut = false
        let style = try Self.style { $0.string = "c" }
        _ = try memo.outlines(style, in: Self.bounds) { laidOut = true; return [] }
        #expect(!laidOut, "the kept layout was laid out again")
    }

    /// A failed layout is not remembered: the next request tries again.
    @Test func aFailureIsNotKept() throws {
        struct Failure: Error {}
        let memo = GlyphOutlineMemo(capacity: 4)
        let style = try Self.style { _ in }
        #expect(throws: Failure.self) { try memo.outlines(style, in: Self.bounds) { throw Failure() } }
        #expect(memo.count == 0)
        var layouts = 0
        _ = try memo.outlines(style, in: Self.bounds) { layouts += 1; return [] }
        #expect(layouts == 1)
    }

    /// Through the renderer: a text layer rendered again (its outlines now from the memo) gives the same bytes as
    /// the first render, which laid them out.
    @Test func aRenderFromTheMemoIsTheFirstRender() throws {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 160, height: 80))
        root.backgroundColor = .white
        let text = TextLayer()
        text.frame = CGRect(x: 10, y: 10, width: 140, height: 60)
        text.string = "memo \(UUID().uuidString.prefix(6))"
        text.fontSize = 20
        text.foregroundColor = .black
        var t = Transform3D.identity
        t.m34 = -1.0 / 300
        text.transform = t.rotated(by: 0.5, x: 0, y: 1, z: 0)
        try root.addSublayer(text)
        let first = try Renderer.render(root, size: CGSize(width: 160, height: 80))
        let again = try Renderer.render(root, size: CGSize(width: 160, height: 80))
        let same = first.pixels == again.pixels
        #expect(same, "the render from the memo differs from the first")
        #expect(first.pixels.contains { $0 != first.pixels[0] }, "the text drew nothing")
    }
}
