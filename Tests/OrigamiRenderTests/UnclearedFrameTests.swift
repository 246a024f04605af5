import Fixtures
import Foundation
import Origami
import Testing
import TestSupport
@testable import OrigamiRender

/// Issue 20, item 6: a frame whose opaque background covers every pixel is not zeroed before painting
/// (`Renderer.backgroundCoversEveryPixel`). Its pixels must be exactly those of a zeroed frame: the frame that
/// is not zeroed is first scribbled over with a pattern, so any pixel the background missed would show it.
@Suite("Frames not zeroed first")
struct UnclearedFrameTests {
    static let scribble: UInt32 = 0xDEAD_BEEF

    /// The lit book cube (the background shows around it), one face half transparent.
    static func scene() throws -> Layer {
        let cube = try BookCube(faceColors: [Color(red: 0.9, green: 0.3, blue: 0.2, alpha: 0.5), Color(red: 0.2, green: 0.8, blue: 0.4),
                                             Color(red: 0.2, green: 0.4, blue: 0.9), Color(red: 0.95, green: 0.8, blue: 0.1),
                                             Color(red: 0.6, green: 0.3, blue: 0.7), Color(red: 0.9, green: 0.5, blue: 0.1)],
                                lighting: Lighting.book)
        return cube.container
    }

    /// The same pixels from the zeroed and the scribbled frame; whether the zeroing was skipped.
    static func compare(_ root: Layer, size: CGSize, options: RenderOptions) throws -> Bool {
        let tree = try RenderTree(root: root, limits: options.limits)
        let (width, height) = try Renderer.pixelSize(size, options: options)
        let zeroed = try Renderer.renderInPlace(tree, size: size, width: width, height: height, options: options,
                                                alwaysZeroes: true)
        let scribbled = try Renderer.renderInPlace(tree, size: size, width: width, height: height, options: options,
                                                   scribble: scribble)
        // Compared as one Bool: a failed `#expect` on the arrays would print a million pixels.
        let same = zeroed == scribbled, scribbleShows = scribbled.contains(scribble)
        #expect(same, "\(size) at scale \(options.scale), background \(String(describing: options.background))")
        #expect(!scribbleShows)
        return Renderer.backgroundCoversEveryPixel(size: size, width: width, height: height, options: options)
    }

    @Test func opaqueBackgroundOnWholePixels() throws {
        let root = try Self.scene()
        let grey = Color(red: 0.87, green: 0.87, blue: 0.87)
        // The turntable's 400² at 1 and 2.56 (1024²), and an odd size.
        for (size, scale) in [(CGSize(width: 400, height: 400), 1.0), (CGSize(width: 400, height: 400), 2.56),
                              (CGSize(width: 301, height: 207), 2)] {
            #expect(try Self.compare(root, size: size, options: RenderOptions(scale: scale, background: grey)))
        }
    }

    @Test func partlyCoveredOrSeeThroughBackgroundsAreZeroed() throws {
        let root = try Self.scene()
        let grey = Color(red: 0.87, green: 0.87, blue: 0.87)
        // Edge pixels only partly covered (a fractional canvas), a translucent background, none.
        let cases: [(CGSize, Double, Color?)] = [
            (CGSize(width: 401, height: 400), 1.25, grey), (CGSize(width: 400.5, height: 300), 1, grey),
            (CGSize(width: 400, height: 400), 1, Color(red: 0.87, green: 0.87, blue: 0.87, alpha: 0.5)),
            (CGSize(width: 400, height: 400), 1, nil)]
        for (size, scale, background) in cases {
            #expect(try !Self.compare(root, size: size, options: RenderOptions(scale: scale, background: background)))
        }
    }
}
