// SPDX-License-Identifier: MIT
import HudPluginBoundary
import HudRegistry
import HudHarness
import HudPresentation
import BuiltinRenderers
import HudRendererAPI
import HudSystem

/// Knobs of a conformance run. The defaults are what `hudhost validate` uses.
package struct ConformanceConfiguration: Sendable {
    /// The checks to run (any order; they run in catalog order).
    package var checkIDs: [String]
    /// Seeds every randomized check.
    package var seed: UInt64
    package var fuzzIterations = 150
    /// `hudhost` itself, for the checks that start fresh processes
    /// (`determinism-processes`); nil skips them.
    package var helperExecutable: String?
    /// Wall-clock limit for each helper process.
    package var helperTimeoutSeconds = 30.0
    /// dlopen + entry + init above this is a warning.
    package var loadBudgetMilliseconds = 250.0
    package var performanceIterations = 400
    package var medianBudgetMicroseconds = 2_000.0
    package var p99BudgetMicroseconds = 10_000.0
    package var threads = 8
    package var callsPerThread = 40
    /// How long one layout call may take (`--layout-timeout`): in the
    /// sandboxed child (announced calls) and in the host's own run.
    package var layoutTimeoutSeconds = 2.0
    /// True when nothing in this process has touched the plugin before the
    /// run (a sandbox child, or a path validated in-process): only then is
    /// "renderer_count() is 0 before init()" checked.
    package var pluginIsFresh = true

    package init(checkIDs: [String], seed: UInt64) {
        self.checkIDs = checkIDs
        self.seed = seed
    }
}

/// Runs the selected checks against one target in *this* process, reporting
/// each unit before it starts and when it ends. `hudsandbox validate`
/// runs it in a child (so a crash or hang is attributed to the unit in
/// progress); `--in-process` runs it directly.
///
/// Not thread-safe: one runner, one thread (checks start their own threads).
package final class ConformanceRunner {
    let target: ConformanceTarget
    let configuration: ConformanceConfiguration
    private let selected: Set<String>

    // Loading state, built step by step (by the loading checks, or silently
    // when a resumed run skips them).
    private var library: Result<RawLibrary?, CheckFailure>?
    private var entryStep: Result<EntryHandle, CheckFailure>?
    private var initStep: Result<Void, CheckFailure>?
    private var renderersStep: Result<[RendererUnderTest], CheckFailure>?
    private(set) var loadNanoseconds: UInt64 = 0

    private var results: [ConformanceUnit: CheckResult] = [:]
    private var blocked: [ConformanceUnit: String] = [:]

    package init(target: ConformanceTarget, configuration: ConformanceConfiguration) {
        self.target = target
        self.configuration = configuration
        self.selected = Set(configuration.checkIDs)
    }

    /// Runs every selected unit not in `skipping`. `blocked` names units
    /// that already ended badly in an earlier (crashed) run, with their
    /// status, so their dependents are skipped.
    package func run(skipping: Set<ConformanceUnit> = [], blocked: [ConformanceUnit: String] = [:],
                    emit: (ConformanceEvent) -> Void) {
        self.blocked = blocked
        let checks = ConformanceCatalog.checks.filter { selected.contains($0.id) }
        for check in checks where check.scope == .plugin {
            runUnit(check, renderer: nil, skipping: skipping, emit: emit)
        }
        let rendererChecks = checks.filter { $0.scope == .renderer }
        if !rendererChecks.isEmpty, let reason = loadingBlocker() {
            for check in rendererChecks where !skipping.contains(ConformanceUnit(checkID: check.id, renderer: nil)) {
                emit(.result(CheckResult(checkID: check.id, renderer: nil, status: .skipped, message: "not run: \(reason)")))
            }
        } else if !rendererChecks.isEmpty {
            switch renderers() {
            case .success(let renderers):
                let chosen = renderers.filter { target.rendererFilter == nil || $0.info.id == target.rendererFilter }
                if chosen.isEmpty {
                    for check in rendererChecks where !skipping.contains(ConformanceUnit(checkID: check.id, renderer: nil)) {
                        emit(.result(CheckResult(checkID: check.id, renderer: target.rendererFilter, status: .skipped,
                                                 message: "no renderer \(target.rendererFilter.map { "'\($0)' " } ?? "")passed loading")))
                    }
                }
                for renderer in chosen {
                    let context = RendererContext(renderer: renderer, configuration: configuration, target: target)
                    for check in rendererChecks {
                        runUnit(check, renderer: renderer.info.id, context: context, skipping: skipping, emit: emit)
                    }
                }
            case .failure(let failure):
                for check in rendererChecks where !skipping.contains(ConformanceUnit(checkID: check.id, renderer: nil)) {
                    emit(.result(CheckResult(checkID: check.id, renderer: nil, status: .skipped,
                                             message: "not run: the plugin did not load (\(failure.message))")))
                }
            }
        }
        emit(.done)
    }

    private func runUnit(_ check: ConformanceCheck, renderer: String?, context: RendererContext? = nil,
                         skipping: Set<ConformanceUnit>, emit: (ConformanceEvent) -> Void) {
        let unit = ConformanceUnit(checkID: check.id, renderer: renderer)
        if skipping.contains(unit) { return }
        if let reason = blocker(for: check, renderer: renderer) {
            finish(CheckResult(checkID: check.id, renderer: renderer, status: .skipped, message: reason), emit: emit)
            return
        }
        emit(.begin(unit))
        let start = SystemCalls.monotonicNanoseconds()
        let outcome: CheckOutcome
        if let context {
            outcome = withoutActuallyEscaping(emit) { emit in
                context.announce = { name in emit(name.map { .call($0) } ?? .returned) }
                defer { context.announce = nil }
                return ConformanceChecks.run(check.id, context)
            }
        } else {
            outcome = runPluginCheck(check.id)
        }
        let elapsed = Double(SystemCalls.monotonicNanoseconds() &- start) / 1e6
        finish(outcome.result(for: check, renderer: renderer, milliseconds: elapsed), emit: emit)
    }

    private func finish(_ result: CheckResult, emit: (ConformanceEvent) -> Void) {
        results[result.unit] = result
        emit(.result(result))
    }

    /// The loading chain every renderer check stands on.
    static let loadingChain = ["abi-load", "abi-entry-symbol", "abi-version", "abi-init", "abi-descriptors"]

    /// Why no renderer check can run (a loading step crashed or failed),
    /// decided without calling into the plugin again.
    private func loadingBlocker() -> String? {
        for id in Self.loadingChain {
            let unit = ConformanceUnit(checkID: id, renderer: nil)
            if let status = blocked[unit] { return "\(id) \(status)" }
            if let result = results[unit], !result.unblocksDependents { return "\(id) \(result.stoppedAs)" }
        }
        return nil
    }

    /// The digest of `renderer`'s layouts over fixed inputs (for the
    /// fresh-process determinism check), as a JSON line, or an error.
    package func digestLine(renderer id: String) -> String {
        switch renderers() {
        case .failure(let failure):
            return JSONValue.object([("error", .string(failure.message))]).serialized(pretty: false)
        case .success(let renderers):
            guard let renderer = renderers.first(where: { $0.info.id == id }) else {
                return JSONValue.object([("error", .string("no renderer '\(id)'"))]).serialized(pretty: false)
            }
            let context = RendererContext(renderer: renderer, configuration: configuration, target: target)
            return JSONValue.object([("digest", .string(DeterminismChecks.digest(context)))]).serialized(pretty: false)
        }
    }

    /// Why `check` cannot run, if a selected prerequisite did not pass.
    private func blocker(for check: ConformanceCheck, renderer: String?) -> String? {
        for unit in check.requirementUnits(renderer: renderer) where selected.contains(unit.checkID) {
            if let status = blocked[unit] {
                return "requires \(unit.checkID), which \(status)"
            }
            if let result = results[unit], !result.unblocksDependents {
                return "requires \(unit.checkID), which \(result.stoppedAs)"
            }
        }
        return nil
    }

    // MARK: - Loading steps (memoized; each loading check reports one)

    struct EntryHandle {
        let entry: RawEntry
        /// The exported entry function (nil for the linked built-ins).
        let function: RawEntryFunction?
    }

    func openStep() -> Result<RawLibrary?, CheckFailure> {
        if let library { return library }
        let start = SystemCalls.monotonicNanoseconds()
        let result: Result<RawLibrary?, CheckFailure>
        switch target {
        case .builtin:
            result = .success(nil)
        case .file(let path, _):
            do {
                let resolved = try RendererRegistry.resolve(path)
                result = .success(try RawLibrary.open(path: resolved.path))
            } catch {
                result = .failure(CheckFailure("\(error)"))
            }
        }
        loadNanoseconds &+= SystemCalls.monotonicNanoseconds() &- start
        library = result
        return result
    }

    func entry() -> Result<EntryHandle, CheckFailure> {
        if let entryStep { return entryStep }
        let start = SystemCalls.monotonicNanoseconds()
        let result: Result<EntryHandle, CheckFailure>
        switch openStep() {
        case .failure(let failure):
            result = .failure(failure)
        case .success(nil):
            result = .success(EntryHandle(entry: .builtin, function: nil))
        case .success(let library?):
            do {
                let function = try library.entryFunction()
                if let entry = function.call() {
                    result = .success(EntryHandle(entry: entry, function: function))
                } else {
                    result = .failure(CheckFailure(LoadingChecks.nullEntry))
                }
            } catch {
                result = .failure(CheckFailure("\(error)"))
            }
        }
        loadNanoseconds &+= SystemCalls.monotonicNanoseconds() &- start
        entryStep = result
        return result
    }

    func initialized() -> Result<Void, CheckFailure> {
        if let initStep { return initStep }
        let result: Result<Void, CheckFailure>
        switch entry() {
        case .failure(let failure):
            result = .failure(failure)
        case .success(let handle):
            if let problem = LoadingChecks.handshakeProblem(handle.entry) {
                result = .failure(CheckFailure(problem))
            } else {
                let start = SystemCalls.monotonicNanoseconds()
                let status = handle.entry.initialize()
                loadNanoseconds &+= SystemCalls.monotonicNanoseconds() &- start
                switch status {
                case nil: result = .failure(CheckFailure("hud_entry_t.init is NULL"))
                case Int32(HUD_STATUS_OK)?: result = .success(())
                case let status?: result = .failure(CheckFailure("init() returned \(status) (\(StatusName.of(status))); a plugin that can load must return HUD_STATUS_OK"))
                }
            }
        }
        initStep = result
        return result
    }

    /// The renderers that pass the host's descriptor validation.
    func renderers() -> Result<[RendererUnderTest], CheckFailure> {
        if let renderersStep { return renderersStep }
        let result: Result<[RendererUnderTest], CheckFailure>
        switch (initialized(), entry()) {
        case (.failure(let failure), _), (_, .failure(let failure)):
            result = .failure(failure)
        case (.success, .success(let handle)):
            result = Self.validatedRenderers(handle.entry, origin: origin)
        }
        renderersStep = result
        return result
    }

    /// Forgets the descriptor pointers (after the plugin was fully
    /// deinitialized and initialized again, they may have moved).
    func refreshRenderers() {
        renderersStep = nil
    }

    var origin: RendererInfo.Origin {
        switch target {
        case .builtin: .builtin
        case .file(let path, _): .file(path)
        }
    }

    /// EntryLoader's validation (it inits once more; balanced here), then
    /// each valid renderer paired with its descriptor pointer.
    static func validatedRenderers(_ entry: RawEntry, origin: RendererInfo.Origin) -> Result<[RendererUnderTest], CheckFailure> {
        let loaded: EntryLoader.Result
        do {
            loaded = try entry.loader(origin: origin).load()
        } catch {
            return .failure(CheckFailure("\(error)"))
        }
        if !loaded.renderers.isEmpty { loaded.deinitialize() }
        guard loaded.failures.isEmpty else {
            return .failure(CheckFailure(loaded.failures.map(\.description).joined(separator: "; ")))
        }
        var found: [RendererUnderTest] = []
        let count = entry.rendererCount() ?? 0
        for index in 0..<count {
            guard let descriptor = entry.descriptor(at: index), let id = descriptor.id,
                  let renderer = loaded.renderers.first(where: { $0.info.id == id }) else { continue }
            found.append(RendererUnderTest(info: renderer.info, descriptor: descriptor))
        }
        return .success(found)
    }

    // MARK: - Plugin-level checks

    private func runPluginCheck(_ id: String) -> CheckOutcome {
        switch id {
        case "abi-load": LoadingChecks.load(self)
        case "abi-entry-symbol": LoadingChecks.entrySymbol(self)
        case "abi-version": LoadingChecks.version(self)
        case "abi-init": LoadingChecks.initialize(self)
        case "abi-descriptors": LoadingChecks.descriptors(self)
        case "abi-metadata": LoadingChecks.metadata(self)
        case "abi-struct-sizes": LoadingChecks.structSizes(self)
        case "abi-init-refcount": LoadingChecks.refcount(self)
        case "abi-descriptors-stable": LoadingChecks.descriptorsStable(self)
        case "abi-load-time": LoadingChecks.loadTime(self)
        case "abi-needed-libraries": LoadingChecks.neededLibraries(self)
        case "abi-quiet-stdout": .notApplicable("stdout is captured only in the sandbox (this run is in-process)")
        case "abi-older-host-sizes": .notApplicable("judged by the host through a renderer host's raw calls (this run is in-process)")
        default: .problem("unknown plugin check '\(id)'")
        }
    }
}

/// A loading step's failure, as a sentence.
struct CheckFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// One renderer under test: validated info plus its descriptor pointer
/// (plugin-owned, valid while the plugin stays initialized: the runner
/// never drops its own init).
struct RendererUnderTest {
    let info: RendererInfo
    let descriptor: RawDescriptor
}

/// What a check found.
enum CheckOutcome {
    case passed(String, details: [String] = [], seed: UInt64? = nil)
    /// The rule is broken: `failed`, or `warning` for warning-severity checks.
    case problem(String, details: [String] = [], seed: UInt64? = nil)
    /// The rule is broken, but the checks that depend on this one can
    /// still run on the same layouts (`CheckResult.dependentsRun`).
    case problemDependentsRun(String, details: [String] = [])
    /// Always a warning, whatever the check's severity.
    case warning(String, details: [String] = [])
    case notApplicable(String)

    /// The check found something: a broken rule or a warning.
    var isFinding: Bool {
        switch self {
        case .problem, .problemDependentsRun, .warning: true
        case .passed, .notApplicable: false
        }
    }

    /// At most 40 lines of details, and how many more there were; a first
    /// detail that only repeats the message (a check's first problem is
    /// usually both) is not said twice.
    private static func capped(_ details: [String], below message: String) -> [String] {
        let details = details.first == message ? Array(details.dropFirst()) : details
        return Array(details.prefix(40)) + (details.count > 40 ? ["… and \(details.count - 40) more"] : [])
    }

    func result(for check: ConformanceCheck, renderer: String?, milliseconds: Double) -> CheckResult {
        switch self {
        case .passed(let message, let details, let seed):
            CheckResult(checkID: check.id, renderer: renderer, status: .passed, message: message, details: details, seed: seed, milliseconds: milliseconds)
        case .problem(let message, let details, let seed):
            CheckResult(checkID: check.id, renderer: renderer, status: check.severity == .warning ? .warning : .failed,
                        message: message, details: Self.capped(details, below: message), seed: seed, milliseconds: milliseconds)
        case .problemDependentsRun(let message, let details):
            CheckResult(checkID: check.id, renderer: renderer, status: check.severity == .warning ? .warning : .failed,
                        message: message, details: Self.capped(details, below: message), milliseconds: milliseconds, dependentsRun: true)
        case .warning(let message, let details):
            CheckResult(checkID: check.id, renderer: renderer, status: .warning, message: message, details: Self.capped(details, below: message), milliseconds: milliseconds)
        case .notApplicable(let message):
            CheckResult(checkID: check.id, renderer: renderer, status: .skipped, message: message, milliseconds: milliseconds, notApplicable: true)
        }
    }
}
