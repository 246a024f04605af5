import Foundation
import Origami
import OrigamiRender
import OrigamiScene
import Testing

/// Records an issue for each policy in `expected` (policy → layer name, `nil` for nothing) whose answer at
/// `point` differs: `expectHitOrder(in: cube, at: CGPoint(200, 200), [.treeOrder: "face4", .frontmost: "face3"])`.
public func expectHitOrder(in root: Layer, at point: CGPoint, _ expected: [HitTestPolicy: String?], time: Double? = nil,
                           sourceLocation: SourceLocation = #_sourceLocation) {
    for m in HitOrderCheck.mismatches(in: root, at: point, expected: expected, time: time) {
        Issue.record(Comment(rawValue: m.description), sourceLocation: sourceLocation)
    }
}

/// Records an issue for each expectation of the file that does not hold in `scene`.
public func expectHitOrder(in scene: Scene, _ expectations: HitExpectations, time: Double? = nil,
                           sourceLocation: SourceLocation = #_sourceLocation) {
    for m in HitOrderCheck.mismatches(in: scene, expectations: expectations, time: time) {
        Issue.record(Comment(rawValue: m), sourceLocation: sourceLocation)
    }
}

/// Records an issue when `image` does not match the PNG at `reference` within `tolerance`, naming where
/// `actual.png` and `diff.png` were written.
public func expectImage(_ image: RenderedImage, matches reference: URL, tolerance: ImageTolerance = .default,
                        artifacts: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    if let failure = ImageCheck.failure(image, matches: reference, tolerance: tolerance, artifacts: artifacts) {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}
