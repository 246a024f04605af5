import OrigamiScene
import Testing

/// The issues reading `text` as a scene file named `s.yaml` reports (none when it decodes), as the error suites
/// compare them.
func sceneIssues(_ text: String) -> [SceneIssue] {
    do {
        _ = try Scene.decode(text, file: "s.yaml")
        return []
    } catch {
        return error.issues
    }
}

/// The one issue reading `text` reports; the test fails when there is not exactly one.
func singleSceneIssue(_ text: String) throws -> SceneIssue {
    let all = sceneIssues(text)
    try #require(all.count == 1, "expected one issue, got \(all.map(\.description))")
    return all[0]
}
