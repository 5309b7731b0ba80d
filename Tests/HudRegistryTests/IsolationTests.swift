// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Testing
@testable import HudRegistry
import HudTestSupport

/// The sandbox a scanned plugin runs in is a real boundary: every escape
/// a hostile init() tries is refused, the scan still completes, and
/// `hudhost doctor` reports each layer.
struct IsolationTests {
    /// A TCP listener on 127.0.0.1 (an ephemeral port), non-blocking, so
    /// the test can ask afterwards whether anything connected.
    final class Listener {
        let fd: Int32
        let port: UInt16

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
            guard bound == 0, listen(fd, 8) == 0 else {
                close(fd)
                throw POSIXError(.EADDRINUSE)
            }
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            self.fd = fd
            self.port = UInt16(bigEndian: address.sin_port)
        }

        deinit { close(fd) }

        /// True when a connection is waiting (someone got through).
        var wasContacted: Bool {
            let accepted = accept(fd, nil, nil)
            if accepted >= 0 { close(accepted) }
            return accepted >= 0
        }
    }

    /// Whether this build's sandbox says it denies new processes (sanitizer
    /// builds allow them: LeakSanitizer clones a task), as `hudhost doctor`
    /// reports it: the fork attempt is only an escape where it is promised.
    static func sandboxDeniesProcesses() async throws -> Bool {
        let layers = try HudHost.json(try await HudHost.run(["doctor", "--json"]))["isolation"]?["layers"]?.arrayValue ?? []
        let seccomp = layers.first { $0["name"]?.stringValue == "seccomp" }?["detail"]?.stringValue ?? ""
        return seccomp.contains("no new processes")
    }

    @Test func aScannedPluginCannotEscapeTheSandbox() async throws {
        let directory = try DiscoveryFixtures.directory("escape", discovery: ["escape_attempts"])
        let cache = try FixturePlugins.makeScratchDirectory("escape-cache")
        let outside = try FixturePlugins.makeScratchDirectory("escape-outside") + "/written-by-plugin"
        // A file this user can read, outside what a sandboxed child may read.
        let secret = try FixturePlugins.makeScratchDirectory("escape-secret") + "/secret"
        try "not for plugins".write(toFile: secret, atomically: false, encoding: .utf8)
        let listener = try Listener()
        let scratchName = "hud-escape-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let output = try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache, extra: [
            "HUD_ESCAPE_FILE": outside, "HUD_ESCAPE_PORT": String(listener.port), "HUD_ESCAPE_EXEC": "1", "HUD_ESCAPE_READ": secret,
            "HUD_ESCAPE_SCRATCH": scratchName,
        ].merging(try Self.sandboxDeniesProcesses() ? ["HUD_ESCAPE_FORK": "1"] : [:]) { $1 })
        #expect(output.status == 0, "\(output.transcript)")
        let json = try HudHost.json(output)
        // init() succeeds only when every attempt was refused.
        #expect((json["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.fixture.escape-attempts" },
                "\(output.stdout)")
        #expect(!FileManager.default.fileExists(atPath: outside), "the plugin wrote outside the sandbox")
        #expect(!listener.wasContacted, "the plugin connected to a TCP port on the host")
        // What it left in its scratch directory stayed in the sandbox.
        #expect(!FileManager.default.fileExists(atPath: SandboxLayers.scratchDirectory + "/" + scratchName))
    }

    /// Of a plugin's own directory a sandboxed child reads the plugin and
    /// the libraries it links through `$ORIGIN`, nothing else: a private
    /// file kept beside the plugin (a root-only one, when hudhost runs as
    /// root) stays out of reach, while a sibling library still loads.
    @Test func aScannedPluginReadsOnlyItselfAndTheLibrariesItLinksBesideIt() async throws {
        let directory = try DiscoveryFixtures.directory("beside", discovery: ["escape_attempts"])
        let secret = directory + "/secret-beside-the-plugin"
        try "not for plugins".write(toFile: secret, atomically: false, encoding: .utf8)
        chmod(secret, 0o600)
        let output = try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: try FixturePlugins.makeScratchDirectory("beside-cache"),
                                                   extra: ["HUD_ESCAPE_READ": secret])
        #expect(output.status == 0, "\(output.transcript)")
        // init() succeeds only when the read was refused.
        #expect((try HudHost.json(output)["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.fixture.escape-attempts" },
                "\(output.stdout)")

        let siblings = try await Self.pluginWithASibling("origin-siblings")
        let listed = try await DiscoveryFixtures.hudhost(["list", "--json"], path: siblings, cache: try FixturePlugins.makeScratchDirectory("siblings-cache"))
        #expect(listed.status == 0, "\(listed.transcript)")
        // The sibling library was found and read in the sandbox: init() calls into it.
        #expect((try HudHost.json(listed)["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.fixture.needs-missing-lib" },
                "\(listed.stdout)")
    }

    /// A library loaded into this process is mapped from the descriptor
    /// its checks read (the loader is given its /proc/self/fd name and the
    /// descriptor stays open), so a file swapped in at the path meanwhile is
    /// never what runs; a plugin whose own search path uses `$ORIGIN` (the
    /// loader would read /proc/self/fd as its directory) is loaded by path
    /// and still finds its sibling library.
    @Test func anInProcessLoadMapsTheFileItCheckedAndKeepsOrigin() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("descriptor-load")
        chmod(directory, 0o755)
        let plugin = directory + "/good_simple.so"
        try FileManager.default.copyItem(atPath: try FixturePlugins.path(of: .goodSimple), toPath: plugin)
        func heldDescriptors(of path: String) -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return names.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == path }.count
        }
        #expect(heldDescriptors(of: plugin) == 0)
        let registry = RendererRegistry(isolation: .inProcess)
        let loaded = try registry.load(path: plugin)
        #expect(loaded.map(\.id) == ["org.fixture.simple", "org.fixture.simple-alt"])
        #expect(loaded.allSatisfy { $0.origin == .file(plugin) }, "\(loaded.map(\.origin))")
        #expect(heldDescriptors(of: plugin) == 1, "the library was not loaded through the descriptor its checks read")

        let siblings = try await Self.pluginWithASibling("descriptor-origin")
        #expect(try registry.load(path: siblings + "/needs_sibling.so").map(\.id) == ["org.fixture.needs-missing-lib"])
    }

    /// A new directory holding needs_sibling.so, which links
    /// libhudmissingdep.so beside it through `$ORIGIN`.
    static func pluginWithASibling(_ label: String) async throws -> String {
        let siblings = try FixturePlugins.makeScratchDirectory(label)
        chmod(siblings, 0o755)
        let discovery = FixturePlugins.repositoryRoot + "/Tests/Fixtures/discovery/"
        try await FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + ["-o", siblings + "/libhudmissingdep.so", discovery + "missing_dep.c"])
        try await FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + [
            "-I", FixturePlugins.headerDirectory, "-I", FixturePlugins.sourceDirectory, "-o", siblings + "/needs_sibling.so",
            discovery + "needs_missing_lib.c", "-L", siblings, "-lhudmissingdep", "-Wl,-rpath,$ORIGIN",
        ])
        return siblings
    }

    /// A library found through an absolute `DT_RUNPATH` entry (how a
    /// SwiftPM-built plugin finds the toolchain's `libswiftCore.so`, which
    /// an installed, static helper has not mapped itself) is readable in
    /// the sandbox; a private file in that directory is not.
    @Test func aLibraryOnThePluginsOwnRunpathLoadsAndItsDirectoryStaysClosed() async throws {
        let libraries = try FixturePlugins.makeScratchDirectory("runpath-libraries")
        chmod(libraries, 0o755)
        let secret = libraries + "/secret-beside-the-library"
        try "not for plugins".write(toFile: secret, atomically: false, encoding: .utf8)
        chmod(secret, 0o600)
        let discovery = FixturePlugins.repositoryRoot + "/Tests/Fixtures/discovery/"
        try await FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + ["-o", libraries + "/libhudmissingdep.so", discovery + "missing_dep.c"])
        let plugins = try FixturePlugins.makeScratchDirectory("runpath-plugins")
        chmod(plugins, 0o755)
        for (source, output) in [("needs_missing_lib.c", "needs_runpath.so"), ("escape_attempts.c", "escapes_with_runpath.so")] {
            try await FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + [
                "-I", FixturePlugins.headerDirectory, "-I", FixturePlugins.sourceDirectory, "-o", plugins + "/" + output, discovery + source,
                "-L", libraries, "-Wl,--no-as-needed", "-lhudmissingdep", "-Wl,--enable-new-dtags,-rpath," + libraries,
            ])
        }
        let listed = try await DiscoveryFixtures.hudhost(["list", "--json"], path: plugins, cache: try FixturePlugins.makeScratchDirectory("runpath-cache"),
                                                   extra: ["HUD_ESCAPE_READ": secret])
        #expect(listed.status == 0, "\(listed.transcript)")
        let ids = (try HudHost.json(listed)["renderers"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        // init() of the first calls into the library; init() of the second
        // succeeds only when reading the secret beside it was refused.
        #expect(ids.contains("org.fixture.needs-missing-lib") && ids.contains("org.fixture.escape-attempts"), "\(listed.stdout)")
    }

    /// The control: the same attempts, made without the sandbox (in this
    /// process's own probe, `--in-process`), do reach the outside world.
    @Test func theEscapeAttemptsAreRealWithoutTheSandbox() async throws {
        let path = try DiscoveryFixtures.path("escape_attempts")
        let outside = try FixturePlugins.makeScratchDirectory("escape-control") + "/written-by-plugin"
        let output = try await HudHost.run(["probe", "--in-process", "--json", path], environment: ["HUD_ESCAPE_FILE": outside])
        #expect(output.status != 0, "\(output.transcript)")
        // The same fixture with only the read and fork attempts: refused in
        // the sandbox (above), possible here.
        let secret = try FixturePlugins.makeScratchDirectory("escape-control-secret") + "/secret"
        try "readable".write(toFile: secret, atomically: false, encoding: .utf8)
        let reading = try await HudHost.run(["probe", "--in-process", "--json", path], environment: ["HUD_ESCAPE_READ": secret])
        #expect(try HudHost.json(reading)["error"]?["code"]?.stringValue == "init-failed", "\(reading.transcript)")
        #expect(try HudHost.json(output)["error"]?["code"]?.stringValue == "init-failed")
        #expect(FileManager.default.fileExists(atPath: outside))
    }

    @Test func doctorReportsEveryLayer() async throws {
        let output = try await HudHost.run(["doctor", "--json"])
        #expect(output.status == 0, "\(output.transcript)")
        let json = try HudHost.json(output)
        let layers = json["isolation"]?["layers"]?.arrayValue ?? []
        #expect(layers.compactMap { $0["name"]?.stringValue }
                == ["limits", "no-new-privs", "descriptors", "namespaces", "read-only-view", "landlock", "seccomp", "process-group"])
        // This machine kind supports every layer (as root and unprivileged).
        for layer in layers { #expect(layer["active"]?.boolValue == true, "\(layer)") }
        #expect(json["isolation"]?["complete"]?.boolValue == true)
        #expect(json["libffi"]?["ok"]?.boolValue == true)
        #expect(json["helper"]?.stringValue?.hasSuffix("/hudsandbox") == true)
        let text = try await HudHost.run(["doctor"])
        #expect(text.status == 0 && text.stdout.contains("All layers are active."))
    }

    @Test(arguments: [(["list", "--json"], ["HUD_REQUIRE_SANDBOX": "1"]), (["--require-sandbox", "list", "--json"], [:])])
    func requiringTheSandboxStillScansWhereEveryLayerHolds(_ arguments: [String], _ environment: [String: String]) async throws {
        let directory = try DiscoveryFixtures.directory("require-sandbox", discovery: ["crash_on_load", "meta_good"])
        let cache = try FixturePlugins.makeScratchDirectory("require-sandbox-cache")
        let output = try await DiscoveryFixtures.hudhost(arguments, path: directory, cache: cache, extra: environment)
        #expect(output.status == 0, "\(output.transcript)")
        let failures = try HudHost.json(output)["failures"]?.arrayValue ?? []
        #expect(failures.contains { $0["code"]?.stringValue == "crashed" })
    }
}

extension IsolationTests {
    @Test func anOversizedResultLineIsAProtocolError() async throws {
        let directory = try DiscoveryFixtures.directory("chatty-long", discovery: ["chatty_channel"])
        let cache = try FixturePlugins.makeScratchDirectory("chatty-long-cache")
        let output = try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache, extra: ["HUD_CHATTY": "long"])
        #expect(output.status == 0, "\(output.transcript)")
        let failures = try HudHost.json(output)["failures"]?.arrayValue ?? []
        #expect(failures.contains { $0["code"]?.stringValue == "protocol-error" }, "\(output.stdout)")
    }

    /// Lines are not progress: a plugin writing a newline every 100 ms in
    /// init() still times out its check at a deadline of a few of them, and
    /// the run ends. (`timeout 300` only turns a regression into a failure
    /// instead of a hung suite.)
    @Test func trafficOnTheChannelDoesNotExtendADeadline() async throws {
        let path = try DiscoveryFixtures.path("chatty_channel")
        let output = try await FixturePlugins.run(["env", "HUD_CHATTY=newlines", "HOME=" + FixturePlugins.workDirectory + "/no-home",
                                             "timeout", "300", HudHost.path, "validate", "--profile", "basic", "--timeout", ProvokedDeadline.argument,
                                             "--format", "json", path])
        #expect(output.status == 1, "\(output.transcript)")
        let json = try JSONParser.parse(output.stdout)
        let results = json["targets"]?.arrayValue?.first?["results"]?.arrayValue ?? []
        #expect(results.contains { $0["check"]?.stringValue == "abi-init" && $0["status"]?.stringValue == "timed-out" }, "\(output.stdout)")
    }
}

extension IsolationTests {
    /// Good metadata is no reason to trust the code: the first load of every
    /// file is in the sandbox, so a plugin that crashes in init() while
    /// merely sitting on the search path cannot take `render` or `demo` down.
    /// Neither a scan child nor a renderer host can start tasks without
    /// limit, whoever runs hudhost: `many_tasks.c` starts threads until one
    /// is refused and its init() fails past 300. An unprivileged hudhost's
    /// children meet RLIMIT_NPROC in their user namespace; a root one's, a
    /// pids control group each, removed when the child is reaped.
    static let taskLimitPossible = geteuid() != 0 || TaskGroup.ownPidsDirectory() != nil

    @Test(Requirement.when(taskLimitPossible, "root, and no writable cgroup v1 pids hierarchy to make a task limit in"))
    func aPluginCannotStartTasksWithoutLimit() async throws {
        try Requirement.require(Self.taskLimitPossible, "a pids cgroup hierarchy for root's children")
        let directory = try DiscoveryFixtures.directory("many-tasks", discovery: ["many_tasks"])
        let cache = try FixturePlugins.makeScratchDirectory("many-tasks-cache")
        let listed = try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache)
        #expect((try HudHost.json(listed)["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.fixture.many-tasks" },
                "\(listed.transcript)")
        let render = try await DiscoveryFixtures.hudhost(["render", "--style", "org.fixture.many-tasks", "--format", "json"],
                                                   path: directory, cache: cache)
        #expect(render.status == 0, "\(render.transcript)")
        // Every group the two commands made is gone with them.
        if let base = TaskGroup.ownPidsDirectory() {
            let left = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
            for pid in [listed.pid, render.pid] {
                #expect(!left.contains { $0.hasPrefix("hud-\(pid)-") }, "groups left behind: \(left)")
            }
        }
    }

    @Test func aCrashingPluginWithGoodMetadataCannotTakeRenderDown() async throws {
        let directory = try DiscoveryFixtures.directory("meta-crash", discovery: ["meta_crash_on_load", "meta_good"])
        let cache = try FixturePlugins.makeScratchDirectory("meta-crash-cache")
        let listed = try HudHost.json(try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache))
        #expect((listed["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.fixture.meta-crash" })
        let render = try await DiscoveryFixtures.hudhost(["render", "--style", "com.hudson.tray", "--format", "json"], path: directory, cache: cache)
        #expect(render.status == 0, "\(render.transcript)")
        #expect(try HudHost.json(render)["renderer"]?["id"]?.stringValue == "com.hudson.tray")
        let demoDirectory = try FixturePlugins.makeScratchDirectory("meta-crash-demo")
        let demo = try await DiscoveryFixtures.hudhost(["demo", "--out", demoDirectory, "--quiet"], path: directory, cache: cache)
        #expect(demo.status == 0, "\(demo.transcript)")
        // Recorded: listed as crashed from now on, until the file changes;
        // the well-behaved plugin beside it was trial-loaded and is kept.
        let after = try HudHost.json(try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache))
        #expect(!(after["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.fixture.meta-crash" })
        #expect((after["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.scale.p0000" })
        #expect((after["failures"]?.arrayValue ?? []).contains { $0["code"]?.stringValue == "crashed" })
    }
}

extension IsolationTests {
    /// A layer left out (HUD_SANDBOX_SKIP, for diagnosing a plugin that only
    /// fails sandboxed) is reported missing; the scan still runs with the
    /// rest — unless the sandbox is required, when no plugin code runs.
    @Test(arguments: [([], "crashed"), (["--require-sandbox"], "sandbox-incomplete")])
    func aMissingLayerIsReportedAndRequiringTheSandboxRefuses(_ options: [String], _ expected: String) async throws {
        let directory = try DiscoveryFixtures.directory("skip-layer", discovery: ["crash_on_load"])
        let cache = try FixturePlugins.makeScratchDirectory("skip-layer-cache")
        let output = try await DiscoveryFixtures.hudhost(options + ["list", "--json"], path: directory, cache: cache,
                                                   extra: ["HUD_SANDBOX_SKIP": "landlock"])
        #expect(output.status == 0, "\(output.transcript)")
        let failures = try HudHost.json(output)["failures"]?.arrayValue ?? []
        #expect(failures.contains { $0["code"]?.stringValue == expected }, "\(output.stdout)")

        let doctor = try await HudHost.run(options + ["doctor", "--json"], environment: ["HUD_SANDBOX_SKIP": "landlock"])
        #expect(doctor.status == (options.isEmpty ? 0 : 1), "\(doctor.transcript)")
        let json = try HudHost.json(doctor)
        #expect(json["isolation"]?["complete"]?.boolValue == false)
        #expect((json["isolation"]?["layers"]?.arrayValue ?? []).contains {
            $0["name"]?.stringValue == "landlock" && $0["active"]?.boolValue == false
        })
    }
}

extension IsolationTests {
    /// Every library plugin code can load passes the same path security as
    /// the plugin file: a directory the plugin's `DT_RUNPATH` or
    /// `LD_LIBRARY_PATH` names that others may write (sticky or not: anyone
    /// may add the name the loader looks for there) refuses the plugin with
    /// `insecure-path` naming that directory, before any of its code runs;
    /// the same files load once the directory is closed.
    @Test(arguments: [("runpath", 0o777 as mode_t), ("runpath", 0o1777), ("LD_LIBRARY_PATH", 0o777)])
    func aLibraryFromADirectoryOthersMayWriteIsRefused(_ route: String, _ mode: mode_t) async throws {
        let label = "insecure-\(route)-\(String(mode, radix: 8))"
        let libraries = try FixturePlugins.makeScratchDirectory(label + "-libraries")
        let discovery = FixturePlugins.repositoryRoot + "/Tests/Fixtures/discovery/"
        try await FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + ["-o", libraries + "/libhudmissingdep.so", discovery + "missing_dep.c"])
        let plugins = try FixturePlugins.makeScratchDirectory(label + "-plugins")
        chmod(plugins, 0o755)
        try await FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + [
            "-I", FixturePlugins.headerDirectory, "-I", FixturePlugins.sourceDirectory, "-o", plugins + "/needs_library.so",
            discovery + "needs_missing_lib.c", "-L", libraries, "-lhudmissingdep",
        ] + (route == "runpath" ? ["-Wl,--enable-new-dtags,-rpath," + libraries] : []))
        let extra = route == "runpath" ? [:] : ["LD_LIBRARY_PATH": libraries]
        func listed() async throws -> (ids: [String], failures: [JSONValue]) {
            let output = try await DiscoveryFixtures.hudhost(["list", "--json"], path: plugins, cache: try FixturePlugins.makeScratchDirectory(label + "-cache"),
                                                       extra: extra)
            #expect(output.status == 0, "\(output.transcript)")
            let json = try HudHost.json(output)
            return ((json["renderers"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }, json["failures"]?.arrayValue ?? [])
        }
        chmod(libraries, mode)
        let refused = try await listed()
        #expect(!refused.ids.contains("org.fixture.needs-missing-lib"))
        #expect(refused.failures.contains {
            $0["code"]?.stringValue == "insecure-path" && ($0["message"]?.stringValue ?? $0["reason"]?.stringValue ?? "").contains(libraries)
        }, "\(refused.failures)")
        chmod(libraries, 0o755)
        await #expect(try listed().ids.contains("org.fixture.needs-missing-lib"))
    }
}

extension IsolationTests {
    /// What plugin code prints is data: a failed child's output reaches
    /// stderr escaped, each line prefixed with the plugin, at most
    /// `PluginOutput.keptBytes` of it; a healthy child's only with
    /// `--verbose`; stdout never. No escape sequence, C1 control or line
    /// that passes for hudhost's own reaches the terminal.
    @Test(arguments: [(true, [] as [String]), (false, []), (false, ["--verbose"])])
    func pluginOutputIsEscapedPrefixedAndBounded(_ fails: Bool, _ options: [String]) async throws {
        let directory = try DiscoveryFixtures.directory("loud-\(fails)-\(options.count)", discovery: ["loud_init"])
        let output = try await DiscoveryFixtures.hudhost(options + ["list"], path: directory,
                                                   cache: try FixturePlugins.makeScratchDirectory("loud-cache-\(fails)-\(options.count)"),
                                                   extra: fails ? ["HUD_LOUD_FAIL": "1"] : [:])
        #expect(output.status == 0, "\(output.transcript)")
        for (name, text) in [("stdout", output.stdout), ("stderr", output.stderr)] {
            #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || (0x80...0x9F).contains($0.value) },
                    "a raw control character on \(name)")
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("hudhost: error: a line forged") }, "a forged line on \(name)")
        }
        #expect(!output.stdout.contains("forged"), "plugin output on stdout")
        let shown = fails || options.contains("--verbose")
        let prefix = "[\(directory)/loud_init.so] "
        #expect(output.stderr.contains(prefix + "\\u{1b}]52;c;") == shown, "\(output.stderr.prefix(600))")
        #expect(output.stderr.contains(prefix + "hudhost: error: a line forged by plugin code") == shown)
        // 256 KiB written, at most 16 KiB kept (plus prefixes and escapes), the rest counted.
        #expect(output.stderr.utf8.count < 40_000)
        #expect(output.stderr.contains("more bytes not kept") == shown)
    }
}

extension IsolationTests {
    /// In a sticky directory others can write (a search path under /tmp),
    /// a symbolic link another user made is refused even when it points at
    /// a library root owns: whoever made it chose what would be loaded.
    /// The same link made by this user loads. (Making a link another user
    /// owns needs root: CI runs the suite as root.)
    @Test(Requirement.when(getuid() == 0, "needs root to make another user's symbolic link"))
    func anotherUsersLinkInAStickySearchDirectoryIsRefused() async throws {
        let library = try DiscoveryFixtures.directory("sticky-target", discovery: ["meta_good"]) + "/meta_good.so"
        let sticky = try FixturePlugins.makeScratchDirectory("sticky-search")
        chmod(sticky, 0o1777)
        let link = sticky + "/planted.so"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: library)
        try #require(lchown(link, 65534, 65534) == 0)
        let cache = try FixturePlugins.makeScratchDirectory("sticky-cache")
        let refused = try HudHost.json(try await DiscoveryFixtures.hudhost(["list", "--json"], path: sticky, cache: cache))
        #expect(!(refused["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.scale.p0000" })
        #expect((refused["failures"]?.arrayValue ?? []).contains {
            $0["code"]?.stringValue == "insecure-path" && ($0["message"]?.stringValue ?? "").contains("owned by uid 65534")
        }, "\(refused)")
        try #require(lchown(link, 0, 0) == 0)
        let listed = try HudHost.json(try await DiscoveryFixtures.hudhost(["list", "--json"], path: sticky, cache: cache))
        #expect((listed["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.scale.p0000" }, "\(listed)")
    }
}
