import Foundation
import Testing
import TestSupport

/// `Scripts/check-doc-coverage.py`, which `make docs` runs on Origami's symbol graph, run as a process on small
/// symbol graphs written here: it must fail naming file:line for an undocumented public symbol, and let through
/// exactly what its rule exempts (synthesized symbols, extension blocks, documentation inherited from a protocol).
@Suite("Doc-comment coverage check")
struct DocCoverageCheckTests {
    static let script = OrigamiCommand.packageRoot.appendingPathComponent("Scripts/check-doc-coverage.py")

    /// One symbol of a symbol graph as the Swift compiler writes it (positions count from 0).
    static func symbol(_ path: [String], kind: String, displayName: String, line: Int?, in folder: URL,
                       doc: [String]? = nil, docModule: String? = nil) -> [String: Any] {
        var s: [String: Any] = [
            "kind": ["identifier": kind, "displayName": displayName],
            "pathComponents": path,
            "accessLevel": "public",
        ]
        if let line {
            s["location"] = ["uri": folder.appendingPathComponent("Sources/Demo/Thing.swift").absoluteString,
                             "position": ["line": line, "character": 4]]
        }
        if let doc {
            var comment: [String: Any] = ["lines": doc.map { ["text": $0] }]
            if let docModule { comment["module"] = docModule }
            s["docComment"] = comment
        }
        return s
    }

    static func run(symbols: (URL) -> [[String: Any]]) throws -> (status: Int32, stdout: String, stderr: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doc-coverage-\(UUID().uuidString)")
        let graphs = folder.appendingPathComponent("graphs")
        try FileManager.default.createDirectory(at: graphs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let graph: [String: Any] = ["module": ["name": "Demo"], "symbols": symbols(folder), "relationships": []]
        try JSONSerialization.data(withJSONObject: graph).write(to: graphs.appendingPathComponent("Demo.symbols.json"))

        let result = try ExternalTool.run("/usr/bin/env", ["python3", script.path, "Demo", graphs.path], in: folder)
        return (result.status, String(decoding: result.stdout, as: UTF8.self), result.stderr)
    }

    @Test("An undocumented public property fails the check, named by file:line")
    func undocumented() throws {
        let result = try Self.run { folder in [
            Self.symbol(["Thing"], kind: "swift.struct", displayName: "Structure", line: 2, in: folder, doc: ["A thing."]),
            Self.symbol(["Thing", "count"], kind: "swift.property", displayName: "Instance Property", line: 6, in: folder),
            Self.symbol(["Thing", "blank"], kind: "swift.property", displayName: "Instance Property", line: 9, in: folder,
                        doc: ["  "]),
            // Exempt: synthesized (no location), an extension block, a comment inherited from Swift's protocol.
            Self.symbol(["Thing", "hashValue"], kind: "swift.property", displayName: "Instance Property", line: nil, in: folder),
            Self.symbol(["Int"], kind: "swift.extension", displayName: "Extension", line: 20, in: folder),
            Self.symbol(["Thing", "description"], kind: "swift.property", displayName: "Instance Property", line: 12,
                        in: folder, doc: ["A textual representation of this instance."], docModule: "Swift"),
        ] }
        #expect(result.status == 1)
        // Position 6 counted from 0 is line 7; a comment of blank lines is no comment.
        #expect(result.stdout == """
            Sources/Demo/Thing.swift:7: error: public instance property `Thing.count` has no doc comment
            Sources/Demo/Thing.swift:10: error: public instance property `Thing.blank` has no doc comment

            """)
        #expect(result.stderr == "2 of 4 public symbols of Demo have no doc comment\n")
    }

    @Test("A fully documented module passes")
    func documented() throws {
        let result = try Self.run { folder in [
            Self.symbol(["Thing"], kind: "swift.struct", displayName: "Structure", line: 2, in: folder, doc: ["A thing."]),
            Self.symbol(["Thing", "hashValue"], kind: "swift.property", displayName: "Instance Property", line: nil, in: folder),
        ] }
        #expect(result.status == 0)
        #expect(result.stdout == "all 1 public symbols of Demo have a doc comment\n")
        #expect(result.stderr.isEmpty)
    }
}
