import Glibc
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudUnsafe

/// Learns what a plugin without a metadata section provides by loading it
/// in a child process (`hudhost _scan PATH`, the validator's sandbox
/// runner): a crash, hang, missing dependency or ABI mismatch becomes a
/// failure record, never a problem for this process.
enum PluginScanner {
    /// Seconds a scan may take; `HUD_SCAN_TIMEOUT` (0.5…600) overrides it.
    static var timeoutSeconds: Double {
        SearchPaths.secureEnvironment("HUD_SCAN_TIMEOUT").flatMap(Double.init).flatMap { (0.5...600).contains($0) ? $0 : nil } ?? 10
    }

    /// The path of this executable (the sandbox is hudhost itself).
    static var executable: String {
        SystemCalls.ownExecutable() ?? CommandLine.arguments[0]
    }

    /// Scans `path`, which the caller has already put through the path
    /// security checks (the catalog does; so does `makeRegistry` for
    /// `--plugin` files). The child re-checks unless `allowInsecure`.
    static func scan(_ path: String, allowInsecure: Bool) -> PluginCatalog.ScanOutcome {
        var line: String?
        let outcome = SandboxProcess.run(executable: executable, arguments: ["_scan", path] + (allowInsecure ? ["--allow-insecure-path"] : []),
                                         timeoutSeconds: timeoutSeconds, resetOnLine: false) { text in
            if line == nil { line = text }
        }
        if let line, let json = try? JSONParser.parse(line) {
            if let error = json["error"] {
                return .failed(code: error["code"]?.stringValue.flatMap(FailureCode.init(rawValue:)) ?? .failed, reason: error["message"]?.stringValue ?? line)
            }
            let renderers = (json["renderers"]?.arrayValue ?? []).compactMap { Self.metadata($0, path: path) }
            if renderers.isEmpty {
                let reason = json["failures"]?.arrayValue?.first?["message"]?.stringValue ?? "the plugin provides no usable renderer"
                let code = json["failures"]?.arrayValue?.first?["code"]?.stringValue.flatMap(FailureCode.init(rawValue:)) ?? .noRenderers
                return .failed(code: code, reason: reason)
            }
            return .renderers(renderers)
        }
        switch outcome.termination {
        case .signaled:
            return .failed(code: .crashed, reason: "the plugin crashed while loading (\(outcome.termination)); init(), the entry function or a constructor faulted")
        case .timedOut:
            return .failed(code: .timedOut, reason: "the plugin did not finish loading within \(JSONValue.format(timeoutSeconds)) s (\(outcome.termination))")
        case .exited(let status):
            return .failed(code: .exited, reason: "the plugin ended the scanning process (exit status \(status)) while loading; plugins must never call exit()")
        case .spawnFailed(let reason):
            return .failed(code: .scanFailed, reason: "could not start the sandbox: \(reason)")
        }
    }

    static func metadata(_ json: JSONValue, path: String) -> RendererInfo? {
        guard let id = json["id"]?.stringValue, let name = json["name"]?.stringValue, let version = json["version"]?.stringValue,
              let vendor = json["vendor"]?.stringValue, let abi = json["abi"]?.numberValue.flatMap({ UInt32(exactly: $0) }),
              let positions = json["positions"]?.numberValue.flatMap({ UInt32(exactly: $0) }),
              let capabilities = json["capabilities"]?.numberValue.flatMap({ UInt32(exactly: $0) }) else { return nil }
        return RendererInfo(id: id, name: name, version: version, vendor: vendor, summary: "",
                            supportedPositions: Set(Position.positions(in: positions)),
                            capabilities: RendererInfo.Capabilities(rawValue: capabilities),
                            abiVersion: ABIVersion(packed: abi), origin: .file(path))
    }
}

/// `hudhost _scan PATH`: the child side of a scan. Loads PATH (stdout is
/// already captured by the parent; results go to fd 3) and reports the
/// renderers it registered, or the load error.
struct ScanCommand: Command {
    static let name = "_scan"
    static let summary = "(internal) load one plugin in a sandbox and report its renderers"
    static let options: [Arguments.Option] = [.flag("--allow-insecure-path"), .flag("--help")]
    static let help = """
        USAGE: hudhost _scan PATH

        Internal: run by hudhost itself as a sandboxed child (CPU and memory
        limits, a timeout) to learn what a plugin without a metadata section
        provides. Writes one JSON line to file descriptor 3.

        \(exitCodeHelp)
        """

    let path: String
    let allowInsecure: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else { throw UsageError("_scan takes one plugin path") }
        path = arguments.positionals[0]
        allowInsecure = arguments.flag("--allow-insecure-path")
    }

    func run() -> ExitCode {
        SandboxLimits.apply(cpuSeconds: 10, addressSpaceBytes: 8 << 30)
        let registry = RendererRegistry(security: PathSecurity(allowInsecure: allowInsecure))
        let line: JSONValue
        do {
            let loaded = try registry.load(path: path)
            line = .object([
                ("renderers", .array(loaded.map { info in
                    .object([("id", .string(info.id)), ("name", .string(info.name)), ("version", .string(info.version)),
                             ("vendor", .string(info.vendor)), ("abi", .number(Double(info.abiVersion.packed))),
                             ("positions", .number(Double(Position.mask(info.supportedPositions)))),
                             ("capabilities", .number(Double(info.capabilities.rawValue)))])
                })),
                ("failures", .array(registry.failures.map(LayoutJSON.error))),
            ])
        } catch {
            line = .object([("error", LayoutJSON.error(error))])
        }
        SandboxLimits.writeLine(line.serialized(pretty: false), to: SandboxProcess.resultDescriptor)
        return .ok
    }
}
