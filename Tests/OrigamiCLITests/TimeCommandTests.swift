import Foundation
import Testing
import TestSupport

/// `--time` on the commands that read a scene: the presentation at that moment, the model without it.
@Suite("origami --time, run as a process")
struct TimeCommandTests {
    /// The turntable's cube turns about its own y axis, 360° in 6 s, linearly; the camera is Rx(−30°) only. The
    /// ray through the canvas centre (the vanishing point) runs along the object-space direction
    /// (0, −sin 30°, cos 30°) = (0, −0.5, 0.866) from the cube's centre: it leaves through z = +80, the face whose
    /// normal is +z in the container. Core Animation's Ry(θ) (row vectors, [cos θ 0 −sin θ; 0 1 0; sin θ 0 cos θ])
    /// sends the face normal n to n·Ry(θ):
    /// - θ = 0 (t = 0): front (+z) stays +z → front;
    /// - θ = 90° (t = 1.5): left (−x) → (0, 0, +1) → left;
    /// - θ = 180° (t = 3): back (−z) → +z → back;
    /// - θ = 270° (t = 4.5): right (+x) → (x cos θ, 0, −x sin θ) = (0, 0, +1) → right.
    @Test(arguments: [(nil, "front"), ("0", "front"), ("1.5", "left"), ("3", "back"), ("4.5", "right"), ("7.5", "left")])
    func frontmostFaceTurnsWithTime(_ time: String?, _ face: String) throws {
        let r = try OrigamiCommand.run(["hit", "Models/turntable.yaml", "200,200", "--policy", "frontmost"]
                                       + (time.map { ["--time", $0] } ?? []))
        #expect(r.status == 0, "\(r.stderr)")
        let line = r.stdout.split(separator: "\n").first { $0.hasPrefix("frontmost:") } ?? ""
        #expect(line.contains(" \(face) of solid cube at local"), "t = \(time ?? "model"): \(r.stdout)")
    }

    @Test func renderAtATimeDiffersFromTheModel() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-time-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let model = dir.appendingPathComponent("model.png").path, zero = dir.appendingPathComponent("zero.png").path
        let quarter = dir.appendingPathComponent("quarter.png").path
        for (out, extra) in [(model, [String]()), (zero, ["--time", "0"]), (quarter, ["--time", "1.5"])] {
            let r = try OrigamiCommand.run(["render", "Models/turntable.yaml", "-o", out] + extra)
            #expect(r.status == 0, "\(r.stderr)")
        }
        // At t = 0 the rotation is 0°, the model's: the same picture. A quarter turn later, another.
        #expect(try Data(contentsOf: URL(fileURLWithPath: model)) == Data(contentsOf: URL(fileURLWithPath: zero)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: model)) != Data(contentsOf: URL(fileURLWithPath: quarter)))
    }

    /// `--vary time=…`: each variant's lighting data is the scene at its time. The front face's normal (+z in the
    /// cube) in scene space (the container's, the cube's own turn included) is n·Ry(θ) = (sin θ, 0, cos θ):
    /// (0, 0, 1) at t = 0 and (1, 0, 0) at t = 1.5 s (θ = 90°); in object space it stays (0, 0, 1).
    @Test func sweepOverTimeReportsTheLightingOfEachMoment() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-time-sweep-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try OrigamiCommand.run(["sweep", "Models/turntable.yaml", "--vary", "time=0,1.5", "-o", dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try String(contentsOf: dir.appendingPathComponent("lighting.csv"), encoding: .utf8)
        let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(lines.first)
        func column(_ name: String) throws -> Int { try #require(header.firstIndex(of: name)) }
        let time = try column("time"), kind = try column("kind")
        let normal = try ["objectNx", "objectNz", "sceneNx", "sceneNz"].map(column)
        for (t, expected) in [("0", [0.0, 1, 0, 1]), ("1.5", [0.0, 1, 1, 0])] {
            let row = try #require(lines.first { $0.count == header.count && $0[time] == t && $0[kind] == "\"front\"" })
            let values = normal.map { Double(row[$0]) ?? .nan }
            #expect(zip(values, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "t = \(t): \(values)")
        }
    }

    @Test func timeMustBeFinite() throws {
        let r = try OrigamiCommand.run(["render", "Models/turntable.yaml", "-o", "/tmp/never.png", "--time", "nan"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("--time must be a finite number of seconds."))
    }
}
