// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import HudRegistry
import HudTestSupport
@testable import HudSystem

/// The host ↔ sandbox-child protocol (one file, both halves) and the
/// sandboxed discovery a Swift host gets from the library by default.
struct SandboxProtocolTests {
    static let validation: SandboxValidation = {
        var request = SandboxValidation(target: .file("/opt/plugins/libring.so"), renderer: "com.example.ring")
        request.checks = ["abi-load", "layout-basic"]
        request.seed = 42
        request.fuzzIterations = 17
        request.skip = ["abi-load", "layout-basic@com.example.ring"]
        request.blocked = ["abi-init": "crashed"]
        request.cpuSeconds = 9
        request.memoryMegabytes = 512
        request.helper = "/usr/libexec/hud/hudsandbox"
        request.helperTimeoutSeconds = 2.5
        return request
    }()

    @Test(arguments: [
        SandboxRequest.scan(path: "/tmp/a b/libx.so", allowInsecurePath: false),
        .scan(path: "/tmp/libx.so", allowInsecurePath: true),
        .validate(validation),
        .validate(SandboxValidation(target: .builtin)),
        .digest(validation),
        .layers,
        .echo,
        .serve(SandboxServe(path: "/tmp/a b/libx.so", renderers: ["org.x.a", "org.x.b"], cpuSeconds: 3600, allowInsecurePath: true, parent: 4242)),
        .serve(SandboxServe(path: "/tmp/libx.so", renderers: ["org.x.a"], cpuSeconds: 60, allowInsecurePath: false, observeLoading: true)),
    ])
    func everyRequestSurvivesItsCommandLine(_ request: SandboxRequest) throws {
        #expect(try SandboxRequest(arguments: request.arguments) == request)
    }

    @Test(arguments: [
        ([], "no request"),
        (["launch"], "unknown request 'launch'"),
        (["scan"], "scan takes one plugin path"),
        (["scan", "/a.so", "/b.so"], "scan takes one plugin path"),
        (["validate", "--renderer", "x.y"], "needs --file PATH or --builtin"),
        (["validate", "--builtin", "--seed", "forty"], "--seed 'forty' is not a valid number"),
        (["validate", "--builtin", "--seed"], "--seed needs a value"),
        (["validate", "--builtin", "--exec", "/bin/sh"], "unknown option '--exec'"),
        (["digest", "--builtin"], "digest needs --renderer ID"),
        (["serve", "/a.so"], "serve takes one plugin path and at least one --renderer ID"),
        (["serve", "/a.so", "--renderer", "x.y", "--parent", "-3"], "--parent needs a whole number"),
        (["serve", "/a.so", "--renderer", "x.y", "--exec", "/bin/sh"], "unknown serve option '--exec'"),
        (["echo", "extra"], "echo takes no arguments"),
    ])
    func malformedCommandLinesAreRefusedWithTheReason(_ arguments: [String], _ reason: String) {
        #expect {
            try SandboxRequest(arguments: arguments)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func scanRepliesRoundTrip() throws {
        let info = RendererInfo(id: "com.example.ring", name: "Ring", version: "1.2.3", vendor: "Example", summary: "",
                                supportedPositions: [.center, .topLeft], capabilities: [.threadSafe],
                                abiVersion: ABIVersion(major: 1, minor: 3), origin: .file("/p/libring.so"))
        // The stamp of the file the child opened travels with either answer.
        let stamp = FileStamp(device: 2049, inode: 1 << 40, size: 16_384, modifiedNanoseconds: -5, changedNanoseconds: Int64.max)
        let line = ScanReply.encode(renderers: [info], failures: [], loaded: stamp)
        #expect(!line.contains("\n"))
        let decoded = try #require(ScanReply.decode(line, path: "/p/libring.so"))
        #expect(decoded.outcome == .renderers([info]) && decoded.loaded == stamp)
        let failed = ScanReply.encode(error: .initFailed(path: "/p/libring.so", status: -3), loaded: stamp)
        guard case (.failed(let code, let reason), stamp)? = ScanReply.decode(failed, path: "/p/libring.so") else {
            Issue.record("an error reply must decode as a failure of the file it opened")
            return
        }
        #expect(code == .initFailed && reason.contains("init()"))
        #expect(ScanReply.decode(ScanReply.encode(error: .initFailed(path: "/p", status: 1), loaded: nil), path: "/p")?.loaded == nil)
        #expect(ScanReply.decode("not json", path: "/p") == nil)
        // The child's word is judged like a metadata record: a forged line
        // with an invalid id, terminal controls or a foreign ABI is refused.
        for forged in [#"{"renderers":[{"id":"Evil ID","name":"x","version":"1","vendor":"v","abi":65536,"positions":31,"capabilities":0}]}"#,
                       #"{"renderers":[{"id":"a.b","name":"x\u001b[2K","version":"1","vendor":"v","abi":65536,"positions":31,"capabilities":0}]}"#,
                       #"{"renderers":[{"id":"a.b","name":"x","version":"1","vendor":"v","abi":131072,"positions":31,"capabilities":0}]}"#,
                       #"{"renderers":[{"id":"a.b","name":"x","version":"1","vendor":"v","abi":65536,"positions":96,"capabilities":0}]}"#] {
            guard case .failed(let code, _)? = ScanReply.decode(forged, path: "/p")?.outcome else {
                Issue.record("a forged reply was accepted: \(forged)")
                continue
            }
            #expect(code == .badMetadata)
        }
        // A reply that names no renderer and no failure is a failure too.
        #expect(ScanReply.decode(#"{"renderers":[]}"#, path: "/p")?.outcome == .failed(code: .noRenderers, reason: "the plugin provides no usable renderer"))
    }

    @Test func theHelperRefusesToBeRunByHand() throws {
        let output = try FixturePlugins.run([FixturePlugins.binDirectory + "/hudsandbox", "rm", "-rf"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("unknown request 'rm'") && output.stderr.contains("not meant to be run by hand"))
        #expect(output.stdout.isEmpty)
    }

    /// The owning descriptor type: dropping the last reference closes it,
    /// and closing twice never closes a number reused meanwhile.
    @Test func anOwnedDescriptorClosesOnceWhenDroppedOrClosed() throws {
        guard case .success(let pipe) = SystemCalls.makePipe() else {
            Issue.record("pipe() failed")
            return
        }
        SystemCalls.setNonBlocking(pipe.read.rawValue)  // likewise
        // A write end only a function held is closed when it returns: the read end sees end of file.
        func writeAndDrop() -> Int32 {
            guard case .success(let other) = SystemCalls.makePipe() else { return -1 }
            _ = SystemCalls.writeToPipe(other.write.rawValue, [7])
            return SystemCalls.duplicate(other.read.rawValue, atLeast: 10) ?? -1
        }
        let reader = writeAndDrop()
        try #require(reader >= 0)
        defer { SystemCalls.closeDescriptor(reader) }
        SystemCalls.setNonBlocking(reader)  // an open write end is a failure below, not a hang
        guard case .bytes([7]) = SystemCalls.read(reader, maximum: 8) else { Issue.record("the byte written is not there"); return }
        guard case .endOfFile = SystemCalls.read(reader, maximum: 8) else { Issue.record("a dropped write end was not closed"); return }
        // Closed twice: the second close is a no-op, even after the number is reused.
        let number = pipe.write.rawValue
        pipe.write.close()
        #expect(!pipe.write.isOpen && pipe.write.rawValue == -1)
        guard case .success(let next) = SystemCalls.makePipe() else { return }
        let reused = SystemCalls.duplicate(next.write.rawValue, atLeast: number) ?? -1
        defer { SystemCalls.closeDescriptor(reused) }
        pipe.write.close()
        #expect(reused != number || SystemCalls.writeToPipe(reused, [1]), "closing again closed the reused number \(number)")
        guard case .endOfFile = SystemCalls.read(pipe.read.rawValue, maximum: 8) else { Issue.record("the closed write end is still open"); return }
    }

    /// A child can end before it reads its filter (a plugin path that does
    /// not exist fails at once): sending into that closed pipe is a
    /// failure, and the host process goes on (SIGPIPE would end it, exit 13).
    @Test func aFilterSentToAChildThatIsGoneIsAFailureNotASignal() throws {
        guard case .success(let pipe) = SystemCalls.makePipe() else {
            Issue.record("pipe() failed")
            return
        }
        pipe.read.close()
        guard case .failure = SandboxFilter.send(toChild: SystemCalls.processID, through: pipe.write) else {
            Issue.record("a filter written into a pipe without a reader must fail")
            return
        }
        // The host can still write to pipes afterwards: no SIGPIPE is left pending.
        guard case .success(let next) = SystemCalls.makePipe() else { return }
        #expect(SystemCalls.writeToPipe(next.write.rawValue, [1, 2, 3]))
        #expect(!pipe.write.isOpen, "send closes the write end it is given")
    }

    /// The helper started by anything but hudhost gets no filter: it says
    /// its seccomp layer is unavailable and why, rather than claiming it.
    @Test func aHelperStartedWithoutAFilterReportsSeccompUnavailable() throws {
        let helper = FixturePlugins.binDirectory + "/hudsandbox"
        // The result frame's binary length prefix is dropped; its JSON stays.
        let output = try FixturePlugins.run(["/bin/sh", "-c", "\"$0\" layers 3>&1 5<&- | tr -cd '[:print:]'", helper])
        let seccomp = output.stdout.split(separator: "{").first { $0.contains(#""name":"seccomp""#) }
        #expect(seccomp?.contains(#""active":false"#) == true, "\(output.stdout)")
        #expect(seccomp?.contains("no filter on descriptor 5") == true, "\(output.stdout)")
    }

    /// What a Swift host gets with no options: files without metadata are
    /// scanned in `hudsandbox`, so a plugin whose init() segfaults is a
    /// `crashed` record and this test process keeps running.
    @Test func aLibraryHostDiscoversThroughTheSandboxByDefault() throws {
        let directory = try DiscoveryFixtures.directory("library-discovery", discovery: ["crash_on_load", "meta_good"])
        let registry = RendererRegistry.withBuiltins()
        let report = registry.loadPlugins(from: PluginCatalog(searchPaths: SearchPaths(directories: [directory]), cache: nil))
        #expect(report.filesScanned == 1)
        let crashed = report.files.first { $0.path.hasSuffix("/crash_on_load.so") }
        guard case .failed(let code, _)? = crashed?.state else {
            Issue.record("crash_on_load must fail its scan: \(String(describing: crashed))")
            return
        }
        #expect(code == .crashed)
        #expect(registry.renderers.map(\.id).contains("org.scale.p0000"))
        #expect(!registry.renderers.map(\.id).contains("org.fixture.crash-on-load"))
    }

    @Test func aNamedFileIsTriedInTheSandboxBeforeItLoads() throws {
        let crasher = try DiscoveryFixtures.path("crash_on_load")
        let registry = RendererRegistry.withBuiltins()
        #expect {
            try registry.load(checking: crasher)
        } throws: { error in
            guard case .sandboxedLoadFailed(_, let code, _) = error as? RegistryError else { return false }
            return code == .crashed
        }
        let good = try FixturePlugins.path(of: .goodSimple)
        #expect(try registry.load(checking: good).map(\.id).contains("org.fixture.simple"))
    }

    @Test func aWrongHelperOverrideIsReportedNotSilentlyReplaced() throws {
        let directory = try DiscoveryFixtures.directory("helper-override", discovery: ["crash_on_load"])
        let cache = try FixturePlugins.makeScratchDirectory("helper-override-cache")
        let output = try DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache,
                                                   extra: ["HUD_SANDBOX_HELPER": "/nonexistent/hudsandbox"])
        #expect(output.status == 0, "\(output.transcript)")
        let failures = try HudHost.json(output)["failures"]?.arrayValue ?? []
        #expect(failures.contains {
            $0["code"]?.stringValue == "scan-failed" && $0["message"]?.stringValue?.contains("/nonexistent/hudsandbox") == true
        }, "\(output.stdout)")
        // The machine's failure, not the plugin's: not cached, so fixing
        // the setting is enough (the plugin's own verdict comes back).
        let fixed = try DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache)
        #expect((try HudHost.json(fixed)["failures"]?.arrayValue ?? []).contains { $0["code"]?.stringValue == "crashed" }, "\(fixed.stdout)")
    }

    /// The helper runs before any layer holds: one others could replace
    /// (here, in a directory everyone may write) is refused like a plugin
    /// would be, and `doctor` says why.
    @Test func aHelperOthersCouldReplaceIsRefusedAndDoctorSaysWhy() throws {
        let directory = try FixturePlugins.makeScratchDirectory("helper-open")
        chmod(directory, 0o777)
        let helper = directory + "/hudsandbox"
        try FileManager.default.copyItem(atPath: PathSecurity.parent(of: HudHost.path) + "/hudsandbox", toPath: helper)
        let plugins = try DiscoveryFixtures.directory("helper-open-plugins", discovery: ["crash_on_load"])
        let output = try DiscoveryFixtures.hudhost(["list", "--json"], path: plugins, cache: try FixturePlugins.makeScratchDirectory("helper-open-cache"),
                                                   extra: ["HUD_SANDBOX_HELPER": helper])
        #expect((try HudHost.json(output)["failures"]?.arrayValue ?? []).contains {
            $0["code"]?.stringValue == "scan-failed" && ($0["message"]?.stringValue ?? "").contains("writable by everyone")
        }, "\(output.stdout)")
        let doctor = try HudHost.run(["doctor"], environment: ["HUD_SANDBOX_HELPER": helper])
        #expect(doctor.stdout.contains("is refused") && doctor.stdout.contains("writable by everyone"), "\(doctor.transcript)")
    }
}
