import Foundation
import Origami
import OrigamiRender

/// A sweep's `plots/`: for each varied numeric parameter, each face's brightness and overlay alpha against it
/// (PNG and SVG, and the plotted numbers as CSV), and for a grid of two numeric parameters a heat map of each
/// face's brightness.
///
/// Against one parameter of a grid, the other parameters stay at one value each (the title says which): the
/// scene's own value of a parameter when the grid has it (its `params` default), else the parameter's first
/// value. In a zipped sweep every variant is a point.
struct SweepPlots {
    let sweep: Sweep
    let records: [PlotRecord]

    /// Variant `n`'s record: `records` are in variant order, so a 10 000-variant heat map is no quadratic search.
    private func record(_ n: Int) -> PlotRecord? {
        records.indices.contains(n - 1) && records[n - 1].variant == n ? records[n - 1] : records.first { $0.variant == n }
    }

    /// What a face is called in legends: its layer name, prefixed by its solid's when several solids are lit.
    private func faceKey(_ f: PlotFace) -> String {
        let name = f.layerName ?? "layer \(f.treeIndex)"
        return severalSolids ? "\(f.solidName ?? "-").\(name)" : name
    }

    /// Worked out once: `faceKey` asks for every face of every variant.
    private let severalSolids: Bool

    init(sweep: Sweep, records: [PlotRecord]) {
        self.sweep = sweep; self.records = records
        var solids: Set<String?> = []
        for r in records { for f in r.faces { solids.insert(f.solidName) } }
        severalSolids = solids.count > 1
    }

    private static func brightness(_ f: PlotFace) -> Double { f.brightness }

    /// The numeric value of parameter `k` in each variant (`nil` when the parameter is not numeric).
    private func numbers(_ k: Int) -> [Double]? {
        var result: [Double] = []
        for v in sweep.parameters[k].values {
            guard case let .number(x) = v else { return nil }
            result.append(x)
        }
        return result
    }

    /// Files written, relative to `folder`.
    @discardableResult
    func write(into folder: URL) throws -> [String] {
        let plots = folder.appendingPathComponent("plots")
        do { try FileManager.default.createDirectory(at: plots, withIntermediateDirectories: true) } catch {
            throw SweepError("cannot create \(plots.path)")
        }
        let faces = orderedFaces()
        let colors = faceColors(faces)
        var written: [String] = []
        func put(_ data: Data, _ name: String) throws {
            try WritableDestination(plots.appendingPathComponent(name), protecting: sweep.protectedFiles).write(data)
            written.append("plots/" + name)
        }
        let numeric = sweep.parameters.indices.filter { numbers($0) != nil }
        for k in numeric {
            let p = sweep.parameters[k]
            let slice = variants(varying: k)
            let fixed = sweep.combination == .grid
                ? sweep.parameters.indices.filter { $0 != k }.map { "\(sweep.parameters[$0].path) = \(heldValue($0))" }
                : []
            let suffix = fixed.isEmpty ? "" : " (\(fixed.joined(separator: ", ")))"
            let stem = Self.fileStem(p.path)
            for (measure, title, label, value) in [
                ("brightness", "Brightness", "brightness (mean of R, G, B)", Self.brightness),
                ("overlay-alpha", "Overlay alpha", "overlay alpha", { (f: PlotFace) in f.overlayAlpha }),
            ] as [(String, String, String, (PlotFace) -> Double)] {
                var csv = ([p.path] + faces).map(csvField).joined(separator: ",") + "\n"
                var series = faces.map { LineChart.Series(name: $0, color: colors[$0] ?? .black, points: []) }
                for (x, record) in slice {
                    var row = [format(x)]
                    for (i, face) in faces.enumerated() {
                        let data = record.faces.first { faceKey($0) == face }
                        let y = data.map(value)
                        if data?.isSeenFromBehind == true { series[i].open.insert(series[i].points.count) }
                        series[i].points.append((x, y))
                        row.append(y.map { String($0) } ?? "")
                    }
                    csv += row.map(csvField).joined(separator: ",") + "\n"
                }
                let chart = LineChart(title: "\(title) against \(p.path)\(suffix)", xLabel: p.path, yLabel: label,
                                      series: series.map(Self.thinned), openMeaning: "seen from behind")
                try put(chart.data(format: .png), "\(measure)-vs-\(stem).png")
                try put(chart.data(format: .svg), "\(measure)-vs-\(stem).svg")
                try put(Data(csv.utf8), "\(measure)-vs-\(stem).csv")
            }
        }
        if sweep.combination == .grid, sweep.parameters.count == 2, numeric.count == 2 {
            try heatMaps(faces: faces, put: put)
        }
        return written
    }

    /// One heat map per face of its brightness over the grid of the two parameters (first across, second up).
    private func heatMaps(faces: [String], put: (Data, String) throws -> Void) throws {
        guard let a = numbers(0), let b = numbers(1) else { return }
        let xOrder = a.indices.sorted { a[$0] < a[$1] }, yOrder = b.indices.sorted { b[$0] < b[$1] }
        let px = sweep.parameters[0].path, py = sweep.parameters[1].path
        for face in faces {
            // Grid order: the last parameter varies fastest, so variant (i, j) is i·|b| + j + 1.
            let values: [[Double?]] = yOrder.map { j in
                xOrder.map { i in
                    let n = i * b.count + j + 1
                    return record(n)?.faces.first { faceKey($0) == face }.map(Self.brightness)
                }
            }
            let map = HeatMap(title: "Brightness of \(face)", xLabel: px, yLabel: py, valueLabel: "brightness",
                              xValues: xOrder.map { a[$0] }, yValues: yOrder.map { b[$0] }, values: values)
            let stem = "heatmap-brightness-\(Self.fileStem(face))-\(Self.fileStem(px))-\(Self.fileStem(py))"
            try put(map.data(format: .png), stem + ".png")
            try put(map.data(format: .svg), stem + ".svg")
        }
    }

    /// The value parameter `k` keeps in the plots against another parameter of a grid: the scene's own value
    /// (its declared default) when it is one of the grid's, else the first.
    private func heldValue(_ k: Int) -> SweepParameter.Value {
        let p = sweep.parameters[k]
        if let name = p.sceneParameterName, let declared = sweep.scene.parameters.first(where: { $0.name == name }),
           p.values.contains(.number(declared.defaultValue)) {
            return .number(declared.defaultValue)
        }
        return p.values[0]
    }

    /// The variants along parameter `k` (others at their held value in a grid), sorted by its value.
    private func variants(varying k: Int) -> [(x: Double, record: PlotRecord)] {
        var result: [(x: Double, record: PlotRecord)] = []
        for record in records {
            let values = sweep.values(ofVariant: record.variant)
            if sweep.combination == .grid {
                let others = sweep.parameters.indices.filter { $0 != k }
                guard others.allSatisfy({ values[$0] == heldValue($0) }) else { continue }
            }
            guard case let .number(x) = values[k] else { continue }
            result.append((x, record))
        }
        return result.sorted { $0.x < $1.x }
    }

    /// Faces in the order of the first variant's rows (tree order), then any that appear only later.
    private func orderedFaces() -> [String] {
        var seen: [String] = [], known: Set<String> = []
        for r in records { for f in r.faces where known.insert(faceKey(f)).inserted { seen.append(faceKey(f)) } }
        return seen
    }

    /// Each face's colour in the render, when it is distinct and dark enough to read on white; a palette
    /// colour otherwise.
    private func faceColors(_ faces: [String]) -> [String: Color] {
        let scene = try? sweep.scene(ofVariant: 1).instantiate()
        var result: [String: Color] = [:]
        var used: [Color] = []
        for face in faces {
            let name = face.split(separator: ".").last.map(String.init) ?? face
            var color = scene?.layer(named: name)?.backgroundColor
            if let c = color {
                let luminance = 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue
                if c.alpha < 0.5 || luminance > 0.8 || used.contains(c) { color = nil }
            }
            if color == nil {
                // The palette colour least like those already in the legend.
                func distance(_ a: Color, _ b: Color) -> Double {
                    let (r, g, b2) = (a.red - b.red, a.green - b.green, a.blue - b.blue)
                    return r * r + g * g + b2 * b2
                }
                color = Self.palette.max { x, y in
                    (used.map { distance(x, $0) }.min() ?? 1) < (used.map { distance(y, $0) }.min() ?? 1)
                }
            }
            let chosen = (color ?? .black).withAlpha(1)
            used.append(chosen)
            result[face] = chosen
        }
        return result
    }

    /// The most points a chart draws of one series. A chart is about 500 points wide, so more are not seen, and
    /// Cairo keeps every dot of a vector chart until it is written (a 10 000-variant sweep's charts held 120 MB).
    static let maxDrawnPoints = 400

    /// `series` with at most `maxDrawnPoints` points: in each of `maxDrawnPoints / 4` runs of consecutive points,
    /// its first and last, its lowest and highest (so peaks stay, and the line keeps its envelope), and its first
    /// gap. A point kept is open when it was. The plots' CSV keeps every point.
    static func thinned(_ series: LineChart.Series) -> LineChart.Series {
        let points = series.points
        guard points.count > maxDrawnPoints else { return series }
        let runs = maxDrawnPoints / 4
        var kept: [Int] = []
        for r in 0..<runs {
            let range = (r * points.count / runs)..<((r + 1) * points.count / runs)
            guard let first = range.first, let last = range.last else { continue }
            var picks: Set<Int> = [first, last]
            let valued = range.filter { points[$0].y != nil }
            if let low = valued.min(by: { points[$0].y! < points[$1].y! }) { picks.insert(low) }
            if let high = valued.max(by: { points[$0].y! < points[$1].y! }) { picks.insert(high) }
            if let gap = range.first(where: { points[$0].y == nil }) { picks.insert(gap) }
            kept += picks.sorted()
        }
        var thin = series
        thin.points = kept.map { points[$0] }
        thin.open = Set(kept.indices.filter { series.open.contains(kept[$0]) })
        return thin
    }

    /// Tableau 10.
    static let palette: [Color] = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
                                   "#ff9da7", "#9c755f", "#bab0ac"].compactMap(Color.init(parsing:))

    /// `light[1].intensity` → `light-1-intensity`: a parameter path or face name as part of a file name.
    static func fileStem(_ s: String) -> String {
        var out = ""
        for ch in s {
            if ch.isASCII && (ch.isLetter || ch.isNumber) || ch == "_" { out.append(ch) } else if !out.hasSuffix("-") { out.append("-") }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "p" : out
    }
}

/// What the plots draw of one variant (`VariantRecord.plotted`): a sweep's plots keep every variant's, so
/// only this.
struct PlotRecord {
    var variant: Int
    var faces: [PlotFace]
}

/// One face of a `PlotRecord`.
struct PlotFace {
    var treeIndex: Int
    var layerName: String?
    var solidName: String?
    var isSeenFromBehind: Bool
    /// The mean of R, G and B (the first three brightness channels).
    var brightness: Double
    var overlayAlpha: Double

    init(_ f: FaceLightingData) {
        treeIndex = f.treeIndex; layerName = f.layerName; solidName = f.solidName
        isSeenFromBehind = f.isSeenFromBehind
        brightness = f.brightness.isEmpty ? 0 : f.brightness.prefix(3).reduce(0, +) / Double(min(3, f.brightness.count))
        overlayAlpha = f.overlayAlpha
    }
}

extension Color {
    fileprivate func withAlpha(_ a: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: a) }
}
