// SPDX-License-Identifier: MIT
import Testing
@testable import HudConformance
import HudRegistry
import HudPluginBoundary

/// The loading rules as functions of what was observed, below the fixtures
/// `ValidateTests` compiles: the reference-counting and descriptor
/// stability script (`ScriptLog`), the load-time cross-check, the
/// struct_size rule and the needed-libraries finding. The same functions
/// judge the child's in-process observations and a renderer host's report.
struct ABIRuleTests {
    /// A plugin as the script sees it: init() counts references, the last
    /// deinit() releases, and renderer_at answers from a table; each flaw
    /// is one way a real plugin gets it wrong.
    struct ScriptedPlugin {
        enum Flaw { case none, firstDeinitReleases, secondInitFails, pointerMoves, answersPastTheEnd, extraDeinitBreaksReinit }
        var flaw = Flaw.none
        var renderers: UInt32 = 2
        /// Loaded means initialized once.
        private var references = 1
        private var extraDeinits = 0
        private var firstDescriptorReads = 0

        init(_ flaw: Flaw = .none) { self.flaw = flaw }

        mutating func observe(_ step: ValidationFrame.ABIStep) -> ValidationFrame.ABIObservation {
            switch step.call {
            case .initialize:
                if flaw == .secondInitFails, references == 1 { return .init(step: step, value: 3) }
                if flaw == .extraDeinitBreaksReinit, extraDeinits > 0 { return .init(step: step, value: 3) }
                references += 1
                return .init(step: step, value: 0)
            case .deinitialize:
                if flaw == .firstDeinitReleases { references = 0 } else if references == 0 { extraDeinits += 1 } else { references -= 1 }
                return .init(step: step, value: 0)
            case .rendererCount:
                return .init(step: step, value: references > 0 ? Int64(renderers) : 0)
            case .rendererAt:
                let inside = step.argument < renderers && references > 0
                guard inside || (flaw == .answersPastTheEnd && step.argument == renderers) else { return .init(step: step, value: 0) }
                if step.argument == 0 { firstDescriptorReads += 1 }
                let moved: UInt64 = flaw == .pointerMoves && step.argument == 0 && firstDescriptorReads % 2 == 0 ? 0x100 : 0
                return .init(step: step, value: 1, pointer: 0x1000 + UInt64(step.argument) * 0x40 + moved, structSize: 96,
                             digest: 0xABC0 + UInt64(step.argument))
            }
        }

        /// The script for this plugin and what it answered.
        mutating func log() -> ParentJudgment.ScriptLog {
            let script = ParentJudgment.ScriptLog.sequence(count: renderers, walked: renderers)
            return ParentJudgment.ScriptLog(script.map { observe($0) }, walked: Int(renderers))
        }
    }

    static func message(_ outcome: CheckOutcome) -> (finding: Bool, text: String) {
        switch outcome {
        case .passed(let text, _, _), .notApplicable(let text): (false, text)
        case .problem(let text, _, _), .problemDependentsRun(let text, _), .warning(let text, _): (true, text)
        }
    }

    @Test func aReferenceCountedPluginWithStableDescriptorsPasses() {
        var plugin = ScriptedPlugin()
        let log = plugin.log()
        #expect(Self.message(ParentJudgment.refcountOutcome(log)) == (false, "init, init, deinit, deinit, extra deinit, init: reference counted, descriptors unchanged"))
        #expect(Self.message(ParentJudgment.stabilityOutcome(log, count: 2)) == (false, "2 descriptors stable; NULL past the end"))
    }

    @Test(arguments: [
        (ScriptedPlugin.Flaw.firstDeinitReleases, "after init(), init(), deinit() the plugin reports 0 renderers instead of 2; the first deinit() must not release anything"),
        (.secondInitFails, "a second init() returned 3 ("),
        (.extraDeinitBreaksReinit, "init() after the last deinit() and an extra deinit() returned 3 ("),
    ])
    func eachReferenceCountingMistakeIsNamed(_ flaw: ScriptedPlugin.Flaw, _ expected: String) {
        var plugin = ScriptedPlugin(flaw)
        let (finding, text) = Self.message(ParentJudgment.refcountOutcome(plugin.log()))
        #expect(finding && text.hasPrefix(expected), "\(text)")
    }

    @Test(arguments: [
        (ScriptedPlugin.Flaw.pointerMoves, "renderer_at(0) returned two different pointers"),
        (.answersPastTheEnd, "renderer_at(2) returned a descriptor although renderer_count() is 2; it must return NULL past the end"),
    ])
    func eachDescriptorInstabilityIsNamed(_ flaw: ScriptedPlugin.Flaw, _ expected: String) {
        var plugin = ScriptedPlugin(flaw)
        let (finding, text) = Self.message(ParentJudgment.stabilityOutcome(plugin.log(), count: 2))
        #expect(finding && text == expected, "\(text)")
    }

    /// The child's load time is a claim checked against the start the host
    /// watched: more than the whole start cannot be true; the figure judged
    /// is the host's own quickest start.
    @Test func theLoadTimeIsTheHostsOwnFigureAndTheChildsIsCrossChecked() {
        let ms: UInt64 = 1_000_000
        #expect(Self.message(ParentJudgment.loadTimeOutcome(reported: 20 * ms, sameStart: 10 * ms, quickest: 9 * ms, budget: 250)).text
            .hasSuffix("the report cannot be true"))
        let slow = Self.message(ParentJudgment.loadTimeOutcome(reported: 200 * ms, sameStart: 400 * ms, quickest: 300 * ms, budget: 250))
        #expect(slow.finding && slow.text.hasSuffix("move work out of init() and static constructors"), "\(slow.text)")
        let quick = Self.message(ParentJudgment.loadTimeOutcome(reported: 2 * ms, sameStart: 30 * ms, quickest: 12 * ms, budget: 250))
        #expect(!quick.finding && quick.text.hasPrefix("the host observed 12"), "\(quick.text)")
        #expect(Self.message(ParentJudgment.loadTimeOutcome(reported: 1, sameStart: nil, quickest: nil, budget: 250))
            == (true, "the host did not observe its renderer host's start"))
    }

    /// At least the frozen 1.0 size always; exactly the claimed minor's
    /// size from 1.1 up to the host's own; a later minor may be larger.
    @Test func structSizesFollowTheClaimedMinor() {
        let entry10 = EntryLoader.entrySize, entry = EntryLoader.headerEntrySize
        #expect(LoadingChecks.structSizeProblems(version: ABIVersion(major: 1, minor: 0), entrySize: entry10, descriptorSizes: [EntryLoader.descriptorSize]).isEmpty)
        #expect(LoadingChecks.structSizeProblems(version: .host, entrySize: entry, descriptorSizes: []).isEmpty)
        #expect(LoadingChecks.structSizeProblems(version: ABIVersion(major: 1, minor: .max), entrySize: entry + 64, descriptorSizes: []).isEmpty)
        #expect(LoadingChecks.structSizeProblems(version: ABIVersion(major: 1, minor: 0), entrySize: entry10 - 8, descriptorSizes: [])
            == ["hud_entry_t.struct_size is \(entry10 - 8); ABI 1.0 needs at least \(entry10)"])
        if entry != entry10 {
            #expect(LoadingChecks.structSizeProblems(version: .host, entrySize: entry10, descriptorSizes: []).first?
                .hasPrefix("hud_entry_t.struct_size is \(entry10) but the plugin claims ABI \(ABIVersion.host)") == true)
        }
    }

    @Test func undefinedSymbolsNoLibraryNamesAreListedWithTheLibraryToLink() {
        #expect(Self.message(LoadingChecks.neededLibrariesOutcome(undefined: 0, missing: [])) == (false, "no undefined symbols"))
        #expect(Self.message(LoadingChecks.neededLibrariesOutcome(undefined: 1, missing: []))
            == (false, "each of 1 undefined symbol is defined by the plugin's own DT_NEEDED libraries"))
        let outcome = LoadingChecks.neededLibrariesOutcome(undefined: 9, missing: [("sqrt", "/usr/lib/x86_64-linux-gnu/libm.so.6"), ("mystery", nil)])
        guard case .problem(let text, let details, _) = outcome else {
            Issue.record("missing symbols passed")
            return
        }
        #expect(text.hasPrefix("2 undefined symbols (sqrt, mystery) are defined by none of the plugin's DT_NEEDED libraries"), "\(text)")
        #expect(details.first?.hasPrefix("sqrt: defined here by /usr/lib/x86_64-linux-gnu/libm.so.6; link it (-lm") == true, "\(details)")
        #expect(details.last == "mystery: defined by nothing the plugin names")
    }
}
