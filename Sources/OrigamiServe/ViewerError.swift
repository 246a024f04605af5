import Foundation
import Origami
import OrigamiRender
import OrigamiScene

/// What the viewer answers instead of a picture or a hit: a JSON object with the message, a hint, and for a scene
/// file that does not decode its located issues and the detailed text (`SceneError.detailedDescription`: each
/// issue's line with a caret), which the page shows as the command line would.
public struct ViewerError: Error, Sendable, Codable, Equatable {
    public struct Issue: Sendable, Codable, Equatable {
        public let file: String
        public let line: Int
        public let column: Int
        public let keyPath: String
        public let message: String
        public let hint: String?
    }

    /// The HTTP status the error is answered with.
    public var status: Int
    public var error: String
    public var hint: String?
    public var issues: [Issue]?
    public var detail: String?

    public init(status: Int, _ error: String, hint: String? = nil) {
        self.status = status; self.error = error; self.hint = hint
    }

    /// A scene file that cannot be read (or does not hold with the `--set` values).
    init(scene error: any Error, file: String, settings: [String: Double]) {
        self.init(status: 422, "invalid scene \(file)")
        switch error {
        case let e as SceneError:
            if e.issues.count > 1 { self.error += " (\(e.issues.count) problems)" }
            issues = e.issues.map { Issue(file: $0.file, line: $0.line, column: $0.column, keyPath: $0.keyPath,
                                          message: $0.message, hint: $0.hint) }
            detail = e.detailedDescription
        case let e as ParameterError:
            let set = settings.keys.sorted().map { "--set \($0)=\(format(settings[$0] ?? 0))" }.joined(separator: " ")
            self.error = "the scene \(file) does not hold with \(set): \(e.message)"
            hint = e.hint
        default:
            detail = "\(error)"
        }
    }

    /// A query value the viewer cannot use (400), from the sweep's and parameters' own checks.
    init(query error: any Error) {
        switch error {
        case let e as SweepError: self.init(status: 400, e.message, hint: e.hint)
        case let e as ParameterError: self.init(status: 400, e.message, hint: e.hint)
        case let e as ViewerError: self = e
        case let e as SceneError:
            // A parameter value the file does not hold with (`perspective $d` at d = 0): the values' fault.
            self.init(status: 422, "the scene does not hold with these values")
            issues = e.issues.map { Issue(file: $0.file, line: $0.line, column: $0.column, keyPath: $0.keyPath,
                                          message: $0.message, hint: $0.hint) }
            detail = e.detailedDescription
        default: self.init(status: 400, "\(error)")
        }
    }

    /// A render or hit map that failed (a limit, memory, a lighting the renderer refuses): the server lives on.
    init(render error: any Error) {
        self.init(status: 422, "cannot render: \(error)")
    }
}
