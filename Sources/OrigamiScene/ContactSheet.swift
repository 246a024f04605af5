import Foundation
import Origami
import OrigamiRender

/// A labelled grid of thumbnails — a sweep's variants, an animation's film strip — composed as a layer tree
/// (image layers and text layers) and rendered by Origami itself. Callers shrink each frame to a thumbnail as
/// it arrives, so memory holds the sheet and its thumbnails, never all the frames.
struct ContactSheet {
    let sweep: Sweep
    let frames: URL
    let thumbnail: Int

    /// The sheet stays within this many pixels a side, shrinking thumbnails for large sweeps.
    static let maxSide = 8192
    /// A sweep's sheet is at most this tall (the largest image Cairo and many viewers open); it is rendered a
    /// band at a time, so its height costs no memory.
    static let maxHeight = 32767
    /// The pixels of one band of a sweep's sheet (1 Mpx: 4 MiB, times the renderer's copies).
    static let bandPixels = 1 << 20
    /// The widest tile a band is rendered in.
    static let tileWidth = 1024
    /// Thumbnails smaller than this are hard to read: a tall grid switches to a square-ish one rather.
    static let minReadable = 64
    static let fontSize = 11.0

    /// Where the cells go. It depends only on the grid's shape, the thumbnail size and the frames' size, so the
    /// sheet's size is known before any frame is rendered.
    struct Layout {
        let count: Int
        let columns: Int
        let rows: Int
        static let gap = 8.0
        var gap: Double { Self.gap }
        let labelHeight: Double
        /// The side of the square each thumbnail fits in.
        let cell: Double
        /// The tallest thumbnail.
        var cellHeight: Double

        /// `count` cells of `labelLines` lines each; `preferredColumns` when it is between 2 and 12, else a
        /// square-ish grid. `frame`: the frames' size in pixels, when known, to size the thumbnails.
        init(count: Int, preferredColumns: Int, labelLines: Int, thumbnail: Int, frame: (width: Int, height: Int)?) {
            self.count = count
            columns = max(1, preferredColumns > 1 && preferredColumns <= 12 ? preferredColumns
                                                                            : Int(Double(count).squareRoot().rounded(.up)))
            rows = (count + columns - 1) / columns
            labelHeight = Double(labelLines) * ContactSheet.fontSize * 1.3 + 6
            cell = max(16, Double(min(thumbnail, ContactSheet.maxSide / columns - Int(Self.gap))))
            let side = Int(cell)
            cellHeight = frame.map { Double(Bitmap.shrunkSize(width: $0.width, height: $0.height, toFit: side).height) } ?? cell
        }

        /// A sweep's grid: one column per value of its last parameter, with thumbnails of `thumbnail` pixels.
        /// A grid that would make the sheet taller than `ContactSheet.maxHeight` gets the largest thumbnails
        /// that fit; when those would be smaller than `minReadable`, a square-ish grid instead (then `note`
        /// says what changed).
        init(sweep: Sweep, thumbnail: Int, frame: (width: Int, height: Int)?) {
            let lastCount = sweep.parameters.last?.values.count ?? sweep.variantCount
            func make(_ columns: Int, _ side: Int) -> Layout {
                Layout(count: sweep.variantCount, preferredColumns: columns, labelLines: sweep.parameters.count,
                       thumbnail: side, frame: frame)
            }
            let wanted = make(lastCount, thumbnail)
            guard wanted.pixelSize.height > ContactSheet.maxHeight else { self = wanted; return }
            /// The largest side, down to 16, at which `columns` fit the height (16 when none does).
            func fitting(_ columns: Int) -> Layout {
                var (low, high) = (16, thumbnail)
                while low < high {
                    let mid = (low + high + 1) / 2
                    if make(columns, mid).pixelSize.height <= ContactSheet.maxHeight { low = mid } else { high = mid - 1 }
                }
                return make(columns, low)
            }
            var fitted = fitting(lastCount)
            if fitted.cell < Double(ContactSheet.minReadable) || fitted.pixelSize.height > ContactSheet.maxHeight {
                fitted = fitting(0)
            }
            let (w, h) = wanted.pixelSize
            fitted.note = "the contact sheet would be \(w)×\(h) pixels, over \(ContactSheet.maxHeight) tall: "
                + "its thumbnails are \(Int(fitted.cell)) pixels (not \(Int(wanted.cell)))"
                + (fitted.columns != wanted.columns ? " in \(fitted.columns) columns (not \(wanted.columns))" : "")
            self = fitted
        }

        /// Why the sheet is not laid out as asked, when it is not.
        var note: String?

        var width: Double { gap + Double(columns) * (cell + gap) }
        var height: Double { gap + Double(rows) * (cellHeight + labelHeight + gap) }

        /// The sheet in whole pixels, rounded as the renderer sizes a canvas (forgiving the rounding in the sums).
        var pixelSize: (width: Int, height: Int) {
            (Int((width - 1e-9).rounded(.up)), Int((height - 1e-9).rounded(.up)))
        }

        /// The top-left corner of cell `i` (0-based).
        func origin(of i: Int) -> CGPoint {
            CGPoint(x: gap + Double(i % columns) * (cell + gap), y: gap + Double(i / columns) * (cellHeight + labelHeight + gap))
        }
    }

    /// Writes the sheet a band of cell rows at a time: each band's thumbnails are read from the frames and
    /// its labels laid out, rendered, streamed into the PNG and dropped, so memory holds one band (its pixels,
    /// thumbnails and glyph outlines) whatever the number of variants. Returns the layout's note, if any.
    @discardableResult
    func write(to url: URL) throws -> String? {
        // Rows as tall as the tallest thumbnail (a canvas sized by a parameter gives frames of several sizes).
        let headers = try (1...sweep.variantCount).map { v in
            try PNGHeader(contentsOf: frames.appendingPathComponent(sweep.frameName(v) + ".png"))
        }
        var layout = Layout(sweep: sweep, thumbnail: thumbnail, frame: (headers[0].width, headers[0].height))
        for header in headers {
            let side = Bitmap.shrunkSize(width: header.width, height: header.height, toFit: Int(layout.cell))
            layout.cellHeight = max(layout.cellHeight, Double(side.height))
        }
        let (width, height) = layout.pixelSize
        let writer = try PNGRowWriter(WritableDestination(url, protecting: sweep.protectedFiles), width: width,
                                      height: height, opaque: true, compression: RenderOptions().pngCompression)
        let pitch = layout.cellHeight + layout.labelHeight + layout.gap
        let cellWidth = layout.cell + layout.gap
        // Bands of at most `bandPixels` (whatever the width), each rendered in tiles at most `tileWidth` wide:
        // a tile's layer tree holds the few cells it crosses, so the labels' glyph outlines in memory at once
        // do not grow with the number of columns.
        let band = max(16, min(height, Self.bandPixels / width))
        var top = 0
        while top < height {
            let bottom = min(height, top + band)
            // The grid rows whose thumbnail or label reach into [top, bottom).
            let reach = layout.cellHeight + 3 + layout.labelHeight
            let firstRow = max(0, Int(((Double(top) - layout.gap - reach) / pitch).rounded(.down)))
            let lastRow = min(layout.rows - 1, Int(((Double(bottom) - layout.gap) / pitch).rounded(.down)))
            let cells = firstRow > lastRow ? [] : Array((firstRow * layout.columns)..<min(layout.count, (lastRow + 1) * layout.columns))
            var pixels = [UInt32](repeating: 0, count: width * (bottom - top))
            var left = 0
            while left < width {
                let right = min(width, left + Self.tileWidth)
                let root = Layer(frame: CGRect(x: 0, y: 0, width: Double(right - left), height: Double(bottom - top)))
                root.backgroundColor = .white
                for i in cells {
                    let o = layout.origin(of: i)
                    guard o.x < Double(right), o.x + cellWidth > Double(left) else { continue }
                    // Read again in each band it reaches rather than kept: a row of thumbnails is as large as a
                    // band, for every column.
                    let shows = o.y < Double(bottom) && o.y + layout.cellHeight + 1 > Double(top)
                    let labelTop = o.y + layout.cellHeight + 3
                    guard shows || (labelTop < Double(bottom) && labelTop + layout.labelHeight > Double(top)) else { continue }
                    let thumb = try shows ? Bitmap(contentsOfPNG: frames.appendingPathComponent(sweep.frameName(i + 1) + ".png"))
                        .shrunk(toFit: Int(layout.cell)) : nil
                    try Self.addCell(i, thumb: thumb, label: "#\(i + 1)  " + sweep.label(ofVariant: i + 1), layout: layout,
                                     offset: CGPoint(x: Double(left), y: Double(top)), to: root)
                }
                let tile = try Renderer.render(root, size: CGSize(width: Double(right - left), height: Double(bottom - top)))
                for y in 0..<(bottom - top) {
                    pixels.replaceSubrange((y * width + left)..<(y * width + right),
                                           with: tile.pixels[(y * tile.width)..<(y * tile.width + right - left)])
                }
                left = right
            }
            try writer.append(pixels[...])
            top = bottom
        }
        try writer.finish()
        return layout.note
    }

    /// Adds cell `i`'s thumbnail and label to `root`, placed `offset` up and left of where the whole sheet has it.
    /// Without `thumb` (it is not in the band) only the label.
    private static func addCell(_ i: Int, thumb: Bitmap?, label text: String, layout: Layout, offset: CGPoint,
                                to root: Layer) throws {
        let o = CGPoint(x: layout.origin(of: i).x - offset.x, y: layout.origin(of: i).y - offset.y)
        if let thumb {
            let image = Layer(frame: CGRect(x: o.x + (layout.cell - Double(thumb.width)) / 2, y: o.y,
                                            width: Double(thumb.width), height: Double(thumb.height)))
            image.contents = thumb
            image.borderWidth = 1
            image.borderColor = Color(white: 0.8)
            try root.addSublayer(image)
        }
        let label = TextLayer()
        label.frame = CGRect(x: o.x, y: o.y + layout.cellHeight + 3, width: layout.cell, height: layout.labelHeight)
        label.string = text
        label.fontSize = fontSize
        label.foregroundColor = Color(white: 0.15)
        try root.addSublayer(label)
    }

    /// Renders `thumbs` (each already shrunk to fit `layout.cell`) with their labels into a PNG at `url`.
    static func write(_ thumbs: [Bitmap], labels: [String], layout: Layout, to url: URL,
                      protecting protectedFiles: [ProtectedFile]) throws {
        var layout = layout
        layout.cellHeight = Double(thumbs.map(\.height).max() ?? Int(layout.cell))
        let root = Layer(frame: CGRect(x: 0, y: 0, width: layout.width, height: layout.height))
        root.backgroundColor = .white
        for (i, (thumb, text)) in zip(thumbs, labels).enumerated() {
            try addCell(i, thumb: thumb, label: text, layout: layout, offset: .zero, to: root)
        }
        try Renderer.write(root, size: CGSize(width: layout.width, height: layout.height), to: url, format: .png,
                           protecting: protectedFiles)
    }
}

extension Bitmap {
    /// The size `shrunk(toFit:)` gives a `width` × `height` bitmap.
    static func shrunkSize(width: Int, height: Int, toFit side: Int) -> (width: Int, height: Int) {
        let factor = max(Double(width) / Double(side), Double(height) / Double(side))
        guard factor > 1 else { return (width, height) }
        return (max(1, Int((Double(width) / factor).rounded())), max(1, Int((Double(height) / factor).rounded())))
    }

    /// An area-averaged copy no larger than `side` × `side`, aspect kept (the bitmap itself when it fits).
    /// Each output pixel is the mean of the source area it covers, partial pixels weighted by their coverage;
    /// premultiplied channels average correctly as they are.
    func shrunk(toFit side: Int) -> Bitmap {
        let (w, h) = Self.shrunkSize(width: width, height: height, toFit: side)
        guard (w, h) != (width, height) else { return self }
        // Horizontal pass into rows of w pixels × 4 Double channels, then the vertical pass. A sheet shrinks
        // every variant's frame (a 1 000-variant sweep several thousand times), so both passes run over flat
        // tables and plain accumulators, with no allocation per pixel.
        let xs = Spans(count: w, scale: Double(width) / Double(w), limit: width)
        let ys = Spans(count: h, scale: Double(height) / Double(h), limit: height)
        var rows = [Double](repeating: 0, count: height * w * 4)
        rows.withUnsafeMutableBufferPointer { rows in
            pixels.withUnsafeBufferPointer { pixels in
                for y in 0..<height {
                    let line = y * width
                    for x in 0..<w {
                        var acc = (0.0, 0.0, 0.0, 0.0)
                        for k in xs.start[x]..<xs.start[x + 1] {
                            let p = pixels[line + xs.index[k]], weight = xs.weight[k]
                            acc.0 += Double(p >> 24) * weight; acc.1 += Double((p >> 16) & 0xFF) * weight
                            acc.2 += Double((p >> 8) & 0xFF) * weight; acc.3 += Double(p & 0xFF) * weight
                        }
                        let o = (y * w + x) * 4
                        rows[o] = acc.0; rows[o + 1] = acc.1; rows[o + 2] = acc.2; rows[o + 3] = acc.3
                    }
                }
            }
        }
        /// `v` rounded half away from zero, clamped to 0...255, without libm's `round` (a call per channel): the
        /// sums are never negative, `Double(Int(v))` is `v`'s floor, and `v` minus its floor is exact.
        func byte(_ v: Double) -> UInt32 {
            guard v > 0 else { return 0 }
            guard v < 255 else { return 255 }
            let floor = Int(v)
            return UInt32(v - Double(floor) >= 0.5 ? floor + 1 : floor)
        }
        var out = [UInt32](repeating: 0, count: w * h)
        rows.withUnsafeBufferPointer { rows in
            out.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    for x in 0..<w {
                        var acc = (0.0, 0.0, 0.0, 0.0)
                        for k in ys.start[y]..<ys.start[y + 1] {
                            let o = (ys.index[k] * w + x) * 4, weight = ys.weight[k]
                            acc.0 += rows[o] * weight; acc.1 += rows[o + 1] * weight
                            acc.2 += rows[o + 2] * weight; acc.3 += rows[o + 3] * weight
                        }
                        out[y * w + x] = byte(acc.0) << 24 | byte(acc.1) << 16 | byte(acc.2) << 8 | byte(acc.3)
                    }
                }
            }
        }
        return Bitmap(width: w, height: h, pixels: out) ?? self
    }
}

/// Which source pixels each of `count` output pixels covers along one axis, and how much of each: output `i`
/// covers [i·scale, (i + 1)·scale), and source pixel `j` weighs the part of [j, j + 1) inside it, over `scale`.
/// Entries `start[i]..<start[i + 1]` of `index` and `weight` are output `i`'s, in increasing `j`.
private struct Spans {
    var start: [Int] = [0]
    var index: [Int] = []
    var weight: [Double] = []

    init(count: Int, scale: Double, limit: Int) {
        start.reserveCapacity(count + 1)
        for i in 0..<count {
            let a = Double(i) * scale, b = Double(i + 1) * scale
            for j in Int(a)..<min(limit, Int(b.rounded(.up))) {
                index.append(j)
                weight.append((min(b, Double(j + 1)) - max(a, Double(j))) / scale)
            }
            start.append(index.count)
        }
    }
}

