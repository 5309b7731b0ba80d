// SPDX-License-Identifier: MIT
import CHudSystem
import Glibc
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import Synchronization
import HudSystem

/// Where hudhost writes: human output and JSON to stdout, diagnostics to
/// stderr. Library code never prints; only commands do, through this.
enum Output {
    /// Keeps plugin code off stdout (see `protectStdout`). hudhost writes
    /// with `write(2)`, never through stdio buffers, so every line is out
    /// as soon as it is printed: nothing is lost when plugin code crashes.
    static func configure() {
        occupyClosedStandardDescriptors()
        let descriptor = protectStdout()
        stdout.store(descriptor, ordering: .releasing)
    }

    /// A standard descriptor closed at start (`hudhost list >&-`) would be
    /// the number the next `open` returns: a plugin file, the registry
    /// cache, an SVG, and hudhost's output would go into it. Each closed
    /// one is opened on /dev/null instead; a closed stdout is remembered,
    /// so the first write to it fails as writing to a closed descriptor
    /// does (EBADF) rather than vanishing into /dev/null.
    private static func occupyClosedStandardDescriptors() {
        for fd: Int32 in [0, 1, 2] where !SystemCalls.isOpen(fd) {
            _ = SystemCalls.openNullDevice(as: fd)
            if fd == 1 { stdoutWasClosed.store(true, ordering: .releasing) }
        }
    }

    private static let stdoutWasClosed = Atomic<Bool>(false)

    /// The first failed write to stdout (ENOSPC on /dev/full or a full
    /// disk, EBADF on a closed descriptor, EIO...). After one, nothing more
    /// is written there; `finish` turns it into an error and exit 1.
    private static let stdoutFailure = ThreadLock<SystemError?>(nil)

    /// The command's status, unless a write to stdout failed: then the
    /// reason goes to stderr and a success becomes a failure (exit 1); a
    /// command that had already failed keeps its own code.
    static func finish(_ status: ExitCode) -> ExitCode {
        guard let failure = stdoutFailure.withLock({ $0 }) else { return status }
        error("hudhost: error: could not write to standard output: \(failure)")
        return status == .ok ? .failure : status
    }

    /// hudhost's own stdout: descriptor 1, or once `protectStdout` has run a
    /// private duplicate of it. Written once in `configure()`, first thing
    /// in `main`, before any other thread exists or any plugin is loaded.
    private static let stdout = Atomic<Int32>(1)

    /// Plugins run in this process (render, demo, probe by id) may print:
    /// `printf`, `write(1, …)`, text left in stdio's buffer. stdout belongs
    /// to hudhost (a `--json` document must stay valid), so hudhost keeps a
    /// private duplicate of descriptor 1 for its own output and points
    /// descriptor 1 (and so libc's `stdout`) at stderr, where whatever a
    /// plugin prints ends up. The hidden `_` commands (run by the build,
    /// never with plugin code) are left alone.
    private static func protectStdout() -> Int32 {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first?.hasPrefix("_") == true { return 1 }
        guard let saved = SystemCalls.duplicate(1, atLeast: 10) else { return 1 }
        guard SystemCalls.duplicate(2, onto: 1) else {
            SystemCalls.closeDescriptor(saved)
            return 1
        }
        return saved
    }

    static func out(_ text: String) {
        write { SystemCalls.write($0, text) }
    }

    /// `out` for text already encoded as UTF-8 (a large document written
    /// into one buffer): no `String` in between.
    static func out(bytes: [UInt8]) {
        write { SystemCalls.write($0, bytes) }
    }

    private static func write(_ body: (Int32) -> Result<Void, SystemError>) {
        stdoutFailure.withLock { failure in
            guard failure == nil else { return }
            if stdoutWasClosed.load(ordering: .acquiring) {
                failure = SystemError(code: EBADF)
            } else if case .failure(let error) = body(stdout.load(ordering: .acquiring)) {
                failure = error
            }
        }
    }

    /// True when hudhost's own stdout (the descriptor `out` writes to) is a
    /// terminal. Not `isatty(1)`: descriptor 1 points at stderr while
    /// plugin code may run (see `protectStdout`).
    static var standardOutputIsTerminal: Bool {
        !stdoutWasClosed.load(ordering: .acquiring) && SystemCalls.isTerminal(stdout.load(ordering: .acquiring))
    }

    /// True when progress lines may go to stderr: it is a terminal.
    static var showsProgress: Bool { SystemCalls.isTerminal(2) }

    /// A progress line on stderr, only when `showsProgress`.
    static func progress(_ text: String) {
        if showsProgress { error(text) }
    }

    static func line(_ text: String = "") {
        out(text + "\n")
    }

    static func error(_ text: String) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        SystemCalls.writeAll(2, line)
    }

    /// Replaces `path` with a file holding `text`, or returns why not:
    /// written to a new temporary file beside it (created exclusively, so
    /// no link planted there is followed), then renamed over it. A symbolic
    /// link or a file at `path` is replaced, never written through; in a
    /// sticky directory, another user's file is not replaced (the rename
    /// fails). A non-regular file there is refused.
    static func writeFile(_ path: String, _ text: String) -> FileError? {
        writeFile(path, bytes: Array(text.utf8))
    }

    /// `writeFile` of raw bytes (a PNG).
    static func writeFile(_ path: String, bytes: [UInt8]) -> FileError? {
        if case .success(let info) = SystemCalls.status(of: path, followLinks: false), !info.isRegularFile, !info.isSymbolicLink {
            return FileError(path: path, reason: "it is \(info.kindName), not a regular file", writing: true)
        }
        switch SystemCalls.writeAtomically(path, bytes, mode: 0o644) {
        case .success: return nil
        case .failure(let error): return FileError(path: path, reason: error.description, writing: true)
        }
    }

    /// Creates `path` and its missing parents (mode 0755), or returns why not.
    static func makeDirectory(_ path: String) -> FileError? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component + "/"
            if case .failure(let error) = SystemCalls.makeDirectory(prefix, mode: 0o755), error.code != EEXIST {
                return FileError(path: path, reason: error.description, writing: true)
            }
        }
        guard case .success(let info) = SystemCalls.status(of: path), info.isDirectory else {
            return FileError(path: path, reason: "exists and is not a directory", writing: true)
        }
        return nil
    }

    /// The absolute form of `path` (relative to the working directory).
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let directory = SystemCalls.currentDirectory() else { return path }
        return directory + "/" + path
    }

    struct FileError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var writing = false
        var description: String { "cannot \(writing ? "write" : "read") \(path): \(reason)" }
    }
}
