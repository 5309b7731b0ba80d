package import HudUnsafe
import CHudSystem
import Glibc

/// A file's identity for the cache: unchanged identity means unchanged
/// contents (the cache never re-reads such a file).
public struct FileStamp: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedNanoseconds: Int64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        // Saturating: a timestamp beyond ±292 years from 1970 (archives keep
        // odd mtimes) must not trap; identity also includes inode and size.
        let (scaled, overflow) = Int64(info.st_mtim.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflow2) = scaled.addingReportingOverflow(Int64(info.st_mtim.tv_nsec))
        modifiedNanoseconds = overflow || overflow2 ? (info.st_mtim.tv_sec < 0 ? Int64.min : Int64.max) : total
    }

    init(device: UInt64, inode: UInt64, size: Int64, modifiedNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
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
    public var renderers: [RendererMetadata]
    /// Where the metadata came from: `elf-section` or `sandbox-scan`.
    public var source: String?
    /// For failures: a stable reason code (`crashed`, `timed-out`,
    /// `missing-entry-symbol`, `incompatible-abi`, ...) and the message.
    public var failureCode: String?
    public var failureReason: String?
    /// Seconds since the Unix epoch when this was recorded.
    public var time: Int64
    /// The last `hudhost validate` summary for this file, if any.
    public var validation: String?
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
    public private(set) var discardReason: String?
    private(set) var records: [String: PluginRecord] = [:]
    private var dirty = false
    /// The directory is not ours to trust: never read or write it.
    private var unusable = false
    private let key: String

    /// The cache for `searchPath` under `directory`.
    public init(directory: String, searchPath: [String]) {
        self.directory = directory
        self.key = "abi \(EntryLoader.versionString(EntryLoader.hostVersion))\n" + searchPath.joined(separator: "\n")
        self.fileName = "registry-" + Self.fnv1a(key) + ".json"
        load()
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

    /// Every record, sorted by path.
    public var allRecords: [PluginRecord] { records.values.sorted { $0.path < $1.path } }

    public func store(_ record: PluginRecord) {
        guard records[record.path] != record else { return }
        records[record.path] = record
        dirty = true
    }

    /// Records that loading `path` failed, so it is skipped until it changes.
    public func markFailed(path: String, code: String, reason: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let previous = records[path]
        store(PluginRecord(path: path, stamp: FileStamp(info), buildID: previous?.buildID, status: .failed, renderers: [],
                           source: previous?.source, failureCode: code, failureReason: reason, time: Int64(time(nil)), validation: previous?.validation))
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
        guard !unusable else { return "not writing the cache: \(discardReason ?? "the directory is not private")" }
        if let problem = Self.makePrivateDirectory(directory) { return problem }
        let text = serialize().serialized(pretty: false) + "\n"
        var template = Array((path + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))" }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        fchmod(fd, 0o600)
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            written += n
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return "cannot write \(path): \(reason)"
        }
        dirty = false
        return nil
    }

    /// Deletes every registry cache file in `directory`.
    public static func clear(directory: String) -> Int {
        guard let dir = opendir(directory) else { return 0 }
        defer { closedir(dir) }
        var removed = 0
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name.hasPrefix("registry-"), unlink(directory + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }

    // MARK: - Format

    private func load() {
        // Trust only a cache this user controls: the directory and the file
        // owned by us and closed to others, the file not a symlink. Anything
        // else is discarded (and not written to), never read.
        if let problem = Self.untrustedDirectory(directory) {
            discardReason = problem
            unusable = true
            return
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }  // no cache yet
        guard info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
            discardReason = "the cache file is not a private regular file owned by you (mode \(String(info.st_mode & 0o7777, radix: 8)), uid \(info.st_uid))"
            dirty = true
            return
        }
        guard info.st_size < 64 << 20, let text = Self.readSmallFile(path) else {
            discardReason = "unreadable or larger than 64 MiB"
            return
        }
        do {
            let root = try JSONParser.parse(text, limits: { var l = JSONParser.Limits(); l.maxBytes = 64 << 20; return l }())
            guard root["cacheFormat"]?.numberValue == Double(Self.formatVersion) else {
                discardReason = "written by another cache format (\(root["cacheFormat"]?.serialized(pretty: false) ?? "none"))"
                return
            }
            guard root["key"]?.stringValue == key else {
                discardReason = "keyed on another host ABI or search path"
                return
            }
            var loaded: [String: PluginRecord] = [:]
            for item in root["files"]?.arrayValue ?? [] {
                guard let record = Self.record(item) else {
                    discardReason = "a file record is malformed"
                    return
                }
                loaded[record.path] = record
            }
            records = loaded
        } catch {
            discardReason = "corrupt: \(error)"
        }
        if discardReason != nil { dirty = true }
    }

    private func serialize() -> JSONValue {
        .object([
            ("cacheFormat", .number(Double(Self.formatVersion))),
            ("key", .string(key)),
            ("files", .array(allRecords.map(Self.json))),
        ])
    }

    package static func json(_ r: PluginRecord) -> JSONValue {
        .object([
            ("path", .string(r.path)),
            ("device", .string(String(r.stamp.device))),
            ("inode", .string(String(r.stamp.inode))),
            ("size", .string(String(r.stamp.size))),
            ("mtimeNs", .string(String(r.stamp.modifiedNanoseconds))),
            ("buildId", r.buildID.map(JSONValue.string) ?? .null),
            ("status", .string(r.status.rawValue)),
            ("source", r.source.map(JSONValue.string) ?? .null),
            ("failureCode", r.failureCode.map(JSONValue.string) ?? .null),
            ("failureReason", r.failureReason.map(JSONValue.string) ?? .null),
            ("time", .string(String(r.time))),
            ("validation", r.validation.map(JSONValue.string) ?? .null),
            ("renderers", .array(r.renderers.map { m in
                .object([("id", .string(m.id)), ("name", .string(m.name)), ("version", .string(m.version)), ("vendor", .string(m.vendor)),
                         ("abi", .number(Double(m.abiVersion))), ("positions", .number(Double(m.supportedPositions))),
                         ("capabilities", .number(Double(m.capabilities)))])
            })),
        ])
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
              let status = j["status"]?.stringValue.flatMap(PluginRecord.Status.init(rawValue:)),
              let buildID = optionalString("buildId"), let source = optionalString("source"), let code = optionalString("failureCode"),
              let reason = optionalString("failureReason"), let validation = optionalString("validation"),
              let items = j["renderers"]?.arrayValue else { return nil }
        var renderers: [RendererMetadata] = []
        for item in items {
            guard let id = item["id"]?.stringValue, let name = item["name"]?.stringValue, let version = item["version"]?.stringValue,
                  let vendor = item["vendor"]?.stringValue, let abi = item["abi"]?.numberValue, let positions = item["positions"]?.numberValue,
                  let capabilities = item["capabilities"]?.numberValue,
                  let abiValue = UInt32(exactly: abi), let positionBits = UInt32(exactly: positions), let capabilityBits = UInt32(exactly: capabilities)
            else { return nil }
            renderers.append(RendererMetadata(id: id, name: name, version: version, vendor: vendor, abiVersion: abiValue,
                                              supportedPositions: positionBits, capabilities: capabilityBits))
        }
        return PluginRecord(path: path, stamp: FileStamp(device: device, inode: inode, size: size, modifiedNanoseconds: mtime),
                            buildID: buildID, status: status, renderers: renderers, source: source, failureCode: code,
                            failureReason: reason, time: time, validation: validation)
    }

    private static func readSmallFile(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            bytes += chunk[..<n]
            if n < chunk.count { break }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Why an existing cache directory must not be used, or nil (a missing
    /// one is fine: it is created private).
    static func untrustedDirectory(_ directory: String) -> String? {
        var info = stat()
        guard lstat(directory, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "the cache directory \(directory) is not a directory" }
        guard info.st_uid == geteuid() else { return "the cache directory \(directory) is owned by uid \(info.st_uid), not you" }
        guard info.st_mode & 0o022 == 0 else { return "the cache directory \(directory) is writable by others" }
        return nil
    }

    /// Creates `directory` (and parents) as 0700; refuses one that others can write.
    static func makePrivateDirectory(_ directory: String) -> String? {
        var prefix = ""
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                return "cannot create \(prefix): \(String(cString: strerror(errno)))"
            }
        }
        if let problem = untrustedDirectory(directory) { return problem }
        var info = stat()
        if lstat(directory, &info) == 0, info.st_mode & 0o077 != 0 { chmod(directory, 0o700) }
        return nil
    }

    /// 64-bit FNV-1a, as 16 hex digits: a stable file name for a key.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
