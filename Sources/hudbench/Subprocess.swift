import HudRegistry
import HudScenes
import HudUnsafe
import Glibc

/// A child process run to completion: wall time from spawn to reap, and
/// peak RSS from `wait4`'s rusage (the child alone, not its parent).
struct ProcessResult {
    var status: Int32
    var wallNanoseconds: UInt64
    /// `ru_maxrss`, in KiB.
    var peakRSSKiB: Int
    var exitedNormally: Bool
    var succeeded: Bool { exitedNormally && status == 0 }
}

enum Subprocess {
    /// Runs `arguments[0]` (a path, or a name looked up on PATH) with `environment` changes
    /// applied on top of ours (nil value: unset), stdout written to `stdout`
    /// (a file path; /dev/null by default), stderr to `stderr`.
    static func run(_ arguments: [String], environment changes: [String: String?] = [:],
                    stdout: String = "/dev/null", stderr: String = "/dev/null") -> ProcessResult? {
        var variables = currentEnvironment()
        for (name, value) in changes {
            variables.removeAll { $0.hasPrefix(name + "=") }
            if let value { variables.append(name + "=" + value) }
        }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o644)

        var pid = pid_t()
        let start = monotonicNanoseconds()
        guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { return nil }
        }
        let wall = monotonicNanoseconds() &- start
        // WIFEXITED / WEXITSTATUS, spelled out (they are macros).
        let exited = status & 0x7F == 0
        return ProcessResult(status: exited ? (status >> 8) & 0xFF : -(status & 0x7F), wallNanoseconds: wall,
                             peakRSSKiB: Int(usage.ru_maxrss), exitedNormally: exited)
    }

    /// Runs several commands, at most `jobs` at a time; true if all succeeded.
    static func runAll(_ commands: [[String]], jobs: Int, log: String) -> Bool {
        var pending = commands[...]
        var running = 0
        var ok = true
        while !pending.isEmpty || running > 0 {
            while running < jobs, let command = pending.popFirst() {
                guard let pid = spawn(command, stdout: log, stderr: log) else { return false }
                _ = pid
                running += 1
            }
            var status: Int32 = 0
            guard wait(&status) > 0 else { return false }
            running -= 1
            if status != 0 { ok = false }
        }
        return ok
    }

    private static func spawn(_ arguments: [String], stdout: String, stderr: String) -> pid_t? {
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        var pid = pid_t()
        guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return nil }
        return pid
    }

    private static func currentEnvironment() -> [String] {
        var result: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            result.append(String(cString: entry))
            cursor += 1
        }
        return result
    }
}

/// Small file helpers (the benchmark's own bookkeeping, never timed).
enum Files {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @discardableResult
    static func write(_ text: String, to path: String) -> Bool {
        guard let file = fopen(path, "wb") else { return false }
        defer { fclose(file) }
        return text.utf8.withContiguousStorageIfAvailable { fwrite($0.baseAddress, 1, $0.count, file) == $0.count }
            ?? (fputs(text, file) >= 0)
    }

    /// `mkdir -p`, mode 0755.
    static func makeDirectories(_ path: String) -> Bool {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST { return false }
        }
        return true
    }

    /// `rm -rf` for a directory the benchmark made (one level of files, or
    /// nested directories).
    static func removeTree(_ path: String) {
        guard let dir = opendir(path) else {
            unlink(path)
            return
        }
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            let child = path + "/" + name
            if entry.pointee.d_type == UInt8(DT_DIR) { removeTree(child) } else { unlink(child) }
        }
        closedir(dir)
        rmdir(path)
    }

    /// This executable's absolute path (from /proc/self/exe).
    static var executablePath: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard count > 0 else { return "hudbench" }
        return buffer.withUnsafeBufferPointer { String(decoding: UnsafeRawBufferPointer($0).prefix(count), as: UTF8.self) }
    }

    /// The directory holding this executable (the SwiftPM bin dir).
    static var executableDirectory: String {
        let path = executablePath
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }

    /// A private scratch directory under $TMPDIR (or /tmp), kept between runs
    /// so generated plugins are compiled once.
    static func cacheDirectory() -> String {
        if let override = getenv("HUDBENCH_CACHE").map({ String(cString: $0) }), override.hasPrefix("/") { return override }
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        return base + "/hudbench-cache-\(geteuid())"
    }

    /// FNV-1a over a list of strings (cache keys).
    static func fingerprint(_ parts: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
            hash ^= 0xFF
            hash &*= 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
