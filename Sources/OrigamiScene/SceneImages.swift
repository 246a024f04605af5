import Foundation
import Origami
import OrigamiRender

/// What loading a scene does with the images (`contents`) its layers show.
public enum ImageLoading: Hashable, Sendable {
    /// Decode each image into the `contents` of the layers that show it: each file once per process, one
    /// bitmap shared by all of them.
    case decode
    /// Read only each image's PNG header (33 bytes): its size is checked against the limits and the budget and
    /// a missing, foreign or damaged header is still a located error, but no pixel is decoded and `contents`
    /// stays `nil`. For what needs only the layers' geometry: hit testing, inspecting.
    case sizeOnly
}

/// The images one scene load reads, and the decoded pixels they add up to.
///
/// Each file (however many layers show it, however it is spelled) counts once against
/// `SceneLimits.imagePixelBudget`, from its header, before anything is decoded.
final class SceneImages {
    /// Why an image cannot be used, for the reader to report at its `contents` key.
    struct Problem: Error {
        let message: String
        var hint: String? = nil
    }

    let loading: ImageLoading
    let limits: SceneLimits
    let cache: ImageCache
    /// The files this scene has read: the pixels their headers declare, and the decoded image once there is one.
    private var seen: [ImageCache.FileIdentity: (pixels: Int, bitmap: Bitmap?)] = [:]
    private var pixels = 0

    init(_ loading: ImageLoading, limits: SceneLimits, cache: ImageCache = .shared) {
        self.loading = loading; self.limits = limits; self.cache = cache
    }

    static let budgetHint = "raise the budget with --max-image-pixels; an image "
        + "shown by several layers counts once"

    /// The image at `url` (`name` is how messages call it): decoded, or `nil` when loading `.sizeOnly`.
    func image(at url: URL, name: String) throws(Problem) -> Bitmap? {
        func problem(_ reason: String, hint: String? = nil) -> Problem {
            Problem(message: "cannot read image `\(name)`: \(reason)", hint: hint)
        }
        func reason(_ error: any Error) -> Problem {
            switch error {
            case let RenderError.unreadableImage(_, reason): return problem(reason)
            case RenderError.limitExceeded:
                return problem("\(error)")   // the message says what to change
            default: return problem("\(error)")
            }
        }
        guard let id = ImageCache.FileIdentity(url) else { throw problem("it cannot be read") }
        if let bitmap = seen[id]?.bitmap { return bitmap }
        if seen[id] == nil {
            guard id.size <= Int64(limits.render.maxImageBytes) else {
                throw reason(RenderError.limitExceeded(limit: .maxImageBytes, value: Int(id.size),
                                                       maximum: limits.render.maxImageBytes))
            }
            let header: PNGHeader
            do {
                header = try PNGHeader(contentsOf: url)
                try limits.render.checkImage(width: header.width, height: header.height)
            } catch { throw reason(error) }
            let others = pixels
            guard header.pixelCount <= limits.imagePixelBudget - others else {
                let size = "\(header.width)×\(header.height) = \(header.pixelCount) pixels"
                let over = others == 0
                    ? "over the budget of \(limits.imagePixelBudget) for the scene's images"
                    : "which with the scene's other images (\(others) pixels) is over the budget of \(limits.imagePixelBudget)"
                throw Problem(message: "image `\(name)` has \(size), \(over)", hint: Self.budgetHint)
            }
            pixels += header.pixelCount
            seen[id] = (header.pixelCount, nil)
        }
        guard loading == .decode, let declared = seen[id]?.pixels else { return nil }
        // The decode may not exceed what the header promised, even if the file is replaced in between.
        var decodeLimits = limits.render
        decodeLimits.maxImagePixels = min(decodeLimits.maxImagePixels, declared)
        do {
            let bitmap = try cache.bitmap(for: id) { try Bitmap(contentsOfPNG: url, limits: decodeLimits) }
            seen[id]?.bitmap = bitmap
            return bitmap
        } catch { throw reason(error) }
    }
}
