// SPDX-License-Identifier: MIT
import CHudSystem
import CSeccomp
import Glibc
import Synchronization

/// The host's libc layer, in the style of swift-system's syscall wrappers:
/// every raw libc call the safe targets make, each taking and returning
/// Swift values (never a pointer), failures as `SystemError` (errno and its
/// text). Nothing here calls plugin code; that is `PluginLibrary.swift`.
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
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    package static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Wall-clock time: seconds and nanoseconds since the Unix epoch.
    package static func realtime() -> (seconds: Int64, nanoseconds: Int64) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return (Int64(now.tv_sec), Int64(now.tv_nsec))
    }

    /// `secure_getenv(3)` semantics: nil when the process runs elevated
    /// (setuid, setgid, file capabilities: AT_SECURE), so an environment
    /// set by a less privileged caller is never trusted.
    package static func secureEnvironment(_ name: String) -> String? {
        guard let value = hud_system_secure_getenv(name) else { return nil }
        return String(cString: value)
    }

    /// `setenv(name, value, 1)`. [main-thread], before any other thread
    /// exists: libc's environment is not safe against concurrent readers.
    package static func setEnvironment(_ name: String, _ value: String) { setenv(name, value, 1) }

    /// True when the kernel marked this process as running elevated.
    package static var isElevated: Bool { hud_system_is_elevated() != 0 }

    /// The process environment, as name → value. [main-thread]: `environ`
    /// is not safe against a concurrent `setenv`; the host never calls one.
    package static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            index += 1
        }
        return result
    }

    /// `fnmatch(pattern, text, 0) == 0`: shell globs (`*`, `?`, `[...]`).
    package static func matches(pattern: String, _ text: String) -> Bool {
        fnmatch(pattern, text, 0) == 0
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
        guard uname(&name) == 0 else { return "unknown" }
        return withUnsafeBytes(of: name.release) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// Bytes the process currently holds from malloc (arenas plus mmapped chunks).
    package static func heapInUse() -> Int { Int(hud_system_heap_in_use()) }

    /// `value` with `digits` decimals, as `printf("%.*f")` rounds it.
    package static func formatFixed(_ value: Double, digits: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = withVaList([Int32(clamping: digits), value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
        let length = max(0, min(Int(count), buffer.count - 1))
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

// MARK: - Paths and files

extension SystemCalls {
    /// `realpath(3)`: the canonical absolute path, symlinks resolved.
    package static func realPath(_ path: String) -> Result<String, SystemError> {
        guard let resolved = realpath(path, nil) else { return .failure(.current) }
        defer { free(resolved) }
        return .success(String(cString: resolved))
    }

    /// `stat(2)` (or `lstat(2)` when `followLinks` is false).
    package static func status(of path: String, followLinks: Bool = true) -> Result<FileStatus, SystemError> {
        var info = stat()
        let result = followLinks ? stat(path, &info) : lstat(path, &info)
        return result == 0 ? .success(FileStatus(info)) : .failure(.current)
    }

    /// The working directory, or nil.
    package static func currentDirectory() -> String? {
        guard let directory = getcwd(nil, 0) else { return nil }
        defer { free(directory) }
        return String(cString: directory)
    }

    /// This process's executable (`/proc/self/exe`, resolved), or nil.
    package static func ownExecutable() -> String? {
        try? realPath("/proc/self/exe").get()
    }

    /// Why `access(path, W_OK)` (with `search`, `W_OK | X_OK`: creating
    /// files in a directory) fails, or nil when it succeeds.
    package static func writeAccessProblem(_ path: String, search: Bool = false) -> SystemError? {
        access(path, search ? W_OK | X_OK : W_OK) == 0 ? nil : .current
    }

    /// `access(path, F_OK)` or, with `executable`, `access(path, X_OK)`.
    package static func isAccessible(_ path: String, executable: Bool = false) -> Bool {
        access(path, executable ? X_OK : F_OK) == 0
    }

    /// The names in a directory (not `.` or `..`), in directory order.
    package static func directoryEntries(_ path: String) -> Result<[(name: String, isDirectory: Bool)], SystemError> {
        var names: [(String, Bool)] = []
        return forEachEntry(of: path) { name, type in
            if name.elementsEqual([UInt8(ascii: ".")]) || name.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) { return }
            names.append((String(decoding: name, as: UTF8.self), type == UInt8(DT_DIR)))
        }.map { names }
    }

    /// Calls `body` with each entry's name (its bytes where the entry holds
    /// them, valid only during the call: no copy of the 256-byte d_name
    /// array) and `d_type`, in directory order.
    private static func forEachEntry(of path: String, _ body: (UnsafeBufferPointer<UInt8>, UInt8) -> Void) -> Result<Void, SystemError> {
        guard let directory = opendir(path) else { return .failure(.current) }
        defer { closedir(directory) }
        forEachEntry(of: directory, body)
        return .success(())
    }

    /// `forEachEntry` of a directory stream the caller opened (and closes).
    private static func forEachEntry(of directory: OpaquePointer, _ body: (UnsafeBufferPointer<UInt8>, UInt8) -> Void) {
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let name = (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: UInt8.self)
            body(UnsafeBufferPointer(start: name, count: strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))), entry.pointee.d_type)
        }
    }

    /// The names of the entries of an open directory stream whose names
    /// end in `suffix` and do not start with a dot, sorted (`String`
    /// order). Judged on the entry's bytes before any `String` is made.
    private static func sortedNames(in directory: OpaquePointer, suffix: String) -> [String] {
        let suffix = Array(suffix.utf8)
        var names: [String] = []
        forEachEntry(of: directory) { name, _ in
            guard name.first != UInt8(ascii: "."), name.count >= suffix.count, name.suffix(suffix.count).elementsEqual(suffix) else { return }
            names.append(String(decoding: name, as: UTF8.self))
        }
        names.sort()
        return names
    }

    /// `base + name` for each of `names`, each path made once from bytes.
    private static func prefixed(_ names: [String], with base: String) -> [String] {
        var joined = Array(base.utf8)
        let baseCount = joined.count
        return names.map { name in
            joined.removeSubrange(baseCount...)
            joined.append(contentsOf: name.utf8)
            return String(decoding: joined, as: UTF8.self)
        }
    }

    /// The paths `base + name` of the entries of `path` whose names end in
    /// `suffix` and do not start with a dot, sorted by name (`String`
    /// order). Names are judged on the bytes the entry holds, before any
    /// `String` is made, and each path is made once from bytes (a plugin
    /// directory is listed by every `hudhost list`).
    package static func sortedDirectoryFiles(_ path: String, suffix: String, prefixing base: String) -> Result<[String], SystemError> {
        guard let directory = opendir(path) else { return .failure(.current) }
        defer { closedir(directory) }
        return .success(prefixed(sortedNames(in: directory, suffix: suffix), with: base))
    }

    /// `sortedDirectoryFiles`, and each file's `lstat` made relative to the
    /// descriptor of the directory just listed (`fstatat(fd, name,
    /// AT_SYMLINK_NOFOLLOW)`): the file as it is in THAT directory (no
    /// rename of a directory in `path` in between can make it another
    /// one's), and no walk of `path`'s components per file. A status is
    /// nil where the call failed (the entry went away).
    package static func sortedDirectoryFilesWithStatus(_ path: String, suffix: String,
                                                       prefixing base: String) -> Result<(paths: [String], statuses: [FileStatus?]), SystemError> {
        guard let directory = opendir(path) else { return .failure(.current) }
        defer { closedir(directory) }
        let names = sortedNames(in: directory, suffix: suffix)
        return .success((prefixed(names, with: base), linkStatuses(of: names, in: dirfd(directory))))
    }

    /// `fstatat(descriptor, name, AT_SYMLINK_NOFOLLOW)` of each of `names`
    /// (nil where it failed): one path lookup in the kernel per file,
    /// relative to the directory already open.
    private static func linkStatuses(of names: [String], in descriptor: Int32) -> [FileStatus?] {
        var info = stat()
        return names.map { fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) == 0 ? FileStatus(info) : nil }
    }

    /// The whole file, if it is at most `limit` bytes. `noFollow` refuses a
    /// symlink as the last component (`O_NOFOLLOW`).
    package static func readFile(_ path: String, limit: Int = 64 << 20, noFollow: Bool = false) -> Result<[UInt8], SystemError> {
        let file: ReadOnlyFile
        switch ReadOnlyFile.open(path, noFollow: noFollow) {
        case .success(let opened): file = opened
        case .failure(let error): return .failure(error)
        }
        return file.readToEnd(limit: limit)
    }

    /// Creates or truncates `path` with `mode` and writes `bytes`.
    package static func writeFile(_ path: String, _ bytes: [UInt8], mode: UInt32 = 0o644) -> Result<Void, SystemError> {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { return .failure(.current) }
        let written = writeAll(fd, bytes)
        let error = SystemError.current
        let closed = close(fd) == 0
        guard written else { return .failure(error) }
        return closed ? .success(()) : .failure(.current)
    }

    /// Replaces `path` atomically: a private temporary file beside it
    /// (`mkstemp`), `mode`, every byte written, `fsync`, `rename`. A reader
    /// sees the old file or the new one, never a part. The error says
    /// which step failed.
    package static func writeAtomically(_ path: String, _ bytes: [UInt8], mode: UInt32) -> Result<Void, AtomicWriteError> {
        // mkstemp's template: the path plus six "X" it replaces.
        var template = Array((path + "." + String(repeating: "X", count: 6)).utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return .failure(AtomicWriteError(step: "create a temporary file for", path: path, error: .current)) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        fchmod(fd, mode_t(mode))
        let written = writeAll(fd, bytes)
        let synced = written && fsync(fd) == 0
        let failure = SystemError.current
        close(fd)
        guard synced else {
            unlink(temporary)
            return .failure(AtomicWriteError(step: "write", path: path, error: failure))
        }
        guard Glibc.rename(temporary, path) == 0 else {
            let error = SystemError.current
            unlink(temporary)
            return .failure(AtomicWriteError(step: "rename into place", path: path, error: error))
        }
        return .success(())
    }

    package struct AtomicWriteError: Error, Sendable, CustomStringConvertible {
        package var step: String
        package var path: String
        package var error: SystemError
        package var description: String { "cannot \(step) \(path): \(error)" }
    }

    /// `mkdtemp(3)`: a new directory only this user may enter (0700) under
    /// `parent`, named `prefix` and six random characters.
    package static func makePrivateDirectory(in parent: String, prefix: String) -> Result<String, SystemError> {
        // mkdtemp's template: six "X" it replaces.
        var template = Array((parent + "/" + prefix + String(repeating: "X", count: 6)).utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { return .failure(.current) }
        return .success(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    /// `mkdir(2)`.
    package static func makeDirectory(_ path: String, mode: UInt32) -> Result<Void, SystemError> {
        mkdir(path, mode_t(mode)) == 0 ? .success(()) : .failure(.current)
    }

    /// `chmod(2)`.
    @discardableResult
    package static func changeMode(_ path: String, to mode: UInt32) -> Bool { chmod(path, mode_t(mode)) == 0 }

    /// `unlink(2)`.
    @discardableResult
    package static func removeFile(_ path: String) -> Bool { unlink(path) == 0 }

    /// `rmdir(2)`.
    @discardableResult
    package static func removeDirectory(_ path: String) -> Bool { rmdir(path) == 0 }

    /// `rename(2)`.
    package static func rename(_ from: String, to: String) -> Result<Void, SystemError> {
        Glibc.rename(from, to) == 0 ? .success(()) : .failure(.current)
    }

    /// `link(2)`: a hard link.
    package static func hardLink(_ existing: String, at path: String) -> Result<Void, SystemError> {
        link(existing, path) == 0 ? .success(()) : .failure(.current)
    }
}

/// Why `ReadOnlyFile.openRegular` refused a path.
package enum RegularFileError: Error, Sendable, Hashable, CustomStringConvertible {
    case system(SystemError)
    /// It exists but is not a regular file (`kind`: "a FIFO (named pipe)", ...).
    case notRegular(kind: String)

    package var description: String {
        switch self {
        case .system(let error): error.description
        case .notRegular(let kind): "it is \(kind), not a regular file"
        }
    }
}

/// A file opened read-only (`O_CLOEXEC`), closed when released: the ELF
/// reader's handle, so every read of one plugin file goes to the same
/// inode. `read(at:count:)` is [thread-safe] (pread); `readToEnd` moves
/// the file offset, so one reader at a time.
package final class ReadOnlyFile: Sendable {
    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// `nonBlocking` (`O_NONBLOCK`): opening a FIFO or a device does not
    /// block (check `status()` before reading).
    package static func open(_ path: String, noFollow: Bool = false, nonBlocking: Bool = false) -> Result<ReadOnlyFile, SystemError> {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (noFollow ? O_NOFOLLOW : 0) | (nonBlocking ? O_NONBLOCK : 0))
        return fd >= 0 ? .success(ReadOnlyFile(fd: fd)) : .failure(.current)
    }

    /// Opens `path` only if it is a regular file: `O_NONBLOCK`, so opening
    /// a FIFO with no writer (or a device) does not block, then `fstat` on
    /// the descriptor itself (no race with a `stat` first). Anything but a
    /// regular file is closed again and refused, naming what it is.
    package static func openRegular(_ path: String) -> Result<ReadOnlyFile, RegularFileError> {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return .failure(.system(.current)) }
        let file = ReadOnlyFile(fd: fd)
        switch file.status() {
        case .failure(let error): return .failure(.system(error))
        case .success(let info) where !info.isRegularFile: return .failure(.notRegular(kind: info.kindName))
        case .success: break
        }
        // Reads of a regular file never block; clear the flag anyway.
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return .success(file)
    }

    /// The descriptor's name under `/proc/self/fd`: opening it (or giving
    /// it to `dlopen`) reaches this very inode, whatever the path names by
    /// then. Valid while this object lives.
    package var descriptorPath: String { "/proc/self/fd/\(fd)" }

    /// `fstat(2)` of the open file.
    package func status() -> Result<FileStatus, SystemError> {
        var info = stat()
        return fstat(fd, &info) == 0 ? .success(FileStatus(info)) : .failure(.current)
    }

    /// Exactly `count` bytes at `offset` (`pread`, retried on EINTR and
    /// short reads); `.failure(SystemError(code: 0))` at end of file.
    package func read(at offset: Int, count: Int) -> Result<[UInt8], SystemError> {
        guard count > 0 else { return .success([]) }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return .failure(n < 0 ? .current : SystemError(code: 0)) }
            done += n
        }
        return .success(buffer)
    }

    /// Everything from the current offset to the end. More than `limit`
    /// bytes is an error (EFBIG), or with `truncating` the first `limit`.
    /// `sizeHint` (the file's size from `fstat`) sizes the array the first
    /// reads go straight into, neither zero-filled nor copied after, so a
    /// file that did not grow costs one `read` plus the one that sees its
    /// end and touches its size in memory once.
    package func readToEnd(limit: Int, truncating: Bool = false, sizeHint: Int = 0) -> Result<[UInt8], SystemError> {
        let first = max(65536, min(sizeHint, limit) + 1)
        var failure: SystemError?
        var atEnd = false
        var bytes = [UInt8](unsafeUninitializedCapacity: first) { buffer, initialized in
            while initialized < buffer.count {
                let n = Glibc.read(fd, buffer.baseAddress! + initialized, buffer.count - initialized)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else {
                    if n < 0 { failure = .current }
                    atEnd = true
                    return
                }
                initialized += n
            }
        }
        if let failure { return .failure(failure) }
        // Longer than the hint (the file grew): the rest in chunks.
        while !atEnd, bytes.count <= limit {
            switch readChunk(maximum: 65536) {
            case .success(let chunk) where chunk.isEmpty: atEnd = true
            case .success(let chunk): bytes += chunk
            case .failure(let error): return .failure(error)
            }
        }
        guard bytes.count <= limit else {
            guard truncating else { return .failure(SystemError(code: EFBIG)) }
            return .success(Array(bytes[..<limit]))
        }
        return .success(bytes)
    }

    /// At most `maximum` bytes from the current offset (retried on EINTR);
    /// empty at the end of the file.
    private func readChunk(maximum: Int) -> Result<[UInt8], SystemError> {
        var failure: SystemError?
        let chunk = [UInt8](unsafeUninitializedCapacity: maximum) { buffer, initialized in
            while true {
                let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
                if n < 0, errno == EINTR { continue }
                if n < 0 { failure = .current } else { initialized = n }
                return
            }
        }
        return failure.map { .failure($0) } ?? .success(chunk)
    }
}

// MARK: - Descriptors

extension SystemCalls {
    /// Writes every byte to `fd`, retrying short writes and EINTR.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        if case .success = write(fd, bytes) { true } else { false }
    }

    @discardableResult
    package static func writeAll(_ fd: Int32, _ text: String) -> Bool { writeAll(fd, Array(text.utf8)) }

    /// Writes every byte of `text` to `fd` (retrying short writes and
    /// EINTR), or returns why not: `write(2)`'s errno, or EIO when it
    /// wrote nothing without one.
    package static func write(_ fd: Int32, _ text: String) -> Result<Void, SystemError> {
        write(fd, Array(text.utf8))
    }

    /// Writes every byte to `fd` (retrying short writes and EINTR), or
    /// returns why not, as `write(_:_:)` for text.
    package static func write(_ fd: Int32, _ bytes: [UInt8]) -> Result<Void, SystemError> {
        writeEvery(bytes, to: fd, waitWhenFull: false) { Glibc.write(fd, $0, $1) }
    }

    /// Hands `bytes` to `call` (a pointer and a length; it returns what
    /// `write(2)` does) until all are taken, retrying short writes and
    /// EINTR. With `waitWhenFull`, EAGAIN on a full non-blocking `fd` waits
    /// up to 2 s for room (then ETIMEDOUT): a peer that never reads must
    /// not hold this process.
    private static func writeEvery(_ bytes: [UInt8], to fd: Int32, waitWhenFull: Bool,
                                   _ call: (UnsafeRawPointer, Int) -> Int) -> Result<Void, SystemError> {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { call($0.baseAddress! + offset, bytes.count - offset) }
            if n > 0 {
                offset += n
            } else if n < 0, errno == EINTR {
                continue
            } else if n < 0, errno == EAGAIN, waitWhenFull {
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                guard poll(&entry, 1, 2000) > 0 else { return .failure(SystemError(code: ETIMEDOUT)) }
            } else {
                return .failure(SystemError(code: n < 0 ? errno : EIO))
            }
        }
        return .success(())
    }

    /// Sends every byte on the socket `fd` (retrying short sends and EINTR)
    /// with `MSG_NOSIGNAL`: a peer that is gone or shut its reading side is
    /// an EPIPE error here, never a SIGPIPE that ends this process. A full
    /// buffer is waited on for at most 2 s (then ETIMEDOUT).
    package static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Result<Void, SystemError> {
        writeEvery(bytes, to: fd, waitWhenFull: true) { Glibc.send(fd, $0, $1, Int32(MSG_NOSIGNAL)) }
    }

    /// True when `fd` is an open descriptor (`fcntl(F_GETFD)` does not fail with EBADF).
    package static func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 || errno != EBADF }

    /// Opens `/dev/null` read-write as descriptor `fd` (which must be
    /// closed), so no file opened later takes a standard descriptor's
    /// number. False if it cannot.
    package static func openNullDevice(as fd: Int32) -> Bool {
        let null = open("/dev/null", O_RDWR)
        guard null >= 0 else { return false }
        if null == fd { return true }
        defer { close(null) }
        return dup2(null, fd) == fd
    }

    package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) != 0 }

    /// `fcntl(fd, F_DUPFD_CLOEXEC, minimum)`.
    package static func duplicate(_ fd: Int32, atLeast minimum: Int32) -> Int32? {
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, minimum)
        return copy >= 0 ? copy : nil
    }

    /// `dup2(from, to)`.
    package static func duplicate(_ from: Int32, onto to: Int32) -> Bool { dup2(from, to) == to }

    package static func closeDescriptor(_ fd: Int32) { close(fd) }

    /// A pipe whose ends are close-on-exec and numbered at 10 or above (so
    /// a spawn's dup2 onto 1 or 3 always clears FD_CLOEXEC on the copy).
    package static func makePipe() -> Result<(read: Int32, write: Int32), SystemError> {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return .failure(.current) }
        return moveAboveStandard(fds[0], fds[1]).map { (read: $0.0, write: $0.1) }
    }

    /// Replaces two descriptors by close-on-exec copies numbered at 10 or
    /// above, so a child's `dup2` onto 0–4 can never clobber them; on
    /// failure both are closed.
    package static func moveAboveStandard(_ first: Int32, _ second: Int32) -> Result<(Int32, Int32), SystemError> {
        let a = fcntl(first, F_DUPFD_CLOEXEC, 10), b = fcntl(second, F_DUPFD_CLOEXEC, 10)
        let error = SystemError.current
        close(first)
        close(second)
        guard a >= 0, b >= 0 else {
            if a >= 0 { close(a) }
            if b >= 0 { close(b) }
            return .failure(error)
        }
        return .success((a, b))
    }

    package static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
    }

    package enum ReadResult {
        case bytes([UInt8])
        case endOfFile
        case wouldBlock
        case failed(SystemError)
    }

    /// One `read(2)` of at most `maximum` bytes (retried on EINTR).
    package static func read(_ fd: Int32, maximum: Int) -> ReadResult {
        while true {
            // One allocation, not zeroed: the array holds exactly what was read.
            var result = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: max(1, maximum)) { buffer, initialized in
                result = Glibc.read(fd, buffer.baseAddress, maximum)
                initialized = max(0, result)
            }
            if result > 0 { return .bytes(bytes) }
            if result == 0 { return .endOfFile }
            if errno == EINTR { continue }
            return errno == EAGAIN ? .wouldBlock : .failed(.current)
        }
    }

    /// Writes every byte to a pipe whose reader may be gone (a child that
    /// died): false then, and the SIGPIPE the write raises is blocked and
    /// consumed on this thread, so it never ends the process.
    package static func writeToPipe(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        withBrokenPipeContained { if case .failure(let error) = write(fd, bytes) { error.code } else { 0 } } == 0
    }

    /// Runs `body`, which writes to a pipe whose reader may be gone and
    /// returns 0 or an errno value, with SIGPIPE blocked on this thread;
    /// a SIGPIPE that `body` raised is consumed before the mask is
    /// restored, so it never ends the process. (Whether one was raised is
    /// read from the pending set, not from the code: libseccomp 2.5 turns
    /// EPIPE into ECANCELED.)
    private static func withBrokenPipeContained(_ body: () -> Int32) -> Int32 {
        var block = sigset_t()
        var previous = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &block, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var pending = sigset_t()
        sigpending(&pending)
        let alreadyPending = sigismember(&pending, SIGPIPE) == 1
        let code = body()
        sigpending(&pending)
        if !alreadyPending, sigismember(&pending, SIGPIPE) == 1 {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&block, nil, &now)
        }
        return code
    }

    /// The threads of this process (`/proc/self/task`); 0 if unknown.
    package static func threadCount() -> Int {
        guard case .success(let entries) = directoryEntries("/proc/self/task") else { return 0 }
        return entries.count
    }

    /// `sched_yield(2)`: lets another runnable thread on this processor run.
    package static func yieldProcessor() { _ = sched_yield() }

    /// `poll(2)` for readability: the descriptors that are readable, hung
    /// up or in error after at most `timeoutMilliseconds`.
    package static func pollReadable(_ fds: [Int32], timeoutMilliseconds: Int32) -> [Int32] {
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&entries, nfds_t(entries.count), timeoutMilliseconds) > 0 else { return [] }
        return entries.filter { $0.revents != 0 }.map(\.fd)
    }
}

// MARK: - Processes

/// How a child ended, from `waitpid`'s status word.
package enum ExitStatus: Sendable, Hashable {
    case exited(Int32)
    case signaled(Int32)

    init(_ status: Int32) {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out (they are macros).
        self = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    }
}

/// A process to start with `SystemCalls.spawn`.
package struct SpawnRequest {
    /// A path, or (with `searchPath`) a name looked up on PATH.
    package var executable: String
    /// argv[1...]; argv[0] is `executable`.
    package var arguments: [String]
    /// The complete environment; nil inherits this process's.
    package var environment: [String: String]?
    package var searchPath = false
    /// Applied in order in the child before exec.
    package var redirections: [Redirection] = []
    /// Put the child in a process group of its own (killable as a group).
    package var newProcessGroup = false
    /// Reset the signals a host may ignore or block to their defaults.
    package var defaultSignals = false

    package enum Redirection {
        /// Open `path` on `descriptor`: read-only, or for writing (truncate or append).
        case open(descriptor: Int32, path: String, mode: OpenMode)
        /// `dup2(from, to)`.
        case duplicate(from: Int32, to: Int32)
    }

    package enum OpenMode { case read, truncate, append }

    package init(executable: String, arguments: [String], environment: [String: String]? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }
}

extension SystemCalls {
    /// Serializes spawning with pipe creation elsewhere in the process, so
    /// no child inherits another child's pipe between `pipe()` and
    /// `FD_CLOEXEC` (the Glibc module has no `pipe2`). A ThreadLock: parallel
    /// probes contend on it, and TSan must see the order it gives.
    package static let spawnLock = ThreadLock<Void>(())

    /// `posix_spawn(p)`: starts `request`, returns the child's pid.
    package static func spawn(_ request: SpawnRequest) -> Result<Int32, SystemError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for redirection in request.redirections {
            switch redirection {
            case .open(let descriptor, let path, let mode):
                let flags: Int32 = switch mode {
                case .read: O_RDONLY
                case .truncate: O_WRONLY | O_CREAT | O_TRUNC
                case .append: O_WRONLY | O_CREAT | O_APPEND
                }
                posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, 0o644)
            case .duplicate(let from, let to):
                posix_spawn_file_actions_adddup2(&actions, from, to)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags: Int32 = 0
        if request.defaultSignals {
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGPIPE, SIGINT, SIGTERM, SIGXCPU, SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE] { sigaddset(&defaults, signal) }
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            flags |= Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        }
        if request.newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([request.executable] + request.arguments).map { strdup($0) }
        let environment = request.environment ?? Self.environment()
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                request.searchPath
                    ? posix_spawnp(&pid, request.executable, &actions, &attributes, argvBuffer.baseAddress!, envpBuffer.baseAddress!)
                    : posix_spawn(&pid, request.executable, &actions, &attributes, argvBuffer.baseAddress!, envpBuffer.baseAddress!)
            }
        }
        return status == 0 ? .success(pid) : .failure(SystemError(code: status))
    }

    /// `wait4(pid)`: how it ended and its peak RSS in KiB; nil if `pid` is
    /// not a child, or (not `blocking`) it is still running.
    package static func wait(_ pid: Int32, blocking: Bool = true) -> (status: ExitStatus, peakRSSKiB: Int)? {
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let result = wait4(pid, &status, blocking ? 0 : WNOHANG, &usage)
            if result == pid { return (ExitStatus(status), Int(usage.ru_maxrss)) }
            if result < 0, errno == EINTR { continue }
            return nil
        }
    }

    /// `wait(2)`: any child; nil when there is none.
    package static func waitAny() -> (pid: Int32, status: ExitStatus)? {
        var status: Int32 = 0
        while true {
            let pid = Glibc.wait(&status)
            if pid > 0 { return (pid, ExitStatus(status)) }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// Flushes stdio (text plugin code left in libc's buffers still reaches
    /// its descriptor), then `_exit(2)`: no atexit handler and no library
    /// destructor runs, so none can crash or change the status.
    package static func exitImmediately(_ status: Int32) -> Never {
        fflush(nil)
        _exit(status)
    }

    /// `kill(2)`; a negative pid signals the process group.
    package static func signal(_ pid: Int32, _ signal: Int32) { kill(pid, signal) }

    /// Lowers a resource limit of this process (never raises the hard one).
    package static func limit(_ resource: ResourceLimit, soft: UInt64, hard: UInt64) {
        let kind = __rlimit_resource_t(resource.raw.rawValue)
        var limit = rlimit(rlim_cur: rlim_t(soft), rlim_max: rlim_t(hard))
        var current = rlimit()
        if getrlimit(kind, &current) == 0, current.rlim_max != rlim_t.max {
            limit.rlim_max = min(limit.rlim_max, current.rlim_max)
            limit.rlim_cur = min(limit.rlim_cur, limit.rlim_max)
        }
        _ = setrlimit(kind, &limit)
    }

    package enum ResourceLimit {
        case core, cpuSeconds, addressSpace, openFiles, fileSize, tasks

        var raw: __rlimit_resource {
            switch self {
            case .core: RLIMIT_CORE
            case .cpuSeconds: RLIMIT_CPU
            case .addressSpace: RLIMIT_AS
            case .openFiles: RLIMIT_NOFILE
            case .fileSize: RLIMIT_FSIZE
            case .tasks: __rlimit_resource(rawValue: 6)  // RLIMIT_NPROC (a macro over __RLIMIT_NPROC, which Swift does not see)
            }
        }
    }

}

// MARK: - Threads

/// Moves non-Sendable values into worker threads that only read them.
/// `@unchecked Sendable`: the workers never mutate the boxed values (the
/// renderer context's caches are filled before the workers start).
package final class UncheckedBox<T>: @unchecked Sendable {
    package let value: T
    package init(_ value: T) { self.value = value }
}

/// One slot per worker or work item, each written by exactly one thread
/// and read only after `ConcurrentWorkers.run` has joined every thread.
/// Workers use it instead of a `Mutex`: on Linux a contended
/// `Synchronization.Mutex` is taken in the kernel (a PI futex), which
/// ThreadSanitizer cannot see, so it reports races that are not there and
/// the TSan run in CI (Docs/RELIABILITY.md) could not stay clean.
/// `@unchecked Sendable`: writes go to disjoint slots; reads happen after
/// `pthread_join`, which orders
/// them after every write.
package final class WorkerSlots<Value>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Value?>

    package init(count: Int) {
        storage = .allocate(capacity: max(count, 0))
        storage.initialize(repeating: nil)
    }

    deinit {
        _ = storage.deinitialize()
        storage.deallocate()
    }

    package subscript(index: Int) -> Value? {
        get { storage[index] }
        set { storage[index] = newValue }
    }
}

/// Runs `body(index)` on `count` new threads at once and waits for all.
/// With `together`, no thread begins `body` before every thread exists:
/// they wait at a gate (a mutex and a condition, so the waiting costs no
/// CPU; spinning eight threads on two cores burnt a fifth of a
/// validation) that opens once the last one is made, so their calls
/// overlap. A thread that cannot be made runs its part on the caller's
/// thread, after the gate opened.
package enum ConcurrentWorkers {
    package static func run(count: Int, together: Bool = false, _ body: @escaping @Sendable (Int) -> Void) {
        let gate = together ? StartGate() : nil
        var threads: [pthread_t] = []
        var unstarted: [Int] = []
        for index in 0..<count {
            let box = Unmanaged.passRetained(UncheckedBox({
                gate?.pass()
                body(index)
            }))
            var thread = pthread_t()
            let status = pthread_create(&thread, nil, { raw in
                let work = Unmanaged<UncheckedBox<() -> Void>>.fromOpaque(raw!).takeRetainedValue()
                work.value()
                return nil
            }, box.toOpaque())
            if status == 0 {
                threads.append(thread)
            } else {
                box.release()
                unstarted.append(index)
            }
        }
        gate?.open()
        for index in unstarted { body(index) }
        for thread in threads { pthread_join(thread, nil) }
    }

    /// Closed until `open()`; `pass()` waits while it is closed.
    private final class StartGate: @unchecked Sendable {
        // Behind pointers of their own, initialized once and never moved.
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let opened = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        /// Read and written with `mutex` held.
        private var isOpen = false

        init() {
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(opened, nil)
        }

        deinit {
            pthread_cond_destroy(opened)
            pthread_mutex_destroy(mutex)
            opened.deallocate()
            mutex.deallocate()
        }

        func pass() {
            pthread_mutex_lock(mutex)
            while !isOpen { pthread_cond_wait(opened, mutex) }
            pthread_mutex_unlock(mutex)
        }

        func open() {
            pthread_mutex_lock(mutex)
            isOpen = true
            pthread_cond_broadcast(opened)
            pthread_mutex_unlock(mutex)
        }
    }
}

// MARK: - Sandbox layers (a child applies them to itself, in this order,
// before any plugin code runs; each is inherited by everything it starts)

extension SystemCalls {
    /// `PR_SET_NO_NEW_PRIVS`: no later `execve` can gain privileges
    /// (setuid bits, file capabilities); required for unprivileged Landlock
    /// and seccomp.
    package static func setNoNewPrivileges() -> Result<Void, SystemError> {
        hud_system_no_new_privs() == 0 ? .success(()) : .failure(.current)
    }

    /// `close_range(first, ~0U, 0)`: every descriptor from `first` up.
    package static func closeDescriptors(from first: Int32) -> Result<Void, SystemError> {
        hud_system_close_from(UInt32(first)) == 0 ? .success(()) : .failure(.current)
    }

    /// New user, network, IPC and UTS namespaces for this process. The user
    /// namespace maps only this process's own uid and gid to themselves (no
    /// privilege is gained); the network namespace has no interface but a
    /// downed loopback, so no connection leaves it.
    /// Returns the private scratch directory (a tmpfs mounted at
    /// `scratch` in the new mount namespace), or nil if it could not be
    /// mounted (the namespaces still hold).
    package static func enterNamespaces(scratch: String) -> Result<String?, SystemError> {
        let uid = geteuid(), gid = getegid()
        let flags = HUD_CLONE_NEWUSER | HUD_CLONE_NEWNET | HUD_CLONE_NEWIPC | HUD_CLONE_NEWUTS | HUD_CLONE_NEWNS
        guard hud_system_unshare(Int32(flags)) == 0 else { return .failure(.current) }
        for (file, text) in [("/proc/self/setgroups", "deny"), ("/proc/self/uid_map", "\(uid) \(uid) 1"), ("/proc/self/gid_map", "\(gid) \(gid) 1")] {
            let fd = open(file, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return .failure(.current) }
            let written = writeAll(fd, text)
            let error = SystemError.current
            close(fd)
            guard written else { return .failure(error) }
        }
        guard hud_system_private_mounts() == 0 else { return .failure(.current) }
        return .success(hud_system_mount_scratch(scratch) == 0 ? scratch : nil)
    }

    /// In this process's own mount namespace (`enterNamespaces`): every
    /// mount read-only and nosuid, but `writable` (each made a mount of its
    /// own). Fails on kernels before 5.12 (no `mount_setattr`).
    package static func makeMountsReadOnly(except writable: [String]) -> Result<Void, SystemError> {
        guard hud_system_readonly_mounts() == 0 else { return .failure(.current) }
        for path in writable where hud_system_writable_again(path) != 0 {
            return .failure(.current)
        }
        return .success(())
    }

    /// The Landlock ABI version the kernel speaks (0: none).
    package static func landlockABI() -> Int { max(0, Int(hud_system_landlock_abi())) }

    /// What a Landlock restriction covered, by ABI feature.
    package struct LandlockCoverage: Sendable, Hashable {
        package var abi: Int
        package var filesystemWrites: Bool
        /// Reads (and execution) only beneath the readable paths.
        package var reads: Bool
        package var tcp: Bool
        package var scopes: Bool
    }

    /// Restricts this process (and everything it starts) with Landlock: no
    /// file may be created, written, truncated, renamed or removed anywhere
    /// except `writable` (opened for the rule now; a missing one is skipped);
    /// with ABI ≥ 4 no TCP bind or connect; with ABI ≥ 6 no signal to, and no
    /// abstract socket of, a process outside the sandbox. With `readable`,
    /// nothing may be read or executed either except beneath those paths
    /// (and the writable ones); with nil, reads stay open.
    /// Beneath each `scratch` directory everything is allowed (create,
    /// write, remove, list).
    package static func restrictWithLandlock(writable: [String], readable: [String]?, scratch: [String] = []) -> Result<LandlockCoverage, SystemError> {
        let abi = landlockABI()
        guard abi >= 1 else { return .failure(SystemError(code: ENOSYS)) }
        let execute: UInt64 = 1 << 0, readFile: UInt64 = 1 << 2, readDirectory: UInt64 = 1 << 3
        var fs = HUD_LANDLOCK_ACCESS_FS_WRITE_FILE | HUD_LANDLOCK_ACCESS_FS_REMOVE_DIR | HUD_LANDLOCK_ACCESS_FS_REMOVE_FILE
            | HUD_LANDLOCK_ACCESS_FS_MAKE_CHAR | HUD_LANDLOCK_ACCESS_FS_MAKE_DIR | HUD_LANDLOCK_ACCESS_FS_MAKE_REG
            | HUD_LANDLOCK_ACCESS_FS_MAKE_SOCK | HUD_LANDLOCK_ACCESS_FS_MAKE_FIFO | HUD_LANDLOCK_ACCESS_FS_MAKE_BLOCK
            | HUD_LANDLOCK_ACCESS_FS_MAKE_SYM
        if abi >= 2 { fs |= HUD_LANDLOCK_ACCESS_FS_REFER }
        if abi >= 3 { fs |= HUD_LANDLOCK_ACCESS_FS_TRUNCATE }
        if readable != nil { fs |= execute | readFile | readDirectory }
        let net: UInt64 = abi >= 4 ? HUD_LANDLOCK_ACCESS_NET_BIND_TCP | HUD_LANDLOCK_ACCESS_NET_CONNECT_TCP : 0
        let scoped: UInt64 = abi >= 6 ? HUD_LANDLOCK_SCOPE_SIGNAL | HUD_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET : 0
        let size = abi >= 6 ? 24 : abi >= 4 ? 16 : 8
        let ruleset = hud_system_landlock_create(UInt64(fs), net, scoped, size)
        guard ruleset >= 0 else { return .failure(.current) }
        defer { close(ruleset) }
        let fileWrites = HUD_LANDLOCK_ACCESS_FS_WRITE_FILE | (abi >= 3 ? HUD_LANDLOCK_ACCESS_FS_TRUNCATE : 0)
        let reads = readable != nil ? execute | readFile : 0
        /// Allows `access` on `path` (a file) or beneath it (a directory:
        /// plus listing it); a path that does not exist is skipped.
        func allow(_ path: String, _ access: UInt64) -> Bool {
            let fd = open(path, 0o10000000 | O_CLOEXEC)  // O_PATH (hidden without _GNU_SOURCE)
            guard fd >= 0 else { return true }
            defer { close(fd) }
            var info = stat()
            let isDirectory = fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
            let rights = isDirectory && access & readFile != 0 ? access | readDirectory : access
            return hud_system_landlock_allow_path(ruleset, rights, fd) == 0
        }
        for path in writable {
            guard allow(path, UInt64(fileWrites) | reads) else { return .failure(.current) }
        }
        for path in readable ?? [] {
            guard allow(path, reads) else { return .failure(.current) }
        }
        for path in scratch {
            guard allow(path, UInt64(fs) & ~(abi >= 2 ? HUD_LANDLOCK_ACCESS_FS_REFER : 0)) else { return .failure(.current) }
        }
        guard hud_system_landlock_restrict(ruleset) == 0 else { return .failure(.current) }
        return .success(LandlockCoverage(abi: abi, filesystemWrites: true, reads: readable != nil, tcp: net != 0, scopes: scoped != 0))
    }

    /// Writes a seccomp filter (built with libseccomp) as a BPF program to
    /// `fd`, for `installFilterProgram` in a child. Without
    /// `allowByDefault` (an allow-list) every call no rule matches fails
    /// with ENOSYS, with it (a deny-list) it passes; `allowed` rules pass, `denied`
    /// ones fail with EPERM (a clearer answer for what is forbidden on
    /// purpose). Rules naming a call this architecture lacks are skipped.
    package static func exportSyscallFilter(allowed: [SyscallRule], denied: [SyscallRule], allowByDefault: Bool,
                                            to fd: Int32) -> Result<Void, SystemError> {
        guard let filter = allowByDefault ? hud_seccomp_allow_by_default() : hud_seccomp_deny_by_default() else {
            return .failure(SystemError(code: ENOMEM))
        }
        defer { hud_seccomp_release(filter) }
        for (rules, action) in [(allowed, hud_seccomp_allow_action()), (denied, hud_seccomp_errno(EPERM))] {
            for rule in rules {
                let conditions = rule.conditions
                let status = hud_seccomp_rule(filter, action, rule.name, UInt32(conditions.count), conditions.map(\.argument),
                                              conditions.map(\.comparison.rawValue), conditions.map(\.mask), conditions.map(\.value))
                guard status == 0 || status == -ENOENT else { return .failure(SystemError(code: -status)) }
            }
        }
        return exportFilter(filter, to: fd)
    }

    /// Writes `filter` as BPF to `fd`, a pipe to a child that may already
    /// be gone (killed, or dead before it read): EPIPE then, never SIGPIPE.
    private static func exportFilter(_ filter: UnsafeMutableRawPointer, to fd: Int32) -> Result<Void, SystemError> {
        let code = withBrokenPipeContained { -hud_seccomp_export(filter, fd) }
        return code == 0 ? .success(()) : .failure(SystemError(code: code))
    }

    /// Installs a BPF program that `exportAllowList` or
    /// `exportSyscallFilter` wrote (this thread, for good; sets
    /// `PR_SET_NO_NEW_PRIVS` first, as libseccomp does).
    package static func installFilterProgram(_ program: [UInt8]) -> Result<Void, SystemError> {
        let status = program.withUnsafeBytes { hud_seccomp_install_program($0.baseAddress, $0.count) }
        return status == 0 ? .success(()) : .failure(SystemError(code: -status))
    }

    /// Everything `fd` holds up to its end of file, at most `limit` bytes
    /// (blocking reads); nil when it is not open, fails, or holds more.
    package static func readToEnd(_ fd: Int32, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        while true {
            switch read(fd, maximum: 16 << 10) {
            case .bytes(let chunk):
                bytes += chunk
                if bytes.count > limit { return nil }
            case .endOfFile: return bytes
            case .wouldBlock, .failed: return nil
            }
        }
    }

    package static var processID: Int32 { getpid() }
}

/// One rule of a seccomp filter: a system call, by name, and the
/// conditions on its arguments that must all hold for the rule to apply
/// (none: always).
package struct SyscallRule: Sendable {
    package var name: String
    package var conditions: [SyscallCondition]

    package init(_ name: String, _ conditions: [SyscallCondition] = []) {
        self.name = name
        self.conditions = conditions
    }
}

/// A condition on one argument of a system call (a 64-bit register value).
package struct SyscallCondition: Sendable {
    /// libseccomp's `enum scmp_compare`.
    package enum Comparison: UInt32, Sendable { case notEqual = 1, equal = 4, maskedEqual = 7 }
    package var argument: UInt32
    package var comparison: Comparison
    package var mask: UInt64
    package var value: UInt64

    /// Argument `argument` is `value`.
    package static func equals(_ argument: UInt32, _ value: UInt64) -> Self { Self(argument: argument, comparison: .equal, mask: 0, value: value) }
    /// Argument `argument` is not `value`.
    package static func differs(_ argument: UInt32, _ value: UInt64) -> Self { Self(argument: argument, comparison: .notEqual, mask: 0, value: value) }
    /// Argument `argument` has none of the bits of `bits`.
    package static func lacks(_ argument: UInt32, _ bits: UInt64) -> Self { Self(argument: argument, comparison: .maskedEqual, mask: bits, value: 0) }
    /// Argument `argument` has every bit of `bits`.
    package static func has(_ argument: UInt32, _ bits: UInt64) -> Self { Self(argument: argument, comparison: .maskedEqual, mask: bits, value: bits) }
}

// MARK: - inotify (hudhost preview's live reload)

/// One inotify event: the watch it came from, what happened, and the
/// entry's name within a watched directory ("" for the directory itself).
package struct FileChangeEvent: Sendable, Hashable {
    package var watch: Int32
    package var mask: UInt32
    package var name: String
}

extension SystemCalls {
    /// Events that mean "a file in this directory now has new contents":
    /// written and closed, moved in (an atomic replace), created, deleted.
    package static let fileReplacedMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ATTRIB)

    /// A non-blocking, close-on-exec inotify descriptor.
    package static func makeFileWatcher() -> Result<Int32, SystemError> {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        return fd >= 0 ? .success(fd) : .failure(.current)
    }

    /// Watches `path` (a directory) for `mask`; returns the watch number.
    package static func watch(_ fd: Int32, path: String, mask: UInt32) -> Result<Int32, SystemError> {
        let watch = inotify_add_watch(fd, path, mask)
        return watch >= 0 ? .success(watch) : .failure(.current)
    }

    /// Every event waiting on the inotify descriptor `fd` (none when it
    /// would block). The kernel's records are decoded here: a fixed header
    /// (`struct inotify_event`) then `len` bytes of NUL-padded name.
    package static func readFileChanges(_ fd: Int32) -> [FileChangeEvent] {
        var events: [FileChangeEvent] = []
        let headerSize = MemoryLayout<inotify_event>.size
        while case .bytes(let bytes) = read(fd, maximum: 64 * 1024) {
            var offset = 0
            while offset + headerSize <= bytes.count {
                let header = bytes.withUnsafeBytes { raw in raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let nameStart = offset + headerSize
                let nameEnd = min(bytes.count, nameStart + Int(header.len))
                let nameBytes = bytes[nameStart..<nameEnd].prefix { $0 != 0 }
                events.append(FileChangeEvent(watch: header.wd, mask: header.mask, name: String(decoding: nameBytes, as: UTF8.self)))
                offset = nameEnd
            }
        }
        return events
    }
}

extension SystemCalls {
    /// SIGPIPE ignored in this process (children get the default back at
    /// spawn): a write to a closed pipe or socket is an EPIPE error, not death.
    package static func ignoreBrokenPipe() { _ = Glibc.signal(SIGPIPE, SIG_IGN) }

    /// Unblocks SIGINT, SIGTERM and SIGHUP on the calling thread (and the
    /// threads it starts later): a long-running command must stop on Ctrl-C
    /// or `kill` even when its parent started it with them blocked.
    package static func unblockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signal) }
        _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

/// A value behind a pthread mutex, for state that threads contend on
/// (`hudhost preview`'s request mailbox and event streams, the thunk
/// quarantine, the spawn lock, stdout's first failure). Not
/// `Synchronization.Mutex`: contended, that one locks in the kernel where
/// ThreadSanitizer cannot see it (Docs/RELIABILITY.md), and the TSan run in
/// CI must stay clean; TSan intercepts pthread mutexes.
/// The value lives behind its own pointer, not in a stored `var`: an inout
/// access to a class's stored property is a Swift access TSan records at the
/// property's address, and for an empty value (`ThreadLock<Void>`, the spawn
/// lock) that address is the object's header, which every caller reads
/// unlocked to find the lock, so TSan reported a race that was not there
/// (`validate -j 3`, Docs/RELIABILITY.md). Through the pointer, TSan sees
/// only the body's own loads and stores, all between lock and unlock.
/// `@unchecked Sendable`: `storage` is only touched between lock and unlock.
package final class ThreadLock<Value: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let storage: UnsafeMutablePointer<Value>

    package init(_ value: consuming Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&storage.pointee)
    }
}
