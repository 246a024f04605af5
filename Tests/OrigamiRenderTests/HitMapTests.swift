import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// `HitMap`: both policies at every pixel centre, the rows shared among the cores and merged back in order.
@Suite("Hit map")
struct HitMapTests {
    /// The book's 400-point cube at `scale` pixels per point (hit maps are slow in a debug build: 0.5 gives
    /// 200 × 200 pixels, 8 bands of 25 rows on 2 cores).
    static func bookMap(scale: Double = 0.5) throws -> (BookCube, HitMap) {
        let cube = try BookCube()
        let map = try HitMap(root: cube.container, size: CGSize(width: 400, height: 400), scale: scale) { $0.name ?? "?" }
        return (cube, map)
    }

    /// The entry of the pixel holding `p` (in points).
    static func pixel(_ map: HitMap, _ p: CGPoint) -> Int {
        Int(Double(p.y) * map.scale) * map.width + Int(Double(p.x) * map.scale)
    }

    @Test("The book's probes: tree order gives faces 5 and 6 where the eye sees face 3")
    func probes() throws {
        let (cube, map) = try Self.bookMap()
        #expect(map.width == 200 && map.height == 200 && map.treeOrder.count == 40_000)
        func name(_ entry: Int32) -> String? { entry < 0 ? nil : map.names[Int(entry)] }
        // Derived by hand in BookCubeProbes: under P1 lie faces 3 and 5, under P2 faces 3 and 6.
        for (probe, interceptor) in [(BookCubeProbes.p1, "face 5"), (BookCubeProbes.p2, "face 6")] {
            let i = Self.pixel(map, BookCubeProbes.project(probe).point)
            #expect(name(map.treeOrder[i]) == interceptor)
            #expect(name(map.frontmost[i]) == "face 3")
        }
        // The container's corner: the canvas, in grey; both policies agree there.
        let corner = Self.pixel(map, CGPoint(2, 2))
        #expect(name(map.treeOrder[corner]) == cube.container.name && map.frontmost[corner] == map.treeOrder[corner])
        #expect(map.colors[Int(map.treeOrder[corner])] == Color(white: 0.85))
        #expect(map.interceptedCount == zip(map.treeOrder, map.frontmost).filter { $0 != $1 }.count)
        #expect(map.interceptedCount > 0)
    }

    @Test("Sampled pixels name the layer hitTest returns at their centres, in both orders")
    func agreesWithHitTest() throws {
        let (cube, map) = try Self.bookMap(scale: 0.25)
        for y in stride(from: 0, to: map.height, by: 3) {
            for x in stride(from: 1, to: map.width, by: 3) {
                let p = CGPoint((Double(x) + 0.5) / 0.25, (Double(y) + 0.5) / 0.25), i = y * map.width + x
                for (entry, policy) in [(map.treeOrder[i], HitTestPolicy.treeOrder), (map.frontmost[i], .frontmost)] {
                    let expected = cube.container.hitTest(p, policy: policy)?.name
                    #expect((entry < 0 ? nil : map.names[Int(entry)]) == expected, "pixel (\(x), \(y)), \(policy)")
                }
            }
        }
    }

    @Test("Layers are numbered in the order of their first touch, row by row, tree order before frontmost")
    func numbering() throws {
        let (_, map) = try Self.bookMap(scale: 0.25)
        // The bands are merged back in order: reading the whole map in order meets 0, 1, 2, … in turn.
        var next: Int32 = 0
        for i in 0..<map.treeOrder.count {
            for entry in [map.treeOrder[i], map.frontmost[i]] where entry >= next {
                #expect(entry == next, "pixel \(i) meets \(entry) before \(next)")
                next = entry + 1
            }
        }
        #expect(Int(next) == map.names.count && Set(map.names).count == map.names.count)
        // The container, the faces seen (1, 2, 3) and the ones that intercept touches (4, 5, 6).
        #expect(Set(map.names) == Set(["container"] + (1...6).map { "face \($0)" }))
    }

    @Test("At twice the scale the map has twice the pixels per side and the same answers at the probes")
    func scale() throws {
        let (_, small) = try Self.bookMap(scale: 0.25)
        let (_, large) = try Self.bookMap(scale: 0.5)
        #expect(small.width == 100 && small.height == 100 && large.width == 200 && large.height == 200)
        for probe in [BookCubeProbes.p1, BookCubeProbes.p2] {
            let p = BookCubeProbes.project(probe).point
            let s = Self.pixel(small, p), l = Self.pixel(large, p)
            #expect(small.names[Int(small.treeOrder[s])] == large.names[Int(large.treeOrder[l])])
            #expect(small.names[Int(small.frontmost[s])] == "face 3" && large.names[Int(large.frontmost[l])] == "face 3")
        }
    }

    /// A root holding `count` one-point sublayers (plus, not counted, a transform layer and a hidden layer).
    static func manyLayers(_ count: Int) throws -> Layer {
        let root = Layer(name: "root", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        for i in 0..<count { try root.addSublayer(Layer(frame: CGRect(x: i % 100, y: i / 100, width: 1, height: 1))) }
        try root.addSublayer(TransformLayer())
        let hidden = Layer(frame: CGRect(x: 0, y: 0, width: 1, height: 1))
        hidden.isHidden = true
        try root.addSublayer(hidden)
        return root
    }

    /// The legend lists at most 40 rows (39 layers and "… N more layers"), so it is 2·12 + 22·(40 + 3) = 970
    /// pixels tall however many layers the scene has: a scene of 1 000 layers gets a map, no refusal.
    @Test("a legend of many layers folds into a bounded size, known before any pixel is hit-tested")
    func legendFolds() throws {
        let root = try Self.manyLayers(1000)
        try HitMap.checkLimits(tree: PresentationTree(root), size: CGSize(width: 100, height: 100), scale: 1)
        let map = try HitMap(root: root, size: CGSize(width: 100, height: 100), scale: 1) { $0.name ?? "layer" }
        // Every one-point layer takes its pixel's touch: 1 000 of them, plus the root.
        #expect(Set(map.treeOrder).count == 1001)
        let image = try map.legendImage()
        #expect(image.width == 100 + 300 && image.height == 970)
        // The legend's size does not grow past the cap: the map alone decides past that.
        #expect(HitMap.legendSize(mapWidth: 100, mapHeight: 100, entries: 5000) == CGSize(width: 400, height: 970))
        // The legend adds 300 pixels to the map's width: a 16100-pixel map fits alone, not with its legend.
        #expect(throws: RenderError.limitExceeded(limit: .maxCanvasSide, value: 16400, maximum: 16384)) {
            try HitMap.checkLimits(tree: PresentationTree(Self.manyLayers(1)), size: CGSize(width: 16100, height: 10), scale: 1)
        }
    }

    @Test("the legend image has the size the limit check reckons with")
    func legendSize() throws {
        let (_, map) = try Self.bookMap()
        let entries = Set(map.treeOrder.filter { $0 >= 0 }).count
        let image = try map.legendImage()
        // 200 × 200 map and 300 legend columns; the rows (2·12 + 22·(entries + 3)) are shorter than the map.
        #expect(entries + 3 < (200 - 24) / 22)
        #expect(image.width == 500 && image.height == 200)
    }
}
