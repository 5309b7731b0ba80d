// SPDX-License-Identifier: MIT
import HudUnsafe
import Glibc

/// Load-time checks on a plugin file and every directory above it.
///
/// A file, or any directory on its canonical path, that is writable by group
/// or others (except a sticky directory such as /tmp: others may add
/// entries there but not rename or delete ours), or owned by a user other
/// than root or the current user, is refused: whoever can write there could swap the library between our
/// checks and `dlopen`. Because every component of the canonical path must
/// pass, nobody else can replace the file once it is checked, so loading the
/// canonical path afterwards loads the checked file (Docs/DISCOVERY.md
/// explains why this closes the check-then-load race; the loader also
/// compares the loaded file's (device, inode) with the checked one).
public struct PathSecurity: Sendable {
    /// Skips the checks (development only; `--allow-insecure-path`).
    public var allowInsecure: Bool
    public let userID: UInt32

    public init(allowInsecure: Bool = false) {
        self.allowInsecure = allowInsecure
        self.userID = geteuid()
    }

    /// Why `canonicalPath` (already resolved by `realpath`) may not be
    /// loaded, or nil if it may.
    public func problem(canonicalPath: String) -> String? {
        guard !allowInsecure else { return nil }
        switch SystemCalls.status(of: canonicalPath, followLinks: false) {
        case .success(let info):
            if let problem = fileProblem(info, canonicalPath: canonicalPath) { return problem }
        case .failure(let error): return "cannot stat \(canonicalPath): \(error)"
        }
        return canonicalPath == "/" ? nil : directoryProblem(canonicalDirectory: Self.parent(of: canonicalPath))
    }

    /// The check of the file itself, from its `lstat` (a catalog scan has
    /// it already: one system call per file).
    func fileProblem(_ info: FileStatus, canonicalPath: String) -> String? {
        guard !allowInsecure else { return nil }
        return Self.problem(info, path: canonicalPath, isFile: true, userID: userID)
    }

    /// The checks of `canonicalDirectory` and every directory above it (a
    /// catalog scan does them once per search directory, not per file).
    func directoryProblem(canonicalDirectory: String) -> String? {
        guard !allowInsecure else { return nil }
        var path = canonicalDirectory
        while true {
            switch SystemCalls.status(of: path, followLinks: false) {
            case .success(let info):
                if let problem = Self.problem(info, path: path, isFile: false, userID: userID) { return problem }
            case .failure(let error): return "cannot stat \(path): \(error)"
            }
            if path == "/" { return nil }
            path = Self.parent(of: path)
        }
    }

    private static func problem(_ info: FileStatus, path: String, isFile: Bool, userID: UInt32) -> String? {
        let what = isFile ? "the file" : "directory \(path)"
        if info.isSymbolicLink {
            return "\(what) is a symbolic link after canonicalization (it changed while being checked)"
        }
        // A sticky directory (like /tmp) lets others create entries but not
        // rename or delete ours; what they create fails the owner check.
        let stickyAbove = !isFile && info.mode & UInt32(S_ISVTX) != 0
        if info.mode & 0o022 != 0 && !stickyAbove {
            let who = info.mode & 0o002 != 0 ? "everyone" : "its group"
            return "\(what) is writable by \(who) (mode \(String(info.permissions, radix: 8))); anyone there could replace the plugin. Fix: chmod go-w \(path)"
        }
        if info.owner != 0 && info.owner != userID {
            return "\(what) is owned by uid \(info.owner), neither root nor you (uid \(userID)); a plugin path must be controlled by you or root"
        }
        return nil
    }

    /// The refusal for loading `path` (resolved first), or nil when it may
    /// be loaded or cannot be resolved (the load then says why).
    package func refusal(for path: String) -> RegistryError? {
        guard case .success(let canonical) = SystemCalls.realPath(path), let problem = problem(canonicalPath: canonical) else { return nil }
        return .insecurePath(path: canonical, reason: problem)
    }

    /// The directory that contains `path`.
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
