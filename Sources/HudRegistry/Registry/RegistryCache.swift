// SPDX-License-Identifier: MIT
import Glibc
import HudSystem

extension PluginRecord {
    /// Whether a verdict reached by loading the file stamped `loaded`
    /// belongs here: yes when that is this record's file, or when which
    /// file was opened is not known (a child that crashed before it
    /// answered: the file the catalog checked is the one blamed).
    func takesVerdict(ofFileStamped loaded: FileStamp?) -> Bool {
        loaded.map { $0 == stamp } ?? true
    }
}

/// The last known outcome of a plugin file.
public struct PluginRecord: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable {
        /// Metadata read (from the ELF section or a sandboxed scan); not failed.
        case ok
        /// Loading or scanning failed; skipped until the file changes.
        case failed
    }

    public var path: String
    public var stamp: FileStamp
    public var buildID: String?
    public var status: Status
    /// What the file provides (empty for failures).
    public var renderers: [RendererInfo]
    /// Where the metadata came from.
    public var source: MetadataSource?
    /// For failures: a stable reason code (`crashed`, `timed-out`,
    /// `missing-entry-symbol`, `incompatible-abi`, ...) and the message.
    public var failureCode: FailureCode?
    public var failureReason: String?
    /// Seconds since the Unix epoch when this was recorded.
    public var time: Int64
    /// The last `hudhost validate` summary for this file, if any.
    public var validation: String?
    /// The file (unchanged since) was loaded once in a sandboxed child
    /// without trouble: it may be loaded into a host process.
    public var trialLoaded = false
    /// Consecutive failures of its out-of-process renderer host (crash,
    /// hang, exit) across runs; at `RendererHostSettings.maxConsecutiveFailures`
    /// the record becomes `failed` and the file is skipped until it changes.
    public var hostFailures = 0
}

/// The registry cache: what each plugin file provides and how it last
/// fared, keyed on file identity, so a warm `hudhost list` only `stat`s.
///
/// One JSON file per (host ABI, search path) under `$XDG_CACHE_HOME/hud/`
/// (or `~/.cache/hud/`): directory mode 0700, file 0600, written atomically
/// (temp file, fsync, rename) so concurrent writers always leave a valid
/// cache. A corrupt, unreadable or foreign-version file is discarded and
/// rebuilt, never trusted.
public final class RegistryCache {
    public static let formatVersion = 1
    public let directory: String
    public let fileName: String
    /// Why an existing cache file was discarded on load, if it was.
    public var discardReason: String? { state.discardReason }
    /// What the load found, and what changed since (`records`, `dirty`):
    /// the file is read at the first use. Changed in place through
    /// `_modify`: a `lazy var` is read, changed and written back whole, so
    /// every stored record copied the table of all the others (a cold
    /// `list` of 10,000 files took seconds, quadratic in the files).
    private var state: Loaded {
        get {
            loadOnce()
            return loaded!
        }
        _modify {
            loadOnce()
            yield &loaded!
        }
    }
    private var loaded: Loaded?

    private func loadOnce() {
        if loaded == nil { loaded = Self.load(directory: directory, path: path, key: key) }
    }
    /// The host ABI and search path this cache is for (its first member).
    let key: String

    /// The cache for `searchPath` under `directory`.
    public init(directory: String, searchPath: [String]) {
        self.directory = directory
        self.key = "abi \(ABIVersion.host)\n" + searchPath.joined(separator: "\n")
        self.fileName = "registry-" + Self.fnv1a(key) + ".json"
    }

    /// The records, once loaded (changed in place: see `state`).
    var records: [String: PluginRecord] {
        get { state.records }
        _modify { yield &state.records }
    }

    /// The records differ from the file (or the file is to be replaced).
    private var dirty: Bool {
        get { state.dirty }
        _modify { yield &state.dirty }
    }

    /// `$XDG_CACHE_HOME/hud` or `$HOME/.cache/hud`; nil when neither is set
    /// (or the process is elevated: the environment is not trusted then).
    public static func defaultDirectory() -> String? {
        if let xdg = SearchPaths.secureEnvironment("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/hud" }
        if let home = SearchPaths.secureEnvironment("HOME"), home.hasPrefix("/") { return home + "/.cache/hud" }
        return nil
    }

    public var path: String { directory + "/" + fileName }

    /// The record for `path` if its stamp still matches.
    public func record(for path: String, stamp: FileStamp) -> PluginRecord? {
        guard let record = records[path], record.stamp == stamp else { return nil }
        return record
    }

    /// How many records the cache holds.
    public var count: Int { records.count }

    /// Every record, sorted by path.
    public var allRecords: [PluginRecord] { records.values.sorted { $0.path < $1.path } }

    public func store(_ record: PluginRecord) {
        guard records[record.path] != record else { return }
        records[record.path] = record
        dirty = true
    }

    /// Records that loading `path` failed, so it is skipped until it changes.
    ///
    /// The verdict belongs to the file the catalog checked this run (the
    /// record's stamp), never to whatever the path names now: a file
    /// replaced meanwhile (a fixed build) is judged on its own next run.
    /// `loaded`, when known, is the stamp of the file the failing load
    /// opened; a verdict about another file than the record's is not kept.
    public func markFailed(path: String, code: FailureCode, reason: String, loaded: FileStamp? = nil) {
        // The machine's failure (no helper, a required layer missing) is
        // not the file's: never recorded, so fixing the machine is enough.
        guard !code.blamesTheEnvironment, let previous = records[path], previous.takesVerdict(ofFileStamped: loaded) else { return }
        store(PluginRecord(path: path, stamp: previous.stamp, buildID: previous.buildID, status: .failed, renderers: [],
                           source: previous.source, failureCode: code, failureReason: reason, time: SystemCalls.realtime().seconds,
                           validation: previous.validation))
    }

    /// The record for `path` as last stored (the catalog has just checked
    /// its stamp), if any.
    public func record(for path: String) -> PluginRecord? { records[path] }

    /// Records that `path` loaded cleanly in a sandboxed child, which
    /// opened the file stamped `loaded` (nil: not known); kept only when
    /// that is the file the record describes.
    public func markTrialLoaded(path: String, loaded: FileStamp?) {
        guard var record = records[path], !record.trialLoaded, loaded == record.stamp else { return }
        record.trialLoaded = true
        store(record)
    }

    /// Counts one failure of `path`'s renderer host; returns the count.
    /// At `limit` the file is marked failed (skipped until it changes) with
    /// the last reason. Saved at once: the failing process may not get to
    /// its own save.
    @discardableResult
    public func noteHostFailure(path: String, code: FailureCode, reason: String, limit: Int) -> Int {
        guard var record = records[path] else { return 0 }
        record.hostFailures += 1
        let count = record.hostFailures
        store(record)
        if count >= limit {
            markFailed(path: path, code: code, reason: "its renderer host failed \(count) times in a row; last: \(reason)")
        }
        save()
        return count
    }

    /// Clears the failure count of `path` after its renderer host worked.
    public func noteHostRecovered(path: String) {
        guard var record = records[path], record.hostFailures > 0, record.status == .ok else { return }
        record.hostFailures = 0
        store(record)
        save()
    }

    /// Records the last validation summary of `path`.
    public func setValidation(path: String, summary: String) {
        guard var record = records[path] else { return }
        record.validation = summary
        store(record)
    }

    /// Forgets files that no longer exist among `paths`.
    public func retain(only paths: Set<String>) {
        let stale = records.keys.filter { !paths.contains($0) }
        for path in stale { records[path] = nil }
        if !stale.isEmpty { dirty = true }
    }

    /// Writes the cache if it changed. Errors are returned, not thrown: a
    /// cache that cannot be written only costs speed.
    @discardableResult
    public func save() -> String? {
        guard dirty else { return nil }
        guard !state.unusable else { return "not writing the cache: \(state.discardReason ?? "the directory is not private")" }
        if let problem = Self.makePrivateDirectory(directory) { return problem }
        // Written straight from the records (RegistryCacheFormat), no tree.
        if case .failure(let error) = SystemCalls.writeAtomically(path, RegistryCacheFormat.write(key: key, records: allRecords), mode: 0o600) {
            return error.description
        }
        dirty = false
        Self.sweepTemporaries(of: fileName, in: directory)
        return nil
    }

    /// How old a temporary cache file must be before `save` removes it as
    /// an orphan: far longer than any write takes, so another run's
    /// temporary file on its way to its rename is never touched.
    static let orphanAgeSeconds: Int64 = 600

    /// Removes temporary files a killed run left beside the cache file
    /// `name` (`name`, a dot and six random characters, from
    /// `writeAtomically`): regular files, not links, last modified over
    /// `orphanAgeSeconds` ago.
    private static func sweepTemporaries(of name: String, in directory: String) {
        guard case .success(let entries) = SystemCalls.directoryEntries(directory) else { return }
        let now = SystemCalls.realtime().seconds
        for entry in entries where entry.name.hasPrefix(name + ".") && entry.name.count == name.count + 7 && !entry.isDirectory {
            let path = directory + "/" + entry.name
            guard case .success(let info) = SystemCalls.status(of: path, followLinks: false), info.isRegularFile,
                  now - info.modifiedSeconds > orphanAgeSeconds else { continue }
            _ = SystemCalls.removeFile(path)
        }
    }

    /// Deletes every registry cache file in `directory`.
    public static func clear(directory: String) -> ClearOutcome {
        var outcome = ClearOutcome()
        switch SystemCalls.directoryEntries(directory) {
        case .failure(let error) where error.code == ENOENT:
            return outcome  // no cache yet: nothing to clear
        case .failure(let error):
            outcome.failures.append("\(directory): \(error)")
        case .success(let entries):
            for entry in entries where entry.name.hasPrefix("registry-") {
                let path = directory + "/" + entry.name
                if SystemCalls.removeFile(path) {
                    outcome.removed += 1
                } else {
                    outcome.failures.append("\(path): \(SystemError.current)")
                }
            }
        }
        return outcome
    }

    /// What `clear` did: the files removed, and each one (or the
    /// directory) it could not remove, with why.
    public struct ClearOutcome: Sendable {
        public var removed = 0
        public var failures: [String] = []
    }

    // MARK: - Format

    /// What reading the cache file found: its records, or why it was
    /// discarded, and whether the directory may be written.
    struct Loaded: Sendable {
        var records: [String: PluginRecord] = [:]
        var discardReason: String?
        var dirty = false
        var unusable = false
    }

    /// Reads the cache file `path` in `directory` for `key` (on the
    /// loading thread: static, nothing shared).
    private static func load(directory: String, path: String, key: String) -> Loaded {
        var state = Loaded()
        // Trust only a cache this user controls: the directory and the file
        // owned by us and closed to others, the file not a symlink. Anything
        // else is discarded (and not written to), never read.
        if let problem = untrustedDirectory(directory) {
            state.discardReason = problem
            state.unusable = true
            return state
        }
        // One open (no symlink, no blocking on a FIFO), one fstat of that
        // descriptor, one read of the whole file.
        let file: ReadOnlyFile
        switch ReadOnlyFile.open(path, noFollow: true, nonBlocking: true) {
        case .success(let opened): file = opened
        case .failure(let error) where error.code == ENOENT: return state  // no cache yet
        case .failure:
            if case .success(let info) = SystemCalls.status(of: path, followLinks: false), !isPrivate(info) {
                state.discardReason = notPrivate(info)
                state.dirty = true
            } else {
                state.discardReason = "unreadable or larger than 64 MiB"
            }
            return state
        }
        guard case .success(let info) = file.status(), isPrivate(info) else {
            state.discardReason = (try? file.status().get()).map(notPrivate) ?? "unreadable or larger than 64 MiB"
            state.dirty = true
            return state
        }
        guard info.size < 64 << 20, case .success(let bytes) = file.readToEnd(limit: 64 << 20, sizeHint: Int(info.size)) else {
            state.discardReason = "unreadable or larger than 64 MiB"
            return state
        }
        // The form this host writes, read in one pass into the records; any
        // other form (hand-edited, an older writer, corrupt) goes through
        // the general parser, which decides and says why it is discarded.
        var reader = RegistryCacheFormat.FastReader(bytes)
        if let loaded = reader.records(key: key) {
            state.records = loaded
            return state
        }
        switch generalRecords(bytes, key: key) {
        case .success(let loaded): state.records = loaded
        case .failure(let failure):
            state.discardReason = failure.reason
            state.dirty = failure.corrupt
        }
        return state
    }

    /// Why the general parser discards a cache file; `corrupt` when it is
    /// not JSON at all (the file is then replaced at the next save).
    struct Discard: Error, Equatable {
        var reason: String
        var corrupt = false
    }

    /// The records of cache text in any valid JSON form (the fast reader's
    /// fallback, and what it must agree with: `FuzzHarness.cache`).
    static func generalRecords(_ bytes: [UInt8], key: String) -> Result<[String: PluginRecord], Discard> {
        // The parser checks every string's UTF-8 and the grammar every
        // other byte: no separate validation pass or copy of the text.
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes: bytes, limits: { var l = JSONParser.Limits(); l.maxBytes = 64 << 20; return l }())
        } catch {
            return .failure(Discard(reason: "corrupt: \(error)", corrupt: true))
        }
        guard root["cacheFormat"]?.numberValue == Double(formatVersion) else {
            return .failure(Discard(reason: "written by another cache format (\(root["cacheFormat"]?.serialized(pretty: false) ?? "none"))"))
        }
        guard root["key"]?.stringValue == key else { return .failure(Discard(reason: "keyed on another host ABI or search path")) }
        var loaded: [String: PluginRecord] = [:]
        for item in root["files"]?.arrayValue ?? [] {
            guard let record = record(item) else { return .failure(Discard(reason: "a file record is malformed")) }
            loaded[record.path] = record
        }
        return .success(loaded)
    }

    private static func isPrivate(_ info: FileStatus) -> Bool {
        info.isRegularFile && info.owner == geteuid() && info.mode & 0o077 == 0
    }

    private static func notPrivate(_ info: FileStatus) -> String {
        "the cache file is not a private regular file owned by you (mode \(String(info.permissions, radix: 8)), uid \(info.owner))"
    }

    /// `r` as the cache stores it, as a tree (for `hudhost cache --json`).
    package static func json(_ r: PluginRecord) -> JSONValue {
        var writer = JSONWriter(pretty: false)
        RegistryCacheFormat.write(r, to: &writer)
        // The writer's own output is valid JSON well within the limits.
        return (try? JSONParser.parse(bytes: writer.bytes)) ?? .null
    }

    static func record(_ j: JSONValue) -> PluginRecord? {
        func int<T: FixedWidthInteger>(_ key: String) -> T? { j[key]?.stringValue.flatMap { T($0) } }
        func optionalString(_ key: String) -> String?? {
            switch j[key] {
            case .string(let s)?: return .some(s)
            case .null?: return .some(nil)
            default: return nil
            }
        }
        guard let path = j["path"]?.stringValue, let device: UInt64 = int("device"), let inode: UInt64 = int("inode"),
              let size: Int64 = int("size"), let mtime: Int64 = int("mtimeNs"), let time: Int64 = int("time"),
              let status = j["status"]?.stringValue,
              let buildID = optionalString("buildId"), let source = optionalString("source"), let code = optionalString("failureCode"),
              let reason = optionalString("failureReason"), let validation = optionalString("validation"),
              let items = j["renderers"]?.arrayValue else { return nil }
        var renderers: [RendererInfo] = []
        for item in items {
            guard case .success(let info) = RendererInfo.decodeRecord(item, path: path) else { return nil }
            renderers.append(info)
        }
        // Codes and sources are enums: an unknown one makes the record (and
        // so the cache) malformed, never a guess.
        // A record from before ctime was kept matches no file (`FileStamp`).
        let ctime: Int64 = int("ctimeNs") ?? Int64.min
        return PluginRecord.assemble(path: path, stamp: FileStamp(device: device, inode: inode, size: size, modifiedNanoseconds: mtime,
                                                                  changedNanoseconds: ctime),
                                     buildID: buildID, status: status, renderers: renderers, source: source, failureCode: code,
                                     failureReason: reason, time: time, validation: validation,
                                     trialLoaded: j["trialLoaded"]?.boolValue ?? false,
                                     hostFailures: j["hostFailures"]?.numberValue.flatMap { Int(exactly: $0) } ?? 0)
    }

    /// Why an existing cache directory must not be used, or nil (a missing
    /// one is fine: it is created private).
    ///
    /// The directory it lives in (`$XDG_CACHE_HOME` or `~/.cache`) may be a
    /// symbolic link, but what it resolves to must be yours or root's and
    /// closed to others (a sticky one like /tmp excepted): otherwise someone
    /// else decides where the cache is, and could swap it.
    static func untrustedDirectory(_ directory: String) -> String? {
        let parent = PathSecurity.parent(of: directory)
        if case .success(let resolved) = SystemCalls.realPath(parent), case .success(let above) = SystemCalls.status(of: resolved) {
            let shown = resolved == parent ? parent : "\(parent) (\(resolved))"
            guard above.owner == geteuid() || above.owner == 0 else {
                return "the directory holding the cache, \(shown), is owned by uid \(above.owner), neither you nor root"
            }
            guard above.mode & 0o022 == 0 || above.mode & UInt32(S_ISVTX) != 0 else {
                return "the directory holding the cache, \(shown), is writable by others"
            }
        }
        guard case .success(let info) = SystemCalls.status(of: directory, followLinks: false) else { return nil }
        guard info.isDirectory else { return "the cache directory \(directory) is not a directory" }
        guard info.owner == geteuid() else { return "the cache directory \(directory) is owned by uid \(info.owner), not you" }
        guard info.mode & 0o022 == 0 else { return "the cache directory \(directory) is writable by others" }
        return nil
    }

    /// Creates `directory` (and parents) as 0700; refuses one that others can write.
    static func makePrivateDirectory(_ directory: String) -> String? {
        // The cache directory itself is created, and the base directory
        // above it when missing (`$XDG_CACHE_HOME`, or `~/.cache`), mode
        // 0700 as the XDG spec asks; never any other directory on the way:
        // the base's own parent must exist and be this user's (a mistyped
        // XDG_CACHE_HOME must not make a chain of directories, or any in
        // another user's tree).
        let parent = PathSecurity.parent(of: directory)
        if case .failure = SystemCalls.status(of: parent) {
            let bases = [SearchPaths.secureEnvironment("XDG_CACHE_HOME"), SearchPaths.secureEnvironment("HOME").map { $0 + "/.cache" }]
            guard bases.contains(parent), case .success(let info) = SystemCalls.status(of: PathSecurity.parent(of: parent)),
                  info.isDirectory, info.owner == geteuid() else {
                return "\(parent), which should hold the cache, does not exist and its parent is not a directory of yours; "
                    + "create it or point XDG_CACHE_HOME elsewhere"
            }
            if case .failure(let error) = SystemCalls.makeDirectory(parent, mode: 0o700), error.code != EEXIST {
                return "cannot create \(parent): \(error)"
            }
        }
        if case .failure(let error) = SystemCalls.makeDirectory(directory, mode: 0o700), error.code != EEXIST {
            return "cannot create \(directory): \(error)"
        }
        if let problem = untrustedDirectory(directory) { return problem }
        if case .success(let info) = SystemCalls.status(of: directory, followLinks: false), info.mode & 0o077 != 0 {
            SystemCalls.changeMode(directory, to: 0o700)
        }
        return nil
    }

    /// 64-bit FNV-1a, as 16 hex digits: a stable file name for a key.
    static func fnv1a(_ text: String) -> String {
        var hash = FNV1a()
        hash.add(bytes: text.utf8)
        return hash.hex
    }
}
