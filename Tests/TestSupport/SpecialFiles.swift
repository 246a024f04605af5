import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Folders and special files (FIFOs, sockets, device nodes) for the tests of where outputs may go. Every
/// node is made inside a fresh temporary folder: no test touches a real system path such as /dev/null.
public enum SpecialFiles {
    /// Device nodes can only be made by root; tests that need one are skipped otherwise.
    public static var isRoot: Bool { geteuid() == 0 }

    /// A new empty folder under the system's temporary folder.
    public static func folder(_ prefix: String = "origami-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every file under `dir` (hidden ones too), by its path below `dir`, with its bytes: what a test compares
    /// to show that nothing in a folder changed.
    public static func snapshot(_ dir: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            files[String(url.path.dropFirst(dir.path.count))] = try Data(contentsOf: url)
        }
        return files
    }

    /// Every name in `folder`, hidden ones included, sorted.
    public static func entries(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private static func check(_ result: Int32, _ what: String) throws {
        guard result == 0 else { throw Failure(description: "\(what): \(String(cString: strerror(errno)))") }
    }

    public static func makeFIFO(_ url: URL) throws { try check(mkfifo(url.path, 0o644), "mkfifo \(url.path)") }

    /// A character device node with the numbers of /dev/null (1, 3), or a block device with a loop device's
    /// (7, 0). The node is never opened, by the tests or by the code under test.
    public static func makeDevice(_ url: URL, block: Bool = false) throws {
        let number: dev_t = block ? (7 << 8) | 0 : (1 << 8) | 3
        try check(mknod(url.path, (block ? S_IFBLK : S_IFCHR) | 0o644, number), "mknod \(url.path)")
    }

    /// A Unix-domain socket bound at `url` (the socket file stays after the descriptor is closed).
    public static func makeSocket(_ url: URL) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(url.path.utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw Failure(description: "socket path too long: \(url.path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.enumerated() { raw[i] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try check(result, "bind \(url.path)")
    }

    /// The file's status without following a link.
    public static func status(_ url: URL) throws -> stat {
        var s = stat()
        try check(lstat(url.path, &s), "lstat \(url.path)")
        return s
    }

    /// `S_IFREG`, `S_IFLNK`, `S_IFCHR`, … of the file itself (a link is not followed).
    public static func kind(_ url: URL) throws -> mode_t { try status(url).st_mode & S_IFMT }

    /// The permission bits (0o644 …) of the file itself.
    public static func mode(_ url: URL) throws -> mode_t { try status(url).st_mode & 0o7777 }

    public static func setMode(_ url: URL, _ mode: mode_t) throws { try check(chmod(url.path, mode), "chmod \(url.path)") }
}
