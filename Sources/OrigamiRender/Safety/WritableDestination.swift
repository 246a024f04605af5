import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Checks, before any rendering work, that an output file can be created where it is asked for: the folder
/// exists, is a folder and is writable, and the destination is not itself a folder. `AtomicFile` still
/// handles everything that can only fail at write time (a full disk, a folder removed meanwhile).
public enum WritableDestination {
    /// Throws `RenderError.writeFailed` naming `url` and the reason.
    public static func check(_ url: URL) throws(RenderError) {
        let path = url.path
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw .writeFailed(path: path, reason: "the folder \(folder) does not exist")
        }
        guard isFolder.boolValue else { throw .writeFailed(path: path, reason: "\(folder) is not a folder") }
        guard access(folder, W_OK) == 0 else { throw .writeFailed(path: path, reason: "the folder \(folder) is not writable") }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw .writeFailed(path: path, reason: "it is a folder")
        }
    }
}
