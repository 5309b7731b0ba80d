// SPDX-License-Identifier: MIT
package import HudPluginBoundary
import HudSystem

/// The set of renderers a host can dispatch to. Built-ins and plugins
/// register through the same path (one `EntryLoader` over the same
/// `hud_entry_t`); the only
/// difference is where the entry pointer comes from: a linked symbol or
/// `dlsym`. A plugin that fails to load is recorded in `failures` and never
/// stops the others.
///
/// Not thread-safe: drive one registry from one thread (the shell's).
public final class RendererRegistry {
    /// A registered renderer: in this process, or served by a renderer host.
    private enum Entry {
        case inProcess(PluginRenderer)
        case remote(RendererHost, index: Int)

        var info: RendererInfo {
            switch self {
            case .inProcess(let renderer): renderer.info
            case .remote(let host, let index): host.renderers[index]
            }
        }
    }

    private var renderersByID: [String: Entry] = [:]
    private var order: [String] = []
    /// Every load failure since the registry was made, in order.
    public private(set) var failures: [RegistryError] = []
    /// The stamp of the file each `load(path:)` opened, by canonical path
    /// (taken before any of its code ran): a scan child reports it, so the
    /// verdict is filed under the file that earned it.
    package private(set) var openedStamps: [String: FileStamp] = [:]
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

    /// Where plugin renderers run: `.process` (the default) registers each
    /// plugin file's renderers behind a sandboxed renderer host; `.inProcess`
    /// loads the file here after its sandboxed trial load. Built-ins always
    /// run in this process.
    public let isolation: RendererIsolation
    /// Deadlines, limits and backoff of renderer hosts.
    public var hostSettings = RendererHostSettings()
    /// The renderer hosts, one per plugin file, by canonical path.
    private var hosts: [String: RendererHost] = [:]

    public init(security: PathSecurity = PathSecurity(), filters: RendererFilters = .none, isolation: RendererIsolation = .process) {
        self.security = security
        self.filters = filters
        self.isolation = isolation
    }

    /// A registry holding the three built-ins (tray, scattered, minimal).
    public static func withBuiltins(security: PathSecurity = PathSecurity(), filters: RendererFilters = .none,
                                    isolation: RendererIsolation = .process) -> RendererRegistry {
        let registry = RendererRegistry(security: security, filters: filters, isolation: isolation)
        registry.registerBuiltins()
        return registry
    }

    /// Every registered renderer, in registration order.
    public var renderers: [RendererInfo] { order.compactMap { renderersByID[$0]?.info } }

    /// Registers the built-in renderers linked into this host.
    public func registerBuiltins() {
        register(EntryLoader.builtin())
    }

    /// Loads one plugin file into this process and registers its renderers
    /// (whatever `isolation` says: the caller has decided to trust it).
    /// Throws if the file cannot be used at all; renderers of a usable file
    /// that fail validation or collide are recorded in `failures` and the
    /// returned list holds the ones registered.
    ///
    /// - Parameter expected: what a sandboxed scan reported for a file
    ///   without a metadata section; the descriptors must match it, so what
    ///   `list` showed is what runs.
    /// - Parameter checked: the cache's record of the file when it was
    ///   checked (its sandboxed trial load); a file whose stamp (device,
    ///   inode, size, mtime) or build-id differs now is refused.
    @discardableResult
    public func load(path: String, expected: [RendererInfo]? = nil, checked: PluginRecord? = nil) throws(RegistryError) -> [RendererInfo] {
        let resolved = try Self.resolve(path)
        // Opened once: the stamp, the metadata and (where the loader
        // allows) the dlopen all go through this descriptor, so what was
        // checked is what is mapped, whatever the path names meanwhile.
        let file = try? ReadOnlyFile.openRegular(resolved.path).get()
        let stamp = file.flatMap { try? $0.status().get() }.map(FileStamp.init) ?? FileStamp.of(resolved.path)
        openedStamps[resolved.path] = stamp
        if let checked, stamp != checked.stamp {
            throw .insecurePath(path: resolved.path, reason: "the file changed after its sandboxed trial load; it is checked again on the next run")
        }
        if let identity = resolved.identity, loadedFiles.contains(identity) {
            return renderers.filter { $0.origin == .file(resolved.path) }
        }
        if let problem = security.loadProblem(canonicalPath: resolved.path) {
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
            if let file, let stamp {
                metadata = try ElfMetadataReader.read(file: file, size: Int(stamp.size), path: resolved.path)
            } else {
                metadata = try ElfMetadataReader.read(path: resolved.path)
            }
        } catch where error.kind == .badMetadata || error.kind == .corrupt || error.kind == .executable {
            throw .invalidELF(path: resolved.path, kind: error.kind, reason: error.reason)
        } catch {}
        if let checked, let expectedID = checked.buildID, metadata.buildID != expectedID {
            throw .insecurePath(path: resolved.path, reason: "its build-id is \(metadata.buildID ?? "missing"), not the \(expectedID) its sandboxed trial load saw")
        }
        // The loader is given the descriptor's /proc/self/fd name, so it maps
        // the very inode checked above, unless the file's own search path
        // or needed names use $ORIGIN (the loader would take /proc/self/fd
        // for its directory): then the path, compared after dlopen.
        let through = file.flatMap { Self.usesOrigin($0.descriptorPath) ? nil : $0 }
        let loader = try EntryLoader.open(path: resolved.path, through: through) { () throws(RegistryError) in
            // The checks above cover every directory on the path, so nobody else
            // could swap the file; confirm the loader mapped the checked file
            // (same device, inode, size, modification and change time).
            if through == nil, let stamp, FileStamp.of(resolved.path) != stamp {
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

    /// Registers every plugin the catalog found usable: files whose metadata
    /// section describes them, and files a sandboxed scan loaded without
    /// trouble. With `.process` isolation (the default) each file's
    /// renderers are served by a sandboxed renderer host started on first
    /// use, whose descriptors must match what the catalog listed; a host
    /// that keeps failing is recorded in the cache and the file skipped
    /// until it changes. With `.inProcess` the file is loaded here (its
    /// descriptors must match the catalog). No file's first
    /// load is in this process: a file known only from its metadata is
    /// loaded once in the sandbox first (in batches, `SandboxScanner.scan(batch:)`;
    /// remembered in the cache until the file changes), and one that fails
    /// there never runs here. Load
    /// failures are recorded in `failures` and in the catalog's cache
    /// (skipped until the file changes). The safe way to fill a registry
    /// from the search path. (A catalog without a scanner skips the trial.)
    @discardableResult
    public func loadPlugins(from catalog: PluginCatalog) -> PluginCatalog.Report {
        let report = catalog.scan()
        // The files not yet trial-loaded, loaded in batches (one sandboxed
        // child per `SandboxScanner.defaultBatchSize` files, as the catalog
        // scans files without metadata), not a child each.
        var trials: [String: SandboxScanner.ScanResult] = [:]
        if let scanner = catalog.scanner {
            let untried = report.files.compactMap { file -> String? in
                guard case .available = file.state, let path = file.canonicalPath,
                      catalog.cache?.record(for: path)?.trialLoaded != true else { return nil }
                return path
            }
            for path in untried { catalog.willScan?(path) }
            for (path, result) in zip(untried, scanner.scan(batch: untried, allowInsecurePath: security.allowInsecure).results) {
                trials[path] = result
            }
        }
        for file in report.files {
            guard case .available(let renderers, let source) = file.state, let path = file.canonicalPath else { continue }
            if let trial = trials[path] {
                // Filed under the file the child opened (a file replaced
                // during its trial is judged on its own next run).
                if case .failed(let code, let reason) = trial.outcome {
                    failures.append(.sandboxedLoadFailed(path: path, reasonCode: code, reason: reason))
                    catalog.cache?.markFailed(path: path, code: code, reason: reason, loaded: trial.loaded)
                    continue
                }
                catalog.cache?.markTrialLoaded(path: path, loaded: trial.loaded)
            }
            if isolation == .process {
                register(remote: renderers, path: path, cache: catalog.cache)
                continue
            }
            let before = failures.count
            do {
                try load(path: path, expected: source == .elfSection ? nil : renderers, checked: catalog.cache?.record(for: path))
                // A file whose descriptors contradict what it told the catalog
                // is not listed again as available until it changes.
                if let mismatch = failures[before...].first(where: { $0.code == .metadataMismatch }) {
                    catalog.cache?.markFailed(path: path, code: .metadataMismatch, reason: mismatch.description, loaded: openedStamps[path])
                }
            } catch {
                failures.append(error)
                catalog.cache?.markFailed(path: path, code: error.code, reason: error.description, loaded: openedStamps[path])
            }
        }
        catalog.cache?.save()
        return report
    }

    /// Loads a file the user named (not found on the search path): the path
    /// checks first (no code from an unsafe path runs, not even in the
    /// sandbox), then one trial load in a sandboxed child, and only if the
    /// child loaded it cleanly, the load into this process.
    /// With `.process` isolation the renderers the child reported are
    /// registered behind a renderer host instead (nothing of the file runs
    /// here).
    @discardableResult
    public func load(checking path: String, scanner: SandboxScanner = SandboxScanner()) throws(RegistryError) -> [RendererInfo] {
        if let refusal = security.refusal(for: path) { throw refusal }
        let scanned: [RendererInfo]
        switch scanner.scan(path, allowInsecurePath: security.allowInsecure).outcome {
        case .failed(let code, let reason): throw .sandboxedLoadFailed(path: path, reasonCode: code, reason: reason)
        case .renderers(let renderers): scanned = renderers
        }
        guard isolation == .process else { return try load(path: path, expected: scanned) }
        let resolved = try Self.resolve(path)
        if let identity = resolved.identity {
            if loadedFiles.contains(identity) { return renderers.filter { $0.origin == .file(resolved.path) } }
            loadedFiles.insert(identity)
        }
        return register(remote: scanned, path: resolved.path, cache: nil)
    }

    /// Registers `records` (what the catalog or a scan listed for the file
    /// at `path`) behind one renderer host for the file.
    @discardableResult
    private func register(remote records: [RendererInfo], path: String, cache: RegistryCache?) -> [RendererInfo] {
        let wanted = records.compactMap { record -> RendererInfo? in
            if let reason = filters.exclusion(for: record.id) {
                filtered.append((record.id, reason))
                return nil
            }
            if let existing = renderersByID[record.id] {
                failures.append(.duplicateID(id: record.id, keptOrigin: existing.info.origin.description, rejectedOrigin: path))
                return nil
            }
            var info = record
            info.origin = .file(path)
            return info
        }
        guard !wanted.isEmpty else { return [] }
        let host = RendererHost(path: path, renderers: wanted, settings: hostSettings)
        if let cache {
            let limit = hostSettings.maxConsecutiveFailures
            host.onFailure = { error, consecutive in
                // The machine's failure (no helper, a required layer
                // missing) is not the file's: never counted.
                guard !error.code.blamesTheEnvironment else { return }
                // A failure that cannot pass (a load failure, a mismatch) or
                // the limit reached in this run: skipped until the file changes.
                if consecutive >= limit {
                    cache.markFailed(path: path, code: error.code, reason: error.description)
                    cache.save()
                } else {
                    cache.noteHostFailure(path: path, code: error.code, reason: error.description, limit: limit)
                }
            }
            host.onRecovery = { cache.noteHostRecovered(path: path) }
        }
        hosts[path] = host
        for (index, info) in wanted.enumerated() {
            renderersByID[info.id] = .remote(host, index: index)
            order.append(info.id)
        }
        return wanted
    }

    /// The renderer host serving the file at `path` (canonical), if any.
    package func host(forPath path: String) -> RendererHost? { hosts[path] }

    /// Every renderer host, by canonical plugin path.
    package var allHosts: [String: RendererHost] { hosts }

    /// The in-process renderer registered under `id` (the renderer host child uses this).
    package func inProcessRenderer(id: String) -> PluginRenderer? {
        guard case .inProcess(let renderer)? = renderersByID[id] else { return nil }
        return renderer
    }

    /// True when `id` runs in a renderer host.
    public func isOutOfProcess(id: String) -> Bool {
        if case .remote? = renderersByID[id] { return true }
        return false
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
        switch try renderer(for: style) {
        case .inProcess(let renderer):
            return try renderer.layout(snapshot.storage, environment: environment, interaction: interaction)
        case .remote(let host, let index):
            return try host.withFrame(renderer: index, snapshot, environment: environment, interaction: interaction) { $0.decoded() }
        }
    }

    /// Lays out `snapshot` and hands `body` the validated nodes in place:
    /// the per-frame path, with no heap allocation in steady state (see
    /// `LayoutFrame`). The frame is valid only inside `body`.
    package func withLayout<R>(style: HudPhoneComplicationsStyle, snapshot: ComplicationsSnapshot,
                              environment: HudEnvironment, interaction: HudInteraction = .idle,
                              _ body: (LayoutFrame) -> R) throws(RegistryError) -> R {
        // The frame loop's case: the same style as the previous call, served
        // in this process; no entry is copied, nothing retained.
        if let renderer = lastInProcess, lastStyle == style {
            return try renderer.withFrame(snapshot.storage, environment: environment, interaction: interaction, body)
        }
        switch try renderer(for: style) {
        case .inProcess(let renderer):
            return try renderer.withFrame(snapshot.storage, environment: environment, interaction: interaction, body)
        case .remote(let host, let index):
            return try host.withFrame(renderer: index, snapshot, environment: environment, interaction: interaction, body)
        }
    }

    /// The renderer the previous layout call used, keyed by the style
    /// exactly as the caller holds it: resolved once per style change. A
    /// frame loop asks for the same style every time; comparing it is a
    /// tag compare for the built-ins and a one-word compare of an identical
    /// `String` for `.renderer(id)`, where making the id and hashing it for
    /// the dictionary costs hundreds of instructions per call. A different
    /// style naming the same renderer (`.renderer("com.hudson.tray")` after
    /// `.tray`) just resolves again. Renderers are only ever added, never
    /// replaced or removed, so a remembered entry stays valid.
    private var lastRenderer: (style: HudPhoneComplicationsStyle, renderer: Entry)?
    /// The same memo for `withLayout`'s frame loop when the renderer runs in
    /// this process: the style, and the renderer unretained (the registry
    /// keeps it in `renderersByID` for good, so it outlives the memo).
    private var lastStyle: HudPhoneComplicationsStyle = .tray
    private var lastInProcess: PluginRenderer.Unretained?

    private func renderer(for style: HudPhoneComplicationsStyle) throws(RegistryError) -> Entry {
        if let last = lastRenderer, last.style == style { return last.renderer }
        let id = style.rendererID
        guard let renderer = renderersByID[id] else {
            throw .unknownRenderer(id: id, known: order)
        }
        lastRenderer = (style, renderer)
        lastStyle = style
        if case .inProcess(let inProcess) = renderer {
            lastInProcess = PluginRenderer.Unretained(inProcess)
        } else {
            lastInProcess = nil
        }
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
        let mismatches = metadataMismatches(records, descriptors: result.renderers.map(\.info),
                                            failedIDs: Set(result.failures.compactMap(\.rendererID)), path: path)
        let refused = Set(mismatches.compactMap(\.rendererID))
        var checked = result
        checked.renderers = result.renderers.filter { !refused.contains($0.info.id) }
        checked.failures += mismatches
        return checked
    }

    /// One `metadataMismatch` per descriptor that has no record or differs
    /// from its record, then one per record no descriptor provides (unless
    /// that renderer already failed validation, `failedIDs`): the host's
    /// rule for a file with a metadata section, in one place for `load`
    /// and for `hudhost validate`.
    package static func metadataMismatches(_ records: [RendererInfo], descriptors: [RendererInfo], failedIDs: Set<String> = [],
                                           path: String) -> [RegistryError] {
        var mismatches: [RegistryError] = []
        for info in descriptors {
            guard let record = records.first(where: { $0.id == info.id }) else {
                mismatches.append(.metadataMismatch(path: path, id: info.id, field: "id", reason: "the descriptor's id is not in the file's \(HudMetadataFormat.sectionName) section"))
                continue
            }
            let differences = info.differences(fromRecord: record)
            if let first = differences.first {
                mismatches.append(.metadataMismatch(path: path, id: info.id, field: String(first.prefix { $0 != " " }), reason: "differs: " + differences.joined(separator: "; ")))
            }
        }
        for record in records where !descriptors.contains(where: { $0.id == record.id }) && !failedIDs.contains(record.id) {
            mismatches.append(.metadataMismatch(path: path, id: record.id, field: "id", reason: "the metadata section lists '\(record.id)' but the entry does not provide it"))
        }
        return mismatches
    }

    /// What `load(path:)` would refuse in the file at `path` (canonical) for
    /// these validated `descriptors`: its metadata mismatches, or nil when
    /// the file has no metadata section. Throws when the section cannot be
    /// read, as `load` does.
    package static func metadataMismatches(path: String, descriptors: [RendererInfo]) throws(RegistryError) -> (records: Int, mismatches: [RegistryError])? {
        let metadata: PluginFileMetadata
        do {
            metadata = try ElfMetadataReader.read(path: path)
        } catch {
            throw .invalidELF(path: path, kind: error.kind, reason: error.reason)
        }
        guard metadata.hasMetadataSection else { return nil }
        return (metadata.renderers.count, metadataMismatches(metadata.renderers, descriptors: descriptors, path: path))
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
            renderersByID[renderer.info.id] = .inProcess(renderer)
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

    /// The file's stamp now, or nil if it cannot be `stat`ed.
    /// True when the file's own `DT_RUNPATH`, `DT_RPATH` or `DT_NEEDED`
    /// names `$ORIGIN` (or when its dynamic section cannot be read: the
    /// path is then the safer name to give the loader).
    static func usesOrigin(_ path: String) -> Bool {
        guard let entries = try? ElfMetadataReader.dynamicEntries(path: path) else { return true }
        return (entries.needed + entries.searchPaths).contains { $0.includes("$ORIGIN") || $0.includes("${ORIGIN}") }
    }

    /// The `*.so` files directly inside `directory` (not hidden ones),
    /// sorted by name.
    static func pluginFiles(in directory: String) -> [String] {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        guard case .success(let paths) = SystemCalls.sortedDirectoryFiles(directory, suffix: ".so", prefixing: base) else { return [] }
        return paths
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
