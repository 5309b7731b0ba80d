// SPDX-License-Identifier: MIT
import HudRegistry
import HudScenes
/// hudbench's command line.
struct Options {
    var quick = false
    var json = false
    var filters: [String] = []
    var plugins: [String] = []
    var builtinOnly = false
    var help = false
    /// Internal child modes (run by hudbench itself in a fresh process).
    var internalAllocations: String?
    var internalDiscover: (directory: String, output: String)?
    /// `--profile SCENARIO ID`: one scenario, untimed, for callgrind.
    var profile: (scenario: String, renderer: String)?

    static let usage = """
        USAGE: hudbench [--quick] [--json] [--filter NAME]... [--plugin PATH]... [--builtin-only]

        Benchmarks the HUD renderer registry (BENCHMARKS.md): layout through the
        registry vs a direct C call, full shell frames, publishing and libffi
        thunks, hit testing and taps, growth with modes and label length,
        the out-of-process renderer host (round trip vs a bare socketpair
        ping-pong, start-up, hudhost render end to end vs in-process),
        discovery of 10/100/1000 generated plugins (hudhost list: wall time and
        peak RSS), heap allocations per steady-state layout (LD_PRELOAD
        malloc counter), and hudhost snapshot verify of ExampleRing over the
        default matrix (and, without --quick, the full one). Prints a Markdown
        table, then the budgets.

        Renderers: the built-ins, every plugin on HUD_RENDERER_PATH and the
        standard search path, libExampleRing.so from this executable's directory
        when present, and each --plugin PATH.

        OPTIONS
          --quick            a few seconds: fewer samples, discovery at N = 10 only,
                             no full snapshot matrix
          --json             JSON instead of Markdown (schemaVersion 1)
          --filter NAME      run only scenarios whose name contains NAME
                             (layout, frame, publish, thunk, hit, tap, growth,
                             isolation, discovery, allocations, snapshot); repeatable
          --plugin PATH      also load this plugin; repeatable
          --builtin-only     only the built-in renderers
          --profile SCENARIO ID
                             run one scenario (layout.direct, layout.registry,
                             layout.registry.decoded, frame.shell.republish)
                             100,000 times for renderer ID, untimed, for
                             valgrind --tool=callgrind
          --help             this text

        Build in release first, so hudhost and the plugins are next to hudbench:
          swift build -c release && swift run -c release hudbench
          swift run -c release hudbench --quick --filter layout
          swift run -c release hudbench --json > bench.json
          valgrind --tool=callgrind .build/release/hudbench --profile layout.registry com.hudson.tray

        EXIT CODES
          0  the harness ran (budgets are reported, never enforced)
          1  the harness broke (a scenario failed, a helper did not build)
          2  usage error
        """

    init(_ arguments: [String]) throws(UsageError) {
        var index = 0
        func value(_ flag: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError("\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--quick": quick = true
            case "--json": json = true
            case "--filter": filters.append(try value(argument))
            case "--plugin": plugins.append(try value(argument))
            case "--builtin-only": builtinOnly = true
            case "--help", "-h": help = true
            case "--internal-allocations": internalAllocations = try value(argument)
            case "--profile":
                let scenario = try value(argument)
                profile = (scenario, try value(argument))
            case "--internal-discover":
                let directory = try value(argument)
                internalDiscover = (directory, try value(argument))
            default: throw UsageError("unknown argument '\(argument)'; see hudbench --help")
            }
            index += 1
        }
        if builtinOnly && !plugins.isEmpty { throw UsageError("--builtin-only and --plugin contradict each other") }
    }

    /// Whether the scenario `name` runs under the filters.
    func selects(_ name: String) -> Bool {
        filters.isEmpty || filters.contains { name.contains($0) }
    }

    /// The arguments a child needs to rebuild the same registry.
    var registryArguments: [String] {
        (builtinOnly ? ["--builtin-only"] : []) + plugins.flatMap { ["--plugin", $0] }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
