// SPDX-License-Identifier: MIT
import Glibc
import HudSystem

/// Finds plugin files on the search path and learns what they provide
/// WITHOUT running their code: security checks, then the registry cache
/// (unchanged files cost one `stat`), then the ELF metadata section, and
/// only for files without one, a scan in a sandboxed child process
/// (`SandboxScanner`, the default). Every outcome is recorded in the cache,
/// failures included: a failed file is skipped until it changes.
public final class PluginCatalog {
    public let searchPaths: SearchPaths
    public let security: PathSecurity
    public let cache: RegistryCache?
    /// Runs a plugin in isolation to learn its renderers; nil: files
    /// without metadata stay `needsScan` (no plugin code runs at all).
    public let scanner: SandboxScanner?
    /// Told the canonical path of each file just before it is loaded in a
    /// sandboxed child — a scan of a file without metadata, or the one
    /// trial load of a file before its first use — the slow step (a child
    /// process per file), so a command can show progress. The library
    /// itself never prints.
    public var willScan: ((String) -> Void)?

    /// What a sandboxed scan of one file found (`SandboxScanner.ScanOutcome`).
    public typealias ScanOutcome = SandboxScanner.ScanOutcome

    public init(searchPaths: SearchPaths = .standard(), security: PathSecurity = PathSecurity(), cache: RegistryCache?,
                scanner: SandboxScanner? = SandboxScanner()) {
        self.searchPaths = searchPaths
        self.security = security
        self.cache = cache
        self.scanner = scanner
    }

    /// One `*.so` file found in a search directory.
    public struct File: Sendable, Hashable {
        public var path: String
        public var directory: String
        public var canonicalPath: String?
        public var state: State
        /// The outcome came from the cache (the file was only `stat`ed).
        public var fromCache: Bool

        public enum State: Sendable, Hashable {
            case available([RendererInfo], source: MetadataSource)
            case refused(String)
            case failed(code: FailureCode, reason: String)
            case needsScan
            /// The same file (by device and inode) was already listed.
            case duplicate(of: String)
        }

        public var renderers: [RendererInfo] {
            if case .available(let renderers, _) = state { renderers } else { [] }
        }
    }

    public struct Report: Sendable {
        public var files: [File] = []
        /// Search-path entries refused before any file was looked at.
        public var refusedPaths: [String] = []
        /// The cache file, and why an old one was discarded.
        public var cachePath: String?
        public var cacheDiscarded: String?
        public var cacheWriteError: String?
        /// Plugin files opened to read ELF metadata during this scan (0 on a
        /// warm run with nothing changed).
        public var filesRead = 0
        /// Files loaded in a sandboxed child during this scan.
        public var filesScanned = 0
        /// Sandboxed scanner children started for them (batches, and a new
        /// child after each crash).
        public var scannerChildren = 0
    }

    public func scan() -> Report {
        var report = Report()
        report.refusedPaths = searchPaths.refused.map { "\($0.entry): \($0.reason)" }
        report.cachePath = cache?.path
        var checkedDirectories: [String: String?] = [:]
        // First every directory is listed and every file in it `lstat`ed;
        // then each file is judged, and the cache consulted.
        var listings: [(directory: String, resolved: ResolvedDirectory?, paths: [String], statuses: [FastStatus?])] = []
        for directory in searchPaths.directories {
            // The directory is resolved and its chain checked once; each
            // file in it then costs one `lstat` (realpath and the checks
            // above it would be a dozen system calls per file).
            var resolved: ResolvedDirectory?
            if case .success(let canonical) = SystemCalls.realPath(directory) {
                let problem: String?
                if let known = checkedDirectories[canonical] {
                    problem = known
                } else {
                    problem = security.directoryProblem(canonicalDirectory: canonical)
                    checkedDirectories[canonical] = problem
                }
                resolved = ResolvedDirectory(canonical: canonical, problem: problem,
                                             isGiven: canonical == directory || canonical + "/" == directory)
            }
            guard let resolved else {
                listings.append((directory, nil, RendererRegistry.pluginFiles(in: directory), []))
                continue
            }
            // The canonical directory is listed, and each file in it
            // `lstat`ed relative to the listed directory's descriptor.
            let base = directory.hasSuffix("/") ? directory : directory + "/"
            guard case .success(let (paths, statuses)) = SystemCalls.sortedDirectoryFilesWithStatus(resolved.canonical, suffix: ".so",
                                                                                                  prefixing: base) else {
                listings.append((directory, resolved, [], []))
                continue
            }
            listings.append((directory, resolved, paths, zip(paths, statuses).map { Self.fastStatus($0, $1, in: resolved) }))
        }
        report.cacheDiscarded = cache?.discardReason
        var seen: [FileIdentity: String] = [:]
        // Records the cache held before this scan, and how many of them an
        // unchanged file matched: when it is all of them, no record is stale
        // (each match is a distinct path: a second path to the same file is a
        // duplicate before the cache is asked), and the set of every visited
        // path need not be built and hashed.
        let recordsBefore = cache?.count ?? 0
        cacheHits = 0
        for (directory, resolved, paths, statuses) in listings {
            report.files.reserveCapacity(report.files.count + paths.count)
            seen.reserveCapacity(seen.count + paths.count)
            for index in paths.indices {
                let file = examine(paths[index], directory: directory, seen: &seen, resolved: resolved,
                                   fast: statuses.isEmpty ? nil : statuses[index])
                if !file.fromCache, file.canonicalPath != nil, file.state.readsFile { report.filesRead += 1 }
                report.files.append(file)
            }
        }
        // Files without metadata: scanned together, in batches of one
        // sandboxed child each (`SandboxScanner.scan(batch:)`), not a child
        // per file.
        let unscanned = report.files.indices.filter {
            if case .needsScan = report.files[$0].state { report.files[$0].canonicalPath != nil } else { false }
        }
        if let scanner, !unscanned.isEmpty {
            let paths = unscanned.compactMap { report.files[$0].canonicalPath }
            for path in paths { willScan?(path) }
            let scanned = scanner.scan(batch: paths, allowInsecurePath: security.allowInsecure)
            report.filesScanned += paths.count
            report.scannerChildren += scanned.children
            for (index, result) in zip(unscanned, scanned.results) {
                report.files[index] = record(result, for: report.files[index])
            }
        }
        if let cache, cacheHits != recordsBefore {
            cache.retain(only: Set(report.files.compactMap(\.canonicalPath)))
        }
        report.cacheWriteError = cache?.save()
        return report
    }

    /// Examines one file outside the search path (e.g. `--plugin PATH`),
    /// scanning it if it has no metadata.
    public func examine(file path: String, directory: String) -> File? {
        var seen: [FileIdentity: String] = [:]
        var file = examine(path, directory: directory, seen: &seen)
        if case .failed(let code, _) = file.state, code == .notAFile, file.canonicalPath == nil { return nil }
        if case .needsScan = file.state, let scanner, let canonical = file.canonicalPath {
            willScan?(canonical)
            file = record(scanner.scan(canonical, allowInsecurePath: security.allowInsecure), for: file)
        }
        return file
    }

    /// A search directory resolved by `realpath`, and why it (or a
    /// directory above it) may not hold plugins, if so.
    struct ResolvedDirectory {
        var canonical: String
        var problem: String?
        /// The directory as given is already canonical: a file's canonical
        /// path is then its path as listed.
        var isGiven = false
    }

    /// Cache records an unchanged file matched during the current `scan`.
    private var cacheHits = 0

    /// A file's canonical path and `lstat`, when its directory is
    /// `resolved` and it is a regular file (not a symbolic link): its
    /// canonical path is then the directory's plus its name.
    typealias FastStatus = (canonical: String, info: FileStatus)

    /// `path`'s canonical path, from its `lstat` in `resolved` (`info`,
    /// made relative to that directory); nil when the file needs
    /// `realpath` (a symbolic link, or gone).
    private static func fastStatus(_ path: String, _ info: FileStatus?, in resolved: ResolvedDirectory) -> FastStatus? {
        guard let info, info.isRegularFile, let candidate = resolved.isGiven ? path : path.utf8.lastIndex(of: UInt8(ascii: "/")).map({
            (resolved.canonical == "/" ? "" : resolved.canonical) + path[$0...]
        }) else { return nil }
        return (candidate, info)
    }

    /// The checks for one file, up to (not including) a scan. With the
    /// file's directory `resolved`, a file that is not a symbolic link
    /// costs one `lstat` (`fast`, made by `scan` before); anything else is
    /// resolved with `realpath`.
    private func examine(_ path: String, directory: String, seen: inout [FileIdentity: String],
                         resolved: ResolvedDirectory? = nil, fast known: FastStatus? = nil) -> File {
        var file = File(path: path, directory: directory, canonicalPath: nil, state: .needsScan, fromCache: false)
        var canonical = known?.canonical ?? ""
        let fast = known?.info
        if fast == nil {
            // A link in a search directory is an entry like a file: in a
            // sticky directory others can write (/tmp), one another user
            // made could point at any library, root's included.
            if case .success(let link) = SystemCalls.status(of: path, followLinks: false), link.isSymbolicLink,
               let problem = security.entryProblem(link, path: path) {
                file.state = .refused(problem)
                return file
            }
            switch SystemCalls.realPath(path) {
            case .success(let resolved): canonical = resolved
            case .failure(let error):
                file.state = .failed(code: .notAFile, reason: error.description)
                return file
            }
        }
        file.canonicalPath = canonical
        let status = fast.map { Result<FileStatus, SystemError>.success($0) } ?? SystemCalls.status(of: canonical, followLinks: false)
        guard case .success(let info) = status, info.isRegularFile else {
            let directory = (try? status.get())?.isDirectory == true
            file.state = .failed(code: .notAFile, reason: directory ? "it is a directory" : "it is not a regular file")
            return file
        }
        let identity = FileIdentity(info)
        if let first = seen[identity] {
            file.state = .duplicate(of: first)
            return file
        }
        seen[identity] = canonical
        let problem = if fast != nil, let resolved {
            security.fileProblem(info, canonicalPath: canonical) ?? resolved.problem
        } else {
            security.problem(canonicalPath: canonical)
        }
        if let problem {
            file.state = .refused(problem)
            return file
        }
        let stamp = FileStamp(info)
        if let cached = cache?.record(for: canonical, stamp: stamp) {
            cacheHits += 1
            file.fromCache = true
            switch cached.status {
            case .ok: file.state = .available(cached.renderers, source: cached.source ?? .elfSection)
            case .failed: file.state = .failed(code: cached.failureCode ?? .failed, reason: cached.failureReason ?? "")
            }
            return file
        }
        var record = PluginRecord(path: canonical, stamp: stamp, buildID: nil, status: .ok, renderers: [], source: nil,
                                  failureCode: nil, failureReason: nil, time: SystemCalls.realtime().seconds, validation: nil)
        do {
            let metadata = try ElfMetadataReader.read(path: canonical)
            record.buildID = metadata.buildID
            guard metadata.hasMetadataSection else {
                pendingRecords[canonical] = record
                return file  // needsScan
            }
            record.renderers = metadata.renderers
            record.source = .elfSection
            file.state = .available(metadata.renderers, source: .elfSection)
        } catch {
            record.status = .failed
            record.failureCode = error.kind
            record.failureReason = error.reason
            file.state = .failed(code: error.kind, reason: error.reason)
        }
        cache?.store(record)
        return file
    }

    private var pendingRecords: [String: PluginRecord] = [:]

    /// The file's state after its scan, and the verdict recorded in the
    /// cache when it is the checked file's: one the child did not open
    /// (replaced meanwhile) is shown for this run and scanned again next.
    private func record(_ scan: SandboxScanner.ScanResult, for file: File) -> File {
        var file = file
        guard let canonical = file.canonicalPath, var record = pendingRecords.removeValue(forKey: canonical) else { return file }
        let keep = record.takesVerdict(ofFileStamped: scan.loaded)
        record.source = .sandboxScan
        switch scan.outcome {
        case .renderers(let renderers):
            record.renderers = renderers
            // The scan was a load in the sandbox. In a batch, an earlier
            // plugin's code could have faked this file's answer, but it
            // gains nothing by it: the trial only lets a file be loaded into
            // a host that runs plugins in-process, where that earlier
            // plugin's code runs as well.
            record.trialLoaded = true
            file.state = .available(renderers, source: .sandboxScan)
        case .failed(let code, let reason):
            record.status = .failed
            record.failureCode = code
            record.failureReason = reason
            file.state = .failed(code: code, reason: reason)
            // The machine's failure, not the file's: asked again next run.
            if code.blamesTheEnvironment { return file }
        }
        if keep { cache?.store(record) }
        return file
    }
}

extension PluginCatalog.File.State {
    /// True for outcomes reached by opening the file to read its ELF headers.
    var readsFile: Bool {
        switch self {
        case .available, .needsScan: true
        case .failed(let code, _): code != .notAFile
        case .refused, .duplicate: false
        }
    }
}
