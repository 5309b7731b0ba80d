// SPDX-License-Identifier: MIT
import HudRegistry

/// What hudhost already knows about a renderer id, from the registry (what
/// registered, what the filters dropped, what failed to load) and the
/// catalog of plugin files on the search path (which files list the id,
/// which could not be read). `hudhost why` walks these facts step by step;
/// every "no renderer with id X" message states the ones that apply and
/// points to `hudhost why X`. Nothing here runs plugin code.
struct RendererLookup {
    let id: String
    /// The registered renderer with this id, if any.
    let registered: RendererInfo?
    /// Files on the search path whose metadata lists the id, in search
    /// order (the first one is used).
    let providers: [PluginCatalog.File]
    /// Files on the search path whose ids could not be read — refused by
    /// the path checks, or failed (ELF, scan, an earlier load) — any of
    /// which might provide the id.
    let unread: [PluginCatalog.File]
    /// Why HUD_RENDERERS_DISABLE / HUD_RENDERERS_SELECT exclude the id,
    /// when a renderer with it exists (built in or listed by a file).
    let exclusion: String?
    /// A load failure that names the id or one of its providers' files.
    let loadFailure: RegistryError?
    /// Every id hudhost knows of: registered, filtered out, or listed by a
    /// file on the search path.
    let knownIDs: [String]
    /// The known id (or built-in style name) the id is probably a typo of.
    let suggestion: String?

    /// - Parameters:
    ///   - registry: the registry the command built (nil: only the
    ///     built-ins are known, as in `validate`).
    ///   - report: the catalog scan of the search path (nil: not scanned,
    ///     e.g. `--builtin-only`).
    init(id: String, registry: RendererRegistry?, report: PluginCatalog.Report?, filters: RendererFilters = .fromEnvironment()) {
        self.id = id
        let builtins = RendererRegistry.withBuiltins().renderers.map(\.id)
        registered = registry?.info(id: id)
        let files = report?.files ?? []
        providers = files.filter { $0.renderers.contains { $0.id == id } }
        unread = files.filter { file in
            switch file.state {
            case .refused, .failed, .needsScan: true
            case .available, .duplicate: false
            }
        }
        let filteredIDs = registry?.filtered.map(\.id) ?? []
        var known: [String] = []
        for candidate in (registry?.renderers.map(\.id) ?? builtins) + filteredIDs + files.flatMap({ $0.renderers.map(\.id) })
        where !known.contains(candidate) {
            known.append(candidate)
        }
        knownIDs = known
        let exists = known.contains(id) || builtins.contains(id)
        exclusion = registry?.filtered.first { $0.id == id }?.reason ?? (exists ? filters.exclusion(for: id) : nil)
        let providerPaths = Set(providers.compactMap(\.canonicalPath))
        loadFailure = registry?.failures.first { failure in
            failure.rendererID == id || failure.path.map(providerPaths.contains) == true
        }
        if exists {
            suggestion = nil
        } else {
            let shortNames = known.compactMap { candidate -> String? in
                let style = HudPhoneComplicationsStyle(name: candidate)
                return style.description == candidate ? nil : style.description
            }
            suggestion = Suggestion.closest(to: id, among: known + shortNames)
        }
    }

    /// The reasons the id cannot be used, most specific first, each a
    /// sentence; empty when it is registered.
    var reasons: [String] {
        guard registered == nil else { return [] }
        var lines: [String] = []
        if let exclusion {
            lines.append("it is filtered out: \(exclusion)")
        }
        if let loadFailure {
            switch loadFailure.code {
            case .metadataMismatch: lines.append("it is not registered: its descriptor and its file's metadata disagree: \(loadFailure)")
            case .insecurePath: lines.append("its file was refused: \(loadFailure)")
            default: lines.append("its file failed to load: \(loadFailure)")
            }
        }
        if lines.isEmpty, let first = providers.first {
            lines.append("\(first.canonicalPath ?? first.path) lists it, but it did not register")
        }
        if lines.isEmpty {
            if let suggestion { lines.append("did you mean '\(suggestion)'?") }
            lines.append("known ids: \(knownIDs.isEmpty ? "none" : knownIDs.joined(separator: ", "))")
            for file in unread.prefix(5) {
                let path = file.canonicalPath ?? file.path
                switch file.state {
                case .refused(let reason): lines.append("\(path) was refused (\(reason)); it might provide it (development only: --allow-insecure-path)")
                case .failed(let code, let reason):
                    lines.append("\(path) failed [\(code)]: \(reason) — it might provide it")
                default: lines.append("\(path) was not scanned; it might provide it")
                }
            }
            if unread.count > 5 { lines.append("\(unread.count - 5) more files on the search path could not be read (`hudhost list --failed`)") }
        }
        return lines
    }

    /// "no renderer with id 'X' (did you mean 'Y'?); …": every reason on
    /// one line, and where to look next.
    var explanation: String {
        var reasons = reasons
        var head = exclusion != nil || loadFailure != nil || !providers.isEmpty
            ? "renderer '\(id)' is not available"
            : "no renderer with id '\(id)'"
        if let suggestion, reasons.first == "did you mean '\(suggestion)'?" {
            head += " (did you mean '\(suggestion)'?)"
            reasons.removeFirst()
        }
        return ([head] + reasons + ["run `hudhost why \(id)` for the whole story"]).joined(separator: "; ")
    }

    /// The failure to report (exit 3): `unknown-renderer`, or the load
    /// failure's own code.
    var failure: CommandFailure {
        CommandFailure(code: loadFailure?.code.rawValue ?? FailureCode.unknownRenderer.rawValue,
                       path: loadFailure?.path ?? providers.first.map { $0.canonicalPath ?? $0.path },
                       rendererID: id, message: explanation, exit: .unusableTarget)
    }
}
