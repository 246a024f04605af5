import Foundation
import Origami
import OrigamiScene

/// A request's query: the scene's values (`yaw=30`, `ambient=0.4`, `light.direction=0,1,-0.5`, `time=1.5` — the
/// paths `origami sweep --vary` takes, checked by `SweepParameter`) and the viewer's own keys, which start with
/// `view.` so that no scene parameter (whose names have no dot) or lighting path can mean the same key:
/// `view.scale` (device pixels per canvas pixel, 1…2), `view.x`/`view.y` (a touch in canvas points),
/// `view.client`/`view.seq` (which page asks, and its request number, for latest-wins).
struct ViewerQuery: Sendable {
    /// The scene values, in query order, as `PATH=VALUE` arguments.
    var settings: [(path: String, value: String)] = []
    var scale: Double = 1
    var x: Double?
    var y: Double?
    var client: String?
    var seq: Int?

    /// The longest query accepted: a page sends a few dozen short values.
    static let maxLength = 8192
    /// Device pixel ratios the viewer renders at.
    static let scaleRange: ClosedRange<Double> = 1...2

    init(_ query: String?) throws(ViewerError) {
        guard let query, !query.isEmpty else { return }
        guard query.utf8.count <= Self.maxLength else {
            throw ViewerError(status: 414, "the query is \(query.utf8.count) bytes, over the limit of \(Self.maxLength)")
        }
        var seen: Set<String> = []
        for piece in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ s: Substring) throws(ViewerError) -> String {
                guard let d = s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
                    throw ViewerError(status: 400, "`\(s)` is not percent-encoded text")
                }
                return d.trimmingCharacters(in: .whitespaces)
            }
            let key = try decoded(parts[0])
            let value = parts.count > 1 ? try decoded(parts[1]) : ""
            guard !key.isEmpty else { continue }
            guard seen.insert(key).inserted else {
                throw ViewerError(status: 400, "`\(key)` is given twice", hint: "give each value once")
            }
            guard !value.isEmpty else { throw ViewerError(status: 400, "`\(key)` has no value") }
            switch key {
            case "view.scale":
                let s = try Self.number(key, value)
                guard Self.scaleRange.contains(s) else {
                    throw ViewerError(status: 400, "`view.scale` must be between 1 and 2 (device pixels per point), not \(value)")
                }
                scale = s
            case "view.x": x = try Self.number(key, value)
            case "view.y": y = try Self.number(key, value)
            case "view.client":
                guard value.count <= 64 else { throw ViewerError(status: 400, "`view.client` is longer than 64 characters") }
                client = value
            case "view.seq":
                guard let n = Int(value), n >= 0 else { throw ViewerError(status: 400, "`view.seq` must be a whole number ≥ 0, not `\(value)`") }
                seq = n
            default:
                guard !key.hasPrefix("view.") else {
                    throw ViewerError(status: 400, "unknown viewer key `\(key)`",
                                      hint: "the viewer's keys are view.scale, view.x, view.y, view.client and view.seq")
                }
                settings.append((key, value))
            }
        }
    }

    private static func number(_ key: String, _ value: String) throws(ViewerError) -> Double {
        guard let v = Double(value), v.isFinite else {
            throw ViewerError(status: 400, "`\(key)` must be a finite number, not `\(value)`")
        }
        return v
    }

    /// The touch, required by `/hit`.
    func point() throws(ViewerError) -> CGPoint {
        guard let x, let y else {
            throw ViewerError(status: 400, "a hit test needs `view.x` and `view.y` (canvas points)")
        }
        return CGPoint(x: x, y: y)
    }

    /// `description` with these values, and the scene time they ask for: exactly what a one-variant
    /// `origami sweep --vary …` renders (`Sweep.scene(ofVariant:)` sets the parameters and the lighting fields).
    func variant(of description: SceneDescription) throws(ViewerError) -> (SceneDescription, time: Double?) {
        guard !settings.isEmpty else { return (description, nil) }
        do {
            var parameters: [SweepParameter] = []
            for (path, value) in settings {
                let p = try SweepParameter(argument: "\(path)=\(value)", parameters: description.parameters)
                guard p.values.count == 1 else {
                    throw ViewerError(status: 400, "`\(path)` takes one value here, not \(p.values.count)",
                                      hint: "the viewer shows one picture at a time; `origami sweep --vary` takes lists")
                }
                parameters.append(p)
            }
            let sweep = try Sweep(scene: description, parameters: parameters)
            return (try sweep.scene(ofVariant: 1), sweep.time(ofVariant: 1))
        } catch {
            throw ViewerError(query: error)
        }
    }
}
