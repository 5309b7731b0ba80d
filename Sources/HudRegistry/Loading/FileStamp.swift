// SPDX-License-Identifier: MIT
import HudSystem

/// A file's identity for the cache: unchanged identity means unchanged
/// contents (the cache never re-reads such a file).
public struct FileStamp: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedNanoseconds: Int64
    /// The inode's change time (ctime) in nanoseconds: a file rewritten in
    /// place with its size and mtime put back still has a new ctime, which
    /// only the kernel sets. `Int64.min` in a record written before it was
    /// kept: such a record matches no file and is made again.
    public var changedNanoseconds: Int64

    init(_ info: FileStatus) {
        device = info.device
        inode = info.inode
        size = info.size
        modifiedNanoseconds = Self.nanoseconds(info.modifiedSeconds, info.modifiedNanoseconds)
        changedNanoseconds = Self.nanoseconds(info.changedSeconds, info.changedNanoseconds)
    }

    /// The stamp of the file at `path` now (its target, for a link), or
    /// nil when it cannot be read.
    static func of(_ path: String) -> FileStamp? {
        guard case .success(let info) = SystemCalls.status(of: path) else { return nil }
        return FileStamp(info)
    }

    init(device: UInt64, inode: UInt64, size: Int64, modifiedNanoseconds: Int64, changedNanoseconds: Int64 = 0) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedNanoseconds = changedNanoseconds
    }

    /// Saturating: a timestamp beyond ±292 years from 1970 (archives keep
    /// odd mtimes) must not trap; identity also includes inode and size.
    private static func nanoseconds(_ seconds: Int64, _ nanoseconds: Int64) -> Int64 {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflow2) = scaled.addingReportingOverflow(nanoseconds)
        return overflow || overflow2 ? (seconds < 0 ? Int64.min : Int64.max) : total
    }

    /// The stamp as a scan child reports the file it loaded (decimal
    /// strings, as the cache keeps them).
    package var json: JSONValue {
        .object([("device", .string(String(device))), ("inode", .string(String(inode))), ("size", .string(String(size))),
                 ("mtimeNs", .string(String(modifiedNanoseconds))), ("ctimeNs", .string(String(changedNanoseconds)))])
    }

    package init?(json: JSONValue?) {
        func int<T: FixedWidthInteger>(_ key: String) -> T? { json?[key]?.stringValue.flatMap { T($0) } }
        guard let device: UInt64 = int("device"), let inode: UInt64 = int("inode"), let size: Int64 = int("size"),
              let modified: Int64 = int("mtimeNs"), let changed: Int64 = int("ctimeNs") else { return nil }
        self.init(device: device, inode: inode, size: size, modifiedNanoseconds: modified, changedNanoseconds: changed)
    }
}
