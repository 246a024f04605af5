import Foundation
import Origami
import OrigamiRender

/// A contact sheet of an animation: up to `cells` evenly spaced frames (the first always), each labelled with
/// its scene time, read from the frames as they are rendered. Only the chosen frames' thumbnails are kept.
public struct FilmStrip: Sendable {
    /// The frames the strip is taken from.
    public let range: FrameRange
    /// The frames shown, in order.
    public let frames: [Int]
    let layout: ContactSheet.Layout
    private var thumbnails: [Int: Bitmap] = [:]

    /// `frameSize`: each frame's size in pixels; `thumbnail`: the largest side of a thumbnail.
    public init(range: FrameRange, cells: Int, thumbnail: Int, frameSize: (width: Int, height: Int)) {
        self.range = range
        let n = max(1, min(cells, range.count))
        // Cell k shows frame ⌊k·count/n⌋: evenly spaced, starting at the first frame.
        frames = (0..<n).map { $0 * range.count / n }
        layout = ContactSheet.Layout(count: n, preferredColumns: min(n, 6), labelLines: 1, thumbnail: thumbnail,
                                     frame: frameSize)
    }

    /// The sheet's size in pixels, known before any frame is rendered.
    public var pixelSize: (width: Int, height: Int) { layout.pixelSize }

    /// Keeps a thumbnail of frame `index` when the strip shows it.
    public mutating func offer(_ frame: Bitmap, index: Int) {
        guard frames.contains(index) else { return }
        thumbnails[index] = frame.shrunk(toFit: Int(layout.cell))
    }

    /// `t = 1.25 s`
    public func label(ofFrame index: Int) -> String {
        "t = " + String(format: "%.3f", range.time(ofFrame: index)).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression) + " s"
    }

    /// Writes the sheet as a PNG through `WritableDestination`, once every chosen frame has been offered.
    public func write(to url: URL, protecting protectedFiles: [ProtectedFile] = []) throws {
        let thumbs = try frames.map { index in
            guard let t = thumbnails[index] else { throw FrameOutputError("frame \(index + 1) of the film strip was not rendered") }
            return t
        }
        try ContactSheet.write(thumbs, labels: frames.map(label(ofFrame:)), layout: layout, to: url,
                               protecting: protectedFiles)
    }
}
