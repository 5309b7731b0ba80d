// SPDX-License-Identifier: MIT
import Glibc
import HudRegistry
import HudScenes
import HudSystem

/// hudbench: the registry's benchmark harness (BENCHMARKS.md). See `--help`.
@main
struct HudBench {
    static func main() {
        let options: Options
        do {
            options = try Options(Array(CommandLine.arguments.dropFirst()))
        } catch {
            Console.error("hudbench: \(error)")
            exit(2)
        }
        if options.help {
            Console.out(Options.usage + "\n")
            exit(0)
        }
        do {
            if let directory = options.internalDiscover {
                try Discovery.child(directory: directory.directory, output: directory.output)
                exit(0)
            }
            let registry = try makeRegistry(options)
            if let output = options.internalAllocations {
                try Allocations.child(output: output, options: options, registry: registry)
                exit(0)
            }
            if let profile = options.profile {
                try TimingScenarios.profile(profile.scenario, renderer: profile.renderer, registry: registry)
                exit(0)
            }
            try run(options, registry: registry)
        } catch {
            Console.error("hudbench: harness failure: \(error)")
            if options.json {
                Console.out(Report(quick: options.quick).json(machine: .current(), error: "\(error)").serialized())
            }
            exit(1)
        }
    }

    static func run(_ options: Options, registry: RendererRegistry) throws {
        let machine = Machine.current()
        var report = Report(quick: options.quick)
        report.renderers = registry.renderers.map { "\($0.id) (\($0.origin))" }
        for failure in registry.failures { report.notes.append("load failure: \(failure)") }
        #if DEBUG
        report.notes.append("DEBUG BUILD: numbers are not meaningful; run `swift run -c release hudbench`")
        #endif
        let sampler = Sampler(options.quick ? .quick : .full)
        let scenarios = TimingScenarios(registry: registry, sampler: sampler, options: options)
        let steps: [(String, (inout Report) throws -> Void)] = [
            ("layout", scenarios.layout),
            ("frame", scenarios.frame),
            ("publish", scenarios.publish),
            ("thunk", scenarios.thunks),
            ("hit", scenarios.hitTesting),
            ("growth", scenarios.growth),
        ]
        for (name, step) in steps {
            progress("\(name)…")
            try step(&report)
        }
        if options.selects("isolation") {
            progress("isolation (renderer hosts)…")
            try IsolationBench.measure(registry: registry, sampler: sampler, options: options, into: &report)
        }
        if options.selects("allocations") {
            progress("allocations (LD_PRELOAD child)…")
            try Allocations.measure(options: options, into: &report)
        }
        if options.selects("discovery") {
            progress("discovery…")
            try Discovery.measure(options: options, into: &report)
        }
        if options.selects("snapshot") {
            progress("snapshot (hudhost snapshot verify)…")
            try SnapshotBench.measure(options: options, into: &report)
        }
        Budgets.evaluate(&report)
        if options.json {
            Console.out(report.json(machine: machine, error: nil).serialized())
        } else {
            Console.out(report.markdown(machine: machine))
        }
    }

    /// Built-ins, the search path, ExampleRing next to this executable, and
    /// every --plugin.
    static func makeRegistry(_ options: Options) throws -> RendererRegistry {
        let registry = RendererRegistry.withBuiltins()
        guard !options.builtinOnly else { return registry }
        registry.discoverWithoutSandbox()
        let ring = Files.executableDirectory + "/libExampleRing.so"
        if Files.exists(ring) { _ = try? registry.load(path: ring) }
        for plugin in options.plugins {
            do {
                try registry.load(path: plugin)
            } catch {
                throw HarnessError("cannot load --plugin \(plugin): \(error)")
            }
        }
        return registry
    }

    static func progress(_ text: String) {
        Console.error("hudbench: \(text)")
    }
}

/// Output without C stdio globals: results to stdout (fd 1), progress and
/// diagnostics to stderr (fd 2), each written whole.
enum Console {
    static func out(_ text: String) { write(1, text) }
    static func error(_ text: String) { write(2, text.hasSuffix("\n") ? text : text + "\n") }

    private static func write(_ fd: Int32, _ text: String) { SystemCalls.writeAll(fd, text) }
}
