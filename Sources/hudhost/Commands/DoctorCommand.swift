// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation

/// `hudhost doctor`: what this machine gives hudhost — search paths, the
/// cache, libffi, the sandbox helper and each isolation layer.
struct DoctorCommand: Command {
    static let name = "doctor"
    static let summary = "Check this machine: search paths, cache, libffi, and each sandbox layer"
    static let options: [Arguments.Option] = [.flag("--json"), .flag("--help")]
    static let help = """
        USAGE: hudhost doctor [--json]

        Reports the plugin search path (and entries refused), the registry
        cache directory, whether libffi can make action thunks, where the
        sandbox helper (hudsandbox) is, and every isolation layer a sandboxed
        child applies before plugin code runs (limits, no-new-privs, closed
        descriptors, namespaces, Landlock, seccomp, its process group), each
        active or not, with what it covers or why it is missing. The layers
        are probed by starting the helper, exactly as a scan starts it.
        Docs/ISOLATION.md says what each layer stops.

        OPTIONS
          --json              one JSON document:
                              {"schemaVersion", "searchPath", "refusedPaths", "cache",
                               "libffi", "helper", "isolation": {"layers": [{"name",
                               "active", "detail"}], "complete"}}

        EXAMPLES
          hudhost doctor
          HUD_REQUIRE_SANDBOX=1 hudhost doctor   # exit 1 unless every layer is active

        EXIT CODES
          0  checked (a layer may be missing; see "complete")
          1  HUD_REQUIRE_SANDBOX=1 and a layer is missing, or no helper, or libffi fails
          2  usage error
        """

    let json: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("doctor takes no arguments") }
        json = arguments.flag("--json")
    }

    func run() -> ExitCode {
        let searchPaths = SearchPaths.standard()
        let cache = RegistryCache.defaultDirectory()
        let libffi: Result<Void, RegistryError> = Result { () throws(RegistryError) in
            _ = try ComplicationsSnapshot(HudPhoneComplications(center: .init(icon: "circle", action: {})))
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
            Output.line("Sandbox helper\n  \((try? helper.get()) ?? "not found")")
            Output.line("Isolation layers")
            for layer in layers { Output.line("  \(layer.active ? "active " : "MISSING") \(layer.name): \(layer.detail)") }
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
