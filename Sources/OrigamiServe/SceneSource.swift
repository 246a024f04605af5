import Foundation
import Origami
import OrigamiScene
import Synchronization

/// The scene the viewer shows: the last good description of the file (with the `--set` values the server was
/// started with), the error of the last edit when it broke the file, and a version that moves on every change
/// either way, so a page asking `/events` learns of both.
///
/// The file and its images are watched by polling their size and modification time (`check()`, every 250 ms
/// from `watch()`): portable, and a quarter of a second is below what a person notices after saving.
public final class SceneSource: Sendable {
    public struct State: Sendable {
        /// The last description that decoded; a broken edit keeps it.
        public var description: SceneDescription
        /// Why the file as it is now on disk cannot be shown; `nil` when `description` is the file.
        public var error: ViewerError?
        /// Moves on every reload, good or broken.
        public var version: Int
    }

    public let url: URL
    /// How messages and the page name the file (as the command line gave it).
    public let displayName: String
    public let limits: SceneLimits
    /// The `--set` values every reload applies.
    public let settings: [String: Double]
    private let state: Mutex<State>
    private let fingerprint: Mutex<[FileStamp?]>

    /// Reads the file. Throws what `SceneDescription.load` and `setting(_:)` throw.
    public convenience init(url: URL, displayName: String, limits: SceneLimits = .default,
                            settings: [String: Double] = [:]) throws {
        self.init(url: url, displayName: displayName, limits: limits, settings: settings,
                  description: try Self.read(url, displayName: displayName, limits: limits, settings: settings))
    }

    /// Starts from `description`, already read from `url` with `settings` (the command line reads it first, to
    /// fail as every other command does).
    public init(url: URL, displayName: String, limits: SceneLimits, settings: [String: Double],
                description: SceneDescription) {
        self.url = url; self.displayName = displayName; self.limits = limits; self.settings = settings
        state = Mutex(State(description: description, error: nil, version: 1))
        fingerprint = Mutex(Self.stamps(url, images: description.images))
    }

    /// What the viewer shows now.
    public var current: State { state.withLock { $0 } }

    private static func read(_ url: URL, displayName: String, limits: SceneLimits,
                             settings: [String: Double]) throws -> SceneDescription {
        let description = try SceneDescription.load(contentsOf: url, displayName: displayName, limits: limits)
        return settings.isEmpty ? description : try description.setting(settings)
    }

    /// A file's size and modification time, or `nil` when it cannot be stat'ed (deleted, mid-rename).
    struct FileStamp: Hashable, Sendable {
        let size: Int64, seconds: Int64, nanoseconds: Int64
        init?(_ url: URL) {
            var s = stat()
            guard stat(url.path, &s) == 0 else { return nil }
            size = Int64(s.st_size); seconds = Int64(s.st_mtim.tv_sec); nanoseconds = Int64(s.st_mtim.tv_nsec)
        }
    }

    private static func stamps(_ url: URL, images: [URL]) -> [FileStamp?] { ([url] + images).map(FileStamp.init) }

    /// Reads the file again when it or one of its images changed since the last look; returns whether it did.
    /// A broken edit keeps the last good description and records the error.
    @discardableResult
    public func check() -> Bool {
        let images = state.withLock { $0.description.images }
        let now = Self.stamps(url, images: images)
        let changed = fingerprint.withLock { old -> Bool in
            guard old != now else { return false }
            old = now
            return true
        }
        guard changed else { return false }
        reload()
        return true
    }

    /// Reads the file now, whatever its stamps say.
    public func reload() {
        do {
            let description = try Self.read(url, displayName: displayName, limits: limits, settings: settings)
            // The images may be other files now: watch those.
            fingerprint.withLock { $0 = Self.stamps(url, images: description.images) }
            state.withLock { $0.description = description; $0.error = nil; $0.version += 1 }
        } catch {
            let viewerError = ViewerError(scene: error, file: displayName, settings: settings)
            state.withLock { $0.error = viewerError; $0.version += 1 }
        }
    }

    /// Polls every `interval` until the task is cancelled.
    public func watch(every interval: Duration = .milliseconds(250)) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            check()
        }
    }
}
