import Foundation
import Origami
import OrigamiRender
import Testing
@testable import OrigamiScene

/// The scene file's `canvas.antialias` key (issue 14): `gray` (the default) or `none`.
@Suite("canvas.antialias")
struct CanvasAntialiasTests {
    @Test func readsTheKey() throws {
        #expect(try Scene.decode("canvas: {size: [10, 10]}\nlayers: []").canvas.antialias == .gray)
        #expect(try Scene.decode("canvas: {size: [10, 10], antialias: none}\nlayers: []").canvas.antialias == .none)
        #expect(try Scene.decode("canvas: {size: [10, 10], antialias: gray}\nlayers: []").canvas.antialias == .gray)
    }

    @Test func unknownValueIsLocatedWithAHint() throws {
        do {
            _ = try Scene.decode("canvas: {size: [10, 10], antialias: nope}\nlayers: []", file: "s.yaml")
            Issue.record("decoded a scene with antialias: nope")
        } catch {
            #expect(error.issues.map(\.description)
                    == ["s.yaml:1:37: canvas.antialias: unknown value `nope`; did you mean `none`?"])
        }
        do {
            _ = try Scene.decode("canvas: {size: [10, 10], antialias: 3}\nlayers: []", file: "s.yaml")
            Issue.record("decoded a scene with antialias: 3")
        } catch {
            #expect(error.issues.map(\.description)
                    == ["s.yaml:1:37: canvas.antialias: unknown value `3`; one of: gray, none"])
        }
    }
}
