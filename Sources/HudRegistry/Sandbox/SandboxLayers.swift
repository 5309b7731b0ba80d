// SPDX-License-Identifier: MIT
import Glibc
import HudSystem

/// One isolation layer of the sandbox, as a child found it on this machine.
public struct SandboxLayer: Sendable, Hashable {
    public var name: String
    public var active: Bool
    /// What it covers, or why it is not in force.
    public var detail: String

    public init(name: String, active: Bool, detail: String) {
        self.name = name
        self.active = active
        self.detail = detail
    }
}

/// The layers a sandboxed child applies to itself, in order, before any
/// plugin code runs (Docs/ISOLATION.md). Each is detected at run time; one
/// the kernel refuses is reported inactive and the rest still apply —
/// unless `HUD_REQUIRE_SANDBOX=1`, when the child refuses to go on.
package enum SandboxLayers {
    /// What the child is for. No child may execute anything, start a
    /// process, or signal any process but itself.
    package enum Purpose: Sendable { case scan, validate, digest, report, serve }

    /// Layers `HUD_SANDBOX_SKIP` (comma-separated: namespaces,
    /// read-only-view, landlock, seccomp) asks to leave out, to tell whether a plugin fails only in
    /// the sandbox. A skipped layer is reported missing, so with
    /// `HUD_REQUIRE_SANDBOX=1` nothing runs. Ignored when elevated.
    package static var skipped: Set<String> {
        Set((SearchPaths.secureEnvironment("HUD_SANDBOX_SKIP") ?? "").split(separator: ",").map { $0.trimmingWhitespace() })
    }

    /// Applies every layer and returns what each achieved.
    ///
    /// - Parameter pluginFile: the plugin the child will load (canonical
    ///   path): it stays readable, and so do the libraries beside it that
    ///   it links through `$ORIGIN` (nothing else in its directory).
    package static func apply(_ purpose: Purpose, cpuSeconds: Int, addressSpaceBytes: UInt64, pluginFile: String? = nil) -> [SandboxLayer] {
        apply(purpose, cpuSeconds: cpuSeconds, addressSpaceBytes: addressSpaceBytes, pluginFiles: pluginFile.map { [$0] } ?? [])
    }

    /// `apply` for a child that loads several plugin files (a batch scan):
    /// each one stays readable, with its `$ORIGIN` libraries.
    package static func apply(_ purpose: Purpose, cpuSeconds: Int, addressSpaceBytes: UInt64, pluginFiles: [String]) -> [SandboxLayer] {
        let skipped = skipped
        func skip(_ name: String) -> SandboxLayer? {
            skipped.contains(name) ? SandboxLayer(name: name, active: false, detail: "skipped (HUD_SANDBOX_SKIP)") : nil
        }
        var layers: [SandboxLayer] = []
        // Before the descriptors close: the filter the parent compiled.
        let filter = SandboxFilter.receive()
        // Before the namespaces: a root parent's task limit (`TaskGroup`).
        let grouped = TaskGroup.joinFromEnvironment()
        SandboxLimits.apply(cpuSeconds: cpuSeconds, addressSpaceBytes: addressSpaceBytes)
        SystemCalls.limit(.openFiles, soft: 256, hard: 256)
        SystemCalls.limit(.fileSize, soft: 64 << 20, hard: 64 << 20)
        layers.append(SandboxLayer(name: "limits", active: true, detail: "no core files, \(cpuSeconds) s CPU, "
            + (SandboxLimits.runsUnderSanitizer ? "address space unlimited (sanitizer build)" : "\(addressSpaceBytes >> 20) MiB address space")
            + ", 256 open files, 64 MiB per written file" + (grouped ? ", at most \(taskLimit) tasks (a pids control group of its own)" : "")
            + "; raising them is denied by the filter"))

        layers.append(layer("no-new-privs", SystemCalls.setNoNewPrivileges(), "execve can never gain privileges"))
        layers.append(layer("descriptors", SystemCalls.closeDescriptors(from: SandboxChannel.resultDescriptor + 1),
                            "only stdin (/dev/null), stdout and stderr (captured) and the result channel stay open"))
        var scratch: String?
        if let skipped = skip("namespaces") {
            layers.append(skipped)
        } else {
            switch SystemCalls.enterNamespaces(scratch: scratchDirectory) {
            case .success(let mounted):
                scratch = mounted
                if let mounted { SystemCalls.setEnvironment("TMPDIR", mounted) }
                // Set inside the new user namespace, RLIMIT_NPROC counts the
                // child's own tasks (threads included), not the user's
                // others; the kernel does not apply it to root.
                SystemCalls.limit(.tasks, soft: UInt64(taskLimit), hard: UInt64(taskLimit))
                layers.append(SandboxLayer(name: "namespaces", active: true, detail: "own user (uid \(geteuid()) mapped to itself), "
                    + "network (no interface), IPC, UTS and mount namespaces; "
                    + (mounted.map { "a private 16 MiB tmpfs scratch directory at \($0) (TMPDIR)" } ?? "no scratch directory (\(scratchDirectory) could not be mounted)")
                    + "; " + (geteuid() != 0 ? "at most \(taskLimit) tasks" : grouped ? "tasks limited by its control group (see limits)"
                        : "no task limit (the kernel does not apply RLIMIT_NPROC to root, and no pids control group could be made)")))
            case .failure(let error):
                layers.append(SandboxLayer(name: "namespaces", active: false, detail: "unavailable: \(error)"))
            }
        }

        // Sanitizer builds write their reports to files (log_path): that
        // directory stays writable, or a finding in a child would be lost.
        let writable = ["/dev/null"] + sanitizerLogDirectories()
        if let skipped = skip("namespaces") ?? skip("read-only-view") {
            layers.append(SandboxLayer(name: "read-only-view", active: false, detail: skipped.detail))
        } else if layers.last?.active != true {
            layers.append(SandboxLayer(name: "read-only-view", active: false, detail: "unavailable: needs the mount namespace"))
        } else {
            let exceptions = (scratch.map { [$0] } ?? []) + writable.dropFirst()
            layers.append(layer("read-only-view", SystemCalls.makeMountsReadOnly(except: exceptions),
                                "every mount read-only and nosuid in the child's view, " + (exceptions.isEmpty ? "with no exception"
                                    : "but \(exceptions.joined(separator: ", "))") + ": no file outside can be written, created, "
                                    + "removed or have its mode, owner or times changed, whatever the other layers allow"))
        }
        if let skipped = skip("landlock") {
            layers.append(skipped)
        } else {
            let readable = readablePaths(pluginFiles: pluginFiles)
            switch SystemCalls.restrictWithLandlock(writable: writable, readable: readable, scratch: scratch.map { [$0] } ?? []) {
            case .success(let coverage):
                var covers = ["no file written, created or removed outside \((writable + (scratch.map { [$0 + " (scratch)"] } ?? [])).joined(separator: ", "))"]
                covers.append("nothing read or executed outside the system libraries, this helper's libraries"
                              + (pluginFiles.isEmpty ? "" : pluginFiles.count == 1 ? ", the plugin file and the libraries it links through $ORIGIN"
                                 : ", the plugin files and the libraries they link through $ORIGIN") + " and a few device and /proc/self files")
                covers.append(coverage.tcp ? "no TCP bind or connect" : "TCP not covered (Landlock ABI < 4)")
                covers.append(coverage.scopes ? "no signal or abstract socket outside the sandbox" : "signals not scoped (Landlock ABI < 6)")
                layers.append(SandboxLayer(name: "landlock", active: true, detail: "ABI \(coverage.abi): " + covers.joined(separator: "; ")))
            case .failure(let error):
                layers.append(SandboxLayer(name: "landlock", active: false, detail: "unavailable: \(error)"))
            }
        }

        layers.append(skip("seccomp") ?? seccomp(filter))
        layers.append(SandboxLayer(name: "process-group", active: true,
                                   detail: "its own process group, killed by the parent when the child ends or times out"))
        return layers
    }

    /// The system calls a sandboxed child may make whatever their
    /// arguments: what glibc, the Swift runtime, libffi and a renderer need
    /// to allocate memory, run threads, load libraries, read files, tell the
    /// time and talk on its channel. `exportFilter` adds the calls allowed
    /// only with safe arguments; everything else fails with ENOSYS, the
    /// dangerous calls in `forbiddenSystemCalls` with EPERM.
    static let allowedSystemCalls = [
        // Files and descriptors (Landlock and the read-only view decide
        // which paths; fcntl is allowed per command, below).
        "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "preadv2", "pwritev2",
        "close", "lseek", "fstat", "newfstatat", "fstatat64", "stat", "lstat", "statx", "statfs", "fstatfs",
        "access", "faccessat", "faccessat2", "open", "openat", "openat2", "readlink", "readlinkat", "getdents64", "getcwd",
        "dup", "dup2", "dup3", "pipe", "pipe2", "fsync", "fdatasync", "umask", "fadvise64", "copy_file_range",
        "unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir", "ftruncate", "fallocate", "flock",
        // Memory.
        "mmap", "munmap", "mprotect", "mremap", "madvise", "brk", "msync", "mincore", "mlock", "munlock", "membarrier",
        // Threads and scheduling (clone only for threads, below).
        "futex", "futex_waitv", "set_robust_list", "get_robust_list", "rseq", "set_tid_address", "sched_yield",
        "sched_getaffinity", "sched_getparam", "sched_getscheduler", "sched_get_priority_max",
        "sched_get_priority_min", "getcpu", "arch_prctl",
        // Signals to itself; the process's identity.
        "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigsuspend", "rt_sigtimedwait", "sigaltstack",
        "getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getgroups", "getresuid", "getresgid",
        "getpgrp", "getpgid", "getsid",
        // Time, waiting, randomness, the machine.
        "clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday", "time",
        "poll", "ppoll", "select", "pselect6", "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait", "epoll_pwait2",
        "eventfd2", "timerfd_create", "timerfd_settime", "timerfd_gettime", "restart_syscall",
        "getrandom", "uname", "sysinfo", "getrlimit", "getrusage", "times",
        // The channel (an AF_UNIX socketpair or pipe made by the parent;
        // sendto only without an address, below).
        "recvmsg", "recvfrom", "shutdown", "getsockopt", "setsockopt", "getsockname", "getpeername",
        "exit", "exit_group",
    ]

    /// Denied with EPERM, so a plugin's error says "not permitted".
    static let forbiddenSystemCalls = [
        "execve", "execveat", "fork", "vfork", "ptrace", "process_vm_readv", "process_vm_writev", "mount", "umount2",
        "pivot_root", "setns", "unshare", "bpf", "perf_event_open", "keyctl", "add_key", "request_key", "setrlimit",
        "kexec_load", "init_module", "finit_module", "delete_module", "reboot", "swapon", "swapoff", "connect", "bind",
        "listen", "accept", "accept4", "chroot", "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid",
        "setgroups", "setsid", "setpgid", "tkill", "memfd_create", "userfaultfd", "io_uring_setup",
        // A file's attributes: Landlock has no right for them, so they are
        // never the plugin's to change (modes, owners, times, extended attributes).
        "chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat", "utime", "utimes", "utimensat",
        "futimesat", "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
        // Messages that carry an address or descriptors (sendto is
        // allowed without an address, below).
        "sendmsg", "sendmmsg",
    ]

    /// fcntl commands a child may use: descriptor and status flags (without
    /// O_ASYNC, below), locks, duplicates, seals and sizes read. Never an
    /// owner or signal for I/O (F_SETOWN, F_SETSIG, F_SETOWN_EX), a lease or
    /// a directory notice: each would have the kernel signal a process chosen by plugin code.
    static let fcntlCommands: [UInt64] = [0, 1, 2, 3, 5, 6, 7, 9, 11, 16, 36, 37, 38, 1025, 1030, 1032, 1034]
    static let fcntlSignalCommands: [UInt64] = [8, 10, 15, 1024, 1026]  // F_SETOWN, F_SETSIG, F_SETOWN_EX, F_SETLEASE, F_NOTIFY
    /// prctl options a child may use: names, reads of its own state, and
    /// adding a seccomp filter (only ever narrower).
    static let prctlOptions: [UInt64] = [2, 3, 7, 15, 16, 21, 22, 23, 30, 34, 37, 38, 39, 40, 42, 0x5356_4D41]
    /// prctl options denied with EPERM: the parent-death signal changed
    /// (PR_SET_PDEATHSIG is allowed only to set SIGKILL again), the process
    /// made a reaper, its memory map rewritten.
    static let prctlForbidden: [UInt64] = [35, 36]  // PR_SET_MM, PR_SET_CHILD_SUBREAPER
    /// Sanitizer runtimes make their stop-the-world tracer dumpable and
    /// its ptracer: denied only in the allow-list.
    static let prctlForbiddenOutsideSanitizers: [UInt64] = [4, 0x5961_6D61]  // PR_SET_DUMPABLE, PR_SET_PTRACER

    /// The seccomp layer, in the child: installs the program the parent
    /// compiled (`exportFilter`).
    private static func seccomp(_ program: Result<[UInt8], SandboxProtocolError>) -> SandboxLayer {
        let common = "denied: execve, execveat, ptrace and process_vm_*, mount, bpf, perf_event_open, keyctl, raising limits, "
            + "signals to other processes, sockets other than AF_UNIX, changing any file's mode, owner or times, "
            + "messages with an address or descriptors, I/O signal owners (fcntl F_SETOWN, F_SETSIG, O_ASYNC), "
            + "other processes' CPU affinity, changing the parent-death signal"
        let detail = SandboxLimits.runsUnderSanitizer
            ? "deny-list (sanitizer build): " + common
            : "allow-list of \(allowedSystemCalls.count + 10) system calls (everything else fails with ENOSYS); " + common
                + "; no new processes (clone only for threads)"
        switch program {
        case .success(let program):
            return layer("seccomp", SystemCalls.installFilterProgram(program), detail + "; built by the host with libseccomp")
        case .failure(let error):
            return SandboxLayer(name: "seccomp", active: false, detail: "unavailable: \(error)")
        }
    }

    /// The parent's side of the seccomp layer: child `pid`'s filter, built
    /// with libseccomp and written to `fd` as BPF. An allow-list, or in
    /// sanitizer builds (whose runtimes use system calls no list can
    /// foresee: ptrace to stop the world, clones, limits) the deny-list of
    /// the dangerous ones. Either lets the child signal only itself and
    /// denies every call that would reach outside through arguments.
    static func exportFilter(forChild pid: Int32, to fd: Int32) -> Result<Void, SystemError> {
        let pid = UInt64(UInt32(bitPattern: pid))
        let sigkill = UInt64(SIGKILL), async = UInt64(O_ASYNC), unix = UInt64(AF_UNIX)
        // Denied in both filters, whatever else is allowed.
        var denied: [SyscallRule] = fcntlSignalCommands.map { SyscallRule("fcntl", [.equals(1, $0)]) } + [
            SyscallRule("fcntl", [.equals(1, 4), .has(2, async)]),  // F_SETFL with O_ASYNC
            SyscallRule("sched_setaffinity", [.differs(0, 0)]),  // only the calling thread's own (pid 0)
            SyscallRule("prctl", [.equals(0, 1), .differs(1, sigkill)]),  // PR_SET_PDEATHSIG to anything but SIGKILL
            SyscallRule("sendto", [.differs(4, 0)]),
            SyscallRule("kill", [.differs(0, pid)]), SyscallRule("tgkill", [.differs(0, pid)]),
            SyscallRule("socket", [.differs(0, unix)]), SyscallRule("socketpair", [.differs(0, unix)]),
        ] + prctlForbidden.map { SyscallRule("prctl", [.equals(0, $0)]) }
        if SandboxLimits.runsUnderSanitizer {
            let sanitizerNeeds = ["ptrace", "setrlimit", "fork", "vfork", "connect", "bind", "listen", "accept", "accept4",
                                  "setsid", "setpgid", "tkill", "memfd_create"]
            denied += forbiddenSystemCalls.filter { !sanitizerNeeds.contains($0) }.map { SyscallRule($0) }
            return SystemCalls.exportSyscallFilter(allowed: [], denied: denied, allowByDefault: true, to: fd)
        }
        denied += forbiddenSystemCalls.map { SyscallRule($0) }
            + prctlForbiddenOutsideSanitizers.map { SyscallRule("prctl", [.equals(0, $0)]) }
        let ioctlRequests: [UInt64] = [0x5401, 0x5413, 0x541B, 0x5421]  // TCGETS, TIOCGWINSZ, FIONREAD, FIONBIO
        let allowed: [SyscallRule] = allowedSystemCalls.map { SyscallRule($0) }
            + fcntlCommands.map { SyscallRule("fcntl", [.equals(1, $0)]) }
            + prctlOptions.map { SyscallRule("prctl", [.equals(0, $0)]) }
            + ioctlRequests.map { SyscallRule("ioctl", [.equals(1, $0)]) }
            + [
                SyscallRule("fcntl", [.equals(1, 4), .lacks(2, async)]),  // F_SETFL without O_ASYNC
                SyscallRule("prctl", [.equals(0, 1), .equals(1, sigkill)]),  // PR_SET_PDEATHSIG, SIGKILL
                SyscallRule("clone", [.has(0, 0x0001_0000)]),  // CLONE_THREAD: threads, never processes (clone3 is absent: glibc falls back)
                SyscallRule("socket", [.equals(0, unix)]), SyscallRule("socketpair", [.equals(0, unix)]),
                SyscallRule("kill", [.equals(0, pid)]), SyscallRule("tgkill", [.equals(0, pid)]),
                SyscallRule("sched_setaffinity", [.equals(0, 0)]),
                SyscallRule("sendto", [.equals(4, 0)]),  // no address: on a connected socket (the channel) only
                SyscallRule("prlimit64", [.equals(2, 0)]),  // reading limits only
            ]
        return SystemCalls.exportSyscallFilter(allowed: allowed, denied: denied, allowByDefault: false, to: fd)
    }

    /// The most tasks (threads included) a child may run, counted in its
    /// own user namespace (RLIMIT_NPROC; not applied to root).
    package static let taskLimit = 256

    /// Where a child's private scratch tmpfs is mounted (in its own mount
    /// namespace, over the host's directory, which it hides): `/dev/shm`,
    /// the one temporary directory no plugin file or sanitizer report
    /// lives in (a plugin under `/tmp` must stay visible to the loader).
    package static let scratchDirectory = "/dev/shm"

    /// True when `HUD_REQUIRE_SANDBOX=1`: plugin code runs only with every layer active.
    package static var required: Bool { SearchPaths.secureEnvironment("HUD_REQUIRE_SANDBOX") == "1" }

    private static func layer(_ name: String, _ result: Result<Void, SystemError>, _ detail: String) -> SandboxLayer {
        switch result {
        case .success: SandboxLayer(name: name, active: true, detail: detail)
        case .failure(let error): SandboxLayer(name: name, active: false, detail: "unavailable: \(error)")
        }
    }

    /// What a sandboxed child may read: the system's libraries and the
    /// loader's configuration, the directories of every file this helper
    /// has mapped (its Swift runtime, wherever the toolchain put it), the
    /// plugin files and the libraries they link through their own search
    /// paths (`ElfMetadataReader.linkedDependencies`),
    /// `LD_LIBRARY_PATH`, a few device files, and its
    /// own `/proc` entry and the CPU list glibc reads.
    static func readablePaths(pluginFiles: [String]) -> [String] {
        let systemTrees = ["/usr", "/lib", "/lib64", "/lib32", "/libx32"]
        var paths = systemTrees + ["/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                   "/dev/zero", "/dev/urandom", "/dev/random", "/proc/\(SystemCalls.processID)", "/sys/devices/system/cpu"]
        if case .success(let maps) = SystemCalls.readFile("/proc/self/maps", limit: 4 << 20) {
            for file in mappedFiles(maps) {
                let directory = PathSecurity.parent(of: file)
                // Only files that still exist: a deleted one (a memfd, the
                // renderer host's shared region; ThreadSanitizer's
                // /tmp/tsan.rodata.PID) would open its whole directory.
                guard !paths.contains(directory), case .success(let info) = SystemCalls.status(of: file), info.isRegularFile else { continue }
                paths.append(directory)
            }
        }
        // Of what lies beside a plugin or in its search path, only the file
        // itself and the libraries it links: never a whole directory, so a
        // root child cannot read a root-only file kept next to them.
        let linked = pluginFiles.flatMap { ElfMetadataReader.linkedDependencies(of: $0, excluding: systemTrees) }
        for file in pluginFiles + linked where !paths.contains(file) {
            paths.append(file)
        }
        for entry in (SearchPaths.secureEnvironment("LD_LIBRARY_PATH") ?? "").split(separator: ":") where entry.hasPrefix("/") {
            paths.append(String(entry))
        }
        return paths
    }

    /// The files a `/proc/self/maps` text names, each once, in order
    /// (a library has several mappings), without the deleted ones. Parsed
    /// as bytes: splitting the ~6 KB text into `Character`s and hashing
    /// `Substring`s cost a renderer host ~1 ms of its start.
    static func mappedFiles(_ maps: [UInt8]) -> [String] {
        let deleted = Array(" (deleted)".utf8)
        var files: [String] = []
        var seen: Set<String> = []
        var previous: ArraySlice<UInt8> = []
        for line in maps.split(separator: UInt8(ascii: "\n")) {
            guard let slash = line.firstIndex(of: UInt8(ascii: "/")),
                  !(line.count >= deleted.count && line.suffix(deleted.count).elementsEqual(deleted)) else { continue }
            let path = line[slash...]
            // A file's mappings are adjacent: most lines repeat the last path.
            guard !path.elementsEqual(previous) else { continue }
            previous = path
            let file = String(decoding: path, as: UTF8.self)
            if seen.insert(file).inserted { files.append(file) }
        }
        return files
    }

    private static func sanitizerLogDirectories() -> [String] {
        guard SandboxLimits.runsUnderSanitizer else { return [] }
        return ["ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS"].compactMap { name in
            guard let options = SearchPaths.secureEnvironment(name),
                  let entry = options.split(separator: ":").first(where: { $0.hasPrefix("log_path=") }) else { return nil }
            return PathSecurity.parent(of: String(entry.dropFirst("log_path=".count)))
        }
    }
}

extension SandboxHelper {
    /// Starts the helper once, has it apply every layer exactly as a scan
    /// would, and returns what held on this machine (`hudhost doctor`).
    public static func probeLayers(timeoutSeconds: Double = 10) -> Result<[SandboxLayer], NotFound> {
        locate().map { helper in
            let (reply, outcome) = SandboxProcess.reply(executable: helper, arguments: SandboxRequest.layers.arguments,
                                                        timeoutSeconds: timeoutSeconds)
            outcome.deliverOutput(source: helper, failed: reply == nil)
            return reply.flatMap(LayerReport.decode)
                ?? [SandboxLayer(name: "helper", active: false, detail: "\(helper) did not report its layers (\(outcome.termination))")]
        }
    }
}
