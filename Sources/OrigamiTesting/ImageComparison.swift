import Foundation
import Origami
import OrigamiRender

/// How far a render may stray from its reference: antialiasing differs by a few levels between builds and
/// machines, a changed picture by far more.
public struct ImageTolerance: Sendable {
    /// The largest difference (0…255) in any channel for a pixel still to count as equal.
    public var channel: Int
    /// The share of pixels (0…1) allowed to differ by more.
    public var share: Double

    /// A tolerance; by default 12 levels a channel for at most 1 pixel in 500.
    public init(channel: Int = 12, share: Double = 1.0 / 500) { self.channel = channel; self.share = share }

    /// 12 levels a channel, 1 pixel in 500 allowed to differ by more.
    public static let `default` = ImageTolerance()
}

/// A render compared with a reference image; on failure `actual.png` and `diff.png` (differing pixels in red)
/// are written to a folder the message names.
public enum ImageCheck {
    /// `nil` when `image` matches the PNG at `reference` within `tolerance`, else what is wrong — a missing or
    /// unreadable reference, another size, or too many differing pixels — with where `actual.png` and
    /// `diff.png` were written (`artifacts`, default a folder in the temporary directory named after the
    /// reference).
    public static func failure(_ image: RenderedImage, matches reference: URL, tolerance: ImageTolerance = .default,
                               artifacts: URL? = nil) -> String? {
        let folder = artifacts ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("origami-image-\(reference.deletingPathExtension().lastPathComponent)")
        func keep(_ diff: Bitmap?) -> String {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try image.write(to: folder.appendingPathComponent("actual.png"))
                if let diff { try WritableDestination(folder.appendingPathComponent("diff.png")).write(diff.pngData()) }
                return "; actual.png\(diff == nil ? "" : " and diff.png") in \(folder.path)"
            } catch {
                return "; could not write actual.png to \(folder.path): \(error)"
            }
        }
        let expected: Bitmap
        do { expected = try Bitmap(contentsOfPNG: reference) } catch {
            return "cannot read the reference \(reference.path): \(error)" + keep(nil)
        }
        guard expected.width == image.width, expected.height == image.height else {
            return "\(reference.lastPathComponent) is \(expected.width)×\(expected.height), the render \(image.width)×\(image.height)"
                + keep(nil)
        }
        var differing = 0
        var diff = [UInt32](repeating: 0xFFFF_FFFF, count: image.width * image.height)
        for i in diff.indices where channelDistance(image.pixels[i], expected.pixels[i]) > tolerance.channel {
            differing += 1
            diff[i] = 0xFFFF_0000
        }
        let allowed = Int(Double(diff.count) * tolerance.share)
        guard differing > allowed else { return nil }
        return "\(differing) pixels differ from \(reference.lastPathComponent) by more than \(tolerance.channel) levels (allowed \(allowed))"
            + keep(Bitmap(width: image.width, height: image.height, pixels: diff))
    }

    /// The largest difference between the two pixels' channels, 0…255.
    static func channelDistance(_ a: UInt32, _ b: UInt32) -> Int {
        var d = 0
        for shift: UInt32 in [24, 16, 8, 0] {
            d = max(d, abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)))
        }
        return d
    }
}
