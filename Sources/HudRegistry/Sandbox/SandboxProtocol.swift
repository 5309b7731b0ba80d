// SPDX-License-Identifier: MIT
import HudSystem

/// The protocol between the host and its sandboxed child (`hudsandbox`),
/// both halves in one file: what the parent asks (a `SandboxRequest`,
/// written as the child's command line) and what the child answers (JSON
/// frames on `SandboxChannel.resultDescriptor`). The parent encodes with the
/// same code the child decodes with, so the two cannot drift.
///
/// Conformance events (`validate`) are lines of `ConformanceEvent` JSON,
/// encoded and decoded by HudConformance; this file frames them.
package enum SandboxChannel {
    /// The descriptor the child writes result lines to (a pipe the parent
    /// reads; plugin code printing to stdout never reaches it by accident).
    package static let resultDescriptor: Int32 = 3
    /// The shared region a renderer host child maps (`serve`; closed once mapped).
    package static let sharedRegionDescriptor: Int32 = 4
    /// The read end of a pipe on which the parent sends the child's
    /// system-call filter, compiled for that child (`SandboxFilter`); the
    /// child reads it to the end and closes it before the layers apply.
    package static let filterDescriptor: Int32 = 5
}

/// The seccomp layer's program travels from the parent: the parent builds
/// each child's filter with libseccomp once it knows the child's pid (the
/// filter lets a child signal only itself) and writes it, as BPF, into a
/// pipe the child has on `SandboxChannel.filterDescriptor`, while the
/// child is still being loaded; the child installs it with one system call.
/// So no child maps libseccomp, probes the kernel or compiles rules.
package enum SandboxFilter {
    /// The most a filter program may take (BPF_MAXINSNS instructions of 8 bytes).
    static let maximumBytes = 4096 * 8

    /// Parent, after the spawn: compiles child `pid`'s filter into the
    /// pipe's write end and closes it. A filter that cannot be built is
    /// not sent: the child then finds an empty pipe and reports its
    /// seccomp layer unavailable (and, with `HUD_REQUIRE_SANDBOX=1`, runs
    /// no plugin code).
    /// A child that is already gone (it failed before reading, or was
    /// killed) makes this an EPIPE failure, never a SIGPIPE in the host.
    @discardableResult
    static func send(toChild pid: Int32, through write: FileDescriptor) -> Result<Void, SystemError> {
        defer { write.close() }
        return SandboxLayers.exportFilter(forChild: pid, to: write.rawValue)
    }

    /// Child: the program the parent sent, read to the end; the descriptor
    /// is closed. A failure says why there is none.
    static func receive() -> Result<[UInt8], SandboxProtocolError> {
        defer { SystemCalls.closeDescriptor(SandboxChannel.filterDescriptor) }
        guard let program = SystemCalls.readToEnd(SandboxChannel.filterDescriptor, limit: maximumBytes) else {
            return .failure(SandboxProtocolError("no filter on descriptor \(SandboxChannel.filterDescriptor) (this helper is started by hudhost)"))
        }
        guard !program.isEmpty else { return .failure(SandboxProtocolError("the host could not build the filter")) }
        return .success(program)
    }
}

/// Why a child's command line could not be decoded.
package struct SandboxProtocolError: Error, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// One unit of work for a sandboxed child.
package enum SandboxRequest: Sendable, Hashable {
    /// Load one plugin file and report the renderers it registers (for a
    /// file without a `.hud_renderers` section).
    case scan(path: String, allowInsecurePath: Bool)
    /// Load several plugin files in turn, in one child, each when the
    /// parent asks for it (`BatchTurn`), reporting each one's renderers.
    case scanBatch(paths: [String], allowInsecurePath: Bool)
    /// Run conformance checks on one target, streaming events.
    case validate(SandboxValidation)
    /// Print a digest of one renderer's layouts (fresh-process determinism).
    case digest(SandboxValidation)
    /// Apply every sandbox layer and report which are in force (`hudhost doctor`).
    case layers
    /// Load one plugin file and serve layout calls for the listed renderers
    /// (the out-of-process renderer host; frames on descriptor 3, the
    /// shared region on descriptor 4).
    case serve(SandboxServe)
    /// Echo every byte received on descriptor 3 until it closes: the bare
    /// cross-process wake-up ping-pong `hudbench` measures a renderer
    /// host's round trip against. Runs no plugin code.
    case echo
}

/// The parameters of a renderer host child.
package struct SandboxServe: Sendable, Hashable {
    package var path: String
    package var renderers: [String]
    package var cpuSeconds: Int
    package var allowInsecurePath: Bool
    /// The host's pid: a child whose parent is already someone else (the
    /// host died before the child asked to die with it) exits at once.
    package var parent: Int32 = 0
    /// Look at the entry before the load initializes the plugin, for
    /// `validate`'s `abiFacts` (`RendererHostSettings.observeLoading`).
    package var observeLoading = false

    package init(path: String, renderers: [String], cpuSeconds: Int, allowInsecurePath: Bool, parent: Int32 = 0, observeLoading: Bool = false) {
        self.path = path
        self.renderers = renderers
        self.cpuSeconds = cpuSeconds
        self.allowInsecurePath = allowInsecurePath
        self.parent = parent
        self.observeLoading = observeLoading
    }
}

/// The parameters of a `validate` or `digest` child, as plain values (the
/// conformance suite converts them to and from its own types).
package struct SandboxValidation: Sendable, Hashable {
    package enum Target: Sendable, Hashable {
        case file(String)
        case builtin
    }

    package var target: Target
    package var renderer: String?
    package var checks: [String] = []
    package var seed: UInt64 = 0
    package var fuzzIterations: Int?
    /// Conformance units already finished (resume after a crash).
    package var skip: [String] = []
    /// Units that failed in an earlier child, with their status.
    package var blocked: [String: String] = [:]
    /// Limits the child sets on itself before loading anything.
    package var cpuSeconds = 300
    package var memoryMegabytes = 4096
    /// The helper the child may start for fresh-process checks.
    package var helper: String?
    package var helperTimeoutSeconds: Double?

    package init(target: Target, renderer: String? = nil) {
        self.target = target
        self.renderer = renderer
    }
}

extension SandboxRequest {
    /// The child's command line (after argv[0]).
    package var arguments: [String] {
        switch self {
        case .scan(let path, let allowInsecurePath):
            return ["scan", path] + (allowInsecurePath ? ["--allow-insecure-path"] : [])
        case .scanBatch(let paths, let allowInsecurePath):
            return ["scan-batch"] + paths + (allowInsecurePath ? ["--allow-insecure-path"] : [])
        case .validate(let request):
            return ["validate"] + request.arguments
        case .digest(let request):
            return ["digest"] + request.arguments
        case .layers:
            return ["layers"]
        case .echo:
            return ["echo"]
        case .serve(let serve):
            return ["serve", serve.path, "--cpu-seconds", String(serve.cpuSeconds), "--parent", String(serve.parent)]
                + serve.renderers.flatMap { ["--renderer", $0] }
                + (serve.allowInsecurePath ? ["--allow-insecure-path"] : []) + (serve.observeLoading ? ["--observe-loading"] : [])
        }
    }

    /// Decodes a child's command line (after argv[0]).
    package init(arguments: [String]) throws(SandboxProtocolError) {
        guard let verb = arguments.first else { throw SandboxProtocolError("no request: expected scan, scan-batch, validate, digest, layers, serve or echo") }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "scan":
            let paths = rest.filter { !$0.hasPrefix("--") }
            guard paths.count == 1, rest.allSatisfy({ !$0.hasPrefix("--") || $0 == "--allow-insecure-path" }) else {
                throw SandboxProtocolError("scan takes one plugin path and optionally --allow-insecure-path")
            }
            self = .scan(path: paths[0], allowInsecurePath: rest.contains("--allow-insecure-path"))
        case "scan-batch":
            let paths = rest.filter { !$0.hasPrefix("--") }
            guard !paths.isEmpty, rest.allSatisfy({ !$0.hasPrefix("--") || $0 == "--allow-insecure-path" }) else {
                throw SandboxProtocolError("scan-batch takes one or more plugin paths and optionally --allow-insecure-path")
            }
            self = .scanBatch(paths: paths, allowInsecurePath: rest.contains("--allow-insecure-path"))
        case "validate":
            self = .validate(try SandboxValidation(arguments: rest))
        case "digest":
            let request = try SandboxValidation(arguments: rest)
            guard request.renderer != nil else { throw SandboxProtocolError("digest needs --renderer ID") }
            self = .digest(request)
        case "layers":
            guard rest.isEmpty else { throw SandboxProtocolError("layers takes no arguments") }
            self = .layers
        case "echo":
            guard rest.isEmpty else { throw SandboxProtocolError("echo takes no arguments") }
            self = .echo
        case "serve":
            var serve = SandboxServe(path: "", renderers: [], cpuSeconds: 0, allowInsecurePath: false)
            var paths: [String] = []
            var index = 0
            while index < rest.count {
                switch rest[index] {
                case "--allow-insecure-path": serve.allowInsecurePath = true
                case "--observe-loading": serve.observeLoading = true
                case "--renderer", "--cpu-seconds", "--parent":
                    guard index + 1 < rest.count else { throw SandboxProtocolError("\(rest[index]) needs a value") }
                    if rest[index] == "--renderer" {
                        serve.renderers.append(rest[index + 1])
                    } else {
                        guard let number = Int32(rest[index + 1]), number >= 0 else { throw SandboxProtocolError("\(rest[index]) needs a whole number") }
                        if rest[index] == "--parent" { serve.parent = number } else { serve.cpuSeconds = Int(number) }
                    }
                    index += 1
                case let option where option.hasPrefix("--"):
                    throw SandboxProtocolError("unknown serve option '\(option)'")
                case let path:
                    paths.append(path)
                }
                index += 1
            }
            guard paths.count == 1, !serve.renderers.isEmpty else {
                throw SandboxProtocolError("serve takes one plugin path and at least one --renderer ID")
            }
            serve.path = paths[0]
            self = .serve(serve)
        default:
            throw SandboxProtocolError("unknown request '\(verb)': expected scan, validate, digest, layers, serve or echo")
        }
    }
}

extension SandboxValidation {
    var arguments: [String] {
        var arguments: [String]
        switch target {
        case .file(let path): arguments = ["--file", path]
        case .builtin: arguments = ["--builtin"]
        }
        if let renderer { arguments += ["--renderer", renderer] }
        if !checks.isEmpty { arguments += ["--checks", checks.joined(separator: ",")] }
        arguments += ["--seed", String(seed)]
        if let fuzzIterations { arguments += ["--fuzz-iterations", String(fuzzIterations)] }
        if !skip.isEmpty { arguments += ["--skip", skip.sorted().joined(separator: ",")] }
        for (unit, status) in blocked.sorted(by: { $0.key < $1.key }) { arguments += ["--blocked", "\(unit)=\(status)"] }
        arguments += ["--cpu-seconds", String(cpuSeconds), "--memory-mb", String(memoryMegabytes)]
        if let helper { arguments += ["--helper", helper] }
        if let helperTimeoutSeconds { arguments += ["--helper-timeout", String(helperTimeoutSeconds)] }
        return arguments
    }

    init(arguments: [String]) throws(SandboxProtocolError) {
        var target: Target?
        var values: [(String, String)] = []
        var index = 0
        while index < arguments.count {
            let option = arguments[index]
            if option == "--builtin" {
                target = .builtin
                index += 1
                continue
            }
            guard ["--file", "--renderer", "--checks", "--seed", "--fuzz-iterations", "--skip", "--blocked", "--cpu-seconds",
                   "--memory-mb", "--helper", "--helper-timeout"].contains(option) else {
                throw SandboxProtocolError("unknown option '\(option)'")
            }
            guard index + 1 < arguments.count else { throw SandboxProtocolError("\(option) needs a value") }
            if option == "--file" { target = .file(arguments[index + 1]) }
            values.append((option, arguments[index + 1]))
            index += 2
        }
        guard let target else { throw SandboxProtocolError("needs --file PATH or --builtin") }
        self.init(target: target)
        func number<T: LosslessStringConvertible>(_ text: String, _ option: String) throws(SandboxProtocolError) -> T {
            guard let value = T(text) else { throw SandboxProtocolError("\(option) '\(text)' is not a valid number") }
            return value
        }
        for (option, value) in values {
            switch option {
            case "--renderer": renderer = value
            case "--checks": checks = value.split(separator: ",").map(String.init)
            case "--seed": seed = try number(value, option)
            case "--fuzz-iterations": fuzzIterations = try number(value, option)
            case "--skip": skip = value.split(separator: ",").map(String.init)
            case "--blocked":
                let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
                blocked[parts[0]] = parts.count > 1 ? parts[1] : "failed"
            case "--cpu-seconds": cpuSeconds = try number(value, option)
            case "--memory-mb": memoryMegabytes = try number(value, option)
            case "--helper": helper = value
            case "--helper-timeout": helperTimeoutSeconds = try number(value, option)
            default: break
            }
        }
    }
}

/// The one frame a `scan` child writes: the renderers the file registered
/// and the failures of those it offered but the host refused, or the
/// error that stopped the load; with `file`, the stamp (`FileStamp`) of
/// the file the child opened, taken from its descriptor before any of its
/// code ran, so the host files the verdict under the file that earned it.
package enum ScanReply {
    package static func encode(renderers: [RendererInfo], failures: [RegistryError], loaded: FileStamp?) -> String {
        JSONValue.object([
            ("renderers", .array(renderers.map(\.recordJSON))),
            ("failures", .array(failures.map(json))),
        ] + file(loaded)).serialized(pretty: false)
    }

    package static func encode(error: RegistryError, loaded: FileStamp?) -> String {
        JSONValue.object([("error", json(error))] + file(loaded)).serialized(pretty: false)
    }

    private static func file(_ stamp: FileStamp?) -> [(String, JSONValue)] {
        stamp.map { [("file", $0.json)] } ?? []
    }

    /// What a reply says about the file at `path`, or nil for a reply
    /// that is not a reply.
    package static func decode(_ line: String, path: String) -> (outcome: SandboxScanner.ScanOutcome, loaded: FileStamp?)? {
        guard let json = try? JSONParser.parse(line) else { return nil }
        return decode(json, path: path)
    }

    package static func decode(_ json: JSONValue, path: String) -> (outcome: SandboxScanner.ScanOutcome, loaded: FileStamp?) {
        (outcome(json, path: path), FileStamp(json: json["file"]))
    }

    private static func outcome(_ json: JSONValue, path: String) -> SandboxScanner.ScanOutcome {
        if let error = json["error"] {
            return .failed(code: code(error["code"]), reason: TextChecks.fromChild(error["message"]?.stringValue ?? json.serialized(pretty: false)))
        }
        // The child's word is judged, not taken: every renderer it reports
        // obeys the rules of a metadata record, or the whole reply is bad.
        var renderers: [RendererInfo] = []
        for item in json["renderers"]?.arrayValue ?? [] {
            switch RendererInfo.decodeRecord(item, path: path) {
            case .success(let info): renderers.append(info)
            case .failure(let problem): return .failed(code: .badMetadata, reason: "the scan reported \(problem.description)")
            }
        }
        if renderers.isEmpty {
            let first = json["failures"]?.arrayValue?.first
            return .failed(code: first.map { code($0["code"]) } ?? .noRenderers,
                           reason: first?["message"]?.stringValue.map { TextChecks.fromChild($0) } ?? "the plugin provides no usable renderer")
        }
        return .renderers(renderers)
    }

    private static func code(_ value: JSONValue?) -> FailureCode {
        value?.stringValue.flatMap(FailureCode.init(rawValue:)) ?? .failed
    }

    private static func json(_ error: RegistryError) -> JSONValue {
        .object([("code", .string(error.code.rawValue)), ("message", .string(error.description))])
    }
}

/// The one frame a `layers` child writes: each layer and whether it held.
/// One turn of a batch scan (`SandboxRequest.scanBatch`). The parent asks
/// for the next file with `go TOKEN` on the child's stdin, a fresh random
/// token per turn sent only once the previous file's result is in; the
/// child loads that file and answers with one frame
/// `{"turn":"TOKEN","reply":<ScanReply>}`. The parent keys each result to
/// the file it asked about, never to anything the child names, and a frame
/// without the current token (written by plugin code before its turn, or
/// a second one) ends the child as a protocol error of the file in flight.
package enum BatchTurn {
    /// A new token: 16 hex digits from the system's random source.
    package static func newToken() -> String {
        let value = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        return String(repeating: "0", count: 16 - value.count) + value
    }

    /// The parent's request line for the turn `token`.
    package static func request(_ token: String) -> String { "go \(token)\n" }

    /// The token of a request line (without its newline), if well formed.
    package static func token(ofRequest line: some StringProtocol) -> String? {
        guard line.hasPrefix("go "), case let token = line.dropFirst(3), token.utf8.count == 16,
              token.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return String(token)
    }

    /// The child's answer for the turn `token` (`reply` is ScanReply JSON).
    package static func encode(token: String, reply: String) -> String {
        "{\"turn\":\"\(token)\",\"reply\":\(reply)}"
    }

    /// The token and the reply of one answer frame, if well formed.
    package static func decode(_ frame: String) -> (token: String, reply: JSONValue)? {
        guard let json = try? JSONParser.parse(frame), let token = json["turn"]?.stringValue, let reply = json["reply"],
              case .object = reply else { return nil }
        return (token, reply)
    }
}

package enum LayerReport {
    package static func encode(_ layers: [SandboxLayer]) -> String {
        JSONValue.object([("layers", .array(layers.map { layer in
            .object([("name", .string(layer.name)), ("active", .bool(layer.active)), ("detail", .string(layer.detail))])
        }))]).serialized(pretty: false)
    }

    package static func decode(_ line: String) -> [SandboxLayer]? {
        guard let json = try? JSONParser.parse(line), let items = json["layers"]?.arrayValue else { return nil }
        var layers: [SandboxLayer] = []
        for item in items {
            guard let name = item["name"]?.stringValue, let active = item["active"]?.boolValue,
                  let detail = item["detail"]?.stringValue else { return nil }
            layers.append(SandboxLayer(name: name, active: active, detail: detail))
        }
        return layers
    }
}
