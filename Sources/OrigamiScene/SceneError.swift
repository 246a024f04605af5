import Foundation

/// A problem in a scene file, located by file, line, column and key path, with a hint where one helps.
public struct SceneIssue: Error, Hashable, Sendable, CustomStringConvertible {
    /// How the file is named in the message (as the user gave it).
    public var file: String
    /// 1-based; 0 when unknown.
    public var line: Int
    /// 1-based; 0 when unknown.
    public var column: Int
    /// Where in the document: `layers[0].sublayers[2].anchorPoint`.
    public var keyPath: String
    /// What is wrong.
    public var message: String
    /// How to fix it, when a fix can be suggested.
    public var hint: String?

    /// An issue at `line` and `column` (1-based; 0 when unknown) of `file`, at `keyPath`.
    public init(file: String, line: Int, column: Int, keyPath: String, message: String, hint: String? = nil) {
        self.file = file; self.line = line; self.column = column
        self.keyPath = keyPath; self.message = message; self.hint = hint
    }

    /// `file:line:column: key.path: message; hint`
    public var description: String {
        var s = file
        if line > 0 { s += ":\(line)" + (column > 0 ? ":\(column)" : "") }
        s += ": "
        if !keyPath.isEmpty { s += "\(keyPath): " }
        s += message
        if let hint { s += "; \(hint)" }
        return s
    }
}

/// Every problem found in a scene file (decoding goes on after the first one, so a user sees them all).
public struct SceneError: Error, Sendable, CustomStringConvertible {
    /// Every issue, in the order found.
    public var issues: [SceneIssue]
    /// The scene's text, for showing the offending lines.
    public var source: String?

    /// The issues found in `source`, the scene's text.
    public init(issues: [SceneIssue], source: String? = nil) { self.issues = issues; self.source = source }

    /// A single issue, without the source text.
    public init(_ issue: SceneIssue) { self.init(issues: [issue]) }

    /// One line per issue.
    public var description: String { issues.map(\.description).joined(separator: "\n") }

    /// The issues, each followed by its source line and a caret under the column.
    public var detailedDescription: String {
        let lines = source.map { $0.split(separator: "\n", omittingEmptySubsequences: false) } ?? []
        return issues.map { issue in
            var s = issue.description
            if issue.line > 0, issue.line <= lines.count {
                // At most 120 characters of the line, around the column: a minified or hostile file can hold
                // a line of megabytes.
                let line = Array(String(lines[issue.line - 1]))
                let column = max(0, min(issue.column - 1, line.count))
                let start = max(0, min(column - 60, line.count - 120))
                let end = min(line.count, start + 120)
                let text = (start > 0 ? "…" : "") + String(line[start..<end]) + (end < line.count ? "…" : "")
                s += "\n    \(text)"
                if issue.column > 0 {
                    s += "\n    " + String(repeating: " ", count: column - start + (start > 0 ? 1 : 0)) + "^"
                }
            }
            return s
        }.joined(separator: "\n")
    }
}
