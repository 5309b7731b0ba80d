// SPDX-License-Identifier: MIT
import Glibc
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance
import HudSystem

/// `hudhost why <id|path>`: explains, step by step, why a renderer is or is
/// not available — search path, the file, security, metadata, filters, a
/// fresh sandboxed load, and the last validation.
struct WhyCommand: Command {
    static let name = "why"
    static let summary = "Explain step by step why a renderer is or is not available"
    static let arguments: Option.Value? = .file
    static let options = [ColorOptions.color] + RegistryOptions.options
    static let help = HelpPage(
        usage: "hudhost why <renderer-id | path-to-.so> [--allow-insecure-path] [--no-cache]",
        description: """
            Explains where hudhost looked and what it found: the search path and
            where each entry comes from, the file (canonical path, identity), the
            security checks, the metadata (ELF section, sandboxed scan or cache), the
            HUD_RENDERERS_DISABLE / HUD_RENDERERS_SELECT filters, the outcome of
            loading the plugin now in a sandboxed child, and its last validation.
            """,
        sections: [
            .options(options),
            RegistryOptions.environment,
            .examples("""
                hudhost why com.hudson.tray
                hudhost why org.hudson.example.ring
                hudhost why ~/.local/lib/hud/renderers/libring.so
                """),
            .exitCodes("""
                For why: 0 the renderer (or every renderer of the file) is available;
                3 it is not — unknown, filtered out, refused or failing to load (the
                output says which).
                """),
        ])

    let target: String
    let registryOptions: RegistryOptions
    let color: ColorOptions

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else { throw UsageError("why takes one renderer id or plugin path") }
        target = arguments.positionals[0]
        registryOptions = try RegistryOptions(arguments)
        color = try ColorOptions(arguments)
    }

    var isPath: Bool { target.contains("/") || target.hasSuffix(".so") }

    func run() -> ExitCode {
        var step = 0
        func say(_ title: String, _ lines: [String]) {
            step += 1
            Output.line("\(step). \(title)")
            for line in lines { Output.line("   " + line) }
        }
        let filters = RendererFilters.fromEnvironment()
        Output.line("Why \(isPath ? "file" : "renderer") '\(target)' is or is not available:")
        Output.line()

        if !isPath, let builtin = RendererRegistry.withBuiltins().info(id: target) {
            say("Origin", ["built-in: linked into hudhost (registered through the same entry path as plugins)"])
            let exclusion = filters.exclusion(for: builtin.id)
            say("Filters", [exclusion ?? "allowed (HUD_RENDERERS_DISABLE / HUD_RENDERERS_SELECT do not exclude it)"])
            return verdict(exclusion == nil, exclusion ?? "it is built in")
        }

        let searchPaths = SearchPaths.standard()
        var pathLines: [String] = []
        if SearchPaths.isElevated { pathLines.append("running elevated: HUD_RENDERER_PATH and the user directory are ignored") }
        if registryOptions.builtinOnly { pathLines.append("--builtin-only: plugins are not used at all") }
        for directory in searchPaths.directories {
            let exists = (try? SystemCalls.status(of: directory).get())?.isDirectory == true
            pathLines.append("\(directory)  [\(Self.origin(of: directory, in: searchPaths))]\(exists ? "" : "  (does not exist)")")
        }
        for refused in searchPaths.refused { pathLines.append("refused entry '\(refused.entry)': \(refused.reason)") }
        say("Search path (in order; the working directory is never searched)", pathLines)

        let catalog = registryOptions.catalog()
        let report = catalog.scan()
        let file: PluginCatalog.File?
        if isPath {
            let absolute = Output.absolute(target)
            let canonical = Self.canonical(absolute)
            file = report.files.first { $0.canonicalPath == canonical || $0.path == absolute }
                ?? catalog.examine(file: absolute, directory: PathSecurity.parent(of: absolute))
            guard let file else {
                say("File", ["\(absolute): does not exist"])
                return verdict(false, "there is no such file")
            }
            let onPath = report.files.contains { $0.canonicalPath == file.canonicalPath && $0.canonicalPath != nil }
            say("File", [
                "path: \(file.path)", "canonical: \(file.canonicalPath ?? "(cannot resolve)")",
                onPath ? "found in search directory \(file.directory)" : "NOT in any search directory: it is used only when named with --plugin",
            ])
        } else {
            let matches = report.files.filter { $0.renderers.contains { $0.id == target } }
            guard let first = matches.first else {
                // The same facts an unknown --style or id is reported with.
                let lookup = RendererLookup(id: target, registry: nil, report: report, filters: filters)
                say("File", ["no plugin file on the search path provides '\(target)'"] + lookup.reasons
                    + (lookup.unread.isEmpty ? [] : ["run `hudhost why <path>` on a file above to see why it could not be read"]))
                return verdict(false, "no file on the search path provides it" + (lookup.suggestion.map { " (did you mean '\($0)'?)" } ?? ""))
            }
            file = first
            var lines = ["provided by \(first.canonicalPath ?? first.path)", "found in search directory \(first.directory)"]
            for other in matches.dropFirst() { lines.append("also provided by \(other.canonicalPath ?? other.path): ignored (the first one wins)") }
            say("File", lines)
        }
        guard let file else { return verdict(false, "no file") }

        switch file.state {
        case .refused(let reason):
            say("Security", ["REFUSED: \(reason)", "(development only: --allow-insecure-path)"])
            return verdict(false, "the file or a directory above it is unsafe")
        case .duplicate(let first):
            say("Identity", ["the same file (device and inode) as \(first), which is listed instead"])
            return verdict(false, "it is a duplicate of \(first)")
        default:
            say("Security", [registryOptions.allowInsecure ? "skipped (--allow-insecure-path)" : "ok: the file and every directory above it are owned by root or you and not writable by others"])
        }

        switch file.state {
        case .available(let renderers, let source):
            let from = switch source {
            case .elfSection: "read from the file's .hud_renderers ELF section (no plugin code ran)"
            case .sandboxScan: "learned by loading the plugin in a sandboxed child (the file has no .hud_renderers section)"
            case .builtin: "linked into the host"
            }
            say("Metadata", [from + (file.fromCache ? "; cached, the file is unchanged since" : "")]
                + renderers.map { "\($0.id)  \($0.name) \($0.version)  ABI \($0.abiVersion)" })
        case .failed(let code, let reason):
            say("Metadata / scan", ["FAILED [\(code)]: \(reason)", file.fromCache ? "recorded earlier; skipped until the file changes (then retried automatically)" : "recorded; skipped until the file changes"])
            return verdict(false, "the plugin failed [\(code)]")
        default:
            break
        }

        let ids = isPath ? file.renderers.map(\.id) : [target]
        var filterLines: [String] = []
        var excluded: [String] = []
        for id in ids {
            if let reason = filters.exclusion(for: id) {
                filterLines.append("\(id): \(reason)")
                excluded.append(id)
            } else {
                filterLines.append("\(id): allowed")
            }
        }
        say("Filters (HUD_RENDERERS_DISABLE, then HUD_RENDERERS_SELECT)", filterLines)

        let path = file.canonicalPath ?? file.path
        let load = SandboxScanner().scan(path, allowInsecurePath: registryOptions.allowInsecure)
        switch load.outcome {
        case .renderers(let loaded):
            let missing = ids.filter { id in !loaded.contains { $0.id == id } }
            say("Load (now, in a sandboxed child process)", ["ok: \(loaded.map(\.id).joined(separator: ", "))"]
                + missing.map { "'\($0)' is listed but did not register: run `hudhost probe \(path)`" })
            if !missing.isEmpty { return verdict(false, "loading does not register \(missing.joined(separator: ", "))") }
        case .failed(let code, let reason):
            say("Load (now, in a sandboxed child process)", ["FAILED [\(code)]: \(reason)"])
            catalog.cache?.markFailed(path: path, code: code, reason: reason, loaded: load.loaded)
            catalog.cache?.save()
            return verdict(false, "loading fails [\(code)]")
        }

        let validation = catalog.cache?.allRecords.first { $0.path == path }?.validation
        say("Validation", [validation.map { "last `hudhost validate`: \($0)" } ?? "never validated; run `hudhost validate \(path)`"])

        if !excluded.isEmpty, excluded.count == ids.count {
            return verdict(false, "filtered out: \(excluded.joined(separator: ", "))")
        }
        return verdict(true, "it loads and is not filtered out")
    }

    private func verdict(_ available: Bool, _ reason: String) -> ExitCode {
        let colored = color.forStandardOutput
        Output.line()
        Output.line(available
            ? ColorOptions.paint("AVAILABLE", "1;32", colored) + ": \(reason)."
            : ColorOptions.paint("NOT AVAILABLE", "1;31", colored) + ": \(reason).")
        return available ? .ok : .unusableTarget
    }

    static func origin(of directory: String, in paths: SearchPaths) -> String {
        if SearchPaths.systemDirectories.contains(directory) { return "system directory" }
        if directory == SearchPaths.installDirectory { return "this install's renderer directory" }
        if directory.hasSuffix("/.local/lib/hud/renderers") { return "user directory ($HOME)" }
        return "HUD_RENDERER_PATH"
    }

    static func canonical(_ path: String) -> String {
        (try? SystemCalls.realPath(path).get()) ?? path
    }
}
