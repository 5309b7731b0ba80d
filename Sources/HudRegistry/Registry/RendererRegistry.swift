package import HudUnsafe

/// The set of renderers a host can dispatch to. Built-ins and plugins
/// register through the same path (one `EntryLoader` over the same
/// `hud_entry_t`); the only
/// difference is where the entry pointer comes from: a linked symbol or
/// `dlsym`. A plugin that fails to load is recorded in `failures` and never
/// stops the others.
///
/// Not thread-safe: drive one registry from one thread (the shell's).
public final class RendererRegistry {
    private var renderersByID: [String: PluginRenderer] = [:]
    private var order: [String] = []
    /// Every load failure since the registry was made, in order.
    public private(set) var failures: [RegistryError] = []
    /// Files already loaded, by (device, inode), so a file reached twice
    /// (symlink, two search paths) loads once.
    private var loadedFiles: Set<FileIdentity> = []

    /// Load-time path checks (writable by others, foreign owner).
    public var security: PathSecurity
    /// HUD_RENDERERS_DISABLE / HUD_RENDERERS_SELECT, applied to every
    /// renderer registered (built-ins included).
    public var filters: RendererFilters
    /// Renderers that registered fine but were filtered out, with the reason.
    public private(set) var filtered: [(id: String, reason: String)] = []

    public init(security: PathSecurity = PathSecurity(), filters: RendererFilters = .none) {
        self.security = security
        self.filters = filters
    }

    /// A registry holding the three built-ins (tray, scattered, minimal).
    public static func withBuiltins(security: PathSecurity = PathSecurity(), filters: RendererFilters = .none) -> RendererRegistry {
        let registry = RendererRegistry(security: security, filters: filters)
        registry.registerBuiltins()
        return registry
    }

    /// Every registered renderer, in registration order.
    public var renderers: [RendererInfo] { order.compactMap { renderersByID[$0]?.info } }

    /// Registers the built-in renderers linked into this host.
    public func registerBuiltins() {
        register(EntryLoader.builtin())
    }

    /// Loads one plugin file and registers its renderers. Throws if the
    /// file cannot be used at all; renderers of a usable file that fail
    /// validation or collide are recorded in `failures` and the returned
    /// list holds the ones registered.
    @discardableResult
    ///
    /// - Parameter expected: what a sandboxed scan reported for a file
    ///   without a metadata section; the descriptors must match it, so what
    ///   `list` showed is what runs.
    public func load(path: String, expected: [RendererInfo]? = nil) throws(RegistryError) -> [RendererInfo] {
        let resolved = try Self.resolve(path)
        if let identity = resolved.identity, loadedFiles.contains(identity) {
            return renderers.filter { $0.origin == .file(resolved.path) }
        }
        if let problem = security.problem(canonicalPath: resolved.path) {
            throw .insecurePath(path: resolved.path, reason: problem)
        }
        // Read the embedded metadata first (no code runs), to check the
        // descriptors against it after loading.
        // A section that cannot be read is an error, not "no section": it
        // would otherwise skip the comparison.
        // (Files that are not ELF at all, or for another machine, are left to
        // dlopen, whose own message says more.)
        var metadata = PluginFileMetadata(renderers: [], hasMetadataSection: false, buildID: nil)
        do {
            metadata = try ElfMetadataReader.read(path: resolved.path)
        } catch where error.kind == .badMetadata || error.kind == .corrupt || error.kind == .executable {
            throw .invalidELF(path: resolved.path, kind: error.kind, reason: error.reason)
        } catch {}
        let loader = try EntryLoader.open(path: resolved.path) { () throws(RegistryError) in
            // The checks above cover every directory on the path, so nobody else
            // could swap the file; confirm the loader mapped the checked file.
            if let identity = resolved.identity, FileIdentity(path: resolved.path) != identity {
                throw .insecurePath(path: resolved.path, reason: "the file changed between the checks and dlopen")
            }
        }
        var result = try loader.load()
        if let identity = resolved.identity { loadedFiles.insert(identity) }
        let records = metadata.hasMetadataSection ? metadata.renderers : expected
        if let records {
            let offered = result.renderers.count
            result = Self.checkMetadata(records, against: result, path: resolved.path)
            // None kept: the plugin is not used, so balance its init().
            if offered > 0, result.renderers.isEmpty { result.deinitialize() }
        }
        return accept(result)
    }

    /// Loads every plugin the catalog found usable: files whose metadata
    /// section describes them, and files a sandboxed scan loaded without
    /// trouble (their descriptors must match the scan). No file's first
    /// load is in this process: a file known only from its metadata is
    /// loaded once in the sandbox first (remembered in the cache until the
    /// file changes), and one that fails there never runs here. Load
    /// failures are recorded in `failures` and in the catalog's cache
    /// (skipped until the file changes). The safe way to fill a registry
    /// from the search path. (A catalog without a scanner skips the trial.)
    @discardableResult
    public func loadPlugins(from catalog: PluginCatalog) -> PluginCatalog.Report {
        let report = catalog.scan()
        for file in report.files {
            guard case .available(let renderers, let source) = file.state, let path = file.canonicalPath else { continue }
            if let scanner = catalog.scanner, catalog.cache?.record(for: path)?.trialLoaded != true {
                if case .failed(let code, let reason) = scanner.scan(path, allowInsecurePath: security.allowInsecure) {
                    failures.append(.sandboxedLoadFailed(path: path, reasonCode: code, reason: reason))
                    catalog.cache?.markFailed(path: path, code: code, reason: reason)
                    continue
                }
                catalog.cache?.markTrialLoaded(path: path)
            }
            let before = failures.count
            do {
                try load(path: path, expected: source == .elfSection ? nil : renderers)
                // A file whose descriptors contradict what it told the catalog
                // is not listed again as available until it changes.
                if let mismatch = failures[before...].first(where: { $0.code == .metadataMismatch }) {
                    catalog.cache?.markFailed(path: path, code: .metadataMismatch, reason: mismatch.description)
                }
            } catch {
                failures.append(error)
                catalog.cache?.markFailed(path: path, code: error.code, reason: error.description)
            }
        }
        catalog.cache?.save()
        return report
    }

    /// Loads a file the user named (not found on the search path): the path
    /// checks first (no code from an unsafe path runs, not even in the
    /// sandbox), then one trial load in a sandboxed child, and only if the
    /// child loaded it cleanly, the load into this process.
    @discardableResult
    public func load(checking path: String, scanner: SandboxScanner = SandboxScanner()) throws(RegistryError) -> [RendererInfo] {
        if let refusal = security.refusal(for: path) { throw refusal }
        if case .failed(let code, let reason) = scanner.scan(path, allowInsecurePath: security.allowInsecure) {
            throw .sandboxedLoadFailed(path: path, reasonCode: code, reason: reason)
        }
        return try load(path: path)
    }

    /// Loads every `*.so` in the search path's directories straight into
    /// this process (each directory sorted by name; directories in order):
    /// every file's constructors and `init()` run here, unchecked by any
    /// sandbox, so a crashing plugin takes the process down. Benchmarks and
    /// tests of the loader only; hosts use `loadPlugins(from:)`.
    @discardableResult
    public func discoverWithoutSandbox(_ searchPaths: SearchPaths = .standard()) -> DiscoveryReport {
        var report = DiscoveryReport()
        for (entry, reason) in searchPaths.refused {
            report.refusedPaths.append(entry + ": " + reason)
        }
        for directory in searchPaths.directories {
            for file in Self.pluginFiles(in: directory) {
                let before = failures.count
                let registeredBefore = order.count
                do {
                    try load(path: file)
                } catch {
                    failures.append(error)
                }
                // Only what this file newly registered: a file reached twice
                // (symlink, repeated directory) is reported once.
                report.loaded += order[registeredBefore...].compactMap { renderersByID[$0]?.info }
                report.failures += failures[before...]
            }
        }
        return report
    }

    /// Records a failure that happened outside `load` (e.g. a host's own
    /// pre-checks), so it is reported with the others.
    public func recordFailure(_ error: RegistryError) {
        failures.append(error)
    }

    /// The renderer registered under `id`.
    public func info(id: String) -> RendererInfo? { renderersByID[id]?.info }

    /// Lays out `snapshot` with the renderer chosen by `style`.
    public func layout(style: HudPhoneComplicationsStyle, snapshot: ComplicationsSnapshot,
                       environment: HudEnvironment, interaction: HudInteraction = .idle) throws(RegistryError) -> HudLayout {
        return try renderer(for: style).layout(snapshot.storage, environment: environment, interaction: interaction)
    }

    /// Lays out `snapshot` and hands `body` the validated nodes in place:
    /// the per-frame path, with no heap allocation in steady state (see
    /// `LayoutFrame`). The frame is valid only inside `body`.
    package func withLayout<R>(style: HudPhoneComplicationsStyle, snapshot: ComplicationsSnapshot,
                              environment: HudEnvironment, interaction: HudInteraction = .idle,
                              _ body: (LayoutFrame) -> R) throws(RegistryError) -> R {
        try renderer(for: style).withFrame(snapshot.storage, environment: environment, interaction: interaction, body)
    }

    /// The renderer the previous layout call used, keyed by the id exactly
    /// as the caller's style holds it. A frame loop asks for the same style
    /// every time, and an identical `String` compares in one word, where
    /// hashing it for the dictionary costs about a thousand instructions per
    /// call. Renderers are only ever added, never replaced or removed, so a
    /// remembered entry stays valid.
    private var lastRenderer: (id: String, renderer: PluginRenderer)?

    private func renderer(for style: HudPhoneComplicationsStyle) throws(RegistryError) -> PluginRenderer {
        let id = style.rendererID
        if let last = lastRenderer, last.id == id { return last.renderer }
        guard let renderer = renderersByID[id] else {
            throw .unknownRenderer(id: id, known: order)
        }
        lastRenderer = (id, renderer)
        return renderer
    }

    // MARK: - Registration (one path for everyone)

    func register(_ loader: EntryLoader) {
        do {
            _ = accept(try loader.load())
        } catch {
            failures.append(error)
        }
    }

    /// Drops renderers whose descriptor disagrees with the file's metadata
    /// section (what `list` showed), reporting each mismatch.
    static func checkMetadata(_ records: [RendererInfo], against result: EntryLoader.Result, path: String) -> EntryLoader.Result {
        var checked = result
        checked.renderers = []
        for renderer in result.renderers {
            let info = renderer.info
            guard let record = records.first(where: { $0.id == info.id }) else {
                checked.failures.append(.metadataMismatch(path: path, id: info.id, field: "id", reason: "the descriptor's id is not in the file's \(HudMetadataFormat.sectionName) section"))
                continue
            }
            let positions = Position.mask(info.supportedPositions), recorded = Position.mask(record.supportedPositions)
            let differences = [
                record.name != info.name ? "name (metadata '\(record.name)', descriptor '\(info.name)')" : nil,
                record.version != info.version ? "version (metadata '\(record.version)', descriptor '\(info.version)')" : nil,
                record.vendor != info.vendor ? "vendor (metadata '\(record.vendor)', descriptor '\(info.vendor)')" : nil,
                recorded != positions ? "supported_positions (metadata 0x\(String(recorded, radix: 16)), descriptor 0x\(String(positions, radix: 16)))" : nil,
                record.capabilities != info.capabilities ? "capabilities (metadata 0x\(String(record.capabilities.rawValue, radix: 16)), descriptor 0x\(String(info.capabilities.rawValue, radix: 16)))" : nil,
                record.abiVersion != info.abiVersion ? "ABI version (metadata \(record.abiVersion), entry \(info.abiVersion))" : nil,
            ].compactMap { $0 }
            if let first = differences.first {
                checked.failures.append(.metadataMismatch(path: path, id: info.id, field: String(first.prefix { $0 != " " }), reason: "differs: " + differences.joined(separator: "; ")))
                continue
            }
            checked.renderers.append(renderer)
        }
        for record in records where !result.renderers.contains(where: { $0.info.id == record.id }) && !result.failures.contains(where: { $0.rendererID == record.id }) {
            checked.failures.append(.metadataMismatch(path: path, id: record.id, field: "id", reason: "the metadata section lists '\(record.id)' but the entry does not provide it"))
        }
        return checked
    }

    private func accept(_ result: EntryLoader.Result) -> [RendererInfo] {
        failures += result.failures
        var accepted: [RendererInfo] = []
        // A plugin none of whose renderers is kept is not used: balance its init.
        defer { if accepted.isEmpty, !result.renderers.isEmpty { result.deinitialize() } }
        for renderer in result.renderers {
            if let reason = filters.exclusion(for: renderer.info.id) {
                filtered.append((renderer.info.id, reason))
                continue
            }
            if let existing = renderersByID[renderer.info.id] {
                failures.append(.duplicateID(id: renderer.info.id, keptOrigin: existing.info.origin.description,
                                             rejectedOrigin: renderer.info.origin.description))
                continue
            }
            renderersByID[renderer.info.id] = renderer
            order.append(renderer.info.id)
            accepted.append(renderer.info)
        }
        return accepted
    }

    // MARK: - Files

    /// Canonicalizes `path` and checks it names a regular file.
    package static func resolve(_ path: String) throws(RegistryError) -> (path: String, identity: FileIdentity?) {
        let canonical: String
        switch SystemCalls.realPath(path) {
        case .success(let resolved): canonical = resolved
        case .failure(let error): throw .notAFile(path: path, reason: error.description)
        }
        let info: FileStatus
        switch SystemCalls.status(of: canonical) {
        case .success(let status): info = status
        case .failure(let error): throw .notAFile(path: path, reason: error.description)
        }
        guard info.isRegularFile else {
            throw .notAFile(path: path, reason: info.isDirectory ? "it is a directory" : "it is not a regular file")
        }
        return (canonical, FileIdentity(info))
    }

    /// The `*.so` files directly inside `directory`, sorted by name.
    static func pluginFiles(in directory: String) -> [String] {
        guard case .success(let entries) = SystemCalls.directoryEntries(directory) else { return [] }
        let names = entries.map(\.name).filter { $0.hasSuffix(".so") && !$0.hasPrefix(".") }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return names.sorted().map { base + $0 }
    }
}

/// What `discover` did.
public struct DiscoveryReport: Sendable {
    public var loaded: [RendererInfo] = []
    public var failures: [RegistryError] = []
    /// Search-path entries that were refused, with the reason.
    public var refusedPaths: [String] = []
}

/// A file's identity: (device, inode).
package struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    init(_ info: FileStatus) {
        device = info.device
        inode = info.inode
    }

    init?(path: String) {
        guard case .success(let info) = SystemCalls.status(of: path) else { return nil }
        self.init(info)
    }
}
