import Glibc
import HudUnsafe

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

    /// Layers `HUD_SANDBOX_SKIP` (comma-separated: namespaces, landlock,
    /// seccomp) asks to leave out, to tell whether a plugin fails only in
    /// the sandbox. A skipped layer is reported missing, so with
    /// `HUD_REQUIRE_SANDBOX=1` nothing runs. Ignored when elevated.
    package static var skipped: Set<String> {
        Set((SearchPaths.secureEnvironment("HUD_SANDBOX_SKIP") ?? "").split(separator: ",").map { $0.trimmingWhitespace() })
    }

    /// Applies every layer and returns what each achieved.
    ///
    /// - Parameter pluginFile: the plugin the child will load (canonical
    ///   path): its directory stays readable (for `$ORIGIN` siblings).
    package static func apply(_ purpose: Purpose, cpuSeconds: Int, addressSpaceBytes: UInt64, pluginFile: String? = nil) -> [SandboxLayer] {
        let skipped = skipped
        func skip(_ name: String) -> SandboxLayer? {
            skipped.contains(name) ? SandboxLayer(name: name, active: false, detail: "skipped (HUD_SANDBOX_SKIP)") : nil
        }
        var layers: [SandboxLayer] = []
        SandboxLimits.apply(cpuSeconds: cpuSeconds, addressSpaceBytes: addressSpaceBytes)
        SystemCalls.limit(.openFiles, soft: 256, hard: 256)
        SystemCalls.limit(.fileSize, soft: 64 << 20, hard: 64 << 20)
        layers.append(SandboxLayer(name: "limits", active: true, detail: "no core files, \(cpuSeconds) s CPU, "
            + (SandboxLimits.runsUnderSanitizer ? "address space unlimited (sanitizer build)" : "\(addressSpaceBytes >> 20) MiB address space")
            + ", 256 open files, 64 MiB per written file; raising them is denied by the filter"))

        layers.append(layer("no-new-privs", SystemCalls.setNoNewPrivileges(), "execve can never gain privileges"))
        layers.append(layer("descriptors", SystemCalls.closeDescriptors(from: SandboxChannel.resultDescriptor + 1),
                            "only stdin (/dev/null), stdout and stderr (captured) and the result channel stay open"))
        layers.append(skip("namespaces") ?? layer("namespaces", SystemCalls.enterNamespaces(),
                            "own user (uid \(geteuid()) mapped to itself), network (no interface), IPC and UTS namespaces"))

        // Sanitizer builds write their reports to files (log_path): that
        // directory stays writable, or a finding in a child would be lost.
        let writable = ["/dev/null"] + sanitizerLogDirectories()
        if let skipped = skip("landlock") {
            layers.append(skipped)
        } else {
            let readable = readablePaths(pluginFile: pluginFile)
            switch SystemCalls.restrictWithLandlock(writable: writable, readable: readable) {
            case .success(let coverage):
                var covers = ["no file written, created or removed outside \(writable.joined(separator: ", "))"]
                covers.append("nothing read or executed outside the system libraries, this helper's libraries"
                              + (pluginFile == nil ? "" : ", the plugin's directory") + " and a few device and /proc/self files")
                covers.append(coverage.tcp ? "no TCP bind or connect" : "TCP not covered (Landlock ABI < 4)")
                covers.append(coverage.scopes ? "no signal or abstract socket outside the sandbox" : "signals not scoped (Landlock ABI < 6)")
                layers.append(SandboxLayer(name: "landlock", active: true, detail: "ABI \(coverage.abi): " + covers.joined(separator: "; ")))
            case .failure(let error):
                layers.append(SandboxLayer(name: "landlock", active: false, detail: "unavailable: \(error)"))
            }
        }

        var denied = ["ptrace", "process_vm_readv", "process_vm_writev", "mount", "umount2", "pivot_root", "bpf",
                      "perf_event_open", "keyctl", "add_key", "request_key", "setrlimit", "kexec_load", "init_module",
                      "finit_module", "delete_module", "reboot", "swapon", "swapoff", "setns"]
        // LeakSanitizer stops the world with ptrace, and every sanitizer
        // runtime sets RLIMIT_CORE when a process it instruments starts (a
        // validate child's fresh helpers): a sanitizer build keeps both.
        let sanitizer = SandboxLimits.runsUnderSanitizer
        if sanitizer { denied.removeAll { $0 == "ptrace" || $0 == "setrlimit" } }
        denied += ["execve", "execveat"]
        let pid = UInt64(UInt32(bitPattern: SystemCalls.processID))
        var conditional: [(name: String, argument: UInt32, value: UInt64)] = [("socket", 0, UInt64(AF_UNIX))]  // local sockets only
        if !sanitizer { conditional.append(("prlimit64", 2, 0)) }  // reading limits only
        // Signals only to itself (no child starts processes: the validate
        // suite's fresh-process digests are started by the parent).
        conditional += [("kill", 0, pid), ("tgkill", 0, pid)]
        // No new processes, only threads: clone must carry CLONE_THREAD,
        // clone3 looks absent (glibc's pthread_create falls back to clone),
        // fork and vfork fail. LeakSanitizer stops the world from a cloned
        // task, so sanitizer builds keep process creation.
        let spawns = !sanitizer
        let cloneThread: UInt64 = 0x0001_0000
        if spawns { denied += ["fork", "vfork"] }
        layers.append(skip("seccomp") ?? layer("seccomp", SystemCalls.installSyscallFilter(
                            denied: denied, deniedUnless: conditional,
                            deniedUnlessBits: spawns ? [("clone", 0, cloneThread)] : [], unsupported: spawns ? ["clone3"] : []),
                            "denied: execve, execveat, ptrace and process_vm_*, mount, bpf, perf_event_open, keyctl, "
                                + "raising limits, signals to other processes, sockets other than AF_UNIX"
                                + (spawns ? ", new processes (fork, vfork, clone without CLONE_THREAD; clone3 reads as absent)" : "")))
        layers.append(SandboxLayer(name: "process-group", active: true,
                                   detail: "its own process group, killed by the parent when the child ends or times out"))
        return layers
    }

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
    /// plugin's directory, `LD_LIBRARY_PATH`, a few device files, and its
    /// own `/proc` entry and the CPU list glibc reads.
    static func readablePaths(pluginFile: String?) -> [String] {
        var paths = ["/usr", "/lib", "/lib64", "/lib32", "/libx32", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                     "/dev/zero", "/dev/urandom", "/dev/random", "/proc/\(SystemCalls.processID)", "/sys/devices/system/cpu"]
        if case .success(let maps) = SystemCalls.readFile("/proc/self/maps", limit: 4 << 20) {
            for line in String(decoding: maps, as: UTF8.self).split(separator: "\n") {
                guard let slash = line.firstIndex(of: "/") else { continue }
                let directory = PathSecurity.parent(of: String(line[slash...]))
                if !paths.contains(directory) { paths.append(directory) }
            }
        }
        if let pluginFile { paths.append(PathSecurity.parent(of: pluginFile)) }
        for entry in (SearchPaths.secureEnvironment("LD_LIBRARY_PATH") ?? "").split(separator: ":") where entry.hasPrefix("/") {
            paths.append(String(entry))
        }
        return paths
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
            return reply.flatMap(LayerReport.decode)
                ?? [SandboxLayer(name: "helper", active: false, detail: "\(helper) did not report its layers (\(outcome.termination))")]
        }
    }
}
