// SPDX-License-Identifier: MIT

/// Learns what a plugin file without a metadata section provides by loading
/// it in a sandboxed child (`hudsandbox scan PATH`): a crash, hang, missing
/// dependency or ABI mismatch becomes a failure record, never a problem for
/// this process. What `PluginCatalog` uses by default.
///
/// Thread: [thread-safe]; each scan is its own child process.
public struct SandboxScanner: Sendable {
    /// What a scan of one file found: its renderers, or why it cannot be used.
    public enum ScanOutcome: Sendable, Hashable {
        case renderers([RendererInfo])
        case failed(code: FailureCode, reason: String)

        var failed: Bool { if case .failed = self { true } else { false } }
    }

    /// The helper executable; nil finds it (`SandboxHelper.locate`).
    public var helper: String?
    /// Wall-clock seconds a scan may take (fixed: output does not extend it).
    public var timeoutSeconds: Double

    /// `HUD_SCAN_TIMEOUT` (0.5…600 s), else 10 s.
    public static var defaultTimeoutSeconds: Double {
        SearchPaths.secureEnvironment("HUD_SCAN_TIMEOUT").flatMap(Double.init).flatMap { (0.5...600).contains($0) ? $0 : nil } ?? 10
    }

    public init(helper: String? = nil, timeoutSeconds: Double = SandboxScanner.defaultTimeoutSeconds) {
        self.helper = helper
        self.timeoutSeconds = timeoutSeconds
    }

    /// Scans `path`, which the caller has already put through the path
    /// security checks (the catalog does; so does `RendererRegistry.load(
    /// checking:)`). The child re-checks unless `allowInsecurePath`.
    public func scan(_ path: String, allowInsecurePath: Bool = false) -> ScanResult {
        let executable: String
        switch helper.map(Result<String, SandboxHelper.NotFound>.success) ?? SandboxHelper.locate() {
        case .success(let found): executable = found
        case .failure(let notFound): return ScanResult(outcome: .failed(code: .scanFailed, reason: notFound.description), loadedFirst: true)
        }
        let request = SandboxRequest.scan(path: path, allowInsecurePath: allowInsecurePath)
        let (reply, outcome) = SandboxProcess.reply(executable: executable, arguments: request.arguments, timeoutSeconds: timeoutSeconds)
        let decoded = reply.flatMap { ScanReply.decode($0, path: path) } ?? (failure(outcome.termination), nil)
        outcome.deliverOutput(source: path, failed: decoded.outcome.failed)
        return ScanResult(outcome: decoded.outcome, loadedFirst: true, loaded: decoded.loaded)
    }

    /// The failure record of a scan child that ended without answering.
    private func failure(_ termination: SandboxProcess.Termination) -> ScanOutcome {
        switch termination {
        case .signaled:
            return .failed(code: .crashed, reason: "the plugin crashed while loading (\(termination)); init(), the entry function or a constructor faulted")
        case .timedOut:
            return .failed(code: .timedOut, reason: "the plugin did not finish loading within \(JSONValue.format(timeoutSeconds)) s (\(termination))")
        case .exited(let status):
            return .failed(code: .exited, reason: "the plugin ended the scanning process (exit status \(status)) while loading; plugins must never call exit()")
        case .spawnFailed(let reason):
            return .failed(code: .scanFailed, reason: "could not start the sandbox: \(reason)")
        case .protocolError(let reason):
            return .failed(code: .protocolError, reason: "the scanning process \(termination): \(reason); plugin code wrote to the host's result channel")
        }
    }

    /// The most files one batch child is given.
    public static let defaultBatchSize = 128

    /// One file's outcome in a scan.
    public struct ScanResult: Sendable, Hashable {
        public var outcome: ScanOutcome
        /// The file was the first one its child loaded (no other plugin's
        /// code had run in that process). A failure is only ever final
        /// for such a load or a timeout.
        public var loadedFirst: Bool
        /// The stamp of the file the child opened, as it reported it; nil
        /// when it did not answer (a crash, a timeout) or could not open
        /// the file. The verdict belongs to that file, which may not be
        /// the one at the path before or after the scan.
        public var loaded: FileStamp?
    }

    /// What a batch scan did.
    public struct BatchReport: Sendable {
        /// One per path, in order.
        public var results: [ScanResult]
        /// Scanner children started.
        public var children: Int
    }

    /// Scans `paths` (checked by the caller, as for `scan`) in batches of
    /// at most `batchSize`, each in ONE sandboxed child that loads them in
    /// turn (`BatchTurn`), as gst-plugin-scanner does; results are keyed by
    /// the host to the file it asked about.
    ///
    /// A child that ends without answering (crash, timeout, exit, protocol
    /// error) is blamed on the file it was loading, and the scan resumes
    /// with the next file in a new child. A failure of a file that was not
    /// the first its child loaded — an earlier plugin's code (a corrupted
    /// heap, a forged answer) might be the cause — is not taken as final:
    /// that file is scanned again first in a new child, and that verdict
    /// stands. A timeout is final at once (the per-file deadline restarts
    /// with each answer; an earlier plugin leaving a thread behind ends its
    /// child, so none can still be running). A child whose plugin left a
    /// thread running after its load stops there; the rest go to a new one.
    public func scan(batch paths: [String], allowInsecurePath: Bool = false, batchSize: Int = SandboxScanner.defaultBatchSize) -> BatchReport {
        var report = BatchReport(results: [], children: 0)
        guard !paths.isEmpty else { return report }
        let executable: String
        switch helper.map(Result<String, SandboxHelper.NotFound>.success) ?? SandboxHelper.locate() {
        case .success(let found): executable = found
        case .failure(let notFound):
            report.results = paths.map { _ in ScanResult(outcome: .failed(code: .scanFailed, reason: notFound.description), loadedFirst: true) }
            return report
        }
        var results: [ScanResult?] = Array(repeating: nil, count: paths.count)
        var next = 0
        while next < paths.count {
            let first = next
            let end = min(paths.count, first + max(1, batchSize))
            var turn = first  // the file the child is loading now
            var token = BatchTurn.newToken()
            var rescan: Int?  // a failure not taken as final: scan it again first
            var outOfTurn: String?
            let input = SandboxInput(first: BatchTurn.request(token))
            let request = SandboxRequest.scanBatch(paths: Array(paths[first..<end]), allowInsecurePath: allowInsecurePath)
            report.children += 1
            let outcome = SandboxProcess.run(executable: executable, arguments: request.arguments, timeoutSeconds: timeoutSeconds,
                                             input: input) { frame in
                guard turn < end, let answer = BatchTurn.decode(frame), answer.token == token else {
                    outOfTurn = "a result frame out of turn (not the answer to the host's request for \(turn < end ? paths[turn] : "no file"))"
                    input.stopReason = outOfTurn
                    return .none
                }
                let (outcome, loaded) = ScanReply.decode(answer.reply, path: paths[turn])
                if case .failed = outcome, turn != first {
                    rescan = turn
                    input.stopReason = "stopped to scan \(paths[turn]) again in a fresh child"
                    return .none
                }
                results[turn] = ScanResult(outcome: outcome, loadedFirst: turn == first, loaded: loaded)
                turn += 1
                if turn < end {
                    token = BatchTurn.newToken()
                    input.send(BatchTurn.request(token))
                }
                return .progress
            }
            // What this child printed, as the one file's that failed in it
            // (a failed file is loaded again first in a fresh child), or the batch's.
            let failedPaths = (first..<min(turn + 1, end)).filter { results[$0]?.outcome.failed ?? true }.map { paths[$0] }
            let source = failedPaths.count == 1 ? failedPaths[0] : end - first == 1 ? paths[first] : "a scan of \(end - first) plugin files from \(paths[first])"
            outcome.deliverOutput(source: source, failed: !failedPaths.isEmpty || outOfTurn != nil)
            if let rescan {
                next = rescan
                continue
            }
            guard turn < end else {
                next = end
                continue
            }
            // The child ended (or was ended) while loading paths[turn].
            let failure: ScanOutcome
            if let outOfTurn {
                failure = .failed(code: .protocolError, reason: "the scanning process \(outOfTurn), killed; plugin code wrote to the host's result channel")
            } else {
                failure = self.failure(outcome.termination)
            }
            let isTimeout = if case .timedOut = outcome.termination { true } else { false }
            if turn == first || isTimeout {
                results[turn] = ScanResult(outcome: failure, loadedFirst: turn == first)
                next = turn + 1
            } else {
                next = turn  // scanned again, first in a new child
            }
        }
        report.results = results.map { $0 ?? ScanResult(outcome: .failed(code: .scanFailed, reason: "not scanned"), loadedFirst: false) }
        return report
    }
}
