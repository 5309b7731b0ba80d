// SPDX-License-Identifier: MIT
import HudPluginBoundary
import Glibc
import HudRegistry
import HudScenes
import HudHarness
import HudSystem

/// The out-of-process renderer host, side by side with its floor:
///
/// - `isolation.pingpong`: a bare cross-process wake-up (a request-sized write on
///   a socketpair, the child `hudsandbox echo` writes it back, read), and
///   `isolation.layout.remote` (one steady-state layout through a renderer host:
///   inputs into shared memory, request, the child's call and export, reply,
///   copy-out and validation), measured in alternation; the ratio is the
///   budget (≤ 3×);
/// - `isolation.host.start`: starting a sandboxed renderer host (spawn, sandbox
///   layers, dlopen, init, first reply), 30 starts;
/// - `isolation.render.process` / `isolation.render.in-process`: `hudhost render --plugin FILE
///   --style ID --json` end to end, alternating, 15 runs each (12 with `--quick`).
enum IsolationBench {
    static func measure(registry: RendererRegistry, sampler: Sampler, options: Options, into report: inout Report) throws {
        let files = Set(registry.renderers.compactMap { info -> String? in
            if case .file(let path) = info.origin { path } else { nil }
        }).sorted()
        guard !files.isEmpty else {
            report.notes.append("isolation: no plugin renderer loaded; the renderer host scenarios did not run")
            return
        }
        let pingpong = try PingPong()
        defer { pingpong.stop() }
        var environment = HudEnvironment(device: .default)
        environment.navigationTitle = "Home"
        let snapshot = try ComplicationsSnapshot(DemoComplications.make(renderers: registry.renderers) { _ in })
        for path in files {
            let remote = RendererRegistry(isolation: .process)
            try remote.load(checking: path)
            for info in remote.renderers {
                let style = HudPhoneComplicationsStyle(name: info.id)
                _ = try remote.withLayout(style: style, snapshot: snapshot, environment: environment) { $0.count }
                let (ping, served) = sampler.measurePair(
                    { pingpong.roundTrip() },
                    { consume((try? remote.withLayout(style: style, snapshot: snapshot, environment: environment) { $0.count }) ?? -1) })
                report.timing("isolation.pingpong", info.id, ping, "socketpair write + read back by a hudsandbox echo child (33 bytes)")
                report.timing("isolation.layout.remote", info.id, served, "registry.withLayout through the renderer host (shared memory + socketpair)")
            }
            if options.selects("isolation.host.start"), let host = remote.allHosts.values.first {
                var starts: [Double] = []
                for _ in 0..<(options.quick ? 8 : 30) {
                    host.reset()
                    let begin = SystemCalls.monotonicNanoseconds()
                    try host.start()
                    starts.append(Double(SystemCalls.monotonicNanoseconds() - begin))
                }
                report.timing("isolation.host.start", host.renderers[0].id, TimingScenarios.stats(starts, batch: 1),
                              "spawn hudsandbox serve, sandbox layers, dlopen + init, first reply")
            }
        }
        guard options.selects("isolation.render"), let ring = files.first(where: { $0.hasSuffix("/libExampleRing.so") }) ?? files.first,
              let id = registry.renderers.first(where: { $0.origin == .file(ring) })?.id else { return }
        let hudhost = Files.executableDirectory + "/hudhost"
        guard Files.isExecutable(hudhost) else {
            report.notes.append("isolation.render: \(hudhost) not built; skipped")
            return
        }
        var times: [String: [Double]] = ["process": [], "in-process": []]
        // The budget is a ratio of two medians: with a few runs, one slow
        // start on a busy machine decides it.
        for _ in 0..<(options.quick ? 12 : 15) {
            for isolation in ["process", "in-process"] {
                guard let run = Subprocess.run([hudhost, "render", "--builtin-only", "--plugin", ring, "--style", id, "--json",
                                                "--isolation", isolation]), run.succeeded else {
                    throw HarnessError("hudhost render --isolation \(isolation) --plugin \(ring) failed")
                }
                times[isolation, default: []].append(Double(run.wallNanoseconds))
            }
        }
        for (isolation, values) in times {
            report.timing("isolation.render.\(isolation)", id, TimingScenarios.stats(values, batch: 1),
                          "hudhost render --builtin-only --plugin FILE --style ID --json --isolation \(isolation), whole process")
        }
    }

    /// A `hudsandbox echo` child on a socketpair.
    final class PingPong {
        private let pid: Int32
        private let socket: FileDescriptor
        private let message = [UInt8](repeating: 0x5A, count: 33)

        init() throws {
            guard case .success(let helper) = SandboxHelper.locate() else { throw HarnessError("hudsandbox not found next to hudbench") }
            guard case .success(let pair) = SystemCalls.socketPair() else { throw HarnessError("socketpair failed") }
            var request = SpawnRequest(executable: helper, arguments: SandboxRequest.echo.arguments)
            request.redirections = [.open(descriptor: 0, path: "/dev/null", mode: .read),
                                    .duplicate(from: pair.1.rawValue, to: SandboxChannel.resultDescriptor)]
            let spawned = SystemCalls.spawn(request)
            pair.1.close()
            guard case .success(let child) = spawned else { throw HarnessError("cannot start \(helper) echo") }
            pid = child
            socket = pair.0
        }

        func roundTrip() {
            _ = SystemCalls.writeAll(socket.rawValue, message)
            var received = 0
            while received < message.count, case .bytes(let chunk) = SystemCalls.read(socket.rawValue, maximum: 64) { received += chunk.count }
        }

        func stop() {
            socket.close()
            _ = SystemCalls.wait(pid)
        }
    }
}
