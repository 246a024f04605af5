import ArgumentParser
import Foundation
import Origami
import OrigamiScene

struct HitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hit",
        abstract: "Tell which face a touch at a point reaches.",
        usage: "origami hit <scene> <X,Y> [--policy <policy>] [--json] [--time <seconds>] [--allow-outside-images]",
        discussion: """
            The point is in canvas coordinates (points, y down); a negative one needs no `--`: `hit s.yaml -10,5`.
            Policies: `tree` is UIKit's touch delivery
            (later siblings first, depth ignored: the book's intercepted button), `coreanimation` is
            -[CALayer hitTest:] (zPosition first), `frontmost` is the face actually seen there. The table lists
            every layer under the point with its tree rank and depth rank.
            """
    )

    enum Policy: String, ExpressibleByArgument, CaseIterable {
        case tree, coreanimation, frontmost, all
    }

    @OptionGroup var scene: SceneArgument

    // Collected unparsed, so a point with a negative x (`-10,5`) is not taken for an option; `--` still works.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The touch, in canvas coordinates.", valueName: "X,Y"))
    var unparsed: [String] = []

    private var pointText: [String] { unparsed.filter { $0 != "--" } }

    /// Set once `validate()` has passed.
    var point: PointArgument? { pointText.first.flatMap(PointArgument.init(argument:)) }

    func validate() throws {
        // Whatever the parser did not recognise lands here: tell an unknown option from a bad point.
        if let unknown = pointText.first(where: { $0.hasPrefix("-") && PointArgument(argument: $0) == nil }) {
            throw ValidationError("Unknown option '\(unknown)'.")
        }
        guard !pointText.isEmpty else {
            throw ValidationError("Missing the point <X,Y> (canvas coordinates, e.g. 120,80 or -10,5).")
        }
        if let text = pointText.first(where: { PointArgument(argument: $0) == nil }) {
            throw ValidationError("'\(text)' is not a point: expected X,Y with finite numbers, e.g. 120,80 or -10,5.")
        }
        guard pointText.count == 1 else {
            throw ValidationError("One point <X,Y> at a time; got \(pointText.joined(separator: " ")).")
        }
    }

    @Option(help: "tree, coreanimation, frontmost or all.")
    var policy: Policy = .all

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var time: TimeOption

    func run() throws {
        guard let p = point?.point else { fail("no point given") }   // validate() has made sure of one
        let s = try scene.load(images: .sizeOnly)
        let policies: [(String, HitTestPolicy)] = [("tree", .treeOrder), ("coreanimation", .coreAnimation), ("frontmost", .frontmost)]
            .filter { policy == .all || $0.0 == policy.rawValue }
        let tree = PresentationTree(s.root, time: time.time)
        let answers = policies.map { ($0.0, tree.hitTestResult(p, policy: $0.1)) }
        let all = tree.hitTestAll(p)
        if json {
            printJSON(scene: s, point: p, answers: answers, all: all)
        } else {
            print("touch at \(fmt(p)) in \(scene.scene)")
            for (name, r) in answers {
                let padded = (name + ":").padding(toLength: 15, withPad: " ", startingAt: 0)
                guard let r else { print("\(padded)nothing"); continue }
                print("\(padded)\(describe(r, in: s))")
            }
            if policy == .all || all.count > 1 {
                print("layers under the point (tree rank 0 receives the touch; depth rank 0 is what is seen):")
                print("  tree  depth  layer / face / solid")
                for c in all {
                    let culled = c.isCulled ? "  (back face, not drawn)" : ""
                    print("  \(String(c.treeRank).padding(toLength: 4, withPad: " ", startingAt: 0))  "
                          + "\(String(c.depthRank).padding(toLength: 5, withPad: " ", startingAt: 0))  "
                          + describe(c.result, in: s) + culled)
                }
            }
        }
    }

    private func describe(_ r: HitTestResult, in s: Scene) -> String {
        var text = label(of: r.layer, in: s)
        if r.face !== r.layer { text += " on face \(label(of: r.face, in: s))" }
        if let solid = r.solid { text += " of solid \(label(of: solid, in: s))" }
        return text + " at local \(fmt(r.localPoint)), depth \(fmt(r.depth))"
    }

    private func printJSON(scene s: Scene, point p: CGPoint, answers: [(String, HitTestResult?)], all: [HitCandidate]) {
        func object(_ r: HitTestResult) -> [String: Any] {
            var o: [String: Any] = [
                "layer": label(of: r.layer, in: s), "face": label(of: r.face, in: s),
                "local": [r.localPoint.x, r.localPoint.y].map { Double($0) }, "depth": r.depth,
            ]
            if let solid = r.solid { o["solid"] = label(of: solid, in: s) }
            return o
        }
        var answerObject: [String: Any] = [:]
        for (name, r) in answers { answerObject[name] = r.map(object) ?? NSNull() }
        let root: [String: Any] = [
            "point": [Double(p.x), Double(p.y)],
            "answers": answerObject,
            "layers": all.map { c -> [String: Any] in
                var o = object(c.result)
                o["treeRank"] = c.treeRank; o["depthRank"] = c.depthRank; o["culled"] = c.isCulled
                return o
            },
        ]
        if let data = try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]) {
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
