// SPDX-License-Identifier: MIT
import CHudSystem
import Glibc

/// The host's libc layer, in the style of swift-system's syscall wrappers:
/// every raw libc call the safe targets make, each taking and returning
/// Swift values (never a pointer), failures as `SystemError` (errno and its
/// text). Nothing here calls plugin code; that is `PluginLibrary.swift`.
/// One file per domain: this one (errors, time, environment),
/// `SystemCalls+Files`, `+Processes`, `+Threads` and `+Sandbox`.
///
/// Thread: every function is [thread-safe] (each is one or a few system
/// calls on values it owns), except where a comment says otherwise.
package enum SystemCalls {}

/// A failed system call: `errno` and the C library's text for it.
package struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    package var code: Int32

    package init(code: Int32) { self.code = code }

    /// The current `errno`.
    package static var current: SystemError { SystemError(code: errno) }

    package var description: String { SystemCalls.errorText(code) }
}

/// What `stat`/`lstat` report about a file, as Swift values.
package struct FileStatus: Sendable, Hashable {
    package var device: UInt64
    package var inode: UInt64
    /// `st_mode`: type bits and permissions.
    package var mode: UInt32
    package var owner: UInt32
    package var size: Int64
    package var modifiedSeconds: Int64
    package var modifiedNanoseconds: Int64
    /// `st_ctim`: when the inode last changed (contents, mode, owner or
    /// times), which no unprivileged call can set back.
    package var changedSeconds: Int64
    package var changedNanoseconds: Int64

    package var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
    /// What kind of file this is, for messages: "a directory", "a FIFO (named pipe)", ...
    package var kindName: String {
        switch mode & UInt32(S_IFMT) {
        case UInt32(S_IFREG): "a regular file"
        case UInt32(S_IFDIR): "a directory"
        case UInt32(S_IFIFO): "a FIFO (named pipe)"
        case UInt32(S_IFCHR): "a character device"
        case UInt32(S_IFBLK): "a block device"
        case UInt32(S_IFSOCK): "a socket"
        case UInt32(S_IFLNK): "a symbolic link"
        default: "not a regular file"
        }
    }
    package var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
    package var isSymbolicLink: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFLNK) }
    /// The permission bits (`mode & 0o7777`).
    package var permissions: UInt32 { mode & 0o7777 }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        mode = UInt32(info.st_mode)
        owner = UInt32(info.st_uid)
        size = Int64(info.st_size)
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        changedSeconds = Int64(info.st_ctim.tv_sec)
        changedNanoseconds = Int64(info.st_ctim.tv_nsec)
    }
}

// MARK: - Errors, time, environment

extension SystemCalls {
    package static func errorText(_ code: Int32) -> String {
        guard let text = unsafe strerror(code) else { return "error \(code)" }
        return unsafe String(cString: text)
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    package static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        unsafe clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Wall-clock time: seconds and nanoseconds since the Unix epoch.
    package static func realtime() -> (seconds: Int64, nanoseconds: Int64) {
        var now = timespec()
        unsafe clock_gettime(CLOCK_REALTIME, &now)
        return (Int64(now.tv_sec), Int64(now.tv_nsec))
    }

    /// `secure_getenv(3)` semantics: nil when the process runs elevated
    /// (setuid, setgid, file capabilities: AT_SECURE), so an environment
    /// set by a less privileged caller is never trusted.
    package static func secureEnvironment(_ name: String) -> String? {
        guard let value = unsafe hud_system_secure_getenv(name) else { return nil }
        return unsafe String(cString: value)
    }

    /// `setenv(name, value, 1)`. [main-thread], before any other thread
    /// exists: libc's environment is not safe against concurrent readers.
    package static func setEnvironment(_ name: String, _ value: String) { unsafe setenv(name, value, 1) }

    /// True when the kernel marked this process as running elevated.
    package static var isElevated: Bool { hud_system_is_elevated() != 0 }

    /// The process environment, as name → value. [main-thread]: `environ`
    /// is not safe against a concurrent `setenv`; the host never calls one.
    package static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var index = 0
        while let entry = unsafe environ[index] {
            let text = unsafe String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            index += 1
        }
        return result
    }

    /// `fnmatch(pattern, text, 0) == 0`: shell globs (`*`, `?`, `[...]`).
    package static func matches(pattern: String, _ text: String) -> Bool {
        unsafe fnmatch(pattern, text, 0) == 0
    }

    /// 64 random bits from the kernel (`/dev/urandom`), or nil.
    package static func randomUInt64() -> UInt64? {
        guard case .success(let file) = ReadOnlyFile.open("/dev/urandom"),
              case .success(let bytes) = file.read(at: 0, count: 8) else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The kernel release (`uname -r`).
    package static func kernelRelease() -> String {
        var name = utsname()
        guard unsafe uname(&name) == 0 else { return "unknown" }
        return unsafe withUnsafeBytes(of: name.release) { raw in
            unsafe String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// Bytes the process currently holds from malloc (arenas plus mmapped chunks).
    package static func heapInUse() -> Int { Int(hud_system_heap_in_use()) }

    /// `value` with `digits` decimals, as `printf("%.*f")` rounds it.
    package static func formatFixed(_ value: Double, digits: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = unsafe withVaList([Int32(clamping: digits), value]) { unsafe vsnprintf(&buffer, buffer.count, "%.*f", $0) }
        let length = max(0, min(Int(count), buffer.count - 1))
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
