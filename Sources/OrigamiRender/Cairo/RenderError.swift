import Foundation
import Origami

/// Why a render, a decode or a write failed. Nothing is written when one of these is thrown.
public enum RenderError: Error, Equatable, CustomStringConvertible {
    /// Cairo reported an error status after `operation` (Cairo's errors are sticky: the context is unusable).
    case cairo(operation: String, status: String)
    /// The canvas size or scale cannot make an image (zero, negative, non-finite or absurdly large).
    case invalidCanvas(String)
    /// A file could not be read or decoded; `path` names it.
    case unreadableImage(path: String, reason: String)
    /// The output could not be written; `path` names the destination. No partial file is left.
    case writeFailed(path: String, reason: String)
    /// A tree, canvas or image over one of `RenderLimits` (`limit`); `value` is what was asked for. Thrown before
    /// anything is allocated for the render or the image.
    case limitExceeded(limit: RenderLimit, value: Int, maximum: Int)
    /// A layer's `lighting` cannot be used (`Lighting.validate()` failed): refused rather than rendered unlit.
    case invalidLighting(layer: String, reason: LightingError)

    public var description: String {
        switch self {
        case let .cairo(operation, status): return "cairo failed in \(operation): \(status)"
        case let .invalidCanvas(reason): return "cannot render: \(reason)"
        case let .unreadableImage(path, reason): return "cannot read image \(path): \(reason)"
        case let .writeFailed(path, reason): return "cannot write \(path): \(reason)"
        case let .invalidLighting(layer, reason): return "cannot render: the lighting of \(layer) is invalid: \(reason)"
        case let .limitExceeded(limit, value, maximum):
            return "\(limit.phrase(value)), over the limit of \(maximum); \(limit.remedy)"
        }
    }

    /// Runs `body`, whose internals may throw untyped errors, so that a public entry point throws only
    /// `RenderError`: the internal errors are `RenderError`s already; anything else is reported as such.
    static func typed<T>(_ operation: String, _ body: () throws -> T) throws(RenderError) -> T {
        do { return try body() } catch let error as RenderError { throw error } catch {
            throw .cairo(operation: operation, status: String(describing: error))
        }
    }
}
