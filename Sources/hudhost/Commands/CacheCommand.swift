// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudScenes
import HudConformance

/// `hudhost cache`: where the registry cache lives, what it holds, and
/// `--clear` to reset it (failure records included).
struct CacheCommand: Command {
    static let name = "cache"
    static let summary = "Show or clear the registry cache (metadata and failure records)"
    static let path = Option.flag("--path", "print the cache file for the current search path")
    static let clear = Option.flag("--clear", "delete every registry cache file (all records, failures included; they are rebuilt on demand)")
    static let json = Option.flag("--json", "the records as JSON")
    static let options = [path, clear, json]
    static let help = HelpPage(
        usage: "hudhost cache [--path | --clear | --json]",
        description: """
            The registry cache keeps, per plugin file (keyed on device, inode, size,
            mtime and build-id, plus the host ABI and search path), what the file
            provides and how it last fared, so a warm `hudhost list` only stats
            files. It lives in $XDG_CACHE_HOME/hud (or ~/.cache/hud), mode 0700/0600.
            """,
        sections: [
            .options(options),
            .examples("""
                hudhost cache
                hudhost cache --clear
                """),
            .exitCodes("""
                For cache: 1 there is no cache directory (neither XDG_CACHE_HOME nor
                HOME is set, or the process is elevated), or --clear could not
                remove a cache file.
                """),
        ])

    let clear: Bool
    let pathOnly: Bool
    let json: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("cache takes no arguments") }
        clear = arguments.flag(Self.clear)
        pathOnly = arguments.flag(Self.path)
        json = arguments.flag(Self.json)
        guard [clear, pathOnly, json].filter({ $0 }).count <= 1 else { throw UsageError("give at most one of --clear, --path, --json") }
    }

    func run() -> ExitCode {
        guard let directory = RegistryCache.defaultDirectory() else {
            Output.error("hudhost cache: no cache directory: neither XDG_CACHE_HOME nor HOME is set (or the process is elevated)")
            return .failure
        }
        if clear {
            let outcome = RegistryCache.clear(directory: directory)
            Output.line("removed \(outcome.removed) cache file\(outcome.removed == 1 ? "" : "s") from \(directory)")
            // A record left behind would keep a failed plugin skipped: say so, exit 1.
            for failure in outcome.failures { Output.error("hudhost cache: error: cannot remove \(failure)") }
            return outcome.failures.isEmpty ? .ok : .failure
        }
        let cache = RegistryCache(directory: directory, searchPath: SearchPaths.standard().directories)
        if pathOnly {
            Output.line(cache.path)
            return .ok
        }
        if json {
            Output.out(JSONValue.object([
                ("schemaVersion", .number(Double(LayoutJSON.schemaVersion))),
                ("path", .string(cache.path)),
                ("discarded", cache.discardReason.map(JSONValue.string) ?? .null),
                ("files", .array(cache.allRecords.map(RegistryCache.json))),
            ]).serialized())
            return .ok
        }
        Output.line("cache: \(cache.path)")
        if let reason = cache.discardReason { Output.line("(the existing file was discarded: \(reason))") }
        let records = cache.allRecords
        if records.isEmpty { Output.line("no records") }
        for record in records {
            let what = record.status == .ok ? record.renderers.map(\.id).joined(separator: ", ") : "FAILED [\(record.failureCode?.rawValue ?? "?")] \(record.failureReason ?? "")"
            Output.line("  \(record.path): \(what)")
        }
        return .ok
    }
}
