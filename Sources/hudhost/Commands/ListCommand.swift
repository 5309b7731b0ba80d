// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance

/// `hudhost list`: every renderer the host can dispatch to — WITHOUT
/// running plugin code: metadata comes from each file's ELF section (or the
/// registry cache; a warm run only `stat`s unchanged files), and only files
/// without metadata are loaded, in a sandboxed child, once per change.
struct ListCommand: Command {
    static let name = "list"
    static let summary = "List every renderer and every plugin that failed (runs no plugin code)"
    static let json = Option.flag("--json", "machine-readable output (schemaVersion 1)")
    static let failed = Option.flag("--failed", "only the failure records")
    static let all = Option.flag("--all", "also list renderers filtered out by HUD_RENDERERS_DISABLE / HUD_RENDERERS_SELECT")
    static let options = [json, failed, all] + RegistryOptions.options
    static let help = HelpPage(
        usage: "hudhost list [--json] [--failed] [--all] [--plugin PATH]... [--builtin-only]",
        description: """
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
            """,
        sections: [
            .options(options),
            RegistryOptions.environment,
            .examples("""
                hudhost list
                HUD_RENDERER_PATH=$PWD/plugins hudhost list --json
                hudhost list --failed
                hudhost list --plugin ./libExampleRing.so
                """),
            .exitCodes(),
        ])

    let registryOptions: RegistryOptions
    let json: Bool
    let failedOnly: Bool
    let all: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("list takes no arguments; got '\(arguments.positionals[0])'") }
        registryOptions = try RegistryOptions(arguments)
        json = arguments.flag(Self.json)
        failedOnly = arguments.flag(Self.failed)
        all = arguments.flag(Self.all)
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
        let catalog = registryOptions.builtinOnly ? nil : registryOptions.catalog()
        let filters = RendererFilters.fromEnvironment()
        var rows: [Row] = RendererRegistry.withBuiltins().renderers.map {
            Row(id: $0.id, name: $0.name, version: $0.version, vendor: $0.vendor, summary: $0.summary,
                positions: $0.supportedPositions, capabilities: $0.capabilities,
                abi: $0.abiVersion, origin: "built-in", source: .builtin, cached: false, excluded: nil)
        }
        var failures: [Failure] = []
        // The ids listed so far: the duplicate check is one hash insert per
        // renderer, not a scan of every row (only a duplicate, rare, looks
        // up the row that holds its id).
        var origins = Set(rows.map(\.id))
        var report: PluginCatalog.Report?
        var exit = ExitCode.ok
        var shown: [Row] = []
        if let catalog {
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
        var anyExcluded = false
        for index in rows.indices where rows[index].excluded == nil {
            rows[index].excluded = filters.exclusion(for: rows[index].id)
            if rows[index].excluded != nil { anyExcluded = true }
        }
        // The rows themselves (no copy) unless some are to be left out.
        shown = all || !anyExcluded ? rows : rows.filter { $0.excluded == nil }
        if json {
            // Written member by member, no JSONValue tree: the same bytes
            // `JSONValue.serialized()` writes for the whole document,
            // streamed out every 64 KiB.
            let chunk = 64 << 10
            var writer = JSONWriter(pretty: true, reservingCapacity: chunk + 4096)
            writer.beginObject()
            writer.member("schemaVersion", integer: LayoutJSON.schemaVersion)
            writer.key("renderers")
            writer.beginArray()
            for row in failedOnly ? [] : shown {
                writer.element()
                Self.write(row, to: &writer)
                if writer.bytes.count >= chunk { writer.flush { Output.out(bytes: $0) } }
            }
            writer.endArray()
            writer.key("failures")
            writer.beginArray()
            for failure in failures {
                writer.element()
                writer.beginObject()
                writer.member("code", failure.code.rawValue)
                writer.member("path", failure.path)
                writer.member("rendererId", failure.rendererID)
                writer.member("message", failure.message)
                writer.endObject()
            }
            writer.endArray()
            writer.key("searchPath")
            writer.value(JSONValue.array((registryOptions.builtinOnly ? [] : SearchPaths.standard().directories).map(JSONValue.string)))
            writer.key("refusedPaths")
            writer.value(JSONValue.array((report?.refusedPaths ?? []).map(JSONValue.string)))
            writer.key("cache")
            writer.beginObject()
            writer.member("path", report?.cachePath)
            writer.member("discarded", report?.cacheDiscarded)
            writer.member("writeError", report?.cacheWriteError)
            writer.member("pluginFilesRead", integer: report?.filesRead ?? 0)
            writer.member("pluginFilesScanned", integer: report?.filesScanned ?? 0)
            writer.member("scannerProcesses", integer: report?.scannerChildren ?? 0)
            writer.endObject()
            writer.endObject()
            writer.raw("\n")
            Output.out(bytes: writer.bytes)
            return exit
        }
        if !failedOnly {
            var table = [["ID", "NAME", "VERSION", "ABI", "ORIGIN"]]
            table.reserveCapacity(shown.count + 1)
            for row in shown {
                table.append([row.id, row.name, row.version, row.abi.description, row.excluded.map { "\(row.origin)  (\($0))" } ?? row.origin])
            }
            Output.out(bytes: Table.bytes(table))
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

    private func add(_ file: PluginCatalog.File, to rows: inout [Row], origins: inout Set<String>, failures: inout [Failure]) {
        let path = file.canonicalPath ?? file.path
        switch file.state {
        case .available(let renderers, let source):
            for renderer in renderers {
                guard origins.insert(renderer.id).inserted else {
                    let existing = rows.first { $0.id == renderer.id }?.origin ?? ""
                    failures.append(Failure(code: .duplicateID, path: path, rendererID: renderer.id,
                                            message: "renderer id '\(renderer.id)' is provided twice: kept the one from \(existing), ignored the one from \(path); remove or rename one of them"))
                    continue
                }
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

    /// One renderer object of `list --json`.
    static func write(_ row: Row, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("id", row.id)
        writer.member("name", row.name)
        writer.member("version", row.version)
        writer.member("vendor", row.vendor)
        writer.member("description", row.summary)
        writer.member("abiVersion", row.abi.description)
        writer.member("origin", row.origin)
        writer.member("builtin", row.source == .builtin)
        writer.key("supportedPositions")
        writer.value(.array(Position.allCases.filter { row.positions.contains($0) }.map { .string($0.description) }))
        writer.key("capabilities")
        writer.value(.array(row.capabilities.names.map(JSONValue.string)))
        writer.member("source", row.source.rawValue)
        writer.member("cached", row.cached)
        writer.member("excluded", row.excluded)
        writer.endObject()
    }
}

/// Left-aligned text columns separated by two spaces, every row ending
/// in a newline. A column is as wide as its widest cell in `Character`s;
/// an all-ASCII cell (ids, versions, paths: nearly all) is measured by its
/// byte count, the same number, without walking grapheme clusters.
enum Table {
    static func format(_ rows: [[String]]) -> String { String(decoding: bytes(rows), as: UTF8.self) }

    /// `format` as UTF-8: what `hudhost list` writes for thousands of rows.
    static func bytes(_ rows: [[String]]) -> [UInt8] { bytes(rows[...], widths: widths(rows)) }

    /// Each column's width: its widest cell's (as many columns as the
    /// first row has).
    static func widths(_ rows: [[String]]) -> [Int] {
        guard let first = rows.first else { return [] }
        var widths = Array(repeating: 0, count: first.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], width(cell)) }
        }
        return widths
    }

    /// `rows` laid out in columns of `widths` (from `widths(_:)` of these
    /// rows or of a table they are part of).
    static func bytes(_ rows: ArraySlice<[String]>, widths: [Int]) -> [UInt8] {
        // Each row: its cells padded to the widths, the separators, a newline
        // (exact when the cells are ASCII and no row is longer than the first).
        var out: [UInt8] = []
        out.reserveCapacity(rows.count * (widths.reduce(0, +) + 2 * max(widths.count - 1, 0) + 1))
        for row in rows {
            for (index, cell) in row.enumerated() {
                if index > 0 {
                    out.append(0x20)
                    out.append(0x20)
                }
                out.append(contentsOf: cell.utf8)
                guard index < row.count - 1, index < widths.count else { continue }
                var padding = widths[index] - width(cell)
                while padding > 0 {
                    let run = min(padding, spaces.count)
                    out.append(contentsOf: spaces[..<run])
                    padding -= run
                }
            }
            out.append(0x0A)
        }
        return out
    }

    private static let spaces = [UInt8](repeating: 0x20, count: 64)

    /// The cell's width in `Character`s.
    private static func width(_ cell: String) -> Int {
        let span = cell.utf8.span
        for index in 0..<span.count where span[index] >= 0x80 { return cell.count }
        return span.count
    }
}
