// SPDX-License-Identifier: MIT
import Glibc
import Synchronization

// The libc layer (SystemCalls.swift), part one: paths, files and
// descriptors.

// MARK: - Descriptors

/// An open file descriptor this value owns: closed exactly once, by
/// `close()` or when the last reference goes. Whoever holds the value may
/// use `rawValue` (a spawn's redirection, a poll set) only while holding
/// it: close it explicitly where the moment matters (a pipe's child ends
/// right after the spawn, so the parent sees end of file), and let error
/// paths simply drop it. A closed one's `rawValue` is -1. Thread-safe: the
/// number is swapped out atomically, so two closes never close a number
/// twice (which could close another thread's newly opened file).
package final class FileDescriptor: Sendable {
    private let number: Atomic<Int32>

    /// Takes ownership of `fd` (a negative one is already closed).
    package init(owning fd: Int32) { number = Atomic(fd < 0 ? -1 : fd) }

    deinit { close() }

    package var rawValue: Int32 { number.load(ordering: .acquiring) }
    package var isOpen: Bool { rawValue >= 0 }

    package func close() {
        let fd = number.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 { _ = Glibc.close(fd) }
    }
}

// MARK: - Paths and files

extension SystemCalls {
    /// `realpath(3)`: the canonical absolute path, symlinks resolved.
    package static func realPath(_ path: String) -> Result<String, SystemError> {
        guard let resolved = unsafe realpath(path, nil) else { return .failure(.current) }
        defer { unsafe free(resolved) }
        return unsafe .success(String(cString: resolved))
    }

    /// `stat(2)` (or `lstat(2)` when `followLinks` is false).
    package static func status(of path: String, followLinks: Bool = true) -> Result<FileStatus, SystemError> {
        var info = stat()
        let result = unsafe followLinks ? stat(path, &info) : lstat(path, &info)
        return result == 0 ? .success(FileStatus(info)) : .failure(.current)
    }

    /// The working directory, or nil.
    package static func currentDirectory() -> String? {
        guard let directory = unsafe getcwd(nil, 0) else { return nil }
        defer { unsafe free(directory) }
        return unsafe String(cString: directory)
    }

    /// This process's executable (`/proc/self/exe`, resolved), or nil.
    package static func ownExecutable() -> String? {
        try? realPath("/proc/self/exe").get()
    }

    /// Why `access(path, W_OK)` (with `search`, `W_OK | X_OK`: creating
    /// files in a directory) fails, or nil when it succeeds.
    package static func writeAccessProblem(_ path: String, search: Bool = false) -> SystemError? {
        unsafe access(path, search ? W_OK | X_OK : W_OK) == 0 ? nil : .current
    }

    /// `access(path, F_OK)` or, with `executable`, `access(path, X_OK)`.
    package static func isAccessible(_ path: String, executable: Bool = false) -> Bool {
        unsafe access(path, executable ? X_OK : F_OK) == 0
    }

    /// The names in a directory (not `.` or `..`), in directory order.
    package static func directoryEntries(_ path: String) -> Result<[(name: String, isDirectory: Bool)], SystemError> {
        var names: [(String, Bool)] = []
        return unsafe forEachEntry(of: path) { name, type in
            if unsafe name.elementsEqual([UInt8(ascii: ".")]) || name.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) { return }
            unsafe names.append((String(decoding: name, as: UTF8.self), type == UInt8(DT_DIR)))
        }.map { names }
    }

    /// Calls `body` with each entry's name (its bytes where the entry holds
    /// them, valid only during the call: no copy of the 256-byte d_name
    /// array) and `d_type`, in directory order.
    private static func forEachEntry(of path: String, _ body: (UnsafeBufferPointer<UInt8>, UInt8) -> Void) -> Result<Void, SystemError> {
        guard let directory = unsafe opendir(path) else { return .failure(.current) }
        defer { unsafe closedir(directory) }
        unsafe forEachEntry(of: directory, body)
        return .success(())
    }

    /// `forEachEntry` of a directory stream the caller opened (and closes).
    private static func forEachEntry(of directory: OpaquePointer, _ body: (UnsafeBufferPointer<UInt8>, UInt8) -> Void) {
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = unsafe readdir(directory) {
            let name = unsafe (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: UInt8.self)
            unsafe body(UnsafeBufferPointer(start: name, count: strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))), entry.pointee.d_type)
        }
    }

    /// The names of the entries of an open directory stream whose names
    /// end in `suffix` and do not start with a dot, sorted (`String`
    /// order). Judged on the entry's bytes before any `String` is made.
    private static func sortedNames(in directory: OpaquePointer, suffix: String) -> [String] {
        let suffix = Array(suffix.utf8)
        var names: [String] = []
        unsafe forEachEntry(of: directory) { name, _ in
            guard unsafe name.first != UInt8(ascii: "."), name.count >= suffix.count, unsafe name.suffix(suffix.count).elementsEqual(suffix) else { return }
            unsafe names.append(String(decoding: name, as: UTF8.self))
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
        guard let directory = unsafe opendir(path) else { return .failure(.current) }
        defer { unsafe closedir(directory) }
        return unsafe .success(prefixed(sortedNames(in: directory, suffix: suffix), with: base))
    }

    /// `sortedDirectoryFiles`, and each file's `lstat` made relative to the
    /// descriptor of the directory just listed (`fstatat(fd, name,
    /// AT_SYMLINK_NOFOLLOW)`): the file as it is in THAT directory (no
    /// rename of a directory in `path` in between can make it another
    /// one's), and no walk of `path`'s components per file. A status is
    /// nil where the call failed (the entry went away).
    package static func sortedDirectoryFilesWithStatus(_ path: String, suffix: String,
                                                       prefixing base: String) -> Result<(paths: [String], statuses: [FileStatus?]), SystemError> {
        guard let directory = unsafe opendir(path) else { return .failure(.current) }
        defer { unsafe closedir(directory) }
        let names = unsafe sortedNames(in: directory, suffix: suffix)
        return unsafe .success((prefixed(names, with: base), linkStatuses(of: names, in: dirfd(directory))))
    }

    /// `fstatat(descriptor, name, AT_SYMLINK_NOFOLLOW)` of each of `names`
    /// (nil where it failed): one path lookup in the kernel per file,
    /// relative to the directory already open.
    private static func linkStatuses(of names: [String], in descriptor: Int32) -> [FileStatus?] {
        var info = stat()
        return names.map { unsafe fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) == 0 ? FileStatus(info) : nil }
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
        let fd = unsafe open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode))
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
        let fd = unsafe template.withUnsafeMutableBufferPointer { unsafe mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return .failure(AtomicWriteError(step: "create a temporary file for", path: path, error: .current)) }
        let temporary = unsafe template.withUnsafeBufferPointer { unsafe String(cString: $0.baseAddress!) }
        fchmod(fd, mode_t(mode))
        let written = writeAll(fd, bytes)
        let synced = written && fsync(fd) == 0
        let failure = SystemError.current
        close(fd)
        guard synced else {
            unsafe unlink(temporary)
            return .failure(AtomicWriteError(step: "write", path: path, error: failure))
        }
        guard unsafe Glibc.rename(temporary, path) == 0 else {
            let error = SystemError.current
            unsafe unlink(temporary)
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
        guard unsafe template.withUnsafeMutableBufferPointer({ unsafe mkdtemp($0.baseAddress!) }) != nil else { return .failure(.current) }
        return unsafe .success(template.withUnsafeBufferPointer { unsafe String(cString: $0.baseAddress!) })
    }

    /// `mkdir(2)`.
    package static func makeDirectory(_ path: String, mode: UInt32) -> Result<Void, SystemError> {
        unsafe mkdir(path, mode_t(mode)) == 0 ? .success(()) : .failure(.current)
    }

    /// `chmod(2)`.
    @discardableResult
    package static func changeMode(_ path: String, to mode: UInt32) -> Bool { unsafe chmod(path, mode_t(mode)) == 0 }

    /// `unlink(2)`.
    @discardableResult
    package static func removeFile(_ path: String) -> Bool { unsafe unlink(path) == 0 }

    /// `rmdir(2)`.
    @discardableResult
    package static func removeDirectory(_ path: String) -> Bool { unsafe rmdir(path) == 0 }

    /// `rename(2)`.
    package static func rename(_ from: String, to: String) -> Result<Void, SystemError> {
        unsafe Glibc.rename(from, to) == 0 ? .success(()) : .failure(.current)
    }

    /// `link(2)`: a hard link.
    package static func hardLink(_ existing: String, at path: String) -> Result<Void, SystemError> {
        unsafe link(existing, path) == 0 ? .success(()) : .failure(.current)
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
        let fd = unsafe Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (noFollow ? O_NOFOLLOW : 0) | (nonBlocking ? O_NONBLOCK : 0))
        return fd >= 0 ? .success(ReadOnlyFile(fd: fd)) : .failure(.current)
    }

    /// Opens `path` only if it is a regular file: `O_NONBLOCK`, so opening
    /// a FIFO with no writer (or a device) does not block, then `fstat` on
    /// the descriptor itself (no race with a `stat` first). Anything but a
    /// regular file is closed again and refused, naming what it is.
    package static func openRegular(_ path: String) -> Result<ReadOnlyFile, RegularFileError> {
        let fd = unsafe Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
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
        return unsafe fstat(fd, &info) == 0 ? .success(FileStatus(info)) : .failure(.current)
    }

    /// Exactly `count` bytes at `offset` (`pread`, retried on EINTR and
    /// short reads); `.failure(SystemError(code: 0))` at end of file.
    package func read(at offset: Int, count: Int) -> Result<[UInt8], SystemError> {
        guard count > 0 else { return .success([]) }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = unsafe buffer.withUnsafeMutableBytes { unsafe pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
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
        var bytes = unsafe [UInt8](unsafeUninitializedCapacity: first) { buffer, initialized in
            while initialized < buffer.count {
                let n = unsafe Glibc.read(fd, buffer.baseAddress! + initialized, buffer.count - initialized)
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
        let chunk = unsafe [UInt8](unsafeUninitializedCapacity: maximum) { buffer, initialized in
            while true {
                let n = unsafe Glibc.read(fd, buffer.baseAddress, buffer.count)
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
        unsafe writeEvery(bytes, to: fd, waitWhenFull: false) { unsafe Glibc.write(fd, $0, $1) }
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
            let n = unsafe bytes.withUnsafeBytes { unsafe call($0.baseAddress! + offset, bytes.count - offset) }
            if n > 0 {
                offset += n
            } else if n < 0, errno == EINTR {
                continue
            } else if n < 0, errno == EAGAIN, waitWhenFull {
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                guard unsafe poll(&entry, 1, 2000) > 0 else { return .failure(SystemError(code: ETIMEDOUT)) }
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
        unsafe writeEvery(bytes, to: fd, waitWhenFull: true) { unsafe Glibc.send(fd, $0, $1, Int32(MSG_NOSIGNAL)) }
    }

    /// True when `fd` is an open descriptor (`fcntl(F_GETFD)` does not fail with EBADF).
    package static func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 || errno != EBADF }

    /// Opens `/dev/null` read-write as descriptor `fd` (which must be
    /// closed), so no file opened later takes a standard descriptor's
    /// number. False if it cannot.
    package static func openNullDevice(as fd: Int32) -> Bool {
        let null = unsafe open("/dev/null", O_RDWR)
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
    package static func makePipe() -> Result<(read: FileDescriptor, write: FileDescriptor), SystemError> {
        var fds: [Int32] = [0, 0]
        guard unsafe pipe(&fds) == 0 else { return .failure(.current) }
        return moveAboveStandard(fds[0], fds[1]).map { (read: $0.0, write: $0.1) }
    }

    /// Replaces two descriptors by close-on-exec copies numbered at 10 or
    /// above, so a child's `dup2` onto 0–4 can never clobber them; on
    /// failure both are closed.
    package static func moveAboveStandard(_ first: Int32, _ second: Int32) -> Result<(FileDescriptor, FileDescriptor), SystemError> {
        let a = FileDescriptor(owning: fcntl(first, F_DUPFD_CLOEXEC, 10)), b = FileDescriptor(owning: fcntl(second, F_DUPFD_CLOEXEC, 10))
        let error = SystemError.current
        close(first)
        close(second)
        guard a.isOpen, b.isOpen else { return .failure(error) }
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
            let bytes = unsafe [UInt8](unsafeUninitializedCapacity: max(1, maximum)) { buffer, initialized in
                result = unsafe Glibc.read(fd, buffer.baseAddress, maximum)
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
    static func withBrokenPipeContained(_ body: () -> Int32) -> Int32 {
        var block = sigset_t()
        var previous = sigset_t()
        unsafe sigemptyset(&block)
        unsafe sigaddset(&block, SIGPIPE)
        unsafe pthread_sigmask(SIG_BLOCK, &block, &previous)
        defer { unsafe pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var pending = sigset_t()
        unsafe sigpending(&pending)
        let alreadyPending = unsafe sigismember(&pending, SIGPIPE) == 1
        let code = body()
        unsafe sigpending(&pending)
        if !alreadyPending, unsafe sigismember(&pending, SIGPIPE) == 1 {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            _ = unsafe sigtimedwait(&block, nil, &now)
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
        guard unsafe poll(&entries, nfds_t(entries.count), timeoutMilliseconds) > 0 else { return [] }
        return entries.filter { $0.revents != 0 }.map(\.fd)
    }
}
