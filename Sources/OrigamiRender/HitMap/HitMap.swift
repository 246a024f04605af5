import Foundation
import Synchronization
import Origami

/// Which layer a touch at each pixel reaches in tree order (UIKit's delivery), beside the layer actually
/// seen there (frontmost in depth), so interception is visible: the book's cube, where faces 4–6 take touches
/// aimed at face 3, shows as hatched face-3 area coloured as face 4, 5 or 6.
public struct HitMap: Sendable {
    /// Pixels (canvas size × scale).
    public let width: Int, height: Int
    /// Pixels per point of the canvas.
    public let scale: Double
    /// One name per layer that receives a touch somewhere, indexed by the maps' entries.
    public let names: [String]
    /// One colour per entry of `names`: distinct hues, grey for the root (the canvas).
    public let colors: [Color]
    /// Per pixel, row by row: the index in `names` of the layer reached in tree order; −1 for none.
    public let treeOrder: [Int32]
    /// Per pixel: the index of the layer seen there (`.frontmost`); −1 for none.
    public let frontmost: [Int32]

    /// Hit-tests the centre of every pixel of a `size`-point canvas at `scale` pixels per point, `root` being
    /// placed in the canvas as the renderer places it (the canvas is the root's superlayer space); at `time` of the
    /// root's parent with the animations applied (`nil`: the model).
    public init(root: Layer, size: CGSize, scale: Double = 1, time: Double? = nil, name: (Layer) -> String) throws {
        try self.init(tree: PresentationTree(root, placement: .canvas, time: time), size: size, scale: scale, name: name)
    }

    /// Hit-tests the centre of every pixel of a `size`-point canvas at `scale` pixels per point, the tree's root
    /// placement space being the canvas. The rows are shared among the cores (they all read the one tree);
    /// `name` is called once per layer reached, on the calling thread, in the order of the layers' first touches
    /// in reading order.
    public init(tree: PresentationTree, size: CGSize, scale: Double = 1, name: (Layer) -> String) throws {
        let (w, h) = try Renderer.pixelSize(size, options: RenderOptions(scale: scale))
        // Bands of rows, a few per core so that a band over empty canvas does not leave a core idle. Each band
        // writes node numbers straight into its rows of the two maps and notes the nodes in the order of their
        // first touch in the band (no reference counting, no point arrays per pixel).
        let bandCount = max(1, min(h, ProcessInfo.processInfo.activeProcessorCount * 4))
        let nodeCount = tree.count
        var treeOrder = [Int32](unsafeUninitializedCapacity: w * h) { _, n in n = w * h }
        var frontmost = [Int32](unsafeUninitializedCapacity: w * h) { _, n in n = w * h }
        let firstTouches = Mutex([[Int32]](repeating: [], count: bandCount))
        treeOrder.withUnsafeMutableBufferPointer { t in
            frontmost.withUnsafeMutableBufferPointer { f in
                // The bands write disjoint rows of the two buffers, which outlive `concurrentPerform`.
                nonisolated(unsafe) let (t, f) = (t.baseAddress!, f.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: bandCount) { b in
                    let rows = b * h / bandCount ..< (b + 1) * h / bandCount
                    let offset = rows.lowerBound * w, n = rows.count * w
                    tree.hitNodes(pixelRows: rows, width: w, scale: scale, treeOrder: t + offset, frontmost: f + offset)
                    var seen = [Bool](repeating: false, count: nodeCount)
                    var first: [Int32] = []
                    func note(_ node: Int32) {
                        if node >= 0 && !seen[Int(node)] {
                            seen[Int(node)] = true
                            first.append(node)
                        }
                    }
                    // Reading order: the tree-order answer before the frontmost one at each pixel.
                    for k in offset ..< offset + n { note(t[k]); note(f[k]) }
                    firstTouches.withLock { $0[b] = first }
                }
            }
        }
        // Number the layers in the order of their first touch, band by band.
        var number = [Int32](repeating: -1, count: nodeCount)
        var names: [String] = [], colors: [Color] = []
        var hues: Int32 = 0
        for node in firstTouches.withLock({ $0 }).joined() where number[Int(node)] < 0 {
            let n = Int(node)
            number[n] = Int32(names.count)
            names.append(name(tree.layer(n)))
            if tree.parent(of: n) < 0 {
                colors.append(Color(white: 0.85))
            } else {
                colors.append(Self.color(hues))
                hues += 1
            }
        }
        treeOrder.withUnsafeMutableBufferPointer { t in
            frontmost.withUnsafeMutableBufferPointer { f in
                nonisolated(unsafe) let (t, f) = (t.baseAddress!, f.baseAddress!)
                let table = number
                DispatchQueue.concurrentPerform(iterations: bandCount) { b in
                    for k in b * h / bandCount * w ..< (b + 1) * h / bandCount * w {
                        if t[k] >= 0 { t[k] = table[Int(t[k])] }
                        if f[k] >= 0 { f[k] = table[Int(f[k])] }
                    }
                }
            }
        }
        self.width = w; self.height = h; self.scale = scale
        self.names = names; self.colors = colors; self.treeOrder = treeOrder; self.frontmost = frontmost
    }

    /// Pixels where the touch reaches a layer other than the one seen.
    public var interceptedCount: Int {
        var count = 0
        for k in treeOrder.indices where treeOrder[k] != frontmost[k] { count += 1 }
        return count
    }

    /// A distinct colour per layer: hues a golden angle apart.
    public static func color(_ i: Int32) -> Color {
        guard i >= 0 else { return .white }
        let hue = (Double(i) * 0.618_033_988_75).truncatingRemainder(dividingBy: 1)
        let (s, v) = (0.55, 0.92)
        let k = { (n: Double) -> Double in (n + hue * 6).truncatingRemainder(dividingBy: 6) }
        let f = { (n: Double) -> Double in v - v * s * max(0, min(k(n), 4 - k(n), 1)) }
        return Color(red: f(5), green: f(3), blue: f(1))
    }

    /// The map as pixels: each pixel in the colour of the layer its touch reaches, hatched with dark diagonal
    /// lines where that is not the layer seen.
    public var bitmap: Bitmap? {
        var px = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                var c = treeOrder[i] >= 0 ? colors[Int(treeOrder[i])] : Color.white
                if treeOrder[i] != frontmost[i], (x + y) % 8 < 3 {
                    c = Color(red: c.red * 0.25, green: c.green * 0.25, blue: c.blue * 0.25)
                }
                func byte(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
                px[i] = 0xFF00_0000 | byte(c.red) << 16 | byte(c.green) << 8 | byte(c.blue)
            }
        }
        return Bitmap(width: width, height: height, pixels: px)
    }

    /// The map with a legend at its right: each layer's colour, name and share of the touches, and the hatch.
    public func legendImage() throws -> RenderedImage {
        guard let map = bitmap else { throw RenderError.invalidCanvas("the hit map is empty") }
        var counts = [Int](repeating: 0, count: names.count)
        for i in treeOrder where i >= 0 { counts[Int(i)] += 1 }
        let touched = counts.indices.filter { counts[$0] > 0 }.sorted { counts[$0] > counts[$1] }
        // Past the cap, the smallest shares fold into one row.
        let folded = touched.count > Self.legendMaxEntries ? Array(touched[(Self.legendMaxEntries - 1)...]) : []
        let entries = folded.isEmpty ? touched : Array(touched.prefix(Self.legendMaxEntries - 1))
        let row = Self.legendRow, pad = Self.legendPadding, legendWidth = Self.legendWidth
        let legend = Self.legendSize(mapWidth: width, mapHeight: height, entries: touched.count)
        let w = Double(legend.width), h = Double(legend.height)
        let root = Layer(frame: CGRect(x: 0, y: 0, width: w, height: h))
        root.backgroundColor = .white
        let mapLayer = Layer(frame: CGRect(x: 0, y: 0, width: Double(width), height: Double(height)))
        mapLayer.contents = map
        try root.addSublayer(mapLayer)
        func addRow(_ y: Double, swatch: Bitmap?, color: Color?, text: String) throws {
            let s = Layer(frame: CGRect(x: Double(width) + pad, y: y + 3, width: 16, height: 16))
            s.backgroundColor = color
            s.contents = swatch
            s.borderWidth = 1
            s.borderColor = Color(white: 0.5)
            let t = TextLayer()
            t.frame = CGRect(x: Double(width) + pad + 24, y: y + 3, width: legendWidth - pad - 28, height: 18)
            t.string = text
            t.fontSize = 12
            t.foregroundColor = Color(white: 0.1)
            try root.addSublayer(s)
            try root.addSublayer(t)
        }
        let title = TextLayer()
        title.frame = CGRect(x: Double(width) + pad, y: pad - 4, width: legendWidth - 2 * pad, height: 20)
        title.string = "touch goes to (tree order):"
        title.fontSize = 13
        title.fontWeight = .bold
        title.foregroundColor = .black
        try root.addSublayer(title)
        let total = Double(max(1, width * height))
        for (k, i) in entries.enumerated() {
            try addRow(pad + row * Double(k + 1), swatch: nil, color: colors[i],
                       text: "\(names[i])  \(String(format: "%.1f", 100 * Double(counts[i]) / total)) %")
        }
        if !folded.isEmpty {
            let share = 100 * Double(folded.reduce(0) { $0 + counts[$1] }) / total
            try addRow(pad + row * Double(entries.count + 1), swatch: nil, color: nil,
                       text: "… \(folded.count) more layers  \(String(format: "%.1f", share)) %")
        }
        let rows = entries.count + (folded.isEmpty ? 0 : 1)
        var hatch = [UInt32](repeating: 0xFFFF_FFFF, count: 256)
        for y in 0..<16 { for x in 0..<16 where (x + y) % 8 < 3 { hatch[y * 16 + x] = 0xFF40_4040 } }
        try addRow(pad + row * (Double(rows) + 1.5), swatch: Bitmap(width: 16, height: 16, pixels: hatch), color: nil,
                   text: "intercepted: not the face seen  \(String(format: "%.1f", 100 * Double(interceptedCount) / total)) %")
        return try Renderer.render(root, size: CGSize(width: w, height: h))
    }
}
