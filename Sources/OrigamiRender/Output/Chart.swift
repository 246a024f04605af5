import CCairo
import Foundation
import Origami

/// A line chart: one line per series against a shared x axis, with ticks, axis labels, a title and a legend.
/// Drawn with Cairo into PNG (at twice its size in points, for crisp text) or SVG.
public struct LineChart: Sendable {
    /// One line of the chart.
    public struct Series: Sendable {
        /// What the legend calls it.
        public var name: String
        /// The line's and its points' colour.
        public var color: Color
        /// In increasing x; a `nil` y leaves a gap.
        public var points: [(x: Double, y: Double?)]
        /// The points (by index) drawn as open circles rather than dots; `LineChart.openMeaning` says why.
        public var open: Set<Int>

        /// A series named `name`, drawn in `color` through `points`; `open` lists the points drawn as open circles.
        public init(name: String, color: Color, points: [(x: Double, y: Double?)], open: Set<Int> = []) {
            self.name = name; self.color = color; self.points = points; self.open = open
        }
    }

    /// Above the plot.
    public var title: String
    /// Under the x axis.
    public var xLabel: String
    /// Beside the y axis.
    public var yLabel: String
    /// The lines, drawn in order (the last on top).
    public var series: [Series]
    /// The y axis spans at least this range (`0…1` for brightness and alpha), more when a value lies outside.
    public var yRange: ClosedRange<Double>
    /// What an open circle means, for the legend (`nil`: no point is open).
    public var openMeaning: String?

    /// A chart titled `title` of `series`, with axis labels and the y range it spans at least.
    public init(title: String, xLabel: String, yLabel: String, series: [Series], yRange: ClosedRange<Double> = 0...1,
                openMeaning: String? = nil) {
        self.title = title; self.xLabel = xLabel; self.yLabel = yLabel; self.series = series; self.yRange = yRange
        self.openMeaning = openMeaning
    }

    static let size = CGSize(width: 720, height: 440)

    /// The first earlier series with the same values at every point, whose line hides this one's.
    private func sameAs(_ s: Series) -> String? {
        guard let i = series.firstIndex(where: { $0.name == s.name }) else { return nil }
        return series[..<i].first { other in
            other.points.count == s.points.count && zip(other.points, s.points).allSatisfy { a, b in
                a.x == b.x && (a.y == nil) == (b.y == nil) && abs((a.y ?? 0) - (b.y ?? 0)) <= 1e-9
            }
        }?.name
    }

    /// The chart as a PNG or SVG file's bytes (PDF is not offered: `format` must be `.png` or `.svg`).
    public func data(format: OutputFormat) throws -> Data {
        try ChartCanvas.draw(size: Self.size, format: format) { cr in try draw(cr) }
    }

    private func draw(_ cr: ChartCanvas) throws {
        let xs = series.flatMap { $0.points.map(\.x) }
        let ys = series.flatMap { $0.points.compactMap(\.y) }
        let xAxis = ChartAxis(low: xs.min() ?? 0, high: xs.max() ?? 1)
        let yAxis = ChartAxis(low: min(yRange.lowerBound, ys.min() ?? yRange.lowerBound),
                              high: max(yRange.upperBound, ys.max() ?? yRange.upperBound))
        let legendWidth = 150.0
        let plot = CGRect(x: 72, y: 48, width: Self.size.width - 72 - 24 - legendWidth, height: Self.size.height - 48 - 62)
        cr.frame(plot, title: title, xLabel: xLabel, yLabel: yLabel, xAxis: xAxis, yAxis: yAxis)
        func point(_ x: Double, _ y: Double) -> CGPoint {
            CGPoint(x: plot.minX + xAxis.fraction(x) * plot.width, y: plot.maxY - yAxis.fraction(y) * plot.height)
        }
        for s in series {
            // Slightly translucent, so a line under another still shows where they part.
            cr.setColor(Color(red: s.color.red, green: s.color.green, blue: s.color.blue, alpha: 0.8))
            var drawing = false
            for p in s.points {
                guard let y = p.y else { drawing = false; continue }
                let q = point(p.x, y)
                if drawing { cr.lineTo(q) } else { cr.moveTo(q) }
                drawing = true
            }
            cr.stroke(width: 2)
        }
        // Markers after every line, open ones first: where two faces have the same value (a face and its
        // opposite seen from behind, under two-sided lighting), the one that is seen shows on top.
        for open in [true, false] {
            for s in series {
                for (i, p) in s.points.enumerated() where s.open.contains(i) == open {
                    guard let y = p.y else { continue }
                    if open {
                        cr.setColor(.white)
                        cr.dot(point(p.x, y), radius: 3.5)
                        cr.setColor(s.color)
                        cr.ring(point(p.x, y), radius: 3.5)
                    } else {
                        cr.setColor(s.color)
                        cr.dot(point(p.x, y), radius: 3.5)
                    }
                }
            }
        }
        // The legend: a short line in each series' colour and its name.
        var y = plot.minY + 8
        for s in series {
            cr.setColor(s.color)
            cr.moveTo(CGPoint(x: plot.maxX + 16, y: y)); cr.lineTo(CGPoint(x: plot.maxX + 40, y: y))
            cr.stroke(width: 3)
            cr.setColor(Color(white: 0.1))
            cr.text(s.name + (sameAs(s).map { " (= \($0))" } ?? ""), at: CGPoint(x: plot.maxX + 46, y: y), size: 12,
                    align: .left, middle: true)
            y += 20
        }
        if let openMeaning {
            y += 6
            cr.setColor(Color(white: 0.3))
            cr.ring(CGPoint(x: plot.maxX + 28, y: y), radius: 3.5)
            cr.text(openMeaning, at: CGPoint(x: plot.maxX + 46, y: y), size: 11, align: .left, middle: true)
            cr.setColor(Color(white: 0.3))
            cr.dot(CGPoint(x: plot.maxX + 28, y: y + 18), radius: 3.5)
            cr.text("seen", at: CGPoint(x: plot.maxX + 46, y: y + 18), size: 11, align: .left, middle: true)
        }
        try cr.check("draw the chart")
    }
}

/// A heat map: one cell per (x, y) pair coloured by its value on a scale shown beside it.
public struct HeatMap: Sendable {
    /// Above the map.
    public var title: String
    /// Under the x axis.
    public var xLabel: String
    /// Beside the y axis.
    public var yLabel: String
    /// Beside the colour scale.
    public var valueLabel: String
    /// The columns' x values, left to right.
    public var xValues: [Double]
    /// The rows' y values (the y axis runs upward).
    public var yValues: [Double]
    /// `values[j][i]` is at `xValues[i]`, `yValues[j]`; `nil` leaves a cell grey.
    public var values: [[Double?]]
    /// The values at the two ends of the colour scale; values outside are drawn in the end colours.
    public var valueRange: ClosedRange<Double>

    /// A heat map of `values` over the `xValues` × `yValues` grid, with its labels and colour scale range.
    public init(title: String, xLabel: String, yLabel: String, valueLabel: String, xValues: [Double], yValues: [Double],
                values: [[Double?]], valueRange: ClosedRange<Double> = 0...1) {
        self.title = title; self.xLabel = xLabel; self.yLabel = yLabel; self.valueLabel = valueLabel
        self.xValues = xValues; self.yValues = yValues; self.values = values; self.valueRange = valueRange
    }

    /// Viridis-like: dark blue (low) through teal and green to yellow (high), readable in grey too.
    public static func color(at t: Double) -> Color {
        let stops: [(Double, Double, Double)] = [(0.267, 0.005, 0.329), (0.230, 0.322, 0.546), (0.128, 0.567, 0.551),
                                                 (0.369, 0.789, 0.383), (0.993, 0.906, 0.144)]
        let u = min(1, max(0, t.isFinite ? t : 0)) * Double(stops.count - 1)
        let i = min(stops.count - 2, Int(u)), f = u - Double(i)
        let a = stops[i], b = stops[i + 1]
        return Color(red: a.0 + (b.0 - a.0) * f, green: a.1 + (b.1 - a.1) * f, blue: a.2 + (b.2 - a.2) * f, alpha: 1)
    }

    /// The heat map as a PNG or SVG file's bytes (PDF is not offered: `format` must be `.png` or `.svg`).
    public func data(format: OutputFormat) throws -> Data {
        try ChartCanvas.draw(size: LineChart.size, format: format) { cr in try draw(cr) }
    }

    private func draw(_ cr: ChartCanvas) throws {
        let scaleWidth = 110.0
        let plot = CGRect(x: 72, y: 48, width: LineChart.size.width - 72 - 24 - scaleWidth,
                          height: LineChart.size.height - 48 - 62)
        // Cells centred on their values; the axes span the first cell's left edge to the last one's right.
        let xAxis = ChartAxis(cellsAt: xValues), yAxis = ChartAxis(cellsAt: yValues)
        cr.frame(plot, title: title, xLabel: xLabel, yLabel: yLabel, xAxis: xAxis, yAxis: yAxis, grid: false)
        let span = valueRange.upperBound - valueRange.lowerBound
        for j in yValues.indices {
            for i in xValues.indices {
                let (x0, x1) = xAxis.cell(i, of: xValues), (y0, y1) = yAxis.cell(j, of: yValues)
                let rect = CGRect(x: plot.minX + x0 * plot.width, y: plot.maxY - y1 * plot.height,
                                  width: (x1 - x0) * plot.width, height: (y1 - y0) * plot.height)
                let v = j < values.count && i < values[j].count ? values[j][i] : nil
                cr.setColor(v.map { Self.color(at: span > 0 ? ($0 - valueRange.lowerBound) / span : 0.5) } ?? Color(white: 0.8))
                // Half a point over each edge, so antialiasing leaves no seam between neighbours.
                cr.fill(rect.insetBy(dx: -0.5, dy: -0.5))
            }
        }
        cr.setColor(Color(white: 0.15))
        cr.outline(plot)
        // The colour scale, low at the bottom, with its ticks and label.
        let bar = CGRect(x: plot.maxX + 24, y: plot.minY, width: 18, height: plot.height)
        let steps = 64
        for k in 0..<steps {
            cr.setColor(Self.color(at: (Double(k) + 0.5) / Double(steps)))
            cr.fill(CGRect(x: bar.minX, y: bar.maxY - Double(k + 1) * bar.height / Double(steps), width: bar.width,
                           height: bar.height / Double(steps) + 0.5))
        }
        cr.setColor(Color(white: 0.1))
        let scale = ChartAxis(low: valueRange.lowerBound, high: valueRange.upperBound)
        for t in scale.ticks {
            let y = bar.maxY - scale.fraction(t) * bar.height
            cr.moveTo(CGPoint(x: bar.maxX, y: y)); cr.lineTo(CGPoint(x: bar.maxX + 4, y: y))
            cr.stroke(width: 1)
            cr.text(ChartAxis.label(t), at: CGPoint(x: bar.maxX + 7, y: y), size: 11, align: .left, middle: true)
        }
        cr.text(valueLabel, at: CGPoint(x: bar.minX, y: bar.minY - 10), size: 11, align: .left, middle: false)
        try cr.check("draw the heat map")
    }
}

/// A numeric axis with "nice" ticks (1, 2 or 5 × 10ⁿ apart).
struct ChartAxis {
    let low: Double
    let high: Double

    init(low: Double, high: Double) {
        if high > low { self.low = low; self.high = high } else { self.low = low - 1; self.high = high + 1 }
    }

    /// An axis whose cells are centred on `values` (sorted), each as wide as the gap to its neighbours.
    init(cellsAt values: [Double]) {
        guard let first = values.first, let last = values.last, values.count > 1 else {
            let v = values.first ?? 0
            self.init(low: v - 0.5, high: v + 0.5)
            return
        }
        self.init(low: first - (values[1] - first) / 2, high: last + (last - values[values.count - 2]) / 2)
    }

    func fraction(_ v: Double) -> Double { (v - low) / (high - low) }

    /// Where cell `i` of `values` starts and ends, as fractions of the axis.
    func cell(_ i: Int, of values: [Double]) -> (Double, Double) {
        let v = values[i]
        let before = i > 0 ? (v + values[i - 1]) / 2 : low
        let after = i + 1 < values.count ? (v + values[i + 1]) / 2 : high
        return (fraction(before), fraction(after))
    }

    var step: Double {
        let raw = (high - low) / 5
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let f = raw / magnitude
        return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * magnitude
    }

    var ticks: [Double] {
        let s = step
        let first = (low / s).rounded(.up)
        let last = (high / s + 1e-9).rounded(.down)
        guard first <= last, last - first < 100 else { return [] }
        return stride(from: first, through: last, by: 1).map { $0 * s }
    }

    /// A tick label: as few decimals as tell the ticks apart.
    static func label(_ v: Double) -> String {
        let r = (v * 1e6).rounded() / 1e6
        if r == r.rounded() { return String(Int(r)) }
        var s = String(format: "%.4f", r)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }
}

/// A Cairo context for charts: a PNG (twice the size, for crisp text) or SVG page, and the few drawing calls
/// charts make, each on the context whose status `check` reads afterwards (Cairo's errors are sticky).
final class ChartCanvas {
    private let cr: CairoContext
    private var h: OpaquePointer { cr.handle }

    private init(_ cr: CairoContext) { self.cr = cr }

    static func draw(size: CGSize, format: OutputFormat, _ body: (ChartCanvas) throws -> Void) throws -> Data {
        let w = Double(size.width), hgt = Double(size.height)
        switch format {
        case .png:
            let scale = 2.0
            let width = Int(w * scale), height = Int(hgt * scale)
            let surface = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: width, height: height)
            let canvas = ChartCanvas(try CairoContext(surface))
            try canvas.cr.scale(by: scale)
            try canvas.background(size)
            try body(canvas)
            try canvas.check("draw the chart")
            // Encoded from the surface in place: a copy would double the chart's memory (5 MB at 2880 × 1760).
            return try surface.withPixels { data, stride in
                try PNGWriter.encode(width: width, height: height, compression: .balanced) { y in
                    UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                }
            }
        case .svg:
            let sink = StreamSink()
            let surface = try CairoSurface.streaming(into: sink, operation: "cairo_svg_surface_create_for_stream") {
                cairo_svg_surface_create_for_stream($0, $1, w, hgt)
            }
            do {
                let canvas = ChartCanvas(try CairoContext(surface))
                try canvas.background(size)
                try body(canvas)
                try canvas.check("draw the chart")
            }
            try surface.finish()
            return SVGIdentifiers.normalized(sink.data)
        case .pdf:
            throw RenderError.cairo(operation: "chart", status: "charts are written as PNG or SVG")
        }
    }

    private func background(_ size: CGSize) throws {
        setColor(.white)
        fill(CGRect(origin: .zero, size: size))
        cairo_select_font_face(h, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        try check("cairo_select_font_face")
    }

    func check(_ operation: String) throws { try cr.check(operation) }

    func setColor(_ c: Color) { cairo_set_source_rgba(h, c.red, c.green, c.blue, c.alpha) }
    func moveTo(_ p: CGPoint) { cairo_move_to(h, Double(p.x), Double(p.y)) }
    func lineTo(_ p: CGPoint) { cairo_line_to(h, Double(p.x), Double(p.y)) }

    func stroke(width: Double) {
        cairo_set_line_width(h, width)
        cairo_set_line_join(h, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(h, CAIRO_LINE_CAP_ROUND)
        cairo_stroke(h)
    }

    func fill(_ r: CGRect) {
        cairo_rectangle(h, Double(r.minX), Double(r.minY), Double(r.width), Double(r.height))
        cairo_fill(h)
    }

    func dot(_ p: CGPoint, radius: Double) {
        cairo_new_sub_path(h)
        cairo_arc(h, Double(p.x), Double(p.y), radius, 0, 2 * .pi)
        cairo_fill(h)
    }

    func outline(_ r: CGRect) {
        cairo_rectangle(h, Double(r.minX), Double(r.minY), Double(r.width), Double(r.height))
        stroke(width: 1)
    }

    func ring(_ p: CGPoint, radius: Double) {
        cairo_new_sub_path(h)
        cairo_arc(h, Double(p.x), Double(p.y), radius, 0, 2 * .pi)
        stroke(width: 1.5)
    }

    enum Align { case left, center, right }

    /// `middle`: `at.y` is the text's vertical middle rather than its baseline.
    func text(_ s: String, at p: CGPoint, size: Double, align: Align, middle: Bool, bold: Bool = false, rotated: Bool = false) {
        cairo_save(h)
        cairo_select_font_face(h, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(h, size)
        var e = cairo_text_extents_t()
        cairo_text_extents(h, s, &e)
        cairo_translate(h, Double(p.x), Double(p.y))
        if rotated { cairo_rotate(h, -.pi / 2) }
        let dx: Double = align == .left ? 0 : align == .center ? -e.x_advance / 2 : -e.x_advance
        let dy: Double = middle ? -(e.y_bearing + e.height / 2) : 0
        cairo_move_to(h, dx, dy)
        cairo_show_text(h, s)
        cairo_restore(h)
    }

    /// The plot's frame, light grid, ticks with labels, axis labels and title.
    func frame(_ plot: CGRect, title: String, xLabel: String, yLabel: String, xAxis: ChartAxis, yAxis: ChartAxis,
               grid: Bool = true) {
        let dark = Color(white: 0.15)
        for t in xAxis.ticks {
            let x = plot.minX + xAxis.fraction(t) * plot.width
            if grid { setColor(Color(white: 0.9)); moveTo(CGPoint(x: x, y: plot.minY)); lineTo(CGPoint(x: x, y: plot.maxY)); stroke(width: 1) }
            setColor(dark); moveTo(CGPoint(x: x, y: plot.maxY)); lineTo(CGPoint(x: x, y: plot.maxY + 5)); stroke(width: 1)
            text(ChartAxis.label(t), at: CGPoint(x: x, y: plot.maxY + 18), size: 11, align: .center, middle: false)
        }
        for t in yAxis.ticks {
            let y = plot.maxY - yAxis.fraction(t) * plot.height
            if grid { setColor(Color(white: 0.9)); moveTo(CGPoint(x: plot.minX, y: y)); lineTo(CGPoint(x: plot.maxX, y: y)); stroke(width: 1) }
            setColor(dark); moveTo(CGPoint(x: plot.minX - 5, y: y)); lineTo(CGPoint(x: plot.minX, y: y)); stroke(width: 1)
            text(ChartAxis.label(t), at: CGPoint(x: plot.minX - 8, y: y), size: 11, align: .right, middle: true)
        }
        setColor(dark)
        outline(plot)
        text(title, at: CGPoint(x: plot.midX, y: 28), size: 15, align: .center, middle: false, bold: true)
        text(xLabel, at: CGPoint(x: plot.midX, y: plot.maxY + 44), size: 12, align: .center, middle: false)
        text(yLabel, at: CGPoint(x: 20, y: plot.midY), size: 12, align: .center, middle: true, rotated: true)
    }
}
