import Foundation
import Origami
@testable import OrigamiScene
import Testing

/// A contact sheet's and a film strip's thumbnails: each output pixel is the mean of the source area it covers,
/// partial pixels weighted by their coverage, rounded half away from zero. Expected values worked out by hand.
@Suite("Thumbnails")
struct ThumbnailTests {
    static func argb(_ a: UInt32, _ r: UInt32, _ g: UInt32, _ b: UInt32) -> UInt32 { a << 24 | r << 16 | g << 8 | b }

    @Test func aWholeFactorAveragesBlocks() throws {
        // 4 × 2 to fit 2: 2 × 1, each pixel the mean of a 2 × 2 block.
        let source = try #require(Bitmap(width: 4, height: 2, pixels: [
            Self.argb(255, 0, 10, 200), Self.argb(255, 100, 10, 200), Self.argb(255, 4, 0, 0), Self.argb(255, 8, 0, 0),
            Self.argb(255, 50, 30, 200), Self.argb(255, 250, 30, 200), Self.argb(255, 12, 0, 0), Self.argb(255, 16, 0, 0),
        ]))
        let thumb = source.shrunk(toFit: 2)
        #expect(thumb.width == 2 && thumb.height == 1)
        #expect(thumb.pixels == [Self.argb(255, 100, 20, 200), Self.argb(255, 10, 0, 0)])
    }

    @Test func partialPixelsWeighByTheirCoverage() throws {
        // 3 × 1 to fit 2: factor 1.5, so 2 × 1; output 0 covers source [0, 1.5): pixel 0 whole, half of pixel 1,
        // weights 2/3 and 1/3; output 1 the other half of pixel 1 and pixel 2, weights 1/3 and 2/3.
        let source = try #require(Bitmap(width: 3, height: 1, pixels: [
            Self.argb(255, 30, 0, 60), Self.argb(255, 90, 0, 0), Self.argb(255, 150, 0, 3),
        ]))
        let thumb = source.shrunk(toFit: 2)
        #expect(thumb.width == 2 && thumb.height == 1)
        // red 30·2/3 + 90·1/3 = 50, 90·1/3 + 150·2/3 = 130; blue 60·2/3 = 40, 3·2/3 = 2.
        #expect(thumb.pixels == [Self.argb(255, 50, 0, 40), Self.argb(255, 130, 0, 2)])
    }

    @Test func halvesRoundAwayFromZero() throws {
        // 2 × 1 to fit 1: the mean of two pixels. 0.5 → 1, 2.5 → 3 (not to even), 3.5 → 4; 254.5 → 255.
        let source = try #require(Bitmap(width: 2, height: 1, pixels: [Self.argb(254, 0, 2, 3), Self.argb(255, 1, 3, 4)]))
        let thumb = source.shrunk(toFit: 1)
        #expect(thumb.width == 1 && thumb.height == 1)
        #expect(thumb.pixels == [Self.argb(255, 1, 3, 4)])
    }

    @Test func aBitmapThatFitsIsItself() throws {
        let source = try #require(Bitmap(width: 3, height: 2, color: .red))
        #expect(source.shrunk(toFit: 3) == source)
        #expect(source.shrunk(toFit: 300) == source)
    }
}
