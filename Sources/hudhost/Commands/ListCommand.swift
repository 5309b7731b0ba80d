import HudRegistry

/// `hudhost list`: every renderer the host can dispatch to, and every
/// plugin that failed to load with its reason.
struct ListCommand: Command {
    static let name = "list"
    static let summary = "List every registered renderer and any load failures"
    static let options: [Arguments.Option] = RegistryOptions.options + [.flag("--json"), .flag("--help")]
    static let help = """
        USAGE: hudhost list [--json] [--plugin PATH]... [--builtin-only]

        Lists the built-in renderers, then every plugin found on the search path
        (HUD_RENDERER_PATH, ~/.local/lib/hud/renderers, /usr/local/lib/hud/renderers,
        /usr/lib/hud/renderers), with id, name, version, ABI version and origin.
        Plugins on the search path that failed to load are listed with the
        reason; they do not change the exit code. A plugin named with --plugin
        that fails to load does: exit 3.

        OPTIONS
          --json              machine-readable output (schemaVersion 1)
        \(RegistryOptions.help)

        EXAMPLES
          hudhost list
          HUD_RENDERER_PATH=$PWD/plugins hudhost list --json
          hudhost list --plugin ./libExampleRing.so

        \(exitCodeHelp)
        """

    let registryOptions: RegistryOptions
    let json: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("list takes no arguments; got '\(arguments.positionals[0])'") }
        registryOptions = RegistryOptions(arguments)
        json = arguments.flag("--json")
    }

    func run() -> ExitCode {
        let (registry, explicit, discovery) = registryOptions.makeRegistry()
        let failures = registry.failures + explicit.filter { !registry.failures.contains($0) }
        if json {
            Output.out(JSONValue.object([
                ("schemaVersion", .number(Double(LayoutJSON.schemaVersion))),
                ("renderers", .array(registry.renderers.map(LayoutJSON.renderer))),
                ("failures", .array(failures.map(LayoutJSON.error))),
                ("searchPath", .array((registryOptions.builtinOnly ? [] : SearchPaths.standard().directories).map(JSONValue.string))),
                ("refusedPaths", .array((discovery?.refusedPaths ?? []).map(JSONValue.string))),
            ]).serialized())
        } else {
            let rows = [["ID", "NAME", "VERSION", "ABI", "ORIGIN"]]
                + registry.renderers.map { [$0.id, $0.name, $0.version, $0.abiVersion, $0.origin.description] }
            Output.out(Table.format(rows))
            for refused in discovery?.refusedPaths ?? [] {
                Output.line("refused search path: \(refused)")
            }
            if !failures.isEmpty {
                Output.line()
                Output.line("\(failures.count) failure\(failures.count == 1 ? "" : "s"):")
                for failure in failures { Output.line("  [\(failure.code)] \(failure)") }
            }
        }
        return explicit.isEmpty ? .ok : .loadFailure
    }
}

/// Left-aligned text columns separated by two spaces.
enum Table {
    static func format(_ rows: [[String]]) -> String {
        guard let first = rows.first else { return "" }
        var widths = Array(repeating: 0, count: first.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
