// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance

/// `hudhost probe <path|id>`: loads one plugin (or finds one registered
/// renderer) and prints everything its descriptors say, plus a sample
/// layout of the demo complications.
struct ProbeCommand: Command {
    static let name = "probe"
    static let summary = "Load one plugin or renderer and describe it, with a sample layout"
    static let arguments: Option.Value? = .file
    static let json = Option.flag("--json", "machine-readable output (schemaVersion 1)")
    static let noSample = Option.flag("--no-sample", "skip the sample layout")
    static let inProcess = Option.flag("--in-process", "load the file in this process (for debuggers)")
    static let options = [json, noSample, inProcess] + EnvironmentOptions.options + RegistryOptions.options
    static let help = HelpPage(
        usage: "hudhost probe <path-to-.so | renderer-id> [--json] [--no-sample] [options]",
        description: """
            With a path (anything containing '/' or ending in .so): loads that file
            alone, through dlopen, in a sandboxed child process (time and memory
            limits; a crash or hang is reported, never fatal), describes every
            renderer it provides, and runs the sample layouts in a sandboxed
            renderer host (as render --plugin does). With an id: finds the
            registered renderer (built-in, or a plugin on the search path that
            passed its scan). Prints the full descriptor (id, name, version,
            vendor, description, ABI version, capabilities, supported positions,
            origin) and a sample layout of the seed's demo complications on the
            chosen device.
            """,
        sections: [
            .options(options),
            RegistryOptions.environment,
            .examples("""
                hudhost probe com.hudson.tray
                hudhost probe .build/debug/libBuiltinRenderers.so
                hudhost probe ./libExampleRing.so --json
                """),
            .exitCodes(),
        ])

    let target: String
    let registryOptions: RegistryOptions
    let environmentOptions: EnvironmentOptions
    let json: Bool
    let sample: Bool
    let inProcess: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty ? "probe needs a plugin path or a renderer id" : "probe takes one plugin path or renderer id; got \(arguments.positionals.count)")
        }
        target = arguments.positionals[0]
        registryOptions = try RegistryOptions(arguments)
        environmentOptions = try EnvironmentOptions(arguments)
        json = arguments.flag(Self.json)
        sample = !arguments.flag(Self.noSample)
        inProcess = arguments.flag(Self.inProcess)
    }

    var isPath: Bool { target.contains("/") || target.hasSuffix(".so") }

    func run() -> ExitCode {
        let registry: RendererRegistry
        let renderers: [RendererInfo]
        var failures: [RegistryError] = []
        if isPath {
            // A fresh registry: the file is described on its own, so even a
            // build of the built-ins loads without colliding with them.
            registry = RendererRegistry(security: registryOptions.security, isolation: inProcess ? .inProcess : registryOptions.isolation)
            registry.hostSettings = registryOptions.hostSettings
            do {
                if inProcess {
                    renderers = try registry.load(path: Output.absolute(target))
                } else {
                    // The path checks, a trial load in a sandboxed child
                    // (hudsandbox scan), then, with process isolation, the
                    // sample layouts in a renderer host: what is printed is
                    // the host's own reading of raw facts, never the child's.
                    renderers = try registry.load(checking: Output.absolute(target))
                }
                failures = registry.failures
            } catch {
                return emitFailure(CommandFailure(error))
            }
        } else {
            let made = registryOptions.makeRegistry()
            registry = made.registry
            if let first = made.explicitFailures.first {
                made.explicitFailures.dropFirst().forEach(report)
                return emitFailure(CommandFailure(first))
            }
            guard let info = registry.info(id: target) else {
                return emitFailure(RendererLookup(id: target, registry: registry, report: made.catalog).failure)
            }
            renderers = [info]
        }
        return describe(renderers, of: registry, failures: failures)
    }

    /// Prints `renderers` (with a sample layout each unless --no-sample)
    /// and returns the exit code.
    private func describe(_ renderers: [RendererInfo], of registry: RendererRegistry, failures: [RegistryError]) -> ExitCode {
        let environment = environmentOptions.environment
        var samples: [(RendererInfo, Result<HudLayout, RegistryError>)] = []
        if sample {
            let complications = DemoComplications.make(renderers: registry.renderers) { _ in }
            do {
                let snapshot = try ComplicationsSnapshot(complications)
                for info in renderers {
                    samples.append((info, Result { () throws(RegistryError) in
                        try registry.layout(style: .renderer(info.id), snapshot: snapshot, environment: environment)
                    }))
                }
            } catch {
                return emitFailure(CommandFailure(error))
            }
        }
        // As registered now: a renderer host fills in what its metadata
        // section does not carry (the description) once it has started.
        let shown = renderers.map { registry.info(id: $0.id) ?? $0 }
        if json {
            Output.out(JSONValue.object([
                ("schemaVersion", .number(Double(LayoutJSON.schemaVersion))),
                ("target", .string(target)),
                ("renderers", .array(shown.map { info in
                    var members = LayoutJSON.renderer(info).objectValue ?? []
                    if let result = samples.first(where: { $0.0.id == info.id })?.1 {
                        switch result {
                        case .success(let layout): members.append(("sampleLayout", LayoutJSON.layout(layout)))
                        case .failure(let error): members.append(("sampleError", LayoutJSON.error(error)))
                        }
                    }
                    return .object(members)
                })),
                ("failures", .array(failures.map(LayoutJSON.error))),
            ]).serialized())
        } else {
            for info in shown {
                Output.line("\(info.name) — \(info.id)")
                Output.out(Table.format([
                    ["  version", info.version],
                    ["  vendor", info.vendor],
                    ["  description", info.summary],
                    ["  ABI", info.abiVersion.description],
                    ["  origin", info.origin.description],
                    ["  positions", Position.allCases.filter(info.supportedPositions.contains).map(\.description).joined(separator: ", ")],
                    ["  capabilities", info.capabilities.names.isEmpty ? "none" : info.capabilities.names.joined(separator: ", ")],
                ]))
                if let result = samples.first(where: { $0.0.id == info.id })?.1 {
                    switch result {
                    case .success(let layout):
                        let presenter = AsciiPresenter(columns: 40)
                        Output.line("  sample layout (demo complications, \(environmentOptions.device.id)):")
                        Output.out(presenter.render(layout, environment: environment))
                        Output.out(presenter.legend(layout))
                    case .failure(let error):
                        Output.line("  sample layout failed: \(error)")
                    }
                }
                Output.line()
            }
            for failure in failures { Output.line("failure: [\(failure.code)] \(failure)") }
        }
        // A file none of whose renderers registered cannot be used (3); a
        // sample that failed, or some renderers of the file, is a failure (1),
        // unless the renderer could not even be loaded for it.
        if renderers.isEmpty, !failures.isEmpty { return .unusableTarget }
        let sampleCodes = samples.compactMap { sample -> ExitCode? in
            if case .failure(let error) = sample.1 { ExitCode(error) } else { nil }
        }
        if sampleCodes.contains(.unusableTarget) { return .unusableTarget }
        return !sampleCodes.isEmpty || !failures.isEmpty ? .failure : .ok
    }

    /// Reports `failure` (with --json as `{schemaVersion, target, error}`)
    /// and returns its exit code.
    private func emitFailure(_ failure: CommandFailure) -> ExitCode {
        if json { Output.out(failure.document([("target", .string(target))])) }
        failure.report()
        return failure.exit
    }
}
