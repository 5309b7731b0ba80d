// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudUnsafe

/// `hudhost list`: every renderer the host can dispatch to — WITHOUT
/// running plugin code: metadata comes from each file's ELF section (or the
/// registry cache; a warm run only `stat`s unchanged files), and only files
/// without metadata are loaded, in a sandboxed child, once per change.
struct ListCommand: Command {
    static let name = "list"
    static let summary = "List every renderer and every plugin that failed (runs no plugin code)"
    static let options: [Arguments.Option] = RegistryOptions.options + [.flag("--json"), .flag("--failed"), .flag("--all"), .flag("--help")]
    static let help = """
        USAGE: hudhost list [--json] [--failed] [--all] [--plugin PATH]... [--builtin-only]

        Lists the built-in renderers, then every plugin found on the search path
        (HUD_RENDERER_PATH, ~/.local/lib/hud/renderers, /usr/local/lib/hud/renderers,
        /usr/lib/hud/renderers) with id, name, version, ABI version and origin.
        No plugin code runs in this process: metadata is read from the file's
        .hud_renderers ELF section or the registry cache; a file without the
        section is loaded once in a sandboxed child process (time and memory
        limits) and the outcome cached until the file changes. Files that
        failed, were refused (unsafe permissions) or are duplicates are listed
        with the reason. Failures on the search path do not change the exit
        code; a --plugin file that cannot be used does (exit 3, also said on
        stderr).

        OPTIONS
          --json              machine-readable output (schemaVersion 1)
          --failed            only the failure records
          --all               also list renderers filtered out by
                              HUD_RENDERERS_DISABLE / HUD_RENDERERS_SELECT
        \(RegistryOptions.help)

        EXAMPLES
          hudhost list
          HUD_RENDERER_PATH=$PWD/plugins hudhost list --json
          hudhost list --failed
          hudhost list --plugin ./libExampleRing.so

        \(exitCodeHelp)
        """

    let registryOptions: RegistryOptions
    let json: Bool
    let failedOnly: Bool
    let all: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("list takes no arguments; got '\(arguments.positionals[0])'") }
        registryOptions = try RegistryOptions(arguments)
        json = arguments.flag("--json")
        failedOnly = arguments.flag("--failed")
        all = arguments.flag("--all")
    }

    /// One row of the listing.
    struct Row {
        var id: String
        var name: String
        var version: String
        var vendor: String
        var summary: String?
        var positions: Set<Position>
        var capabilities: RendererInfo.Capabilities
        var abi: ABIVersion
        var origin: String
        var source: MetadataSource
        var cached: Bool
        var excluded: String?
    }

    /// One failed, refused or duplicate file.
    struct Failure {
        var code: FailureCode
        var path: String
        var rendererID: String?
        var message: String
    }

    func run() -> ExitCode {
        let filters = RendererFilters.fromEnvironment()
        var rows: [Row] = RendererRegistry.withBuiltins().renderers.map {
            Row(id: $0.id, name: $0.name, version: $0.version, vendor: $0.vendor, summary: $0.summary,
                positions: $0.supportedPositions, capabilities: $0.capabilities,
                abi: $0.abiVersion, origin: "built-in", source: .builtin, cached: false, excluded: nil)
        }
        var failures: [Failure] = []
        // id → origin of the row that holds it: the duplicate check is one
        // hash lookup per renderer, not a scan of every row so far.
        var origins: [String: String] = Dictionary(rows.map { ($0.id, $0.origin) }, uniquingKeysWith: { first, _ in first })
        var report: PluginCatalog.Report?
        var exit = ExitCode.ok
        if !registryOptions.builtinOnly {
            let catalog = registryOptions.catalog()
            let scanned = catalog.scan()
            report = scanned
            rows.reserveCapacity(rows.count + scanned.files.count)
            origins.reserveCapacity(rows.count + scanned.files.count)
            for file in scanned.files { add(file, to: &rows, origins: &origins, failures: &failures) }
        }
        for path in registryOptions.plugins {
            guard let file = Self.examineExplicit(path, security: registryOptions.security) else {
                failures.append(Failure(code: .notAFile, path: path, rendererID: nil, message: "\(path): no such file"))
                Output.error("hudhost list: error: --plugin \(path): no such file")
                exit = .unusableTarget
                continue
            }
            let before = failures.count
            add(file, to: &rows, origins: &origins, failures: &failures)
            switch file.state {
            case .failed, .refused, .needsScan:
                // A file the user named that cannot be used: exit 3, and said on stderr too.
                exit = .unusableTarget
                for failure in failures[before...] { Output.error("hudhost list: error: --plugin \(path): \(failure.message)") }
            case .available, .duplicate:
                break
            }
        }
        for index in rows.indices where rows[index].excluded == nil {
            rows[index].excluded = filters.exclusion(for: rows[index].id)
        }
        let shown = rows.filter { all || $0.excluded == nil }
        if json {
            // Written piece by piece: the renderer rows (the bulk of the
            // document with thousands of plugins) go straight into the text,
            // one at a time, never as one JSONValue tree beside it. The same
            // text `JSONValue.serialized()` writes for the whole document.
            let listed = failedOnly ? [] : shown
            var text = "{\n  \"schemaVersion\": " + JSONValue.format(Double(LayoutJSON.schemaVersion)) + ",\n  \"renderers\": "
            if listed.isEmpty {
                text += "[]"
            } else {
                text.reserveCapacity(listed.count * 640)
                text += "["
                for (index, row) in listed.enumerated() {
                    text += index == 0 ? "\n    " : ",\n    "
                    Self.json(row).write(prettyAtDepth: 2, to: &text)
                }
                text += "\n  ]"
            }
            let rest = JSONValue.object([
                ("failures", .array(failures.map { f in
                    .object([("code", .string(f.code.rawValue)), ("path", .string(f.path)), ("rendererId", f.rendererID.map(JSONValue.string) ?? .null),
                             ("message", .string(f.message))])
                })),
                ("searchPath", .array((registryOptions.builtinOnly ? [] : SearchPaths.standard().directories).map(JSONValue.string))),
                ("refusedPaths", .array((report?.refusedPaths ?? []).map(JSONValue.string))),
                ("cache", .object([
                    ("path", report?.cachePath.map(JSONValue.string) ?? .null),
                    ("discarded", report?.cacheDiscarded.map(JSONValue.string) ?? .null),
                    ("writeError", report?.cacheWriteError.map(JSONValue.string) ?? .null),
                    ("pluginFilesRead", .number(Double(report?.filesRead ?? 0))),
                    ("pluginFilesScanned", .number(Double(report?.filesScanned ?? 0))),
                    ("scannerProcesses", .number(Double(report?.scannerChildren ?? 0))),
                ])),
            ]).serialized()
            // `rest` is "{\n  \"failures\": …\n}\n": its members follow the renderers.
            text += "," + rest.dropFirst()
            Output.out(text)
            return exit
        }
        if !failedOnly {
            let table = [["ID", "NAME", "VERSION", "ABI", "ORIGIN"]]
                + shown.map { [$0.id, $0.name, $0.version, $0.abi.description, $0.origin + ($0.excluded.map { "  (\($0))" } ?? "")] }
            Output.out(Table.format(table))
        }
        for refused in report?.refusedPaths ?? [] { Output.line("refused search path: \(refused)") }
        if let discarded = report?.cacheDiscarded { Output.error("hudhost list: note: the registry cache was discarded and rebuilt (\(discarded))") }
        if let writeError = report?.cacheWriteError { Output.error("hudhost list: note: the registry cache was not saved: \(writeError)") }
        if !failures.isEmpty {
            if !failedOnly { Output.line() }
            Output.line("\(failures.count) failure\(failures.count == 1 ? "" : "s"):")
            for failure in failures { Output.line("  [\(failure.code)] \(failure.message)") }
        } else if failedOnly {
            Output.line("no failures")
        }
        return exit
    }

    private func add(_ file: PluginCatalog.File, to rows: inout [Row], origins: inout [String: String], failures: inout [Failure]) {
        let path = file.canonicalPath ?? file.path
        switch file.state {
        case .available(let renderers, let source):
            for renderer in renderers {
                if let existing = origins[renderer.id] {
                    failures.append(Failure(code: .duplicateID, path: path, rendererID: renderer.id,
                                            message: "renderer id '\(renderer.id)' is provided twice: kept the one from \(existing), ignored the one from \(path); remove or rename one of them"))
                    continue
                }
                origins[renderer.id] = path
                rows.append(Row(id: renderer.id, name: renderer.name, version: renderer.version, vendor: renderer.vendor, summary: nil,
                                positions: renderer.supportedPositions, capabilities: renderer.capabilities,
                                abi: renderer.abiVersion, origin: path, source: source,
                                cached: file.fromCache, excluded: nil))
            }
        case .failed(let code, let reason):
            failures.append(Failure(code: code, path: path, rendererID: nil, message: "\(path): \(reason)\(file.fromCache ? " (recorded earlier; retried when the file changes)" : "")"))
        case .refused(let reason):
            failures.append(Failure(code: .insecurePath, path: path, rendererID: nil, message: "\(path): refused: \(reason) (development only: --allow-insecure-path)"))
        case .needsScan:
            failures.append(Failure(code: .notScanned, path: path, rendererID: nil, message: "\(path): has no metadata section and was not scanned"))
        case .duplicate(let first):
            failures.append(Failure(code: .duplicateFile, path: file.path, rendererID: nil, message: "\(file.path): the same file as \(first) (listed once)"))
        }
    }

    /// A `--plugin` file, examined like a search-path file (no cache).
    static func examineExplicit(_ path: String, security: PathSecurity) -> PluginCatalog.File? {
        let directory = PathSecurity.parent(of: Output.absolute(path))
        let catalog = PluginCatalog(searchPaths: SearchPaths(directories: []), security: security, cache: nil)
        return catalog.examine(file: Output.absolute(path), directory: directory)
    }

    static func json(_ row: Row) -> JSONValue {
        .object([
            ("id", .string(row.id)), ("name", .string(row.name)), ("version", .string(row.version)), ("vendor", .string(row.vendor)),
            ("description", row.summary.map(JSONValue.string) ?? .null), ("abiVersion", .string(row.abi.description)),
            ("origin", .string(row.origin)), ("builtin", .bool(row.source == .builtin)),
            ("supportedPositions", .array(Position.allCases.filter(row.positions.contains).map { .string($0.description) })),
            ("capabilities", .array(row.capabilities.names.map(JSONValue.string))),
            ("source", .string(row.source.rawValue)), ("cached", .bool(row.cached)), ("excluded", row.excluded.map(JSONValue.string) ?? .null),
        ])
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
