// SPDX-License-Identifier: MIT
import HudPluginBoundary
import HudRegistry
package import HudHarness
import HudPresentation
import Glibc
import HudRendererAPI
import HudSystem

/// The loading and ABI checks that run once per plugin.
enum LoadingChecks {
    static func load(_ runner: ConformanceRunner) -> CheckOutcome {
        switch runner.openStep() {
        case .success(nil):
            .notApplicable("the built-ins are linked into hudhost, not loaded; validate libBuiltinRenderers.so to check loading")
        case .success:
            .passed("dlopen(RTLD_NOW | RTLD_LOCAL) succeeded")
        case .failure(let failure):
            .problem(failure.message)
        }
    }

    static func entrySymbol(_ runner: ConformanceRunner) -> CheckOutcome {
        let handle: ConformanceRunner.EntryHandle
        switch runner.entry() {
        case .success(let value): handle = value
        case .failure(let failure): return .problem(failure.message)
        }
        guard let function = handle.function, case .file(let path, _) = runner.target else {
            return .notApplicable("the built-ins' entry is a linked symbol")
        }
        return entrySymbolOutcome(first: handle.entry.address, again: function.call()?.address ?? 0,
                                  owner: ProcessMaps.file(containing: function.address), plugin: canonical(path))
    }

    /// `path` with its symbolic links resolved, as the loader and
    /// /proc/self/maps name the file (`path` itself if it cannot be).
    static func canonical(_ path: String) -> String { (try? RendererRegistry.resolve(path).path) ?? path }

    /// `abi-entry-symbol`'s rule over what was seen of the entry function in
    /// the process that loaded `plugin` (this one, or a renderer host's
    /// `EntryFacts`): its first and second results (0: NULL; a NULL
    /// second result is not compared) and the file holding its code.
    static func entrySymbolOutcome(first: UInt64, again: UInt64, owner: String?, plugin: String) -> CheckOutcome {
        guard first != 0 else { return .problem(nullEntry) }
        var problems: [String] = []
        if again != 0, again != first {
            problems.append("\(HUD_ENTRY_SYMBOL_NAME)() returned \(pointerText(first)) then \(pointerText(again)); it must return the same static entry every time")
        }
        if let owner, owner != plugin {
            problems.append("\(HUD_ENTRY_SYMBOL_NAME) resolves to code in \(owner), not in \(plugin); the plugin must define its own entry (a dependency's is not it)")
        }
        return problems.isEmpty ? .passed("\(HUD_ENTRY_SYMBOL_NAME) is defined in the plugin and returns one constant entry") : .problem(problems[0], details: problems)
    }

    static let nullEntry = "\(HUD_ENTRY_SYMBOL_NAME)() returned NULL; it must return the plugin's static entry structure"

    /// An address as Swift prints a pointer (`0x00007f…`, 16 digits).
    static func pointerText(_ address: UInt64) -> String {
        let digits = String(address, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    /// Every undefined global symbol of the file is defined by the plugin's
    /// own `DT_NEEDED` libraries (what `-Wl,--no-undefined` checks at link
    /// time). One that only the host happens to have loaded (`sin` without
    /// `-lm`) resolves here and fails in a host that does not have it.
    static func neededLibraries(_ runner: ConformanceRunner) -> CheckOutcome {
        guard case .file(let path, _) = runner.target else {
            return .notApplicable("the built-ins are linked into hudhost, not loaded")
        }
        let library: RawLibrary
        switch runner.openStep() {
        case .success(let opened?): library = opened
        case .success(nil): return .notApplicable("nothing was loaded")
        case .failure(let failure): return .problem(failure.message)
        }
        let undefined: [String]
        do {
            undefined = try ElfMetadataReader.undefinedSymbols(path: canonical(path))
        } catch {
            return .problem("cannot read the file's dynamic symbols: \(error)")
        }
        return neededLibrariesOutcome(undefined: undefined.count, missing: missingFromScope(undefined, of: library))
    }

    /// Which of `symbols` (sanitizer interfaces aside) `library`'s own link
    /// scope does not define, each with the file that defines it in this
    /// process, if any.
    static func missingFromScope(_ symbols: [String], of library: RawLibrary) -> [(symbol: String, provider: String?)] {
        let missing = symbols.filter { !isSanitizerRuntime($0) && !library.scopeDefines($0) }
        let maps = missing.isEmpty ? nil : ProcessMaps.read()
        return missing.map { symbol in (symbol, RawLibrary.processAddress(of: symbol).flatMap { maps?.file(containing: $0) }) }
    }

    /// `abi-needed-libraries`' rule: of the file's `undefined` symbols,
    /// `missing` are defined by none of the plugin's DT_NEEDED libraries,
    /// each with the file that defines it in the process that loaded the
    /// plugin (nil: nothing does). Asked of the plugin's link scope in this
    /// process, or reported by the host's renderer host.
    static func neededLibrariesOutcome(undefined: Int, missing: [(symbol: String, provider: String?)]) -> CheckOutcome {
        guard !missing.isEmpty else {
            return .passed(undefined == 0 ? "no undefined symbols"
                : "each of \(undefined) undefined symbol\(undefined == 1 ? "" : "s") is defined by the plugin's own DT_NEEDED libraries")
        }
        let details = missing.prefix(40).map { symbol, provider in
            provider.map { "\(symbol): defined here by \($0); link it (\(linkFlag(for: $0)))" } ?? "\(symbol): defined by nothing the plugin names"
        }
        let names = missing.map(\.symbol)
        return .problem("\(names.count) undefined symbol\(names.count == 1 ? "" : "s") (\(names.prefix(3).joined(separator: ", "))\(names.count > 3 ? ", …" : "")) \(names.count == 1 ? "is" : "are") defined by none of the plugin's DT_NEEDED libraries; it loads only because this host happens to have \(names.count == 1 ? "it" : "them") loaded",
                        details: Array(details))
    }

    /// A sanitizer's interface (`__asan_report_load8`, `__tsan_func_entry`,
    /// …): a plugin built with `-fsanitize=` calls it, and by the
    /// sanitizers' design the executable provides it, never a library the
    /// plugin names.
    static func isSanitizerRuntime(_ symbol: String) -> Bool {
        ["__asan_", "__lsan_", "__tsan_", "__msan_", "__hwasan_", "__ubsan_", "__sanitizer_", "__sancov_"].contains { symbol.hasPrefix($0) }
    }

    /// `-lm` for `/usr/lib/x86_64-linux-gnu/libm.so.6`; else the file's name.
    static func linkFlag(for file: String) -> String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let parts = name.split(separator: ".")
        guard name.hasPrefix("lib"), parts.count > 1, parts[1] == "so", parts[0].count > 3 else { return name }
        return "-l" + parts[0].dropFirst(3)
    }

    static func version(_ runner: ConformanceRunner) -> CheckOutcome {
        switch runner.entry() {
        case .failure(let failure):
            return .problem(failure.message)
        case .success(let handle):
            if let problem = handshakeProblem(handle.entry) { return .problem(problem) }
            let version = handle.entry.abiVersion, size = handle.entry.structSize
            return .passed("ABI \(version) (host \(ABIVersion.host)), hud_entry_t.struct_size \(size)")
        }
    }

    static func initialize(_ runner: ConformanceRunner) -> CheckOutcome {
        guard case .success(let handle) = runner.entry() else {
            if case .failure(let failure) = runner.entry() { return .problem(failure.message) }
            return .problem("no entry")
        }
        var problems: [String] = []
        if runner.configuration.pluginIsFresh, handshakeProblem(handle.entry) == nil, let before = handle.entry.rendererCount(),
           let problem = countBeforeInitProblem(Int64(before)) {
            problems.append(problem)
        }
        if case .failure(let failure) = runner.initialized() { return .problem(failure.message) }
        let count = handle.entry.rendererCount() ?? 0
        if !EntryLoader.isValidRendererCount(count) {
            problems.append("renderer_count() returned \(count) after init(); a plugin provides 1 to \(HUD_MAX_RENDERERS) renderers")
        }
        return problems.isEmpty ? .passed("init() returned HUD_STATUS_OK; \(count) renderer\(count == 1 ? "" : "s")") : .problem(problems[0], details: problems)
    }

    /// `abi-init`'s rule for renderer_count() before the first init()
    /// (`ABIObservation.missing`: not asked), here or in a renderer host.
    static func countBeforeInitProblem(_ count: Int64) -> String? {
        guard count != 0, count != ValidationFrame.ABIObservation.missing else { return nil }
        return "renderer_count() returned \(count) before init(); it must return 0 until init() succeeds"
    }

    /// Why the host would refuse `entry` before calling anything in it
    /// (`EntryLoader.handshakeRefusal`, the host's rule), in the check's words.
    static func handshakeProblem(_ entry: RawEntry) -> String? {
        let version = entry.abiVersion, size = entry.structSize
        guard let refusal = EntryLoader.handshakeRefusal(version, size: size, path: "") else { return nil }
        if case .incompatibleABI = refusal {
            return "the plugin was built for ABI \(version); this host speaks \(ABIVersion.host) and majors must match; rebuild against a hud_renderer.h with major \(ABIVersion.host.major)"
        }
        return "hud_entry_t.struct_size is \(size) bytes; ABI 1.0 needs at least \(EntryLoader.entrySize); set it to sizeof(hud_entry_t)"
    }

    static func descriptors(_ runner: ConformanceRunner) -> CheckOutcome {
        switch runner.renderers() {
        case .success(let renderers):
            .passed("\(renderers.count) valid descriptor\(renderers.count == 1 ? "" : "s"): \(renderers.map(\.info.id).joined(separator: ", "))")
        case .failure(let failure):
            .problem(failure.message)
        }
    }

    /// The host compares every descriptor with the file's .hud_renderers
    /// records when it loads a plugin and refuses a renderer whose record
    /// differs (`metadata-mismatch`); the same comparison, from the same code.
    static func metadata(_ runner: ConformanceRunner) -> CheckOutcome {
        guard case .file(let path, _) = runner.target else {
            return .notApplicable("the built-ins are linked into hudhost, not read from a file; validate libBuiltinRenderers.so to check their records")
        }
        let renderers: [RendererUnderTest]
        switch runner.renderers() {
        case .success(let value): renderers = value
        case .failure(let failure): return .problem(failure.message)
        }
        let found: (records: Int, mismatches: [RegistryError])?
        do {
            found = try RendererRegistry.metadataMismatches(path: canonical(path), descriptors: renderers.map(\.info))
        } catch {
            return .problem("the \(HUD_METADATA_SECTION) section cannot be read: \(error)")
        }
        guard let found else {
            return .passed("no \(HUD_METADATA_SECTION) section (optional: hosts learn the descriptors from a sandboxed scan instead)")
        }
        guard let first = found.mismatches.first else {
            let records = found.records == 1 ? "1 \(HUD_METADATA_SECTION) record matches its descriptor" : "\(found.records) \(HUD_METADATA_SECTION) records match their descriptors"
            return .passed(records + " field for field")
        }
        let refused = found.mismatches.count == 1 ? "a host refuses this renderer" : "a host refuses these \(found.mismatches.count) renderers"
        return .problem("\(refused): \(first)", details: found.mismatches.count > 1 ? found.mismatches.map(\.description) : [])
    }

    static func structSizes(_ runner: ConformanceRunner) -> CheckOutcome {
        guard case .success(let handle) = runner.entry() else { return .problem("the entry could not be read") }
        if case .failure(let failure) = runner.initialized() { return .problem(failure.message) }
        let entrySize = handle.entry.structSize
        let count = min(handle.entry.rendererCount() ?? 0, UInt32(HUD_MAX_RENDERERS))
        let sizes = (0..<count).compactMap { handle.entry.descriptor(at: $0)?.structSize }
        return structSizesOutcome(version: handle.entry.abiVersion, entrySize: entrySize, descriptorSizes: sizes)
    }

    /// `abi-struct-sizes` over the sizes read in this process or reported
    /// by a renderer host (ParentFactsJudgment.swift).
    static func structSizesOutcome(version: ABIVersion, entrySize: Int, descriptorSizes sizes: [Int]) -> CheckOutcome {
        let problems = structSizeProblems(version: version, entrySize: entrySize, descriptorSizes: sizes)
        return problems.isEmpty
            ? .passed("hud_entry_t \(entrySize) bytes; \(sizes.count) descriptor\(sizes.count == 1 ? "" : "s") of "
                      + Set(sizes).sorted().map(String.init).joined(separator: ", ") + " bytes")
            : .problem(problems[0], details: problems)
    }

    /// The struct_size rule: at least the frozen 1.0 size; for a plugin
    /// that claims a minor from 1.1 up to the host's own, exactly the sizeof
    /// of that minor's header (the descriptor grew at 1.2). Applied by the
    /// child to what it reads and by the parent to what its renderer host
    /// reports (ParentFactsJudgment.swift).
    static func structSizeProblems(version: ABIVersion, entrySize: Int, descriptorSizes: [Int]) -> [String] {
        let exact = version.minor >= 1 && version.minor <= ABIVersion.host.minor
        var problems: [String] = []
        func check(_ name: String, _ size: Int, _ minimum: Int, _ current: Int) {
            if size < minimum {
                problems.append("\(name).struct_size is \(size); ABI 1.0 needs at least \(minimum)")
            } else if exact, size != current {
                problems.append("\(name).struct_size is \(size) but the plugin claims ABI \(version), where sizeof(\(name)) is \(current); set struct_size = sizeof(\(name))")
            }
        }
        check("hud_entry_t", entrySize, EntryLoader.entrySize, EntryLoader.headerEntrySize)
        let descriptorSize = version.minor >= 2 ? Int(HUD_RENDERER_DESCRIPTOR_SIZE_1_2) : EntryLoader.descriptorSize
        for size in descriptorSizes {
            check("hud_renderer_descriptor_t", size, EntryLoader.descriptorSize, descriptorSize)
        }
        return problems
    }

    /// The reference-counting and stability sequence, run on the entry in
    /// this process and judged by the rules the host applies to a renderer
    /// host's report of the same script (`ParentJudgment.ScriptLog`).
    static func refcount(_ runner: ConformanceRunner) -> CheckOutcome {
        guard case .success(let handle) = runner.entry(), case .success = runner.renderers() else {
            return .problem("the plugin did not load")
        }
        let log = ParentJudgment.ScriptLog.observing(handle.entry).log
        runner.refreshRenderers()
        return ParentJudgment.refcountOutcome(log)
    }

    static func descriptorsStable(_ runner: ConformanceRunner) -> CheckOutcome {
        guard case .success(let handle) = runner.entry() else { return .problem("the plugin did not load") }
        let (log, count) = ParentJudgment.ScriptLog.observing(handle.entry)
        runner.refreshRenderers()
        return ParentJudgment.stabilityOutcome(log, count: count)
    }

    static func loadTime(_ runner: ConformanceRunner) -> CheckOutcome {
        if case .failure(let failure) = runner.initialized() { return .problem(failure.message) }
        let milliseconds = Double(runner.loadNanoseconds) / 1e6
        let budget = runner.configuration.loadBudgetMilliseconds
        let text = "dlopen + entry + init() took \(Format.milliseconds(milliseconds)) (budget \(Format.milliseconds(budget)))"
        return milliseconds > budget ? .problem(text + "; move work out of init() and static constructors") : .passed(text)
    }
}

extension ValidationFrame.SymbolFact {
    /// `names` looked up in `library`'s link scope in this process (a
    /// renderer host answering `abiFacts`), with `missingFromScope`.
    package static func lookUp(_ names: [[UInt8]], in library: RawLibrary) -> [Self] {
        let symbols = names.map { String(decoding: $0, as: UTF8.self) }
        let missing = Dictionary(LoadingChecks.missingFromScope(symbols, of: library).map { ($0.symbol, $0.provider) }) { first, _ in first }
        return symbols.map { symbol in
            Self(inScope: missing[symbol] == nil, provider: Array((missing[symbol].flatMap { $0 } ?? "").utf8.prefix(4096)))
        }
    }
}

extension ValidationFrame.EntryFacts {
    /// What this process (a renderer host, before its load initializes the
    /// plugin) sees of the file's entry: the entry function called twice,
    /// and renderer_count() if the handshake passes; the file holding its
    /// code is added when a reply carries the facts (`withProvider`), so a
    /// start reads no /proc/self/maps. Nil when the file does not open or
    /// has no entry symbol: the load that follows fails and says why. The
    /// file stays open (a `RawLibrary` is never closed), so the load finds
    /// it loaded.
    package static func observe(path: String) -> Self? {
        guard let library = try? RawLibrary.open(path: path), let function = try? library.entryFunction() else { return nil }
        let first = function.call(), again = function.call()
        var count = ValidationFrame.ABIObservation.missing
        if let first, EntryLoader.handshakeRefusal(first.abiVersion, size: first.structSize, path: path) == nil,
           let before = first.rendererCount() { count = Int64(before) }
        return Self(first: first?.address ?? 0, again: again?.address ?? 0, provider: [], countBeforeInit: count)
    }

    /// These facts with the file holding `function`'s code in this process.
    package func withProvider(of function: RawEntryFunction) -> Self {
        var facts = self
        facts.provider = Array((ProcessMaps.file(containing: function.address) ?? "").utf8.prefix(4096))
        return facts
    }
}

/// Reads `/proc/self/maps` to find which file a code or data address
/// belongs to (Glibc's module does not expose `dladdr`).
struct ProcessMaps {
    private let text: String

    /// This process's mappings now (empty if /proc/self/maps cannot be read).
    static func read() -> ProcessMaps {
        guard case .success(let bytes) = SystemCalls.readFile("/proc/self/maps", limit: 16 << 20) else { return ProcessMaps(text: "") }
        return ProcessMaps(text: String(decoding: bytes, as: UTF8.self))
    }

    static func file(containing address: UInt) -> String? { read().file(containing: address) }

    func file(containing address: UInt) -> String? {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6 else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let low = UInt(range[0], radix: 16), let high = UInt(range[1], radix: 16) else { continue }
            if address >= low, address < high {
                return fields[5...].joined(separator: " ").droppingTrailing("\n")
            }
        }
        return nil
    }
}

/// Small formatting helpers shared by the checks and reports.
enum Format {
    static func milliseconds(_ value: Double) -> String {
        value >= 10 ? "\(Int(value.rounded())) ms" : "\((value * 100).rounded() / 100) ms"
    }

    static func microseconds(_ nanoseconds: Double) -> String {
        let value = nanoseconds / 1000
        return value >= 100 ? "\(Int(value.rounded())) µs" : "\((value * 10).rounded() / 10) µs"
    }

    static func rect(_ r: HudRect) -> String { "(\(JSONValue.format(r.x)), \(JSONValue.format(r.y)), \(JSONValue.format(r.width))×\(JSONValue.format(r.height)))" }
}

extension String {
    func droppingTrailing(_ character: Character) -> String {
        var text = Substring(self)
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}
