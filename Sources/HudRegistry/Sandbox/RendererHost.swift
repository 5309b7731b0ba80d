// SPDX-License-Identifier: MIT
import Glibc
package import HudPluginBoundary
import Synchronization
import HudSystem

/// Where a plugin's renderers run (Docs/ISOLATION.md).
public enum RendererIsolation: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// In a sandboxed renderer host child (`hudsandbox serve`), one per
    /// plugin file: a crash, hang or exit there is a typed error, never the
    /// host's. The default.
    case process
    /// In this process, after a sandboxed trial load: for trusted plugins
    /// (benchmarks, debugging). Built-ins always run in-process.
    case inProcess = "in-process"

    public var description: String { rawValue }

    /// `HUD_ISOLATION` (`process` or `in-process`), else `.process`. An
    /// unknown value is returned as the error's text.
    public static func fromEnvironment() -> Result<RendererIsolation, RendererIsolationError> {
        guard let value = SearchPaths.secureEnvironment("HUD_ISOLATION"), !value.isEmpty else { return .success(.process) }
        guard let isolation = RendererIsolation(rawValue: value) else {
            return .failure(RendererIsolationError(description: "HUD_ISOLATION is '\(value)'; use process or in-process"))
        }
        return .success(isolation)
    }
}

public struct RendererIsolationError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// How renderer hosts are run.
public struct RendererHostSettings: Sendable, Hashable {
    /// The deadline of one layout call, from the request to the reply.
    public var layoutTimeoutSeconds: Double = 2
    /// The deadline for starting a host: spawn, sandbox, load, first reply.
    public var startTimeoutSeconds: Double = 10
    /// CPU seconds a host may use in all (RLIMIT_CPU); a host over it is
    /// killed by the kernel and restarted on next use.
    public var cpuSeconds = 3600
    /// Consecutive failures after which a renderer is not restarted again
    /// (and, with a cache, skipped until its file changes).
    public var maxConsecutiveFailures = 3
    /// The first restart delay; it doubles with each further failure.
    public var backoffSeconds: Double = 0.25
    /// Let the child load a file from a path others can write (development).
    public var allowInsecurePath = false
    /// How long a caller waiting for a layout's reply keeps checking the
    /// channel (yielding the processor between checks) before it blocks in
    /// `poll`: a reply that comes within it costs no wake-up of the caller.
    /// 0 always blocks at once (no CPU spent waiting).
    public var replySpinMicroseconds: Double = 100
    /// The child looks at the plugin's entry before its load initializes
    /// it and keeps what it saw for `validate`'s questions (never a host's).
    package var observeLoading = false

    /// The address space a renderer host may hold (RLIMIT_AS, 2 GiB; not
    /// applied in sanitizer builds): over it, allocations fail in the
    /// child, never in the host.
    public static let addressSpaceBytes: UInt64 = 2 << 30

    public init() {}
}

/// One plugin file served by one sandboxed child process: started on the
/// first layout call, restarted with backoff after it fails, stopped when
/// this object goes away (or when the host process exits: the child then
/// sees its channel close and has asked for SIGKILL on its parent's death).
///
/// The parent's side of the renderer host protocol (`RendererHostProtocol.swift`):
/// inputs are written into the shared region, one request frame wakes the
/// child, one reply frame comes back before the call's deadline, and the
/// nodes are copied out of the shared region and validated here.
///
/// Not thread-safe: one thread drives it (the registry's).
package final class RendererHost {
    package let path: String
    /// The renderers the child is asked to serve, in index order: what the
    /// catalog listed. The child's descriptors must match them.
    package private(set) var renderers: [RendererInfo]
    package let settings: RendererHostSettings
    /// Called once per failure (the registry records it in the cache).
    package var onFailure: ((RegistryError, _ consecutive: Int) -> Void)?
    /// Called after the first successful call, and after the first one
    /// that follows failures (the cache clears a count kept across runs).
    package var onRecovery: (() -> Void)?
    private var recoveryReported = false

    private var child: Child?
    private var consecutiveFailures = 0
    private var retryAt: UInt64 = 0
    private var lastFailure: RegistryError?
    /// The file as it was when it last failed: a changed file (rebuilt,
    /// replaced) starts afresh, without backoff.
    private var failedStamp: FileStamp?
    private var callWriter = WireWriter()
    private let imports = RemoteLayoutImport()
    private var importInUse = false
    /// True during a prepared call: an exit with
    /// `RendererHostFrame.actionTrapExitStatus` is the action trap's.
    package var trapArmed = false
    /// Processes started so far (tests, `hudbench`).
    package private(set) var starts = 0
    /// How long the last start took as this process saw it: from before
    /// the spawn to the `ready` frame (spawn, sandbox, load, init).
    package private(set) var lastStartNanoseconds: UInt64?

    private struct Child {
        let pid: Int32
        let socket: FileDescriptor
        let exitWatch: FileDescriptor?
        let region: SharedRegion
        /// Its task limit when this process is root; removed once it is reaped.
        let tasks: TaskGroup?
        /// The plugin's stdout and stderr, one pipe (never the caller's):
        /// its read end, and what was drained from it.
        let outputPipe: FileDescriptor
        var output: OutputCapture
        var reader = FrameReader()
        var sequence: UInt32 = 0
        var generation: UInt64?
    }

    package init(path: String, renderers: [RendererInfo], settings: RendererHostSettings) {
        self.path = path
        self.renderers = renderers
        self.settings = settings
    }

    deinit { stop() }

    /// True while a child is running.
    package var isRunning: Bool { child != nil }

    /// The pid of the running child (tests).
    package var childProcessID: Int32? { child?.pid }

    /// The running child's shared region (for `nextRequest`'s callers).
    package var sharedRegion: SharedRegion? { child?.region }

    /// Stops the child: closes its channel, so a healthy child flushes what
    /// the plugin printed and exits; after `graceMilliseconds` (or at once
    /// with 0) SIGKILL to its whole group.
    package func stop(graceMilliseconds: Int32 = 100) {
        stop(graceMilliseconds: graceMilliseconds, failed: false)
    }

    private func stop(graceMilliseconds: Int32, failed: Bool) {
        guard let running = child else { return }
        child = nil
        running.socket.close()
        if graceMilliseconds > 0, let watch = running.exitWatch {
            _ = SystemCalls.pollReadable([watch.rawValue], timeoutMilliseconds: graceMilliseconds)
        }
        SystemCalls.signal(-running.pid, SIGKILL)
        SystemCalls.signal(running.pid, SIGKILL)
        _ = SystemCalls.wait(running.pid)
        running.tasks?.remove()
        running.exitWatch?.close()
        deliverOutput(of: running, failed: failed)
    }

    /// Takes what is left in a child's output pipe (it is gone: the pipe
    /// ends unless a descendant holds it, which the group kill prevents),
    /// hands the whole to `PluginOutputLog` and closes the pipe.
    private func deliverOutput(of running: Child, failed: Bool) {
        var output = running.output
        while output.drain() {
            guard !SystemCalls.pollReadable([output.descriptor], timeoutMilliseconds: 100).isEmpty else { break }
        }
        running.outputPipe.close()
        PluginOutputLog.deliver(output.output(source: renderers.map(\.id).joined(separator: ", "), childFailed: failed))
    }

    /// Forgets past failures (the file was replaced): the next call starts a child at once.
    package func reset() {
        stop()
        consecutiveFailures = 0
        retryAt = 0
        lastFailure = nil
    }

    /// Starts the child now if it is not running (a call does this itself).
    package func start() throws(RegistryError) {
        guard child == nil else { return }
        try startChild(for: renderers.first?.id ?? "?")
    }

    /// One layout call with renderer `index`; `body` sees the validated frame.
    package func withFrame<R>(renderer index: Int, _ snapshot: ComplicationsSnapshot, environment: HudEnvironment,
                             interaction: HudInteraction, _ body: (LayoutFrame) -> R) throws(RegistryError) -> R {
        let info = renderers[index]
        let request = try prepareCall(renderer: index, snapshot, environment: environment, interaction: interaction)
        guard let running = child else { throw hostFailure(info.id, .crashed, "did not start") }

        let reply = try exchange(.layout(request), id: info.id, timeout: settings.layoutTimeoutSeconds, what: "layout deadline")
        guard case .layoutDone(let done) = reply, done.sequence == request.sequence else {
            if case .callFailed(_, let reason) = reply {
                throw fail(info.id, .protocolError, "could not rebuild the call's inputs (\(TextChecks.fromChild(reason))), stopped")
            }
            throw fail(info.id, .protocolError, "answered a layout request with an unexpected frame, killed")
        }
        if consecutiveFailures > 0 || !recoveryReported {
            consecutiveFailures = 0
            lastFailure = nil
            recoveryReported = true
            onRecovery?()
        }
        let raw = RawLayoutResult(status: done.status, count: done.count, capacity: min(done.capacity, UInt32(ABILimits.maxNodes)),
                                  violations: Int(done.violations))
        // A layout requested from inside `body` gets its own copy.
        let target = importInUse ? RemoteLayoutImport() : imports
        importInUse = true
        defer { if target === imports { importInUse = false } }
        return try target.withFrame(raw, insets: done.insets, hiddenPositions: done.hiddenPositions, stringBytes: Int(done.stringBytes),
                                    from: running.region, info: info, modes: snapshot.storage.modeCounts, body)
    }

    /// Starts the child if needed, writes the call's inputs into the shared
    /// region and returns the request that names them.
    package func prepareCall(renderer index: Int, _ snapshot: ComplicationsSnapshot, environment: HudEnvironment,
                             interaction: HudInteraction) throws(RegistryError) -> RendererHostFrame.LayoutRequest {
        let info = renderers[index]
        if child == nil { try startChild(for: info.id) }
        guard var running = child else { throw hostFailure(info.id, .crashed, "did not start") }
        if running.generation != snapshot.generation {
            let bytes = snapshot.wire
            guard running.region.write(bytes, at: SharedLayoutArea.complicationsOffset, capacity: SharedLayoutArea.complicationsCapacity) else {
                throw .invalidComplications(field: "complications", reason: "are \(bytes.count) bytes encoded; a renderer host takes at most \(SharedLayoutArea.complicationsCapacity)")
            }
        }
        callWriter.reset()
        environment.wireEncode(into: &callWriter)
        interaction.wireEncode(into: &callWriter)
        guard running.region.write(callWriter.bytes, at: SharedLayoutArea.callOffset, capacity: SharedLayoutArea.callCapacity) else {
            throw .invalidComplications(field: "environment", reason: "is \(callWriter.bytes.count) bytes encoded; a renderer host takes at most \(SharedLayoutArea.callCapacity)")
        }
        running.sequence &+= 1
        let request = RendererHostFrame.LayoutRequest(
            sequence: running.sequence, renderer: UInt32(index), generation: snapshot.generation,
            complicationsBytes: running.generation == snapshot.generation ? 0 : UInt32(snapshot.wire.count),
            callBytes: UInt32(callWriter.bytes.count))
        running.generation = snapshot.generation
        child = running
        return request
    }

    /// For calls made by other modules (`validate`'s raw, prepared and
    /// concurrent calls and ABI facts, HudConformance): the shared region
    /// of the running child, started if needed, and the sequence number of
    /// the next request. `inputsOverwritten`: the caller writes the
    /// complications area itself, so the next layout call writes the
    /// published complications again.
    package func nextRequest(for id: String, inputsOverwritten: Bool = false) throws(RegistryError) -> (region: SharedRegion, sequence: UInt32) {
        if child == nil { try startChild(for: id) }
        guard var running = child else { throw hostFailure(id, .crashed, "did not start") }
        if inputsOverwritten { running.generation = nil }
        running.sequence &+= 1
        child = running
        return (running.region, running.sequence)
    }

    /// The index of renderer `id` among those this host serves.
    package func index(of id: String) -> Int? { renderers.firstIndex { $0.id == id } }

    // MARK: - Starting

    private func startChild(for id: String) throws(RegistryError) {
        if lastFailure != nil, currentStamp() != failedStamp {
            consecutiveFailures = 0
            lastFailure = nil
            failedStamp = nil
        }
        if let lastFailure, consecutiveFailures >= settings.maxConsecutiveFailures {
            throw hostFailure(id, .rendererUnavailable, "failed \(consecutiveFailures) times in a row and is not restarted until the file changes; last: \(lastFailure)")
        }
        let now = SystemCalls.monotonicNanoseconds()
        if let lastFailure, now < retryAt {
            let wait = Double(retryAt - now) / 1e9
            throw hostFailure(id, .rendererUnavailable, "is restarted in \(JSONValue.format((wait * 1000).rounded() / 1000)) s; last failure: \(lastFailure)")
        }
        let helper: String
        switch SandboxHelper.locate() {
        case .success(let found): helper = found
        case .failure(let notFound): throw fail(id, .scanFailed, "could not start: \(notFound)")
        }
        // What is made here is closed again when anything fails, by dropping it.
        let shared: (region: SharedRegion, descriptor: FileDescriptor)
        switch SharedRegion.create() {
        case .success(let made): shared = made
        case .failure(let error): throw fail(id, .scanFailed, "could not start: memfd/mmap failed: \(error)")
        }
        let sockets: (FileDescriptor, FileDescriptor)
        switch SystemCalls.socketPair() {
        case .success(let pair): sockets = pair
        case .failure(let error): throw fail(id, .scanFailed, "could not start: socketpair failed: \(error)")
        }
        var pipes: [(read: FileDescriptor, write: FileDescriptor)] = []  // the seccomp filter's, then the plugin's output
        for _ in 0..<2 {
            switch SystemCalls.makePipe() {
            case .success(let pipe): pipes.append(pipe)
            case .failure(let error): throw fail(id, .scanFailed, "could not start: pipe() failed: \(error)")
            }
        }
        let (filter, output) = (pipes[0], pipes[1])
        let arguments = SandboxRequest.serve(SandboxServe(path: path, renderers: renderers.map(\.id), cpuSeconds: settings.cpuSeconds,
                                                          allowInsecurePath: settings.allowInsecurePath,
                                                          parent: SystemCalls.processID, observeLoading: settings.observeLoading)).arguments
        let tasks = TaskGroup.make(limit: SandboxLayers.taskLimit)
        var request = SpawnRequest(executable: helper, arguments: arguments,
                                   environment: ChildEnvironment.make(extra: [TaskGroup.environmentName: tasks?.path ?? ""]))
        request.redirections = [
            .open(descriptor: 0, path: "/dev/null", mode: .read),
            // Plugin output goes to a pipe this host drains, never to a
            // descriptor of the caller's (a terminal's flags, its owner).
            .duplicate(from: output.write.rawValue, to: 1),
            .duplicate(from: output.write.rawValue, to: 2),
            .duplicate(from: sockets.1.rawValue, to: SandboxChannel.resultDescriptor),
            .duplicate(from: shared.descriptor.rawValue, to: SandboxChannel.sharedRegionDescriptor),
            .duplicate(from: filter.read.rawValue, to: SandboxChannel.filterDescriptor),
        ]
        request.newProcessGroup = true
        request.defaultSignals = true
        let spawned = SystemCalls.spawn(request)
        // The child's ends, now (the parent must not hold what the child reads to its end).
        for fd in [sockets.1, shared.descriptor, filter.read, output.write] { fd.close() }
        let pid: Int32
        switch spawned {
        case .success(let started):
            pid = started
            SandboxFilter.send(toChild: pid, through: filter.write)
        case .failure(let error):
            tasks?.remove()
            throw fail(id, .scanFailed, "could not start: posix_spawn(\(helper)) failed: \(error)")
        }
        SystemCalls.setNonBlocking(sockets.0.rawValue)
        SystemCalls.setNonBlocking(output.read.rawValue)
        starts += 1
        lastStartNanoseconds = nil
        child = Child(pid: pid, socket: sockets.0, exitWatch: SystemCalls.processDescriptor(pid), region: shared.region, tasks: tasks,
                      outputPipe: output.read, output: OutputCapture(descriptor: output.read.rawValue))

        let hello = try receive(id: id, timeout: settings.startTimeoutSeconds, what: "start-up deadline")
        switch hello {
        case .ready(let records):
            lastStartNanoseconds = SystemCalls.monotonicNanoseconds() - now
            if let problem = mismatch(records) { throw fail(id, .metadataMismatch, problem, stopWith: .metadataMismatch) }
        case .loadFailed(let code, let reason):
            let failure = FailureCode(rawValue: code) ?? .failed
            throw fail(id, failure, "could not load the plugin: \(TextChecks.fromChild(reason))", stopWith: failure)
        default:
            throw fail(id, .protocolError, "sent an unexpected first frame, killed")
        }
    }

    /// What differs between the child's descriptors and the renderers the
    /// catalog listed, or nil.
    private func mismatch(_ records: [String]) -> String? {
        guard records.count == renderers.count else {
            return "the child serves \(records.count) of the \(renderers.count) renderers listed for the file"
        }
        for (index, (text, expected)) in zip(records, renderers).enumerated() {
            guard let json = try? JSONParser.parse(text) else { return "a malformed descriptor record for '\(expected.id)'" }
            switch RendererInfo.decodeRecord(json, path: path) {
            case .failure(let error): return "renderer '\(expected.id)': \(error)"
            case .success(let served):
                if served.id != expected.id { return "renderer '\(expected.id)' is served as '\(served.id)'" }
                let differences = served.differences(fromRecord: expected)
                if !differences.isEmpty { return "renderer '\(expected.id)' differs from what was listed: " + differences.joined(separator: "; ") }
                // Metadata sections carry no description; the descriptor's, checked like every record text, fills it in.
                renderers[index].summary = served.summary
                renderers[index].pickerIcon = served.pickerIcon
                // The entry's ABI version is the one the renderer is held
                // to (its record may name an older minor).
                renderers[index].abiVersion = served.abiVersion
            }
        }
        return nil
    }

    // MARK: - The channel

    /// Sends `frame` and returns the child's answer, within `timeout`; a
    /// broken rule, a missed deadline or a closed channel ends the child
    /// with a typed error.
    package func exchange(_ frame: RendererHostFrame, id: String, timeout: Double, what: String) throws(RegistryError) -> RendererHostFrame {
        guard let running = child else { throw hostFailure(id, .crashed, "is not running") }
        if case .failure(let error) = SystemCalls.sendAll(running.socket.rawValue, frame.encoded) {
            throw failFromExit(id, fallback: "stopped reading its channel (\(error))")
        }
        return try receive(id: id, timeout: timeout, what: what, spinNanoseconds: UInt64(max(0, settings.replySpinMicroseconds) * 1000))
    }

    /// The next frame from the child, before `timeout` seconds pass (no
    /// traffic extends it). Anything else ends the child with a typed error.
    /// For the first `spinNanoseconds` it reads without blocking, yielding
    /// the processor between reads (to the child, when both share it).
    private func receive(id: String, timeout: Double, what: String, spinNanoseconds: UInt64 = 0) throws(RegistryError) -> RendererHostFrame {
        let start = SystemCalls.monotonicNanoseconds()
        let deadline = start + UInt64(timeout * 1e9), spinUntil = start + spinNanoseconds
        while var running = child {
            switch running.reader.next() {
            case .frame(let payload):
                child = running
                do {
                    return try RendererHostFrame(payload: payload)
                } catch {
                    throw fail(id, .protocolError, "broke the channel's rules (\(error)), killed")
                }
            case .tooLarge(let length):
                throw fail(id, .protocolError, "broke the channel's rules (a \(length)-byte frame; at most \(RendererHostFrame.maxPayload)), killed")
            case .incomplete:
                break
            }
            let now = SystemCalls.monotonicNanoseconds()
            guard now < deadline else {
                throw fail(id, .timedOut, "did not answer within \(JSONValue.format(timeout)) s (\(what)), killed")
            }
            let spinning = now < spinUntil
            if !spinning {
                let wait = Int32(min(1000, max(1, (deadline - now + 999_999) / 1_000_000)))
                let socket = running.socket.rawValue
                let ready = SystemCalls.pollReadable(running.output.isOpen ? [socket, running.output.descriptor] : [socket],
                                                     timeoutMilliseconds: wait)
                if ready.contains(running.output.descriptor) {
                    // What the plugin prints is drained while it is waited for:
                    // a full pipe would stop it mid-call.
                    running.output.drain()
                    child = running
                }
                guard ready.contains(socket) else { continue }
            }
            switch SystemCalls.read(running.socket.rawValue, maximum: 4096) {  // a reply is ~80 bytes; larger frames take more reads
            case .bytes(let chunk):
                running.reader.append(chunk)
                child = running
            case .wouldBlock:
                if spinning { SystemCalls.yieldProcessor() }
                continue
            case .endOfFile, .failed:
                throw failFromExit(id, fallback: "closed its channel")
            }
        }
        throw hostFailure(id, .crashed, "is not running")
    }

    /// The channel closed: the child ended (or is ending). Reports how,
    /// waiting briefly on its pidfd for a crash to be reaped.
    private func failFromExit(_ id: String, fallback: String) -> RegistryError {
        guard let running = child else { return hostFailure(id, .crashed, fallback) }
        if let watch = running.exitWatch { _ = SystemCalls.pollReadable([watch.rawValue], timeoutMilliseconds: 1000) }
        if let reaped = SystemCalls.wait(running.pid, blocking: false) {
            child = nil
            running.socket.close()
            SystemCalls.signal(-running.pid, SIGKILL)
            running.tasks?.remove()
            running.exitWatch?.close()
            deliverOutput(of: running, failed: true)
            return recordFailure(id, termination: reaped.status)
        }
        return fail(id, .protocolError, "\(fallback) but did not exit, killed")
    }

    private func recordFailure(_ id: String, termination: ExitStatus) -> RegistryError {
        let error: RegistryError = switch termination {
        case .signaled(let signal): hostFailure(id, .crashed, "crashed (killed by \(SignalName.of(signal)))")
        case .exited(let status) where trapArmed && status == RendererHostFrame.actionTrapExitStatus:
            hostFailure(id, .actionCalledDuringLayout, "called an action from inside layout(); the trap ended the renderer host at once (exit status \(status), observed by the host)")
        case .exited(let status): hostFailure(id, .exited, "exited with status \(status); renderers must never call exit()")
        }
        noteFailure(error)
        return error
    }

    /// Kills the child and records `reason` as a failure of the host.
    package func fail(_ id: String, _ code: FailureCode, _ reason: String, stopWith permanent: FailureCode? = nil) -> RegistryError {
        stop(graceMilliseconds: 0, failed: true)
        let error = hostFailure(id, code, reason)
        noteFailure(error, permanent: permanent != nil)
        return error
    }

    private func noteFailure(_ error: RegistryError, permanent: Bool = false) {
        consecutiveFailures = permanent ? max(settings.maxConsecutiveFailures, consecutiveFailures + 1) : consecutiveFailures + 1
        lastFailure = error
        failedStamp = currentStamp()
        let delay = settings.backoffSeconds * Double(1 << min(consecutiveFailures - 1, 6))
        retryAt = SystemCalls.monotonicNanoseconds() + UInt64(delay * 1e9)
        onFailure?(error, consecutiveFailures)
    }

    private func currentStamp() -> FileStamp? { FileStamp.of(path) }

    package func hostFailure(_ id: String, _ code: FailureCode, _ reason: String) -> RegistryError {
        .rendererHostFailed(id: id, path: path, code: code, reason: reason)
    }
}
