import Foundation
import Testing
import TestSupport

/// `origami hitmap --json`: the hatched picture's figures as data, checked against the picture's own printed
/// share and against counts made from `origami hit --grid 1` (the same pixel centres, through the batch hit test).
@Suite("origami hitmap --json, run as a process")
struct HitMapJSONCommandTests {
    static let cube = "Models/cube-button-interception.yaml"

    @Test func figuresAgreeWithThePictureAndTheBatchHitTest() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-hitmap-json-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("map.png").path

        let picture = try OrigamiCommand.run(["hitmap", Self.cube, "-o", png, "--scale", "1"])
        #expect(picture.status == 0, "\(picture.stderr)")
        #expect(picture.stdout == "wrote \(png): 43.4 % of the canvas is intercepted\n")

        let r = try OrigamiCommand.run(["hitmap", Self.cube, "--json", "--scale", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["pixels"] as? Int == 160_000)
        let intercepted = try #require(object["intercepted"] as? [String: Any])
        let share = try #require(intercepted["share"] as? Double)
        #expect(String(format: "%.1f", 100 * share) == "43.4")

        // The same 400 × 400 pixel centres through `hit --grid 1`: count what each layer is seen at, is touched
        // at, and each (receiver, seen) pair where they differ.
        let grid = try OrigamiCommand.run(["hit", Self.cube, "--grid", "1", "--policy", "all"])
        #expect(grid.status == 0, "\(grid.stderr)")
        let lines = grid.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        try #require(lines.count == 160_000)
        var seen: [String: Int] = [:], touched: [String: Int] = [:], pairs: [String: Int] = [:], stolen: [String: Int] = [:]
        for fields in lines {
            let tree = String(fields[2]), front = String(fields[4])
            touched[tree, default: 0] += 1
            seen[front, default: 0] += 1
            if tree != front {
                pairs["\(tree)←\(front)", default: 0] += 1
                stolen[front, default: 0] += 1
            }
        }
        #expect(intercepted["pixels"] as? Int == pairs.values.reduce(0, +))

        let layers = try #require(object["layers"] as? [[String: Any]])
        #expect(Set(layers.compactMap { $0["name"] as? String }) == Set(touched.keys).union(seen.keys))
        for layer in layers {
            let name = try #require(layer["name"] as? String)
            #expect(layer["seen"] as? Int == seen[name] ?? 0, "\(name)")
            #expect(layer["touched"] as? Int == touched[name] ?? 0, "\(name)")
            #expect(layer["intercepted"] as? Int == stolen[name] ?? 0, "\(name)")
        }
        // The book's story: face 3 is seen where faces 4, 5 and 6 take the touch, and nothing takes face 4's.
        let face3 = try #require(layers.first { $0["name"] as? String == "face3" })
        #expect((face3["interceptedShare"] as? Double ?? 0) > 0.5)

        let interceptions = try #require(object["interceptions"] as? [[String: Any]])
        var fromJSON: [String: Int] = [:]
        for i in interceptions {
            fromJSON["\(i["receiver"] as? String ?? "")←\(i["seen"] as? String ?? "")"] = i["pixels"] as? Int
        }
        #expect(fromJSON == pairs)
        let matrix = try #require(object["matrix"] as? [String: Any])
        let names = try #require(matrix["layers"] as? [String])
        let cells = try #require(matrix["pixels"] as? [[Int]])
        for (r, receiver) in names.enumerated() {
            for (c, seenName) in names.enumerated() {
                #expect(cells[r][c] == pairs["\(receiver)←\(seenName)"] ?? 0, "\(receiver) over \(seenName)")
            }
        }
        for receiver in ["face4", "face5", "face6"] { #expect((pairs["\(receiver)←face3"] ?? 0) > 0, "\(receiver)") }
    }

    @Test func needsAnOutputOrJSON() throws {
        let r = try OrigamiCommand.run(["hitmap", Self.cube])
        #expect(r.status == 64)
        #expect(r.stderr.contains("Missing -o FILE (the PNG), or --json for the figures."))
    }
}
