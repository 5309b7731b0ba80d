// SPDX-License-Identifier: MIT
import Glibc
import CHudSystem

// The libc layer (SystemCalls.swift): processes (spawn, wait, signals).

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
    /// `posix_spawn(p)`: starts `request`, returns the child's pid.
    package static func spawn(_ request: SpawnRequest) -> Result<Int32, SystemError> {
        var actions = unsafe posix_spawn_file_actions_t()
        unsafe posix_spawn_file_actions_init(&actions)
        defer { unsafe posix_spawn_file_actions_destroy(&actions) }
        for redirection in request.redirections {
            switch redirection {
            case .open(let descriptor, let path, let mode):
                let flags: Int32 = switch mode {
                case .read: O_RDONLY
                case .truncate: O_WRONLY | O_CREAT | O_TRUNC
                case .append: O_WRONLY | O_CREAT | O_APPEND
                }
                unsafe posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, 0o644)
            case .duplicate(let from, let to):
                unsafe posix_spawn_file_actions_adddup2(&actions, from, to)
            }
        }
        // The child gets 0–2 and the descriptors set up above, nothing else
        // of this process: every other one is closed in it (those between
        // them one by one, glibc ignoring one that is not open, then all
        // above), so a descriptor another thread opened without O_CLOEXEC
        // (a pipe before it is moved up, a file being written, which could
        // then not be executed, a socket whose peer waits for it to close)
        // never leaks into a child, whatever else runs meanwhile.
        let given = Set(request.redirections.map { redirection -> Int32 in
            switch redirection {
            case .open(let descriptor, _, _): descriptor
            case .duplicate(_, let to): to
            }
        })
        let highest = max(2, given.max() ?? 2)
        for descriptor in 3..<max(3, highest) where !given.contains(descriptor) { unsafe posix_spawn_file_actions_addclose(&actions, descriptor) }
        unsafe hud_system_spawn_close_from(&actions, highest + 1)
        var attributes = posix_spawnattr_t()
        unsafe posix_spawnattr_init(&attributes)
        defer { unsafe posix_spawnattr_destroy(&attributes) }
        var flags: Int32 = 0
        if request.defaultSignals {
            var noSignals = sigset_t()
            unsafe sigemptyset(&noSignals)
            var defaults = sigset_t()
            unsafe sigemptyset(&defaults)
            for signal in [SIGPIPE, SIGINT, SIGTERM, SIGXCPU, SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE] { unsafe sigaddset(&defaults, signal) }
            unsafe posix_spawnattr_setsigmask(&attributes, &noSignals)
            unsafe posix_spawnattr_setsigdefault(&attributes, &defaults)
            flags |= Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        }
        if request.newProcessGroup {
            unsafe posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
        }
        unsafe posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = unsafe ([request.executable] + request.arguments).map { unsafe strdup($0) }
        let environment = request.environment ?? Self.environment()
        let envp = unsafe environment.sorted { $0.key < $1.key }.map { unsafe strdup("\($0.key)=\($0.value)") }
        defer {
            for unsafe pointer in unsafe argv + envp { unsafe free(pointer) }
        }
        var pid: pid_t = 0
        let status = unsafe (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            unsafe (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                unsafe request.searchPath
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
            let result = unsafe wait4(pid, &status, blocking ? 0 : WNOHANG, &usage)
            if result == pid { return (ExitStatus(status), Int(usage.ru_maxrss)) }
            if result < 0, errno == EINTR { continue }
            return nil
        }
    }

    /// `wait(2)`: any child; nil when there is none.
    package static func waitAny() -> (pid: Int32, status: ExitStatus)? {
        var status: Int32 = 0
        while true {
            let pid = unsafe Glibc.wait(&status)
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
        if unsafe getrlimit(kind, &current) == 0, current.rlim_max != rlim_t.max {
            limit.rlim_max = min(limit.rlim_max, current.rlim_max)
            limit.rlim_cur = min(limit.rlim_cur, limit.rlim_max)
        }
        _ = unsafe setrlimit(kind, &limit)
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


extension SystemCalls {
    /// SIGPIPE ignored in this process (children get the default back at
    /// spawn): a write to a closed pipe or socket is an EPIPE error, not death.
    package static func ignoreBrokenPipe() { _ = Glibc.signal(SIGPIPE, SIG_IGN) }

    /// Unblocks SIGINT, SIGTERM and SIGHUP on the calling thread (and the
    /// threads it starts later): a long-running command must stop on Ctrl-C
    /// or `kill` even when its parent started it with them blocked.
    package static func unblockTerminationSignals() {
        var set = sigset_t()
        unsafe sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP] { unsafe sigaddset(&set, signal) }
        _ = unsafe pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
