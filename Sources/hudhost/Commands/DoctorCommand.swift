// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudHTTPServer

/// `hudhost doctor`: what this machine gives hudhost — search paths, the
/// cache, libffi, the sandbox helper and each isolation layer.
struct DoctorCommand: Command {
    static let name = "doctor"
    static let summary = "Check this machine: search paths, cache, libffi, and each sandbox layer"
    static let json = Option.flag("--json", #"one JSON document: {"schemaVersion", "searchPath", "refusedPaths", "cache", "libffi", "preview", "helper", "isolation": {"layers": [{"name", "active", "detail"}], "complete"}}"#)
    static let options = [json, ColorOptions.color]
    static let help = HelpPage(
        usage: "hudhost doctor [--json]",
        description: """
            Reports the plugin search path (and entries refused), the registry
            cache directory, whether libffi can make action thunks, whether
            libmicrohttpd (the server of `hudhost preview`, loaded only when
            needed) loads, where the sandbox helper (hudsandbox) is, and every
            isolation layer a sandboxed child applies before plugin code runs
            (limits, no-new-privs, closed descriptors, namespaces, Landlock,
            seccomp, its process group), each active or not, with what it
            covers or why it is missing. The layers are probed by starting the
            helper, exactly as a scan starts it. hud-isolation(7) says what
            each layer stops.
            """,
        sections: [
            .options(options),
            .examples("""
                hudhost doctor
                HUD_REQUIRE_SANDBOX=1 hudhost doctor   # exit 1 unless every layer is active
                """),
            .exitCodes("""
                For doctor: 0 checked (a layer may be missing; see "complete"); 1
                HUD_REQUIRE_SANDBOX=1 and a layer is missing, or no helper, or libffi
                fails (a missing libmicrohttpd is reported, not a failure: only
                preview needs it). doctor names no target, so it never exits 3.
                """),
        ])

    let json: Bool
    let color: ColorOptions

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("doctor takes no arguments") }
        json = arguments.flag(Self.json)
        color = try ColorOptions(arguments)
    }

    func run() -> ExitCode {
        let searchPaths = SearchPaths.standard()
        let cache = RegistryCache.defaultDirectory()
        let libffi: Result<Void, RegistryError> = Result { () throws(RegistryError) in
            _ = try ComplicationsSnapshot(HudPhoneComplications(center: .init(icon: "circle", action: {})))
        }
        let preview = HTTPDaemon.loadLibrary()
        let previewDetail = switch preview {
        case .success: "ok: \(HTTPDaemon.libraryName) loads"
        case .failure(let error): "MISSING (only preview needs it): \(error)"
        }
        let helper = SandboxHelper.locate()
        let layers: [SandboxLayer]
        switch SandboxHelper.probeLayers() {
        case .success(let found): layers = found
        case .failure(let notFound): layers = [SandboxLayer(name: "helper", active: false, detail: notFound.description)]
        }
        let complete = layers.allSatisfy(\.active)
        let healthy = (try? libffi.get()) != nil && (try? helper.get()) != nil && (complete || !SandboxLayers.required)
        if json {
            Output.out(JSONValue.object([
                ("schemaVersion", .number(1)),
                ("searchPath", .array(searchPaths.directories.map(JSONValue.string))),
                ("refusedPaths", .array(searchPaths.refused.map { .string("\($0.entry): \($0.reason)") })),
                ("cache", cache.map(JSONValue.string) ?? .null),
                ("libffi", .object([("ok", .bool((try? libffi.get()) != nil)),
                                    ("detail", .string(Self.detail(libffi)))])),
                ("preview", .object([("ok", .bool((try? preview.get()) != nil)), ("detail", .string(previewDetail))])),
                ("helper", (try? helper.get()).map(JSONValue.string) ?? .null),
                ("isolation", .object([
                    ("layers", .array(layers.map { layer in
                        .object([("name", .string(layer.name)), ("active", .bool(layer.active)), ("detail", .string(layer.detail))])
                    })),
                    ("complete", .bool(complete)),
                ])),
            ]).serialized() + "\n")
        } else {
            Output.line("Search path")
            for directory in searchPaths.directories { Output.line("  \(directory)") }
            for refused in searchPaths.refused { Output.line("  refused: \(refused.entry): \(refused.reason)") }
            Output.line("Cache\n  \(cache ?? "none (neither XDG_CACHE_HOME nor HOME is set, or the process is elevated)")")
            Output.line("libffi\n  \(Self.detail(libffi))")
            Output.line("Preview server (libmicrohttpd)\n  \(previewDetail)")
            let helperLine = switch helper {
            case .success(let path): path + " (its path passes the plugin path checks)"
            case .failure(let notFound): notFound.description
            }
            Output.line("Sandbox helper\n  " + helperLine)
            Output.line("Isolation layers")
            let colored = color.forStandardOutput
            for layer in layers {
                let state = layer.active ? ColorOptions.paint("active ", "32", colored) : ColorOptions.paint("MISSING", "1;31", colored)
                Output.line("  \(state) \(layer.name): \(layer.detail)")
            }
            Output.line(complete ? "All layers are active." : "Some layers are missing: plugin code runs with the rest (HUD_REQUIRE_SANDBOX=1 refuses instead).")
        }
        return healthy ? .ok : .failure
    }

    private static func detail(_ result: Result<Void, RegistryError>) -> String {
        switch result {
        case .success: "ok: action thunks are made and freed"
        case .failure(let error): "FAILED: \(error)"
        }
    }
}
