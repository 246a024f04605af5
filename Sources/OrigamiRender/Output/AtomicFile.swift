import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes whole files or nothing: the bytes go to a temporary file in the destination's folder, which is
/// then renamed over the destination (atomic on one file system). An existing file is never half-written,
/// and on error the temporary file is removed.
enum AtomicFile {
    static func write(_ data: Data, to url: URL) throws {
        let path = url.path
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary, options: [.withoutOverwriting])
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw RenderError.writeFailed(path: path, reason: error.localizedDescription)
        }
        guard rename(temporary.path, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw RenderError.writeFailed(path: path, reason: reason)
        }
    }
}
