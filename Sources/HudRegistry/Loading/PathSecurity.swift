// SPDX-License-Identifier: MIT
import Glibc
import HudSystem

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

    /// The check of a search directory's entry that is a symbolic link,
    /// from its `lstat`: it must be yours or root's, as a file must.
    func entryProblem(_ link: FileStatus, path: String) -> String? {
        guard !allowInsecure, link.owner != 0, link.owner != userID else { return nil }
        return "the symbolic link \(path) is owned by uid \(link.owner), neither root nor you (uid \(userID)); whoever made it chose what it loads. Fix: remove it, or keep plugins in a directory only you can write"
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
    /// be loaded or cannot be resolved (the load then says why): the file
    /// and its directories, then every library its loading reaches
    /// (`libraryProblem`).
    package func refusal(for path: String) -> RegistryError? {
        guard case .success(let canonical) = SystemCalls.realPath(path), let problem = loadProblem(canonicalPath: canonical) else { return nil }
        return .insecurePath(path: canonical, reason: problem)
    }

    /// `problem(canonicalPath:)`, then `libraryProblem(pluginAt:)`: what
    /// must hold before any code of the file runs, in a sandbox or not.
    package func loadProblem(canonicalPath: String) -> String? {
        problem(canonicalPath: canonicalPath) ?? libraryProblem(pluginAt: canonicalPath)
    }

    /// Why a library that loading the plugin at `canonicalPath` would make
    /// the loader search for or load may not be trusted, or nil. Whoever can
    /// write where the loader looks can put code into the plugin's process
    /// (and, in a sandboxed child, into what Landlock lets it read), so the
    /// same rules as for the plugin file apply to:
    /// - every library it links that is found through its own or its
    ///   libraries' `DT_RUNPATH`/`DT_RPATH` (`$ORIGIN` expanded), and the
    ///   directories above it;
    /// - every directory of those search paths and of `LD_LIBRARY_PATH`
    ///   (searched before the system's), even where the library is not
    ///   there yet: such a directory must not be writable by others at all,
    ///   sticky or not (in a sticky directory anyone may add the name the
    ///   loader looks for); a relative entry is the directory the loader
    ///   would search, from the current directory;
    /// - each library a `LD_LIBRARY_PATH` directory holds under a name the
    ///   plugin or its libraries need.
    /// The system's trees (`/usr`, `/lib*`) are root's and not walked.
    package func libraryProblem(pluginAt canonicalPath: String) -> String? {
        guard !allowInsecure else { return nil }
        let systemTrees = ["/usr", "/lib", "/lib64", "/lib32", "/libx32"]
        func isSystem(_ path: String) -> Bool { systemTrees.contains { path == $0 || path.hasPrefix($0 + "/") } }
        // Each file's dynamic section read once, the plugin's first.
        let files = ElfMetadataReader.linkedFiles(of: canonicalPath, excluding: systemTrees)
        let libraries = files.dropFirst().map(\.path)
        var needed: Set<String> = []
        var checkedDirectories: Set<String> = []
        for file in files {
            needed.formUnion(file.needed)
            let origin = Self.parent(of: file.path)
            let what = file.path == canonicalPath ? "the plugin's" : "library \(file.path)'s"
            for entry in file.searchPaths.flatMap({ $0.split(separator: ":", omittingEmptySubsequences: false) }) {
                let expanded = Self.searched(String(entry).replacingEvery("${ORIGIN}", with: origin).replacingEvery("$ORIGIN", with: origin))
                guard !isSystem(expanded), checkedDirectories.insert(expanded).inserted else { continue }
                if let problem = searchDirectoryProblem(expanded) { return "\(what) library search path entry '\(entry)' (\(expanded)): \(problem)" }
            }
        }
        for library in libraries {
            if let problem = problem(canonicalPath: library) { return "library \(library), which the plugin links: \(problem)" }
        }
        let libraryPath = SystemCalls.secureEnvironment("LD_LIBRARY_PATH") ?? ""
        for entry in libraryPath.isEmpty ? [] : libraryPath.split(separator: ":", omittingEmptySubsequences: false) {
            let directory = Self.searched(String(entry))
            guard !isSystem(directory) else { continue }
            if checkedDirectories.insert(directory).inserted, let problem = searchDirectoryProblem(directory) {
                return "LD_LIBRARY_PATH entry '\(entry)' (\(directory)): \(problem)"
            }
            for name in needed where !name.contains("/") {
                guard case .success(let library) = SystemCalls.realPath(directory + "/" + name) else { continue }
                if let problem = problem(canonicalPath: library) { return "library \(library), found through LD_LIBRARY_PATH: \(problem)" }
            }
        }
        return nil
    }

    /// The directory the loader searches for a search path entry: a
    /// relative one (an empty one is ".") from the current directory.
    private static func searched(_ entry: String) -> String {
        if entry.hasPrefix("/") { return entry }
        let current = SystemCalls.currentDirectory() ?? "/"
        return entry.isEmpty || entry == "." ? current : (current == "/" ? "" : current) + "/" + entry
    }

    /// A directory the loader searches: it (or, when it does not exist, its
    /// nearest existing ancestor, where it could be made) must be writable
    /// by its owner alone, sticky or not, and owned by you or root; the
    /// directories above follow the plugin path's rules.
    private func searchDirectoryProblem(_ directory: String) -> String? {
        var path = directory
        while true {
            switch SystemCalls.status(of: path, followLinks: true) {
            case .success(let info):
                if info.mode & 0o022 != 0 {
                    let who = info.mode & 0o002 != 0 ? "everyone" : "its group"
                    return "directory \(path) is writable by \(who) (mode \(String(info.permissions, radix: 8))); anyone there could add a library under a name the loader looks for. Fix: chmod go-w \(path), or keep the libraries elsewhere"
                }
                if info.owner != 0 && info.owner != userID {
                    return "directory \(path) is owned by uid \(info.owner), neither root nor you (uid \(userID))"
                }
                guard path != "/", case .success(let canonical) = SystemCalls.realPath(path) else { return nil }
                return canonical == "/" ? nil : directoryProblem(canonicalDirectory: Self.parent(of: canonical))
            case .failure:
                guard path != "/" else { return nil }
                path = Self.parent(of: path)
            }
        }
    }

    /// The directory that contains `path`.
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
