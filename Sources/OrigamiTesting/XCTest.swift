#if canImport(XCTest)
import Foundation
import Origami
import OrigamiRender
import OrigamiScene
import XCTest

/// `expectHitOrder` for XCTest: one failure per policy whose answer differs.
public func XCTAssertHitOrder(in root: Layer, at point: CGPoint, _ expected: [HitTestPolicy: String?], time: Double? = nil,
                              file: StaticString = #filePath, line: UInt = #line) {
    for m in HitOrderCheck.mismatches(in: root, at: point, expected: expected, time: time) {
        XCTFail(m.description, file: file, line: line)
    }
}

/// `expectImage` for XCTest.
public func XCTAssertImage(_ image: RenderedImage, matches reference: URL, tolerance: ImageTolerance = .default,
                           artifacts: URL? = nil, file: StaticString = #filePath, line: UInt = #line) {
    if let failure = ImageCheck.failure(image, matches: reference, tolerance: tolerance, artifacts: artifacts) {
        XCTFail(failure, file: file, line: line)
    }
}
#endif
