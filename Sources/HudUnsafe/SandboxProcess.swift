package import HudModel
import Glibc
import Synchronization

/// Runs plugin code in a child process: `hudhost _sandbox <mode> ...`
/// (the host's own executable), with stdin from /dev/null, the child's
/// stdout captured (plugin code must not print; it can never reach the
/// parent's stdout), stderr inherited, and results streamed as one JSON
/// object per line on a dedicated pipe (fd 3 in the child). A wall-clock
/// timeout, reset by every line, is enforced here: on expiry the child's
/// whole process group gets SIGKILL. CPU and address-space limits are set
/// by the child itself (`SandboxLimits.apply`) before it loads anything.
///
/// The validator uses it per plugin; `probe` and scanning can use the same
/// runner with their own `_sandbox` modes.
public enum SandboxProcess {
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)
        /// Killed by us after `timeoutSeconds` without a line.
        case timedOut(seconds: Double)
        /// The child could not be started.
        case spawnFailed(String)

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signaled(let signal): "killed by \(SignalName.of(signal))"
            case .timedOut(let seconds): "no progress for \(JSONValue.format(seconds)) s, killed"
            case .spawnFailed(let reason): "could not start: \(reason)"
            }
        }
    }

    public struct Outcome: Sendable {
        public var termination: Termination
        /// What the child wrote to stdout (at most 64 KiB kept).
        public var stdout: [UInt8]
        public var stdoutBytes: Int
    }

    /// The file descriptor results arrive on, in the child.
    public static let resultDescriptor: Int32 = 3

    /// Spawns and supervises one child; `onLine` gets each result line.
    /// - Parameter resetOnLine: when true (the validator), every result line
    ///   restarts the timeout; when false (scans), the deadline is fixed, so
    ///   a child cannot keep itself alive by writing lines.
    public static func run(executable: String, arguments: [String], timeoutSeconds: Double,
                           environment extra: [String: String] = [:], resetOnLine: Bool = true, onLine: (String) -> Void) -> Outcome {
        var spawned: (pid: pid_t, results: Int32, stdout: Int32)
        switch spawn(executable: executable, arguments: arguments, extra: extra) {
        case .success(let value): spawned = value
        case .failure(let failure): return Outcome(termination: .spawnFailed(failure.message), stdout: [], stdoutBytes: 0)
        }
        defer {
            close(spawned.results)
            close(spawned.stdout)
        }
        var pending: [UInt8] = []
        var captured: [UInt8] = []
        var capturedBytes = 0
        var resultsOpen = true, stdoutOpen = true
        var deadline = SystemCalls.monotonicNanoseconds() + UInt64(timeoutSeconds * 1e9)
        var chunk = [UInt8](repeating: 0, count: 65536)
        var exitStatus: Int32?

        func drain(_ fd: Int32, isResults: Bool) -> Bool {
            var rounds = 0
            while true {
                // A child that writes without pause must not keep us here past
                // the deadline: at most 16 chunks per call, then check time.
                rounds += 1
                if rounds > 16 { return true }
                let count = read(fd, &chunk, chunk.count)
                if count > 0 {
                    if isResults {
                        pending += chunk[..<count]
                        while let newline = pending.firstIndex(of: 10) {
                            let line = String(decoding: pending[..<newline], as: UTF8.self)
                            pending.removeSubrange(...newline)
                            if resetOnLine { deadline = SystemCalls.monotonicNanoseconds() + UInt64(timeoutSeconds * 1e9) }
                            onLine(line)
                        }
                    } else {
                        capturedBytes += count
                        if captured.count < 65536 { captured += chunk[..<min(count, 65536 - captured.count)] }
                    }
                    continue
                }
                if count == 0 { return false }
                if errno == EINTR { continue }
                return errno == EAGAIN
            }
        }

        while true {
            if exitStatus == nil {
                var status: Int32 = 0
                if waitpid(spawned.pid, &status, WNOHANG) == spawned.pid { exitStatus = status }
            }
            if let status = exitStatus {
                // The child is gone: take what is left and stop (a grandchild
                // holding the pipes open must not keep us waiting).
                if resultsOpen { _ = drain(spawned.results, isResults: true) }
                if stdoutOpen { _ = drain(spawned.stdout, isResults: false) }
                kill(-spawned.pid, SIGKILL)
                let termination: Termination = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
                return Outcome(termination: termination, stdout: captured, stdoutBytes: capturedBytes)
            }
            let now = SystemCalls.monotonicNanoseconds()
            if now >= deadline {
                kill(-spawned.pid, SIGKILL)
                kill(spawned.pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(spawned.pid, &status, 0) == -1 && errno == EINTR {}
                return Outcome(termination: .timedOut(seconds: timeoutSeconds), stdout: captured, stdoutBytes: capturedBytes)
            }
            var fds: [pollfd] = []
            if resultsOpen { fds.append(pollfd(fd: spawned.results, events: Int16(POLLIN), revents: 0)) }
            if stdoutOpen { fds.append(pollfd(fd: spawned.stdout, events: Int16(POLLIN), revents: 0)) }
            let wait = Int32(min(100, max(1, (deadline - now) / 1_000_000)))
            if fds.isEmpty {
                usleep(UInt32(wait) * 1000)
                continue
            }
            _ = poll(&fds, nfds_t(fds.count), wait)
            for entry in fds where entry.revents != 0 {
                if entry.fd == spawned.results {
                    resultsOpen = drain(spawned.results, isResults: true)
                } else {
                    stdoutOpen = drain(spawned.stdout, isResults: false)
                }
            }
        }
    }

    /// Serializes pipe creation and spawning, so no child inherits another
    /// child's pipe between `pipe()` and `FD_CLOEXEC` (Glibc's module has no
    /// `pipe2`).
    private static let spawnLock = Mutex<Void>(())

    private static func spawn(executable: String, arguments: [String], extra: [String: String])
        -> Result<(pid: pid_t, results: Int32, stdout: Int32), SpawnFailure> {
        spawnLock.withLock { _ in
            guard let results = makePipe() else {
                return .failure(SpawnFailure("pipe() failed: \(String(cString: strerror(errno)))"))
            }
            guard let output = makePipe() else {
                let reason = String(cString: strerror(errno))
                close(results.read)
                close(results.write)
                return .failure(SpawnFailure("pipe() failed: \(reason)"))
            }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, output.write, 1)
            posix_spawn_file_actions_adddup2(&actions, results.write, resultDescriptor)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGPIPE, SIGINT, SIGTERM, SIGXCPU, SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE] { sigaddset(&defaults, signal) }
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setpgroup(&attributes, 0)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

            var environment: [String: String] = [:]
            var index = 0
            while let entry = environ[index] {
                let text = String(cString: entry)
                if let equals = text.firstIndex(of: "=") { environment[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
                index += 1
            }
            // The Swift backtracer would hold the pipes open and hang a crashed child.
            environment["SWIFT_BACKTRACE"] = "enable=no"
            environment.merge(extra) { $1 }
            let argv = ([executable] + arguments).map { strdup($0) }
            let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
            defer {
                for pointer in argv + envp { free(pointer) }
            }
            var pid: pid_t = 0
            let status = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
                (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                    posix_spawn(&pid, executable, &actions, &attributes, argvBuffer.baseAddress!, envpBuffer.baseAddress!)
                }
            }
            close(results.write)
            close(output.write)
            guard status == 0 else {
                close(results.read)
                close(output.read)
                return .failure(SpawnFailure("posix_spawn(\(executable)) failed: \(String(cString: strerror(status)))"))
            }
            _ = fcntl(results.read, F_SETFL, O_NONBLOCK)
            _ = fcntl(output.read, F_SETFL, O_NONBLOCK)
            return .success((pid, results.read, output.read))
        }
    }

    /// A pipe whose ends are close-on-exec and numbered above the standard
    /// descriptors (so dup2 onto 1 or 3 always clears FD_CLOEXEC).
    private static func makePipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        let read = fcntl(fds[0], F_DUPFD_CLOEXEC, 10)
        let write = fcntl(fds[1], F_DUPFD_CLOEXEC, 10)
        close(fds[0])
        close(fds[1])
        guard read >= 0, write >= 0 else {
            if read >= 0 { close(read) }
            if write >= 0 { close(write) }
            return nil
        }
        return (read, write)
    }

    /// This process's executable (`/proc/self/exe`, resolved).
    public static var ownExecutable: String? {
        guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Why a child could not be started, as a sentence.
package struct SpawnFailure: Error {
    package let message: String
    package init(_ message: String) { self.message = message }
}

/// The child's side: resource limits applied to itself before any plugin
/// code runs, and the result channel.
public enum SandboxLimits {
    /// RLIMIT_CPU (seconds of CPU time: SIGXCPU, then SIGKILL a second
    /// later), RLIMIT_AS (bytes of address space: allocations fail) and no
    /// core files.
    public static func apply(cpuSeconds: Int, addressSpaceBytes: UInt64) {
        func set(_ resource: __rlimit_resource, _ soft: UInt64, _ hard: UInt64) {
            var limit = rlimit(rlim_cur: rlim_t(soft), rlim_max: rlim_t(hard))
            var current = rlimit()
            if getrlimit(__rlimit_resource_t(resource.rawValue), &current) == 0, current.rlim_max != rlim_t.max {
                limit.rlim_max = min(limit.rlim_max, current.rlim_max)
                limit.rlim_cur = min(limit.rlim_cur, limit.rlim_max)
            }
            _ = setrlimit(__rlimit_resource_t(resource.rawValue), &limit)
        }
        set(RLIMIT_CORE, 0, 0)
        if cpuSeconds > 0 { set(RLIMIT_CPU, UInt64(cpuSeconds), UInt64(cpuSeconds) + 1) }
        if addressSpaceBytes > 0 && !runsUnderSanitizer { set(RLIMIT_AS, addressSpaceBytes, addressSpaceBytes) }
    }

    /// AddressSanitizer and ThreadSanitizer reserve terabytes of shadow
    /// address space at start-up and then need more on their own: under an
    /// address-space limit every allocation of the sanitizer runtime fails
    /// ("out of memory: failed to allocate ... InternalMmapVector"). A
    /// sanitizer build (CI, Docs/RELIABILITY.md) keeps the CPU limit and the
    /// timeout but drops RLIMIT_AS.
    package static let runsUnderSanitizer = ["__asan_init", "__tsan_init", "__msan_init"].contains { DynamicLibrary.processDefines($0) }

    /// Writes one line to `descriptor`, whole (retrying short writes).
    public static func writeLine(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        bytes.append(10)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}

/// Signal names for reports.
public enum SignalName {
    public static func of(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
            SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU", SIGTRAP: "SIGTRAP", SIGPIPE: "SIGPIPE",
            SIGSYS: "SIGSYS", SIGINT: "SIGINT",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}
