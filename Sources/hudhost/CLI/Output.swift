import CHudSystem
import Glibc
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudUnsafe
import Synchronization

/// Where hudhost writes: human output and JSON to stdout, diagnostics to
/// stderr. Library code never prints; only commands do, through this.
enum Output {
    /// Line-buffers stdout when it is not a terminal, so what was printed
    /// before a crash in plugin code is not lost; and keeps plugin code off
    /// stdout (see `protectStdout`).
    static func configure() {
        setvbuf(hud_system_stdout(), nil, _IOLBF, 0)
        protectStdout()
    }

    /// hudhost's own stdout once `protectStdout` has run: a private
    /// duplicate of descriptor 1. `nonisolated(unsafe)`: written once in
    /// `configure()`, first thing in `main`, before any other thread exists
    /// or any plugin is loaded; only read afterwards.
    nonisolated(unsafe) private static var stdout: UnsafeMutablePointer<FILE>?

    /// Plugins run in this process (render, demo, probe by id) may print:
    /// `printf`, `write(1, …)`, text left in stdio's buffer. stdout belongs
    /// to hudhost (a `--json` document must stay valid), so hudhost keeps a
    /// private duplicate of descriptor 1 for its own output and points
    /// descriptor 1 (and so libc's `stdout`) at stderr, where whatever a
    /// plugin prints ends up. Sandboxed children (`_scan`, `_sandbox`,
    /// `probe --sandbox-child`) are left alone: their parent captures and
    /// reports what plugin code printed there.
    private static func protectStdout() {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first?.hasPrefix("_") == true || arguments.contains("--sandbox-child") { return }
        let saved = fcntl(1, F_DUPFD_CLOEXEC, 10)
        guard saved >= 0 else { return }
        guard let stream = fdopen(saved, "w") else {
            close(saved)
            return
        }
        setvbuf(stream, nil, _IOLBF, 0)
        guard dup2(2, 1) == 1 else {
            fclose(stream)
            return
        }
        stdout = stream
    }

    static func out(_ text: String) {
        if capture.withLock({ $0 != nil }) {
            capture.withLock { $0?.stdout += text }
            return
        }
        fputs(text, stdout ?? hud_system_stdout())
    }

    static func line(_ text: String = "") {
        out(text + "\n")
    }

    static func error(_ text: String) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        if capture.withLock({ $0 != nil }) {
            capture.withLock { $0?.stderr += line }
            return
        }
        fflush(stdout ?? hud_system_stdout())
        fputs(line, hud_system_stderr())
    }

    /// What a sandboxed child would have printed, sent to its parent instead.
    private struct Captured: Sendable {
        var stdout = ""
        var stderr = ""
    }
    private static let capture = Mutex<Captured?>(nil)

    /// Runs `body` (a command in a sandboxed child) with its output captured,
    /// then sends `{"stdout", "stderr", "exit"}` as one line on fd 3 — a
    /// channel plugin code cannot write to by accident.
    static func redirect(_ body: () -> ExitCode) {
        capture.withLock { $0 = Captured() }
        let status = body()
        let captured = capture.withLock { value in
            defer { value = nil }
            return value ?? Captured()
        }
        SandboxLimits.writeLine(JSONValue.object([
            ("stdout", .string(captured.stdout)), ("stderr", .string(captured.stderr)), ("exit", .number(Double(status.rawValue))),
        ]).serialized(pretty: false), to: SandboxProcess.resultDescriptor)
    }

    /// Reads a whole file, or nil with the reason.
    static func readFile(_ path: String, limit: Int = 16 << 20) -> Result<[UInt8], FileError> {
        guard let file = fopen(path, "rb") else { return .failure(FileError(path: path, reason: String(cString: strerror(errno)))) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count > 0 { bytes.append(contentsOf: chunk[..<count]) }
            if bytes.count > limit { return .failure(FileError(path: path, reason: "larger than \(limit) bytes")) }
            if count < chunk.count {
                if ferror(file) != 0 { return .failure(FileError(path: path, reason: String(cString: strerror(errno)))) }
                break
            }
        }
        return .success(bytes)
    }

    /// Writes `text` to `path` (replacing it), or returns why not.
    static func writeFile(_ path: String, _ text: String) -> FileError? {
        guard let file = fopen(path, "wb") else { return FileError(path: path, reason: String(cString: strerror(errno)), writing: true) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        guard written == bytes.count, closed == 0 else { return FileError(path: path, reason: String(cString: strerror(errno)), writing: true) }
        return nil
    }

    /// Creates `path` and its missing parents (mode 0755), or returns why not.
    static func makeDirectory(_ path: String) -> FileError? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component + "/"
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                return FileError(path: path, reason: String(cString: strerror(errno)), writing: true)
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            return FileError(path: path, reason: "exists and is not a directory", writing: true)
        }
        return nil
    }

    /// The absolute form of `path` (relative to the working directory).
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }

    struct FileError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var writing = false
        var description: String { "cannot \(writing ? "write" : "read") \(path): \(reason)" }
    }
}
