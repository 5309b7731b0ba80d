// SPDX-License-Identifier: MIT
import HudRegistry
import HudSystem

/// Watches plugin files and the scene file with inotify for
/// `hudhost preview`'s live reload. Each file's directory is watched, not
/// the file: build tools replace a file (write a new one, rename it over the
/// old) as often as they rewrite it, and a watch on the old inode would see
/// nothing after the first rename. Used on the main thread only.
final class PreviewWatcher {
    struct Target: Sendable, Hashable {
        enum Kind: String, Sendable, Hashable { case plugin, scene }
        /// The path the session acts on (a plugin's canonical path, the scene's path).
        var path: String
        var kind: Kind
    }

    /// The inotify descriptor (polled by the session's loop).
    let descriptor: Int32
    /// Watch number → (file name in that directory → target).
    private var names: [Int32: [String: Target]] = [:]
    /// What could not be watched, for the start-up notes.
    private(set) var problems: [String] = []

    /// `files`: each path to watch (as given and canonical, both may be
    /// listed) and what it stands for.
    init?(_ files: [String: Target]) {
        guard case .success(let fd) = SystemCalls.makeFileWatcher() else { return nil }
        descriptor = fd
        var byDirectory: [String: [String: Target]] = [:]
        for (path, target) in files {
            let directory = PathSecurity.parent(of: path)
            let name = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
            byDirectory[directory, default: [:]][name] = target
        }
        for (directory, entries) in byDirectory {
            switch SystemCalls.watch(fd, path: directory, mask: SystemCalls.fileReplacedMask) {
            case .success(let watch): names[watch, default: [:]].merge(entries) { first, _ in first }
            case .failure(let error): problems.append("cannot watch \(directory) for changes: \(error)")
            }
        }
    }

    deinit { SystemCalls.closeDescriptor(descriptor) }

    /// The targets whose files changed since the last call.
    func changedTargets() -> Set<Target> {
        var changed: Set<Target> = []
        for event in SystemCalls.readFileChanges(descriptor) {
            if let target = names[event.watch]?[event.name] { changed.insert(target) }
        }
        return changed
    }
}
