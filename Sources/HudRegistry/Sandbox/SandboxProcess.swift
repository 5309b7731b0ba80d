// SPDX-License-Identifier: MIT
import HudPluginBoundary
import Glibc
import HudSystem

/// The one spawner of sandboxed children (`hudsandbox <request>`): stdin from /dev/null, the child's
/// stdout captured (plugin code must not print; it can never reach the
/// parent's stdout), stderr a pipe drained like it (`OutputCapture`: no
/// descriptor of the caller's is shared, and what plugin code wrote reaches
/// the host application only as data, `PluginOutputLog`), and results streamed as one JSON
/// object per length-prefixed frame on a dedicated pipe (fd 3 in the child). A wall-clock
/// timeout, reset only by progress, is enforced here: on expiry the child's
/// whole process group gets SIGKILL. CPU and address-space limits are set
/// by the child itself (`SandboxLimits.apply`) before it loads anything.
///
/// Scanning (`SandboxScanner`) and validation use it; what
/// the child is asked and answers is `SandboxProtocol.swift`.
package enum SandboxProcess {
    package enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)
        /// Killed by us after `seconds` without progress (or in a call
        /// announced to end within `seconds`).
        case timedOut(seconds: Double)
        /// The child could not be started.
        case spawnFailed(String)
        /// The child broke the channel's rules (a frame over the size cap,
        /// too many frames) and was killed.
        case protocolError(String)

        package var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signaled(let signal): "killed by \(SignalName.of(signal))"
            case .timedOut(let seconds): "no progress for \(JSONValue.format(seconds)) s, killed"
            case .spawnFailed(let reason): "could not start: \(reason)"
            case .protocolError(let reason): "broke the result channel's rules (\(reason)), killed"
            }
        }
    }

    package struct Outcome {
        package var termination: Termination
        /// What the child wrote to stdout, and to stderr.
        package var stdout: OutputCapture
        package var errors: OutputCapture

        /// Hands what the child wrote on stderr, then on stdout, to
        /// `PluginOutputLog` as `source`'s (the plugin file or files it
        /// loaded); `failed` also when the child itself did not end with
        /// status 0.
        package func deliverOutput(source: String, failed: Bool) {
            let failed = failed || termination != .exited(0)
            PluginOutputLog.deliver(errors.output(source: source, childFailed: failed))
            PluginOutputLog.deliver(stdout.output(source: source + " (stdout)", childFailed: failed))
        }
    }

    /// The file descriptor results arrive on, in the child.
    package static let resultDescriptor: Int32 = 3

    /// The largest result frame accepted, in bytes (the largest real one, a
    /// validate result with its details, is a few KiB).
    package static let maxFrameBytes = 1 << 20
    /// The most result frames one child may send.
    package static let maxFrames = 100_000

    /// What a result does to the child's deadline (`run`'s `onLine`).
    package enum LineEffect: Equatable {
        /// Nothing: the deadline stands.
        case none
        /// Progress: the deadline is `timeoutSeconds` from now.
        case progress
        /// The child begins a call that must end within `seconds`: the
        /// deadline is that, or the progress deadline if sooner.
        case call(seconds: Double)
        /// The call ended: the progress deadline again (not extended).
        case returned
    }

    /// Spawns and supervises one child; `onLine` gets each result (one
    /// length-prefixed frame, `FrameReader`) and says what it does to the
    /// deadline (`LineEffect`). The deadline is `timeoutSeconds` from the
    /// start or from the last result `onLine` called progress: traffic
    /// alone never extends it; a call the child announces may shorten it
    /// until the call returns. With `resetOnLine` false (scans) nothing
    /// extends it. Frames are read in
    /// linear time; a frame over `maxFrameBytes` or more than `maxFrames`
    /// frames end the child as a protocol error.
    /// With `input`, the child's stdin is a pipe the caller writes to
    /// (`SandboxInput.send`, from `onLine`) instead of /dev/null, and the
    /// caller can end the child (`SandboxInput.stopReason`).
    /// What the child wrote on stderr is in the outcome; the caller hands
    /// it to `PluginOutputLog` (`Outcome.deliverOutput`), knowing whether
    /// the plugin failed.
    package static func run(executable: String, arguments: [String], timeoutSeconds: Double,
                           environment extra: [String: String] = [:], resetOnLine: Bool = true,
                           input: SandboxInput? = nil, onLine: (String) -> LineEffect) -> Outcome {
        // The numbers the loop below polls and reads; `owned` holds (and the
        // defer closes) the descriptors behind them.
        let child: (pid: Int32, results: Int32, stdout: Int32, input: Int32, errors: Int32)
        let owned: [FileDescriptor]
        // A root child's task limit (`TaskGroup`), removed once it is reaped.
        let tasks = TaskGroup.make(limit: SandboxLayers.taskLimit)
        defer { tasks?.remove() }
        switch spawn(executable: executable, arguments: arguments, extra: extra.merging([TaskGroup.environmentName: tasks?.path ?? ""]) { $1 },
                     input: input != nil) {
        case .success(let started):
            child = (started.pid, started.results.rawValue, started.stdout.rawValue, started.input?.rawValue ?? -1, started.errors.rawValue)
            owned = [started.results, started.stdout, started.errors] + (started.input.map { [$0] } ?? [])
        case .failure(let failure):
            return Outcome(termination: .spawnFailed(failure.message), stdout: OutputCapture(descriptor: -1), errors: OutputCapture(descriptor: -1))
        }
        if let input {
            input.descriptor = child.input
            input.send(input.first)
        }
        // Readable once the child has exited: waiting on it, not sleeping,
        // once both pipes are closed.
        let exitWatch = SystemCalls.processDescriptor(child.pid)
        defer {
            input?.descriptor = -1
            for fd in owned { fd.close() }
            exitWatch?.close()
        }
        var frames = FrameReader(maxPayload: maxFrameBytes)
        var count = 0
        var violation: String?
        var stdout = OutputCapture(descriptor: child.stdout)
        var errors = OutputCapture(descriptor: child.errors)
        var resultsOpen = true
        let timeout = UInt64(timeoutSeconds * 1e9)
        // `deadline` is `progressDeadline`, or sooner during an announced
        // call (`callSeconds` set).
        var progressDeadline = SystemCalls.monotonicNanoseconds() + timeout
        var deadline = progressDeadline
        var callSeconds: Double?
        var exitStatus: ExitStatus?
        var reapBackoff: Int32 = 1

        /// Reads the results that are there; false once the pipe is closed.
        func drainResults() -> Bool {
            // A child that writes without pause must not keep us here past
            // the deadline: at most 16 chunks per call, then check time.
            for _ in 0..<16 {
                switch SystemCalls.read(child.results, maximum: 65536) {
                case .bytes(let chunk):
                    frames.append(chunk)
                    while true {
                        switch frames.next() {
                        case .incomplete:
                            break
                        case .tooLarge(let length):
                            violation = "a \(length)-byte result frame; at most \(maxFrameBytes)"
                            return false
                        case .frame(let payload):
                            // The caller asked to end the child: no more results.
                            guard input?.stopReason == nil else { return false }
                            count += 1
                            guard count <= maxFrames else {
                                violation = "more than \(maxFrames) result frames"
                                return false
                            }
                            switch onLine(String(decoding: payload, as: UTF8.self)) {
                            case .none:
                                break
                            case .progress:
                                if resetOnLine { progressDeadline = SystemCalls.monotonicNanoseconds() + timeout }
                                deadline = progressDeadline
                                callSeconds = nil
                            case .call(let seconds):
                                deadline = min(progressDeadline, SystemCalls.monotonicNanoseconds() + UInt64(max(0, seconds) * 1e9))
                                callSeconds = deadline < progressDeadline ? seconds : nil
                            case .returned:
                                deadline = progressDeadline
                                callSeconds = nil
                            }
                            continue
                        }
                        break
                    }
                case .endOfFile, .failed:
                    return false
                case .wouldBlock:
                    return true
                }
            }
            return true
        }

        while true {
            if violation == nil, let reason = input?.stopReason { violation = reason }
            if let violation {
                SystemCalls.signal(-child.pid, SIGKILL)
                SystemCalls.signal(child.pid, SIGKILL)
                _ = SystemCalls.wait(child.pid)
                return Outcome(termination: .protocolError(violation), stdout: stdout, errors: errors)
            }
            if exitStatus == nil, let reaped = SystemCalls.wait(child.pid, blocking: false) { exitStatus = reaped.status }
            if let status = exitStatus {
                // The child is gone: take what is left and stop (a grandchild
                // holding the pipes open must not keep us waiting).
                if resultsOpen { _ = drainResults() }
                stdout.drain()
                errors.drain()
                SystemCalls.signal(-child.pid, SIGKILL)
                if let violation {
                    return Outcome(termination: .protocolError(violation), stdout: stdout, errors: errors)
                }
                let termination: Termination = switch status {
                case .exited(let code): .exited(code)
                case .signaled(let signal): .signaled(signal)
                }
                return Outcome(termination: termination, stdout: stdout, errors: errors)
            }
            let now = SystemCalls.monotonicNanoseconds()
            if now >= deadline {
                SystemCalls.signal(-child.pid, SIGKILL)
                SystemCalls.signal(child.pid, SIGKILL)
                _ = SystemCalls.wait(child.pid)
                stdout.drain()
                errors.drain()
                return Outcome(termination: .timedOut(seconds: callSeconds ?? timeoutSeconds), stdout: stdout, errors: errors)
            }
            var open: [Int32] = []
            if resultsOpen { open.append(child.results) }
            if stdout.isOpen { open.append(child.stdout) }
            if errors.isOpen { open.append(child.errors) }
            // The poll timeout only bounds how late the deadline is noticed:
            // the child's exit (its pidfd) and its output wake us at once.
            let wait = Int32(min(100, max(1, (deadline - now) / 1_000_000)))
            if let exitWatch { open.append(exitWatch.rawValue) }
            if open.isEmpty {
                // No pidfd (a kernel before 5.3) and both pipes closed: nothing
                // to wait on but the exit itself, checked with a growing
                // interval (1, 2, 4 … 64 ms), never a fixed delay.
                _ = SystemCalls.pollReadable([], timeoutMilliseconds: min(wait, reapBackoff))
                reapBackoff = min(64, reapBackoff * 2)
                continue
            }
            for fd in SystemCalls.pollReadable(open, timeoutMilliseconds: wait) where fd != exitWatch?.rawValue {
                switch fd {
                case child.results: resultsOpen = drainResults()
                case child.errors: errors.drain()
                default: stdout.drain()
                }
            }
        }
    }

    /// Runs a child that answers with one frame (a scan, a digest, a layer
    /// report): the first result it wrote, if any, and how it ended. The
    /// deadline is fixed; results after the first are ignored.
    package static func reply(executable: String, arguments: [String], timeoutSeconds: Double) -> (line: String?, outcome: Outcome) {
        var first: String?
        let outcome = run(executable: executable, arguments: arguments, timeoutSeconds: timeoutSeconds, resetOnLine: false) { line in
            if first == nil { first = line }
            return .none
        }
        return (first, outcome)
    }

    /// Starts the child with stdin from /dev/null, stdout and stderr each on
    /// a pipe and the result pipe on `resultDescriptor`, in a process group
    /// of its own.
    private static func spawn(executable: String, arguments: [String], extra: [String: String], input: Bool)
        -> Result<(pid: Int32, results: FileDescriptor, stdout: FileDescriptor, input: FileDescriptor?, errors: FileDescriptor), SpawnFailure> {
        // The results, stdout and stderr pipes, the filter's, and with
        // `input` the stdin pipe; what is made is closed again when
        // anything fails, by dropping it.
        var pipes: [(read: FileDescriptor, write: FileDescriptor)] = []
        for _ in 0..<(input ? 5 : 4) {
            switch SystemCalls.makePipe() {
            case .success(let pipe): pipes.append(pipe)
            case .failure(let error): return .failure(SpawnFailure("pipe() failed: \(error)"))
            }
        }
        let (results, output, errors, filter) = (pipes[0], pipes[1], pipes[2], pipes[3])
        let request = input ? pipes[4] : nil
        var spawnRequest = SpawnRequest(executable: executable, arguments: arguments, environment: ChildEnvironment.make(extra: extra))
        spawnRequest.redirections = [
            request.map { .duplicate(from: $0.read.rawValue, to: 0) } ?? .open(descriptor: 0, path: "/dev/null", mode: .read),
            .duplicate(from: output.write.rawValue, to: 1),
            .duplicate(from: errors.write.rawValue, to: 2),
            .duplicate(from: results.write.rawValue, to: resultDescriptor),
            .duplicate(from: filter.read.rawValue, to: SandboxChannel.filterDescriptor),
        ]
        spawnRequest.newProcessGroup = true
        spawnRequest.defaultSignals = true
        let spawned = SystemCalls.spawn(spawnRequest)
        // The child's ends, now (the parent must not hold a write end it waits on).
        for fd in [results.write, output.write, errors.write, filter.read] + (request.map { [$0.read] } ?? []) { fd.close() }
        switch spawned {
        case .failure(let error):
            return .failure(SpawnFailure("posix_spawn(\(executable)) failed: \(error)"))
        case .success(let pid):
            SandboxFilter.send(toChild: pid, through: filter.write)
            for fd in [results.read, output.read, errors.read] { SystemCalls.setNonBlocking(fd.rawValue) }
            return .success((pid, results.read, output.read, request?.write, errors.read))
        }
    }
}

/// The parent's end of a child's stdin (`SandboxProcess.run(input:)`):
/// what it sends the child between results (a batch scan's turns).
package final class SandboxInput {
    /// The write end of the pipe while the child runs; -1 before and after.
    fileprivate(set) var descriptor: Int32 = -1
    /// Sent as soon as the child is started.
    package let first: String
    /// Set (from `onLine`) to end the child at once: it is killed, no
    /// further result reaches `onLine`, and the run ends as a protocol
    /// error with this reason.
    package var stopReason: String?

    package init(first: String) { self.first = first }

    /// Writes `text` whole; false once the child is gone (no SIGPIPE).
    @discardableResult
    package func send(_ text: String) -> Bool {
        descriptor >= 0 && SystemCalls.writeToPipe(descriptor, Array(text.utf8))
    }
}

/// Why a child could not be started, as a sentence.
struct SpawnFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The child's side: resource limits applied to itself before any plugin
/// code runs, and the result channel.
package enum SandboxLimits {
    /// RLIMIT_CPU (seconds of CPU time: SIGXCPU, then SIGKILL a second
    /// later), RLIMIT_AS (bytes of address space: allocations fail) and no
    /// core files.
    package static func apply(cpuSeconds: Int, addressSpaceBytes: UInt64) {
        SystemCalls.limit(.core, soft: 0, hard: 0)
        if cpuSeconds > 0 { SystemCalls.limit(.cpuSeconds, soft: UInt64(cpuSeconds), hard: UInt64(cpuSeconds) + 1) }
        if addressSpaceBytes > 0 && !runsUnderSanitizer { SystemCalls.limit(.addressSpace, soft: addressSpaceBytes, hard: addressSpaceBytes) }
    }

    /// AddressSanitizer and ThreadSanitizer reserve terabytes of shadow
    /// address space at start-up and then need more on their own: under an
    /// address-space limit every allocation of the sanitizer runtime fails
    /// ("out of memory: failed to allocate ... InternalMmapVector"). A
    /// sanitizer build (CI, Docs/RELIABILITY.md) keeps the CPU limit and the
    /// timeout but drops RLIMIT_AS.
    package static let runsUnderSanitizer = ["__asan_init", "__tsan_init", "__msan_init"].contains { DynamicLibrary.processDefines($0) }

    /// Writes one result to `descriptor` as one length-prefixed frame,
    /// whole (retrying short writes).
    package static func writeFrame(_ text: String, to descriptor: Int32) {
        SystemCalls.writeAll(descriptor, FrameReader.frame(Array(text.utf8)))
    }
}

/// Signal names for reports.
package enum SignalName {
    package static func of(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
            SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU", SIGTRAP: "SIGTRAP", SIGPIPE: "SIGPIPE",
            SIGSYS: "SIGSYS", SIGINT: "SIGINT",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}
