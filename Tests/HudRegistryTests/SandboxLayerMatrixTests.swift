// SPDX-License-Identifier: MIT
import HudPluginBoundary
import Foundation
import Glibc
import Testing
@testable import HudRegistry
import HudTestSupport
@testable import HudSystem

/// Defense in depth, measured: a plugin whose init() reaches outside through
/// system call arguments (`breakout_attempts.c`) is scanned with every layer,
/// then with each layer left out in turn (`HUD_SANDBOX_SKIP`), and the test
/// asserts which attempts still fail to have any effect: the matrix
/// Docs/ISOLATION.md "Layer by layer" states. An effect is observed from
/// outside the sandbox: a file's mode, owner and times, a datagram received,
/// hudhost killed; for the attempts with no outside trace (another
/// process's CPU affinity, the parent-death signal) the plugin's own word,
/// which can only make the sandbox look weaker.
struct SandboxLayerMatrixTests {
    enum Attempt: String, CaseIterable, CustomTestStringConvertible {
        case attributes, datagram, signals, affinity, deathSignal
        var testDescription: String { rawValue }
    }

    /// The layers left out, one at a time ("" leaves none out).
    static let omitted = ["", "seccomp", "read-only-view", "landlock", "namespaces"]

    /// Whether the sandbox still stops `attempt` with `omitted` left out, on
    /// a kernel whose Landlock does (`signalScope`) or does not scope signals.
    static func holds(_ attempt: Attempt, without omitted: String, signalScope: Bool) -> Bool {
        switch (attempt, omitted) {
        // Mode, owner and times: seccomp denies the calls; the read-only
        // view refuses them on every mount. Landlock has no right for them.
        case (.attributes, _): true
        // Only seccomp: a pathname Unix socket needs no network, and no
        // Landlock right covers sending to one.
        case (.datagram, "seccomp"): false
        // Seccomp denies F_SETOWN, F_SETSIG and O_ASYNC; Landlock's signal
        // scope (ABI 6) stops the kernel's SIGIO on the child's behalf.
        case (.signals, "seccomp"): signalScope
        // Nothing but seccomp looks at these arguments.
        case (.affinity, "seccomp"), (.deathSignal, "seccomp"): false
        default: true
        }
    }

    static func landlockScopesSignals() throws -> Bool {
        let layers = try HudHost.json(try HudHost.run(["doctor", "--json"]))["isolation"]?["layers"]?.arrayValue ?? []
        let landlock = layers.first { $0["name"]?.stringValue == "landlock" }?["detail"]?.stringValue ?? ""
        return landlock.contains("no signal or abstract socket outside the sandbox")
    }

    /// A Unix datagram socket bound in a directory of the test's, non-blocking.
    final class DatagramListener {
        let fd: Int32
        let path: String

        init(in directory: String) throws {
            path = directory + "/listener.sock"
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                throw POSIXError(.EADDRINUSE)
            }
            chmod(path, 0o777)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }

        deinit { close(fd) }

        /// True when a datagram is waiting.
        var received: Bool {
            var byte: UInt8 = 0
            return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) >= 0
        }
    }

    /// What an outsider sees of a file: mode, owner and times.
    static func footprint(_ path: String) -> [Int] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        return [Int(info.st_mode), Int(info.st_uid), Int(info.st_gid), info.st_mtim.tv_sec, info.st_mtim.tv_nsec, info.st_atim.tv_sec]
    }

    @Test(arguments: Attempt.allCases, omitted)
    func eachAttemptIsStoppedByTheLayersISOLATIONNames(_ attempt: Attempt, _ omitted: String) throws {
        let label = "matrix-\(attempt.rawValue)-\(omitted.isEmpty ? "all" : omitted)"
        let directory = try DiscoveryFixtures.directory(label, discovery: ["breakout_attempts"])
        let outside = try FixturePlugins.makeScratchDirectory(label + "-outside")
        chmod(outside, 0o755)
        let target = outside + "/target"
        try "not the plugin's".write(toFile: target, atomically: false, encoding: .utf8)
        chmod(target, 0o644)
        let listener = try DatagramListener(in: outside)
        let before = [Self.footprint(target), Self.footprint(outside)]
        var environment = ["HUD_SANDBOX_SKIP": omitted]
        switch attempt {
        case .attributes: environment["HUD_BREAKOUT_TARGET"] = target
        case .datagram: environment["HUD_BREAKOUT_SOCKET"] = listener.path
        case .signals: environment["HUD_BREAKOUT_SIGNALS"] = "1"
        case .affinity: environment["HUD_BREAKOUT_AFFINITY"] = "1"
        case .deathSignal: environment["HUD_BREAKOUT_PDEATHSIG"] = "1"
        }
        let output = try DiscoveryFixtures.hudhost(["list", "--json"], path: directory,
                                                   cache: try FixturePlugins.makeScratchDirectory(label + "-cache"), extra: environment)
        let listed = output.status == 0 ? try HudHost.json(output)["renderers"]?.arrayValue ?? [] : []
        let refused = listed.contains { $0["id"]?.stringValue == "org.fixture.breakout-attempts" }
        let held = switch attempt {
        case .attributes: [Self.footprint(target), Self.footprint(outside)] == before
        case .datagram: !listener.received
        case .signals: output.status == 0  // hudhost was not killed
        case .affinity, .deathSignal: refused
        }
        let expected = Self.holds(attempt, without: omitted, signalScope: try Self.landlockScopesSignals())
        let situation = omitted.isEmpty ? "every layer" : omitted + " left out"
        let observed = held ? "stopped" : "got through", documented = expected ? "stopped" : "not stopped"
        #expect(held == expected, "\(attempt) with \(situation): \(observed); Docs/ISOLATION.md says \(documented)\n\(output.transcript)")
        // With every layer, each attempt is refused outright.
        if omitted.isEmpty { #expect(refused, "\(output.transcript)") }
    }
}

extension SandboxLayerMatrixTests {
    /// Nothing of the caller's reaches plugin code: not a variable outside
    /// the pass-through list (a token), not a descriptor (the caller's
    /// stderr, whose flags plugin code could change under the caller), in
    /// the scan's child or in the renderer host.
    @Test func nothingOfTheCallersReachesPluginCode() throws {
        let directory = try DiscoveryFixtures.directory("callers", discovery: ["breakout_attempts"])
        let stderrFile = try FixturePlugins.makeScratchDirectory("callers-stderr") + "/stderr"
        let output = try FixturePlugins.run([
            "env", "HUD_RENDERER_PATH=" + directory, "XDG_CACHE_HOME=" + (try FixturePlugins.makeScratchDirectory("callers-cache")),
            "AWS_SECRET_ACCESS_KEY=not-for-plugins", "HUD_BREAKOUT_SECRET=AWS_SECRET_ACCESS_KEY", "HUD_BREAKOUT_CALLER=" + stderrFile,
            "sh", "-c", "exec \"$0\" render --style org.fixture.breakout-attempts --format json 2>\"$1\"", HudHost.path, stderrFile,
        ])
        let stderr = (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? ""
        // init() fails (and the style is unknown) if either was reached.
        #expect(output.status == 0, "\(output.transcript)\n\(stderr)")
        #expect(try HudHost.json(output)["renderer"]?["id"]?.stringValue == "org.fixture.breakout-attempts")
    }
}

extension SandboxLayerMatrixTests {
    /// Every child dies with hudhost: a scan whose plugin sleeps in init()
    /// (announcing its pid on a FIFO, which needs Landlock left out) is
    /// gone once hudhost is killed, long before any deadline of its own.
    /// Waits on events only: the FIFO, then the child's pidfd.
    @Test func aSandboxedChildDiesWithHudhost() throws {
        let directory = try DiscoveryFixtures.directory("dies-with-host", discovery: ["hang_announced"])
        let fifo = try FixturePlugins.makeScratchDirectory("dies-with-host-fifo") + "/pid"
        try #require(mkfifo(fifo, 0o666) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: HudHost.path)
        process.arguments = ["list", "--json"]
        process.environment = ["HUD_RENDERER_PATH": directory, "XDG_CACHE_HOME": try FixturePlugins.makeScratchDirectory("dies-with-host-cache"),
                               "HUD_SCAN_TIMEOUT": "600", "HUD_SANDBOX_SKIP": "landlock", "HUD_HANG_FIFO": fifo]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var entry = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        try #require(poll(&entry, 1, 20_000) == 1, "the plugin never announced itself")
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = read(reader, &buffer, buffer.count)
        let child = try #require(Int32(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(child, SIGKILL) }  // only if the test fails
        let watch = try #require(SystemCalls.processDescriptor(child), "the child is already gone")
        defer { watch.close() }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        var exited = pollfd(fd: watch.rawValue, events: Int16(POLLIN), revents: 0)
        #expect(poll(&exited, 1, 10_000) == 1, "the sandboxed child \(child) outlived hudhost")
    }
}
