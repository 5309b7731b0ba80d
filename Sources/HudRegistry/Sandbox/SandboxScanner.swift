// SPDX-License-Identifier: MIT
import HudUnsafe

/// Learns what a plugin file without a metadata section provides by loading
/// it in a sandboxed child (`hudsandbox scan PATH`): a crash, hang, missing
/// dependency or ABI mismatch becomes a failure record, never a problem for
/// this process. What `PluginCatalog` uses by default.
///
/// Thread: [thread-safe]; each scan is its own child process.
public struct SandboxScanner: Sendable {
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
    public func scan(_ path: String, allowInsecurePath: Bool = false) -> PluginCatalog.ScanOutcome {
        let executable: String
        switch helper.map(Result<String, SandboxHelper.NotFound>.success) ?? SandboxHelper.locate() {
        case .success(let found): executable = found
        case .failure(let notFound): return .failed(code: .scanFailed, reason: notFound.description)
        }
        let request = SandboxRequest.scan(path: path, allowInsecurePath: allowInsecurePath)
        let (reply, outcome) = SandboxProcess.reply(executable: executable, arguments: request.arguments, timeoutSeconds: timeoutSeconds)
        if let reply, let decoded = ScanReply.decode(reply, path: path) { return decoded }
        switch outcome.termination {
        case .signaled:
            return .failed(code: .crashed, reason: "the plugin crashed while loading (\(outcome.termination)); init(), the entry function or a constructor faulted")
        case .timedOut:
            return .failed(code: .timedOut, reason: "the plugin did not finish loading within \(JSONValue.format(timeoutSeconds)) s (\(outcome.termination))")
        case .exited(let status):
            return .failed(code: .exited, reason: "the plugin ended the scanning process (exit status \(status)) while loading; plugins must never call exit()")
        case .spawnFailed(let reason):
            return .failed(code: .scanFailed, reason: "could not start the sandbox: \(reason)")
        case .protocolError(let reason):
            return .failed(code: .protocolError, reason: "the scanning process \(outcome.termination): \(reason); plugin code wrote to the host's result channel")
        }
    }
}

/// Where the sandbox helper (`hudsandbox`) is.
public enum SandboxHelper {
    public static let executableName = "hudsandbox"

    public struct NotFound: Error, Sendable, CustomStringConvertible {
        public var searched: [String]
        public var description: String {
            "the sandbox helper \(SandboxHelper.executableName) was not found (looked in \(searched.joined(separator: ", "))); "
                + "build it (swift build) or install it (make install), or set HUD_SANDBOX_HELPER to its path"
        }
    }

    /// `HUD_SANDBOX_HELPER` when set (an absolute path, used alone: a wrong
    /// override is an error, not a silent fallback; ignored when elevated),
    /// else `hudsandbox` beside this executable (a build directory), then
    /// `../libexec/hud/hudsandbox` relative to it (an install).
    public static func locate() -> Result<String, NotFound> {
        var candidates: [String] = []
        if let override = SearchPaths.secureEnvironment("HUD_SANDBOX_HELPER"), !override.isEmpty {
            candidates.append(override)
        } else if let own = SystemCalls.ownExecutable() {
            let directory = PathSecurity.parent(of: own)
            candidates += [directory + "/" + executableName, PathSecurity.parent(of: directory) + "/libexec/hud/" + executableName]
        }
        if let found = candidates.first(where: { $0.hasPrefix("/") && SystemCalls.isAccessible($0, executable: true) }) { return .success(found) }
        return .failure(NotFound(searched: candidates))
    }
}

/// The child's sides of `scan` and `layers`: run inside `hudsandbox`.
package enum SandboxChild {
    /// The path checks (before the namespaces change how owners look),
    /// then every sandbox layer, then the load; writes the one reply line.
    package static func scan(path: String, allowInsecurePath: Bool) {
        let reply: String
        do {
            reply = try scanReply(path: path, allowInsecurePath: allowInsecurePath)
        } catch {
            reply = ScanReply.encode(error: error)
        }
        SandboxLimits.writeFrame(reply, to: SandboxChannel.resultDescriptor)
    }

    private static func scanReply(path: String, allowInsecurePath: Bool) throws(RegistryError) -> String {
        let resolved = try RendererRegistry.resolve(path)
        if let refusal = PathSecurity(allowInsecure: allowInsecurePath).refusal(for: resolved.path) { throw refusal }
        let layers = SandboxLayers.apply(.scan, cpuSeconds: 10, addressSpaceBytes: 8 << 30, pluginFile: resolved.path)
        if SandboxLayers.required, let missing = layers.first(where: { !$0.active }) {
            throw .sandboxedLoadFailed(path: resolved.path, reasonCode: .sandboxIncomplete,
                                       reason: "HUD_REQUIRE_SANDBOX=1 but the \(missing.name) layer is \(missing.detail); the plugin was not loaded")
        }
        // Checked above, with the real owners; the loader still confirms it
        // maps the file it checked.
        let registry = RendererRegistry(security: PathSecurity(allowInsecure: true))
        let loaded = try registry.load(path: resolved.path)
        return ScanReply.encode(renderers: loaded, failures: registry.failures)
    }

    /// Applies every layer, exactly as a scan would, and reports each one.
    package static func reportLayers() {
        let layers = SandboxLayers.apply(.report, cpuSeconds: 10, addressSpaceBytes: 8 << 30)
        SandboxLimits.writeFrame(LayerReport.encode(layers), to: SandboxChannel.resultDescriptor)
    }
}
