// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Testing
@testable import HudRegistry
import HudScenes
import HudTestSupport
@testable import HudSystem

/// Renderers in a sandboxed renderer host (`hudsandbox serve`), the
/// default isolation: what a Swift host gets from the registry API alone.
/// Real children, real shared memory, real crashes.
struct OutOfProcessTests {
    static let environments: [HudEnvironment] = [
        HudEnvironment(device: .iphone16Pro, navigationTitle: "Home"),
        HudEnvironment(device: .iphone16ProMax, orientation: .landscape, layoutDirection: .rightToLeft, colorScheme: .light,
                       textSize: .accessibility3, navigationTitle: String(repeating: "é", count: 300)),
        HudEnvironment(device: .iphoneSE, navigationTitle: nil, accessibility: [.reduceTransparency, .increaseContrast]),
    ]

    static let interactions: [HudInteraction] = [
        .idle, HudInteraction(pressed: .slot(.center)), HudInteraction(pressed: .mode(.center, index: 1), revealedPosition: .center),
    ]

    /// Registers `fixture` behind a renderer host (after its sandboxed scan).
    static func remoteRegistry(_ fixture: Fixture, settings: RendererHostSettings = RendererHostSettings()) throws -> RendererRegistry {
        let registry = RendererRegistry(isolation: .process)
        registry.hostSettings = settings
        try registry.load(checking: try FixturePlugins.path(of: fixture))
        return registry
    }

    static func snapshot() throws -> ComplicationsSnapshot {
        try ComplicationsSnapshot(DemoComplications.make(renderers: []) { _ in })
    }

    /// With the default reply spin and with none (every reply waited for
    /// in `poll`, the path a slow renderer's replies always take).
    @Test(arguments: [Fixture.goodSimple, .goodManyNodes, .titleLabel], [100.0, 0])
    func aRendererHostLaysOutExactlyWhatTheSameRendererDoesInProcess(_ fixture: Fixture, spinMicroseconds: Double) throws {
        let path = try FixturePlugins.path(of: fixture)
        let local = RendererRegistry(isolation: .inProcess)
        try local.load(path: path)
        var settings = RendererHostSettings()
        settings.replySpinMicroseconds = spinMicroseconds
        let remote = try Self.remoteRegistry(fixture, settings: settings)
        #expect(remote.renderers.map(\.id) == local.renderers.map(\.id))
        let snapshot = try Self.snapshot()
        for info in local.renderers {
            #expect(remote.isOutOfProcess(id: info.id) && !local.isOutOfProcess(id: info.id))
            #expect(remote.info(id: info.id) == local.info(id: info.id), "the served descriptor fills in the description")
            let style = HudPhoneComplicationsStyle(name: info.id)
            for environment in Self.environments {
                for interaction in Self.interactions {
                    let expected = try local.layout(style: style, snapshot: snapshot, environment: environment, interaction: interaction)
                    let served = try remote.layout(style: style, snapshot: snapshot, environment: environment, interaction: interaction)
                    #expect(served == expected, "\(info.id) \(environment.screenSize) \(interaction)")
                }
            }
        }
        // One child per file, however many calls and renderers.
        #expect(remote.allHosts.values.map(\.starts) == [1])
    }

    /// The renderer host's sandbox refuses to read a file this user can
    /// read (outside the system libraries, the plugin file and its `$ORIGIN` libraries); the
    /// same renderer in this process reads it.
    @Test func aRendererInItsHostCannotReadTheUsersFiles() throws {
        let secret = try FixturePlugins.makeScratchDirectory("host-secret") + "/secret"
        try "private".write(toFile: secret, atomically: false, encoding: .utf8)
        let snapshot = try ComplicationsSnapshot(HudPhoneComplications(center: .init(icon: "doc", label: secret) {}))
        let style = HudPhoneComplicationsStyle(name: "org.fixture.reads-file")
        // The plugin in a directory of its own.
        let plugin = try FixturePlugins.makeScratchDirectory("reads-plugin") + "/reads_file.so"
        try FileManager.default.copyItem(atPath: try FixturePlugins.path(of: .readsFile), toPath: plugin)
        let local = RendererRegistry(isolation: .inProcess)
        try local.load(path: plugin)
        let remote = RendererRegistry(isolation: .process)
        try remote.load(checking: plugin)
        let environment = HudEnvironment(device: .iphone16Pro)
        #expect(try local.layout(style: style, snapshot: snapshot, environment: environment).nodes.first?.label == "readable")
        #expect(try remote.layout(style: style, snapshot: snapshot, environment: environment).nodes.first?.label == "refused")
    }

    @Test func aRendererCallingAnActionInItsHostIsAViolationAndNoHostActionRuns() throws {
        let registry = try Self.remoteRegistry(.callsActionInLayout)
        var fired = 0
        let snapshot = try ComplicationsSnapshot(HudPhoneComplications(center: .init(icon: "star") { fired += 1 }))
        let style = HudPhoneComplicationsStyle(name: "org.fixture.calls-action")
        #expect {
            try registry.layout(style: style, snapshot: snapshot, environment: HudEnvironment(device: .iphone16Pro))
        } throws: { error in
            guard case .actionCalledDuringLayout(let id, _, let count)? = error as? RegistryError else { return false }
            return id == "org.fixture.calls-action" && count == 1
        }
        #expect(fired == 0)
        // The host's own thunk still works for its hit testing.
        #expect(snapshot.invoke(.slot(.center)) && fired == 1)
    }

    /// A crash mid-session: the shell draws the fallback style and keeps its
    /// stack, chosen style and revealed picker; after the crash the host is
    /// not restarted until the file changes; a fixed file brings it back.
    @Test func theShellFallsBackKeepsItsStateAndTheRendererComesBackWhenTheFileIsFixed() throws {
        let directory = try FixturePlugins.makeScratchDirectory("crash-mid-session")
        let path = directory + "/crash_on_title.so"
        try FileManager.default.copyItem(atPath: try FixturePlugins.path(of: .crashOnTitle), toPath: path)
        var settings = RendererHostSettings()
        settings.maxConsecutiveFailures = 1
        let registry = RendererRegistry.withBuiltins(isolation: .process)
        registry.hostSettings = settings
        try registry.load(checking: path)
        let style = HudPhoneComplicationsStyle(name: "org.fixture.crash-on-title")
        let shell = DemoComplications.makeShell(style: style, registry: registry, environment: HudEnvironment(device: .iphone16Pro))

        let first = try shell.layout()
        #expect(shell.rendererFailure == nil)
        #expect(first.nodes.first?.label == "Home")
        let host = try #require(registry.host(forPath: FixturePlugins.canonical(path)))
        let pid = try #require(host.childProcessID)

        shell.push(HudPage(title: "crash", complications: nil))
        try shell.reveal(.center)
        let fallback = try shell.layout()
        guard case .rendererHostFailed(let id, let failedPath, .crashed, let reason)? = shell.rendererFailure else {
            Issue.record("expected a crash, got \(String(describing: shell.rendererFailure))")
            return
        }
        #expect(id == "org.fixture.crash-on-title" && failedPath == FixturePlugins.canonical(path) && reason.contains("SIGABRT"))
        #expect(kill(pid, 0) != 0, "the crashed child is reaped")
        // Drawn by the tray, with the shell's state intact.
        let tray = try registry.layout(style: .tray, snapshot: try #require(shell.testingSnapshot), environment: shell.environment,
                                       interaction: shell.interaction)
        #expect(fallback == tray)
        #expect(shell.complicationsStyle == style)
        #expect(shell.stack.map(\.title) == ["Home", "crash"])
        #expect(shell.interaction.revealedPosition == .center)

        // Not restarted: it failed `maxConsecutiveFailures` times and the file is unchanged.
        shell.updateTop { $0.title = "fine" }
        _ = try shell.layout()
        guard case .rendererHostFailed(_, _, .rendererUnavailable, let why)? = shell.rendererFailure else {
            Issue.record("expected renderer-unavailable, got \(String(describing: shell.rendererFailure))")
            return
        }
        #expect(why.contains("until the file changes") && why.contains("SIGABRT"))
        #expect(!host.isRunning)

        // The fixed build replaces the file: the next frame is the renderer's again.
        let fixed = directory + "/fixed.so"
        try FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + ["-DFIXTURE_FIXED", "-I", FixturePlugins.headerDirectory,
                                           "-o", fixed, FixturePlugins.sourceDirectory + "/crash_on_title.c"])
        #expect(rename(fixed, path) == 0)
        shell.updateTop { $0.title = "crash" }
        let back = try shell.layout()
        #expect(shell.rendererFailure == nil)
        #expect(back.nodes.first?.label == "crash")
        #expect(host.starts == 2)
    }

    @Test func aHangingRendererMeetsItsDeadlineAndTheHostIsKilled() throws {
        var settings = RendererHostSettings()
        settings.layoutTimeoutSeconds = 0.3
        let directory = try DiscoveryFixtures.directory("hang-deadline")
        let hang = directory + "/layout_hang.so"
        try FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + ["-I", FixturePlugins.headerDirectory,
                                           "-I", FixturePlugins.sourceDirectory, "-o", hang,
                                           FixturePlugins.repositoryRoot + "/Tests/Fixtures/hostile/plugins/layout_hang.c"])
        let registry = RendererRegistry(isolation: .process)
        registry.hostSettings = settings
        try registry.load(checking: hang)
        let host = try #require(registry.host(forPath: FixturePlugins.canonical(hang)))
        try host.start()
        let pid = try #require(host.childProcessID)
        let started = SystemCalls.monotonicNanoseconds()
        #expect {
            try registry.layout(style: HudPhoneComplicationsStyle(name: "org.hostile.layout-hang"), snapshot: try Self.snapshot(),
                                environment: HudEnvironment(device: .iphone16Pro))
        } throws: { error in
            guard case .rendererHostFailed(_, _, .timedOut, let reason)? = error as? RegistryError else { return false }
            return reason.contains("0.3 s")
        }
        // Reported, not asserted as a speed: the deadline ends the call, the child is gone.
        #expect(SystemCalls.monotonicNanoseconds() - started >= 300_000_000)
        #expect(kill(pid, 0) != 0)
        #expect(!host.isRunning)
    }
}

extension OutOfProcessTests {
    /// A renderer host that stops reading its channel (or exits) between
    /// two calls: the next request meets a closed peer. That is a typed
    /// error naming the renderer, never a SIGPIPE that ends the host's
    /// process — this test process is the host here, so a regression ends
    /// the whole test run.
    @Test func aRendererHostGoneBetweenTwoCallsIsATypedErrorNotSIGPIPE() throws {
        let path = try DiscoveryFixtures.path("half_closed_channel")
        let registry = RendererRegistry(isolation: .process)
        try registry.load(checking: path)
        let style = HudPhoneComplicationsStyle(name: "org.fixture.half-closed")
        let environment = HudEnvironment(device: .iphone16Pro)
        _ = try registry.layout(style: style, snapshot: try Self.snapshot(), environment: environment)
        #expect {
            try registry.layout(style: style, snapshot: try Self.snapshot(), environment: environment, interaction: HudInteraction(pressed: .slot(.center)))
        } throws: { error in
            guard case .rendererHostFailed(let id, _, _, _)? = error as? RegistryError else { return false }
            return id == "org.fixture.half-closed"
        }
    }
}
