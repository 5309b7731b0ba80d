// SPDX-License-Identifier: MIT
import HudRegistry
import HudScenes
import Glibc
import HudSystem

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
        var variables = SystemCalls.environment()
        for (name, value) in changes { variables[name] = value }
        var request = SpawnRequest(executable: arguments[0], arguments: Array(arguments.dropFirst()), environment: variables)
        request.searchPath = true
        request.redirections = [
            .open(descriptor: 0, path: "/dev/null", mode: .read),
            .open(descriptor: 1, path: stdout, mode: .truncate),
            .open(descriptor: 2, path: stderr, mode: .append),
        ]
        let start = monotonicNanoseconds()
        guard case .success(let pid) = SystemCalls.spawn(request), let ended = SystemCalls.wait(pid) else { return nil }
        let wall = monotonicNanoseconds() &- start
        switch ended.status {
        case .exited(let code):
            return ProcessResult(status: code, wallNanoseconds: wall, peakRSSKiB: ended.peakRSSKiB, exitedNormally: true)
        case .signaled(let signal):
            return ProcessResult(status: -signal, wallNanoseconds: wall, peakRSSKiB: ended.peakRSSKiB, exitedNormally: false)
        }
    }

    /// Runs several commands, at most `jobs` at a time; true if all succeeded.
    static func runAll(_ commands: [[String]], jobs: Int, log: String) -> Bool {
        var pending = commands[...]
        var running = 0
        var ok = true
        while !pending.isEmpty || running > 0 {
            while running < jobs, let command = pending.popFirst() {
                var request = SpawnRequest(executable: command[0], arguments: Array(command.dropFirst()))
                request.searchPath = true
                request.redirections = [
                    .open(descriptor: 0, path: "/dev/null", mode: .read),
                    .open(descriptor: 1, path: log, mode: .append),
                    .open(descriptor: 2, path: log, mode: .append),
                ]
                guard case .success = SystemCalls.spawn(request) else { return false }
                running += 1
            }
            guard let ended = SystemCalls.waitAny() else { return false }
            running -= 1
            if ended.status != .exited(0) { ok = false }
        }
        return ok
    }
}

/// Small file helpers (the benchmark's own bookkeeping, never timed).
enum Files {
    static func exists(_ path: String) -> Bool { SystemCalls.isAccessible(path) }

    static func isExecutable(_ path: String) -> Bool { SystemCalls.isAccessible(path, executable: true) }

    static func read(_ path: String) -> String? {
        guard case .success(let bytes) = SystemCalls.readFile(path, limit: 1 << 30) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @discardableResult
    static func write(_ text: String, to path: String) -> Bool {
        if case .success = SystemCalls.writeFile(path, Array(text.utf8)) { true } else { false }
    }

    /// `mkdir -p`, mode 0755.
    static func makeDirectories(_ path: String) -> Bool {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            if case .failure(let error) = SystemCalls.makeDirectory(current, mode: 0o755), error.code != EEXIST { return false }
        }
        return true
    }

    /// `rm -rf` for a directory the benchmark made (one level of files, or
    /// nested directories).
    static func removeTree(_ path: String) {
        guard case .success(let entries) = SystemCalls.directoryEntries(path) else {
            SystemCalls.removeFile(path)
            return
        }
        for entry in entries {
            let child = path + "/" + entry.name
            if entry.isDirectory { removeTree(child) } else { SystemCalls.removeFile(child) }
        }
        SystemCalls.removeDirectory(path)
    }

    /// This executable's absolute path (from /proc/self/exe).
    static var executablePath: String { SystemCalls.ownExecutable() ?? "hudbench" }

    /// The directory holding this executable (the SwiftPM bin dir).
    static var executableDirectory: String {
        let path = executablePath
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }

    /// A private scratch directory under $TMPDIR (or /tmp), kept between runs
    /// so generated plugins are compiled once.
    static func cacheDirectory() -> String {
        if let override = SystemCalls.secureEnvironment("HUDBENCH_CACHE"), override.hasPrefix("/") { return override }
        let base = SystemCalls.secureEnvironment("TMPDIR").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        return base + "/hudbench-cache-\(geteuid())"
    }

    /// FNV-1a over a list of strings (cache keys).
    static func fingerprint(_ parts: [String]) -> String {
        var hash = FNV1a()
        for part in parts {
            hash.add(bytes: part.utf8)
            hash.add(bytes: [0xFF])
        }
        return String(hash.value, radix: 16)
    }
}
