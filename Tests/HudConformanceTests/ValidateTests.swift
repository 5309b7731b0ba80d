// SPDX-License-Identifier: MIT
import Foundation
import Synchronization
import Testing
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
@testable import HudConformance
import HudTestSupport

/// `hudhost validate` run as a user runs it, on the deliberately broken
/// plugins in `Tests/Fixtures/validate` (each breaks exactly one rule) and on
/// the built-ins: exactly the intended check must fail, with the intended
/// status, and nothing else may fail.
struct ValidateTests {
    /// Short timeouts and few fuzz iterations keep the suite fast; the seed
    /// is fixed so a failure here reproduces with the same command line.
    /// 10 s, not less: the suite runs many validations at once on two
    /// cores, each a child and the host's own renderer hosts, and a unit
    /// deadline is only meant to end a hang (`hang_in_layout`).
    /// A run that provokes a hang passes `provokedHang`: the deadline is
    /// then `ProvokedDeadline` (half a second), which every check of such a
    /// fixture meets but the hanging one.
    /// The timing checks (`perf-*`: thousands of timed calls, and only
    /// ever warnings a loaded machine can raise) run where they are the
    /// subject (`timing: true`); elsewhere they are left out.
    /// `provokedLayoutHang` shortens only the layout deadline (a renderer
    /// that hangs on some inputs: the checks that do not meet them run).
    static let quick = quick(profile: "strict")
    static func quick(profile: String, provokedHang: Bool = false, provokedLayoutHang: Bool = false, timing: Bool = false) -> [String] {
        let deadline = provokedHang ? ProvokedDeadline.argument : underSanitizer ? "20" : "10"
        return ["--profile", profile, "--seed", "20250101", "--timeout", deadline,
                "--layout-timeout", provokedLayoutHang ? ProvokedDeadline.argument : deadline,
                "--fuzz-iterations", "40"] + (timing ? [] : withoutTiming)
    }
    static let withoutTiming = ["--exclude", "^perf-"]
    /// The strict checks a run `withoutTiming` makes.
    static let strictWithoutTiming = ConformanceProfile.strict.checkIDs.filter { !$0.hasPrefix("perf-") }
    /// The suite under AddressSanitizer or ThreadSanitizer (Scripts/sanitizer-tests.sh
    /// exports their options): plugin children run 5–15× slower there, so a
    /// 3-second unit deadline would turn slowness into `timed-out`.
    static let underSanitizer = ProvokedDeadline.underSanitizer
    /// For runs where no check may hang: the timeout only bounds a hang, so
    /// a generous one keeps a loaded machine (four parallel runs of three
    /// children under ThreadSanitizer on two cores) from turning slowness
    /// into `timed-out`.
    static let roomyWithTiming = ["--profile", "strict", "--seed", "20250101", "--timeout", "60", "--layout-timeout", "60", "--fuzz-iterations", "40"]
    static let roomy = roomyWithTiming + withoutTiming

    static func validate(_ arguments: [String]) async throws -> ProcessOutput {
        try await HudHost.run(["validate"] + arguments)
    }

    struct Expectation: Sendable, CustomTestStringConvertible {
        var fixture: String
        var check: String
        var status: String
        /// Checks the host's own run may fail too, because the broken rule
        /// has real consequences in a real host (ParentJudgment); whether
        /// they show depends on the heap, so they are allowed, not required.
        var alsoFailedByTheHost: [String] = []
        /// The profile to validate with (`quick`'s strict when nil).
        var profile: String? = nil
        var testDescription: String { "\(fixture) → \(check) \(status)" + (profile.map { " (\($0))" } ?? "") }
    }

    static let expectations: [Expectation] = [
        .init(fixture: "crash_in_layout", check: "layout-basic", status: "crashed"),
        .init(fixture: "hang_in_layout", check: "layout-basic", status: "timed-out"),
        .init(fixture: "abort_in_init", check: "abi-init", status: "crashed"),
        // Writing past the buffer corrupts a real host's heap: with 64 modes
        // the renderer host usually crashes, which the child's guarded
        // buffers hide. It also copies sizeof(hud_node_t) bytes per node
        // whatever the stride, so at a 1.0 host's stride its last node
        // ends past an exact buffer: the host's abi-older-host-sizes.
        .init(fixture: "overflow_buffer", check: "output-guard-bytes", status: "failed", alsoFailedByTheHost: ["robust-modes", "abi-older-host-sizes"]),
        .init(fixture: "nan_frame", check: "geometry-finite", status: "failed"),
        .init(fixture: "tiny_hit_target", check: "geometry-hit-size", status: "failed"),
        .init(fixture: "overlapping_hits", check: "geometry-hit-overlap", status: "failed"),
        .init(fixture: "safe_area_band", check: "geometry-safe-bands", status: "failed"),
        // A house rule: only the opt-in hudson profile has it (the same
        // plugin passes strict: theHouseStyleIsOptIn).
        .init(fixture: "chip_outer_side", check: "hudson-chip-inner-side", status: "failed", profile: "hudson"),
        .init(fixture: "top_inset_counts_bar", check: "geometry-content-insets", status: "failed"),
        .init(fixture: "nondeterministic", check: "determinism-repeat", status: "failed"),
        .init(fixture: "modifies_input", check: "output-inputs-unchanged", status: "failed"),
        .init(fixture: "calls_action", check: "output-no-action-calls", status: "failed"),
        .init(fixture: "thread_race", check: "thread-safety", status: "failed"),
        .init(fixture: "wrong_count", check: "output-needed-count", status: "failed"),
        .init(fixture: "missing_labels", check: "a11y-labels", status: "failed"),
        .init(fixture: "raw_symbol_labels", check: "a11y-labels", status: "warning"),
        .init(fixture: "low_contrast", check: "a11y-contrast", status: "failed"),
        .init(fixture: "wrong_major", check: "abi-version", status: "failed"),
        .init(fixture: "missing_entry", check: "abi-entry-symbol", status: "failed"),
        // A hand-typed .hud_renderers record that drifted from the descriptor.
        .init(fixture: "metadata_mismatch", check: "abi-metadata", status: "failed"),
        // sin() without -lm: on notice in strict@1.1, an error from 1.2 (the
        // fixture, built against this SDK, claims 1.2: strict is strict@1.2).
        .init(fixture: "undeclared_libm", check: "abi-needed-libraries", status: "warning", profile: "strict@1.1"),
        .init(fixture: "undeclared_libm", check: "abi-needed-libraries", status: "failed"),
        // ABI 1.2: a picker that marks more than the current mode (on notice
        // in strict@1.2), and a picker icon that is empty.
        .init(fixture: "selects_every_mode", check: "output-current-mode", status: "warning"),
        .init(fixture: "empty_picker_icon", check: "abi-descriptors", status: "failed"),
    ]

    static func results(_ json: JSONValue) -> [JSONValue] {
        (json["targets"]?.arrayValue ?? []).flatMap { $0["results"]?.arrayValue ?? [] }
    }

    static func failures(_ json: JSONValue) -> [(check: String, status: String)] {
        results(json).compactMap { result in
            guard let status = result["status"]?.stringValue, ["failed", "crashed", "timed-out", "warning"].contains(status),
                  let check = result["check"]?.stringValue else { return nil }
            return (check, status)
        }
    }

    /// `failures` less the timing warnings a loaded machine may cause (TimingWarnings).
    static func failuresBesideLoad(_ json: JSONValue) -> [(check: String, status: String)] {
        failures(json).filter { !TimingWarnings.mayComeFromLoad(check: $0.check, status: $0.status) }
    }

    @Test(arguments: expectations)
    func eachBrokenFixtureFailsExactlyItsCheck(_ expectation: Expectation) async throws {
        let plugin = try await ValidateFixture.path(expectation.fixture)
        let output = try await Self.validate([plugin, "--format", "json"] + Self.quick(profile: expectation.profile ?? "strict",
                                                                                  provokedHang: expectation.status == "timed-out"))
        // A warning alone does not fail the run (without --werror).
        #expect(output.status == (expectation.status == "warning" ? 0 : 1), "\(output.transcript)")
        let json = try HudHost.json(output)
        #expect(json["schemaVersion"] == 1)
        let hostFound = Set(expectation.alsoFailedByTheHost)
        // A timing warning depends on the machine's load, not on the fixture
        // (TimingWarnings).
        let failures = Self.failures(json).filter {
            !hostFound.contains($0.check) && !TimingWarnings.mayComeFromLoad(check: $0.check, status: $0.status, except: expectation.check)
        }
        #expect(failures.count == 1, "expected only \(expectation.check) to fail: \(failures)")
        #expect(failures.first?.check == expectation.check, "\(failures)")
        #expect(failures.first?.status == expectation.status, "\(failures)")
        // An honest plugin's own finding is the child's (a run-time check,
        // never asked of the child, is the host's alone); unless the host's
        // own load refuses the file too, its run sets nothing else aside (a
        // warning it agrees with stays the child's and blocks nothing).
        let finding = Self.results(json).first { $0["check"]?.stringValue == expectation.check }
        #expect(finding?["message"]?.stringValue?.hasPrefix("the host's own run: ") == ParentRuntimeJudgment.judged.contains(expectation.check),
                "\(output.stdout)")
        if !["abi-load", "abi-entry-symbol", "abi-version", "abi-init", "abi-descriptors", "abi-metadata"].contains(expectation.check) {
            #expect(!Self.results(json).contains { $0["message"]?.stringValue?.hasPrefix("not verified") == true }, "\(output.stdout)")
        }
        // The host refuses a layout that called an action: a check of its
        // own that had no other layout to judge says so instead of passing.
        if expectation.fixture == "calls_action" {
            let contrast = Self.results(json).first { $0["check"]?.stringValue == "a11y-contrast" }
            #expect(contrast?["status"]?.stringValue == "skipped"
                    && contrast?["message"]?.stringValue?.contains("every case's layout called an action") == true, "\(output.stdout)")
        }
        for check in hostFound {
            let result = Self.results(json).first { $0["check"]?.stringValue == check }
            if result?["status"]?.stringValue != "passed" {
                #expect(result?["message"]?.stringValue?.hasPrefix("the host's own run: ") == !ParentJudgment.hostOnly.contains(check), "\(check): \(output.stdout)")
            }
        }
    }

    /// A plugin that writes the child's result lines itself ("every check
    /// passed") and exits: the child is never asked for a renderer check
    /// that lays out, so those lines are dropped; the host's own layout
    /// through a renderer host finds the crash, attributed as the runner
    /// attributes one (the case and a command that reproduces it), and
    /// the checks that require it are skipped in the runner's words.
    @Test func aPluginForgingTheChildsResultsIsJudgedByTheHost() async throws {
        let output = try await Self.validate([try await ValidateFixture.path("forges_results"), "--format", "json"] + Self.quick)
        #expect(output.status == 1, "\(output.transcript)")
        let results = Self.results(try HudHost.json(output))
        let basic = results.first { $0["check"]?.stringValue == "layout-basic" }
        #expect(basic?["status"]?.stringValue == "crashed", "\(output.stdout)")
        let message = basic?["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("the plugin crashed (SIG") && message.hasSuffix(" laying out \(ConformanceInputs.basic.name)"), "\(output.stdout)")
        let details = basic?["details"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(details.first == "case: \(ConformanceInputs.basic.name)", "\(output.stdout)")
        #expect(details.last?.hasPrefix("reproduce: hudhost validate ") == true, "\(output.stdout)")
        let finite = results.first { $0["check"]?.stringValue == "geometry-finite" }
        #expect(finite?["status"]?.stringValue == "skipped", "\(output.stdout)")
        #expect(finite?["message"]?.stringValue == "requires layout-basic, which " + message.dropFirst("the plugin ".count).prefix { $0 != ")" } + ")",
                "\(output.stdout)")
        let valid = results.first { $0["check"]?.stringValue == "output-valid" }
        #expect(valid?["message"]?.stringValue == "requires geometry-finite, which was skipped", "\(output.stdout)")
        // The child ends early every time (restarted to the limit): what it
        // never reported is skipped once, and not for the parent's checks.
        let units = results.map { ($0["check"]?.stringValue ?? "") + " " + ($0["renderer"]?.stringValue ?? "-") }
        #expect(Set(units).count == units.count, "a check reported twice: \(output.stdout)")
        // The child is never asked for geometry-hit-size: the host does not run it behind the check it requires.
        let hitSize = results.first { $0["check"]?.stringValue == "geometry-hit-size" }
        #expect(hitSize?["status"]?.stringValue == "skipped" && hitSize?["message"]?.stringValue == "requires output-valid, which was skipped", "\(output.stdout)")
        #expect(!results.contains { $0["status"]?.stringValue == "passed" && $0["check"]?.stringValue == "layout-basic" })
        // A plugin-level result said of one renderer is dropped.
        #expect(!results.contains { $0["check"]?.stringValue == "abi-metadata" && $0["renderer"]?.stringValue != nil }, "\(output.stdout)")
    }

    /// A plugin that writes the runner's "done" frame itself and ends the
    /// child cleanly: a done before every check has reported is plugin
    /// code's, so the check in progress crashed and the run fails (it
    /// exited 0 with every later check skipped).
    @Test func aPluginForgingTheEndOfTheRunFailsTheCheckInProgress() async throws {
        let output = try await Self.validate([try await ValidateFixture.path("forges_done"), "--format", "json"] + Self.quick)
        #expect(output.status == 1, "\(output.transcript)")
        let results = Self.results(try HudHost.json(output))
        let initialize = results.first { $0["check"]?.stringValue == "abi-init" }
        #expect(initialize?["status"]?.stringValue == "crashed", "\(output.stdout)")
        #expect(initialize?["message"]?.stringValue?.contains("done before every check had reported") == true, "\(output.stdout)")
        #expect(!results.contains { $0["status"]?.stringValue == "passed" && $0["renderer"]?.stringValue != nil }, "\(output.stdout)")
    }

    /// A plugin that breaks geometry-hit-size and reports it skipped: as
    /// not applicable, or behind a prerequisite that passed. The child is
    /// never asked for that check, so either frame is dropped and the
    /// host's finding is the result: the run fails (it exited 0). (A skip
    /// the runner never makes, for a check the child runs, is crashed:
    /// ConformanceRulesTests.aSkipTheRunnerNeverMakesIsPluginCodes.)
    @Test(arguments: ["forges_not_applicable", "forges_skip"])
    func aForgedSkipDoesNotHideAFailure(_ fixture: String) async throws {
        try await Self.expectHostVerdict(fixture, "geometry-hit-size", "failed", "hit region is 30×30 pt", childClaimed: false)
    }

    /// Plugins that break one buffer rule and, inside the `validate` child,
    /// write a result frame claiming that check passed (forge_verdict.h):
    /// the host judges the check itself from raw calls into a guarded buffer
    /// it lays out in its renderer host's shared region and reads back, so
    /// the forged pass is replaced by the host's failure and nothing else fails.
    @Test(arguments: [
        ("forges_guard_bytes", "output-guard-bytes", "past the end of the node buffer"),
        ("forges_every_field", "output-every-field", "field glyph_size was not written"),
        ("forges_needed_count", "output-needed-count", "but needs 8 nodes"),
    ])
    func aForgedBufferVerdictIsJudgedByTheHost(_ fixture: String, _ check: String, _ finding: String) async throws {
        try await Self.expectHostVerdict(fixture, check, "failed", finding)
    }

    /// Plugins that break one accessibility rule and forge a pass for it:
    /// the host judges both accessibility checks from its own layouts with
    /// the child's rules (`labelsOutcome`, `contrastOutcome`).
    @Test(arguments: [
        ("forges_labels", "a11y-labels", "is interactive but its accessibility label is NULL"),
        ("forges_contrast", "a11y-contrast", "icons need 3:1"),
    ])
    func aForgedAccessibilityVerdictIsJudgedByTheHost(_ fixture: String, _ check: String, _ finding: String) async throws {
        try await Self.expectHostVerdict(fixture, check, "failed", finding)
    }

    /// A plugin that fails valid inputs of one robustness suite and forges
    /// a pass for it: the host lays the suite out itself and judges it with
    /// the child's rule (`robustOutcome`), so the pass is replaced.
    @Test func aForgedRobustnessVerdictIsJudgedByTheHost() async throws {
        try await Self.expectHostVerdict("forges_robust_modes", "robust-modes", "failed",
                                         "layout() returned -3 (HUD_STATUS_INTERNAL_ERROR); these are valid inputs")
    }

    /// A plugin that pushes frames off screen (finite numbers) and forges a
    /// pass for geometry-finite: the child is never asked for that check,
    /// so the forged frame is dropped and the host's finding, with the
    /// rule the child applies to the built-ins (`finiteOutcome`), is the
    /// result; as in the child, its dependents still run, so the rule
    /// actually broken is reported too and nothing is skipped.
    @Test func aForgedOnScreenVerdictIsJudgedByTheHostAndBlocksNothing() async throws {
        let output = try await Self.validate([try await ValidateFixture.path("forges_off_screen"), "--format", "json"] + Self.quick)
        #expect(output.status == 1, "\(output.transcript)")
        let json = try HudHost.json(output)
        #expect(Self.failuresBesideLoad(json).map(\.check).sorted() == ["geometry-finite", "geometry-safe-bands"], "\(output.stdout)")
        let finite = try #require(Self.results(json).first { $0["check"]?.stringValue == "geometry-finite" })
        #expect(finite["message"]?.stringValue?.hasPrefix("the host's own run: ") == false, "\(finite)")
        #expect(finite["message"]?.stringValue?.contains("is not inside the") == true, "\(finite)")
        #expect(finite["dependentsRun"] == true, "\(finite)")
        #expect(finite["details"]?.arrayValue?.contains { $0.stringValue?.contains("sandboxed child") == true } == false, "\(finite)")
        #expect(!Self.results(json).contains { $0["message"]?.stringValue?.hasPrefix("not verified") == true }, "\(output.stdout)")
    }

    /// Validates the forging `fixture` and expects exactly `check` to end
    /// with `status`, as the host's own finding (the message says so and
    /// contains `finding`), with what the child claimed in the details
    /// unless the child was never asked for the check. Returns the run's
    /// output and every result reported for `check`.
    @discardableResult
    static func expectHostVerdict(_ fixture: String, _ check: String, _ status: String, _ finding: String,
                                  childClaimed: Bool = true, profile: String = "strict") async throws -> (output: ProcessOutput, reported: [JSONValue]) {
        // A timing fixture spins or leaks in every call: it is held to the
        // timing checks alone (the others would only spend ~1,000 slow calls).
        let selection = check.hasPrefix("perf-") ? ["--include", "^perf-"] : []
        let output = try await validate([try await ValidateFixture.path(fixture), "--format", "json"] + quick(profile: profile, timing: check.hasPrefix("perf-")) + selection)
        #expect(output.status == (status == "warning" ? 0 : 1), "\(output.transcript)")
        let json = try HudHost.json(output)
        // A timing warning of another check depends on the machine's load (TimingWarnings).
        let failures = Self.failures(json).filter { !TimingWarnings.mayComeFromLoad(check: $0.check, status: $0.status, except: check) }
        #expect(failures.map(\.check) == [check], "\(failures)")
        let reported = results(json).filter { $0["check"]?.stringValue == check }
        #expect(reported.first?["status"]?.stringValue == status, "\(output.stdout)")
        let message = reported.first?["message"]?.stringValue ?? ""
        // A check the child is never asked for has no claim to replace: the
        // host's result is the only one, in the rule's own words.
        let only = ParentJudgment.hostOnly.contains(check)
        #expect(message.hasPrefix("the host's own run: ") != only && message.contains(finding), "\(message)")
        if childClaimed && !only {
            #expect(reported.first?["details"]?.arrayValue?.first?.stringValue == "the sandboxed child reported passed: all good", "\(output.stdout)")
        }
        return (output, reported)
    }

    /// Plugins that break one run-time rule and forge the child's verdict
    /// (forge_verdict.h): fuzz, thread safety, the fresh-process check and
    /// both performance checks are never asked of the child for a plugin
    /// file; the host runs them through its own renderer hosts
    /// (ParentRuntimeJudgment), so the forged frame is dropped, the host's
    /// finding is the result and nothing else fails. The slow fixture spins 4 ms per call,
    /// so the host's median is over the 2 ms budget on any machine (a round
    /// trip only adds time); the leaking one leaks 4 KiB per call.
    @Test(arguments: [
        ("forges_fuzz", "fuzz", "failed", "hit region is 30×30 pt"),
        ("forges_thread_safety", "thread-safety", "failed", "concurrent results differ from the serial ones"),
        ("forges_processes", "determinism-processes", "failed", "two fresh renderer hosts"),
        ("forges_layout_time", "perf-layout-time", "warning", "round trips timed by the host"),
        ("forges_allocations", "perf-allocations", "warning", "seems to leak"),
    ])
    func aForgedRuntimeVerdictIsJudgedByTheHost(_ fixture: String, _ check: String, _ status: String, _ finding: String) async throws {
        // Under a sanitizer the host leaves perf-allocations to the child
        // (ParentRuntimeJudgment: the sanitizer's allocator quarantines
        // freed memory, so the data size grows without a leak).
        if check == "perf-allocations", Self.underSanitizer { return }
        let (output, reported) = try await Self.expectHostVerdict(fixture, check, status, finding, childClaimed: false)
        #expect(reported.count == 1, "one result for \(check): \(reported)")
        if check == "fuzz" {
            #expect(reported.first?["seed"]?.stringValue == "20250101", "\(output.stdout)")
            #expect(reported.first?["details"]?.arrayValue?.contains { $0.stringValue?.hasPrefix("minimal input: ") == true } == true, "\(output.stdout)")
        }
    }

    /// A renderer that hangs or crashes on some inputs only: the validator
    /// ends (each layout has the layout deadline, and a check of the host's
    /// own run ends at its first hang or crash), and every such verdict
    /// names the case and a command that reproduces it. The test's own deadline (60 s;
    /// 180 s under a sanitizer) is far above the run (a few seconds; under
    /// a sanitizer, tens): before the layout deadline the host's run waited
    /// out every one of ~300 landscape cases (150 s; 900 s).
    @Test(arguments: [("hang_in_landscape", "timed-out", " landscape "), ("crash_with_center_revealed", "crashed", "center modes revealed")])
    func aRendererFailingOnSomeInputsIsReportedAtItsFirstCase(_ fixture: String, _ status: String, _ inCase: String) async throws {
        let plugin = try await ValidateFixture.path(fixture)
        let arguments = [plugin, "--format", "json"] + Self.quick(profile: "strict", provokedLayoutHang: true)
        let deadline = Self.underSanitizer ? 180 : 60
        let output = try await HudHost.run(["validate"] + arguments, deadline: deadline)
        #expect(output.status == 1, "\(output.transcript)")
        let failing = Self.results(try HudHost.json(output)).filter { ["timed-out", "crashed", "failed"].contains($0["status"]?.stringValue) }
        #expect(!failing.isEmpty)
        for result in failing {
            let check = result["check"]?.stringValue ?? "?"
            #expect(result["status"]?.stringValue == status, "\(check): \(result)")
            let details = result["details"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let named = details.first { $0.hasPrefix("case: ") }
            #expect(named?.contains(inCase) == true, "\(check) names no failing case: \(result)")
            let reproduce = details.first { $0.hasPrefix("reproduce: hudhost validate ") }
            #expect(reproduce?.contains("--include '^\(check)$'") == true, "\(check): \(result)")
        }
        // The command reproduces the first verdict: the same check, status and case.
        let first = try #require(failing.first)
        let check = try #require(first["check"]?.stringValue)
        let words = try #require(first["details"]?.arrayValue?.compactMap(\.stringValue).first { $0.hasPrefix("reproduce: ") })
            .dropFirst("reproduce: hudhost validate ".count).split(separator: " ").map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
        let again = try await HudHost.run(["validate"] + words + ["--format", "json"], deadline: deadline)
        let repeated = try #require(Self.results(try HudHost.json(again)).first { $0["check"]?.stringValue == check })
        #expect(repeated["status"] == first["status"] && repeated["message"] == first["message"], "\(again.transcript)")
    }

    /// A plugin that prints from init() and forges a pass for
    /// abi-quiet-stdout: the parent judges that check from the stdout it
    /// captured and drops the child's frame for it.
    @Test func aForgedQuietStdoutVerdictIsDropped() async throws {
        let output = try await Self.validate([try await ValidateFixture.path("forges_quiet_stdout"), "--format", "json"] + Self.quick)
        #expect(output.status == 1, "\(output.transcript)")
        let json = try HudHost.json(output)
        let reported = Self.results(json).filter { $0["check"]?.stringValue == "abi-quiet-stdout" }
        #expect(reported.count == 1, "\(reported)")
        #expect(reported.first?["status"]?.stringValue == "failed", "\(output.stdout)")
        #expect(reported.first?["message"]?.stringValue?.contains("hello from init") == true, "\(output.stdout)")
        let failures = Self.failuresBesideLoad(json)
        #expect(failures.map(\.check) == ["abi-quiet-stdout"], "\(failures)")
    }

    /// The example plugin, judged like any third-party file (the host's own
    /// run-time checks included), passes strict.
    @Test func exampleRingPassesStrict() async throws {
        let output = try await Self.validate([FixturePlugins.binDirectory + "/libExampleRing.so", "--format", "json"] + Self.roomyWithTiming)
        #expect(output.status == 0, "\(output.transcript)")
        let json = try HudHost.json(output)
        #expect(Self.failuresBesideLoad(json).isEmpty, "\(output.stdout)")
        let judged = Self.results(json).filter { ["fuzz", "thread-safety", "determinism-processes", "perf-layout-time", "perf-allocations"].contains($0["check"]?.stringValue ?? "") }
        #expect(judged.count == 5, "\(output.stdout)")
        // Each is the host's own result (a timing warning may come from a loaded machine).
        #expect(judged.filter { !($0["check"]?.stringValue?.hasPrefix("perf-") ?? false) }.allSatisfy { $0["status"]?.stringValue == "passed" })
        // (Under a sanitizer perf-allocations is the child's: see ParentRuntimeJudgment.)
        #expect(judged.filter { !(Self.underSanitizer && $0["check"]?.stringValue == "perf-allocations") }
            .allSatisfy { $0["message"]?.stringValue?.hasPrefix("the host's own run: ") == true }, "\(output.stdout)")
    }

    /// Plugins that break one loading or extension rule and, inside the
    /// `validate` child, claim that check passed (forge_verdict.h): the
    /// host judges it from raw facts its renderer host reports for an ABI
    /// script and extension ids the host chose, or saw of the entry before
    /// its load initialized the plugin, from raw calls at the ABI
    /// 1.0 sizes into a buffer it reads itself, from the start it
    /// observed, from C inputs laid out in the shared region it compares
    /// itself, or from the exit status of a child whose trap action
    /// fired, so the forged pass is replaced by the host's finding.
    @Test(arguments: [
        ("forges_refcount", "abi-init-refcount", "failed", "the first deinit() must not release anything"),
        ("forges_descriptors_stable", "abi-descriptors-stable", "failed", "it must return NULL past the end"),
        ("forges_struct_sizes", "abi-struct-sizes", "failed", "hud_renderer_descriptor_t.struct_size is"),
        ("forges_extension_exact", "abi-extension-exact", "failed", "only the exact id"),
        ("forges_extension_unknown", "abi-extension-unknown", "failed", "get_extension(the empty string) returned non-NULL"),
        ("forges_load_time", "abi-load-time", "warning", "to start a sandboxed renderer host"),
        ("forges_inputs_unchanged", "output-inputs-unchanged", "failed", "bytes of its inputs"),
        ("forges_no_action_calls", "output-no-action-calls", "failed", "the trap ended the renderer host at once"),
        ("forges_needed_libraries", "abi-needed-libraries", "failed", "(sin) is defined by none of the plugin's DT_NEEDED libraries"),
        ("forges_entry_symbol", "abi-entry-symbol", "failed", "it must return the same static entry every time"),
        ("forges_init_count", "abi-init", "failed", "renderer_count() returned 1 before init()"),
        ("forges_entry_elsewhere", "abi-entry-symbol", "failed", "resolves to code in "),
    ])
    func aForgedLoadingVerdictIsJudgedByTheHost(_ fixture: String, _ check: String, _ status: String, _ finding: String) async throws {
        try await Self.expectHostVerdict(fixture, check, status, finding)
    }

    /// abi-metadata is in strict only; in the other profiles the host's
    /// own load of the file, which refuses the renderer, fails the last
    /// loading check they select.
    @Test(arguments: ["basic", "standard"])
    func aMetadataMismatchFailsProfilesWithoutAbiMetadata(_ profile: String) async throws {
        let output = try await Self.validate([try await ValidateFixture.path("metadata_mismatch"), "--format", "json", "--profile", profile,
                                        "--seed", "20250101", "--timeout", Self.underSanitizer ? "20" : "10"])
        #expect(output.status == 1, "\(output.transcript)")
        let json = try HudHost.json(output)
        let failures = Self.failuresBesideLoad(json)
        #expect(failures.map(\.check) == ["abi-descriptors"], "\(failures)")
        let result = Self.results(json).first { $0["check"]?.stringValue == "abi-descriptors" }
        #expect(result?["message"]?.stringValue?.contains("[metadata-mismatch]") == true, "\(output.stdout)")
        #expect(!Self.results(json).contains { $0["status"]?.stringValue == "passed" && $0["check"]?.stringValue == "layout-basic" })
    }

    /// Every strict check passes. abi-load-time is judged on its report,
    /// not its verdict: on a loaded machine (or under a sanitizer) the start
    /// may exceed the budget for any plugin (TimingWarnings), so the test
    /// asserts the measured figure and the budget it reports.
    @Test func theCorrectFixturePassesEveryStrictCheck() async throws {
        let output = try await Self.validate([try await ValidateFixture.path("correct"), "--format", "json"] + Self.roomy)
        #expect(output.status == 0, "\(output.transcript)")
        let json = try HudHost.json(output)
        #expect(Self.failuresBesideLoad(json).isEmpty, "\(output.stdout)")
        let results = Self.results(json)
        #expect(results.count == Self.strictWithoutTiming.count)
        #expect(results.allSatisfy { result in
            TimingWarnings.passedOrFromLoad(check: result["check"]?.stringValue ?? "", status: result["status"]?.stringValue)
        }, "\(output.stdout)")
        let loadTime = results.first { $0["check"]?.stringValue == "abi-load-time" }?["message"]?.stringValue ?? ""
        #expect(loadTime.contains(/(observed|took) [0-9.]+ ms/) && loadTime.contains("budget 250 ms"), "abi-load-time reported: \(loadTime)")
    }

    @Test(arguments: ["text", "json", "junit", "tap"])
    func builtinsPassStrictInEveryFormat(_ format: String) async throws {
        let output = try await Self.validate(["com.hudson.tray", "com.hudson.scattered", "com.hudson.minimal", "--format", format, "-j", "3"] + Self.roomy)
        #expect(output.status == 0, "\(output.transcript)")
        switch format {
        case "text":
            // Performance checks may warn on a loaded machine (they are
            // warnings by design); nothing may fail.
            #expect(output.stdout.contains(" 0 failed, "), "\(output.stdout)")
            // abi-load, abi-entry-symbol, abi-metadata and abi-needed-libraries
            // do not apply to linked built-ins. abi-older-host-sizes neither:
            // they are laid out at the host's own sizes.
            #expect(output.stdout.contains(" 15 skipped, 0 crashed, 0 timed out"), "\(output.stdout)")
            #expect(output.stdout.components(separatedBy: "  held to strict@1.2\n").count - 1 == 3, "\(output.stdout)")
        case "json":
            let json = try HudHost.json(output)
            #expect(Self.failuresBesideLoad(json).isEmpty)
            #expect(json["summary"]?["failed"] == 0)
        case "junit":
            #expect(output.stdout.hasPrefix("<?xml"))
            #expect(output.stdout.contains("failures=\"0\" errors=\"0\""))
            #expect(!output.stdout.contains("<failure"))
            #expect(output.stdout.components(separatedBy: "<testcase ").count - 1 == 3 * Self.strictWithoutTiming.count)
        default:
            #expect(output.stdout.hasPrefix("TAP version 13\n1..\(3 * Self.strictWithoutTiming.count)\n"))
            #expect(!output.stdout.contains("not ok"))
        }
    }

    @Test func builtinSharedObjectPassesStrict() async throws {
        let output = try await Self.validate([FixturePlugins.binDirectory + "/libBuiltinRenderers.so", "--format", "json"] + Self.roomy)
        #expect(output.status == 0, "\(output.transcript)")
        let json = try HudHost.json(output)
        #expect(Self.failuresBesideLoad(json).isEmpty)
        let renderers = Set(Self.results(json).compactMap { $0["renderer"]?.stringValue })
        #expect(renderers == ["com.hudson.tray", "com.hudson.scattered", "com.hudson.minimal"])
        #expect(Self.results(json).allSatisfy { result in
            TimingWarnings.passedOrFromLoad(check: result["check"]?.stringValue ?? "", status: result["status"]?.stringValue)
        })
    }

    @Test func junitFailureCarriesTheSeed() async throws {
        let output = try await Self.validate([try await ValidateFixture.path("tiny_hit_target"), "--format", "junit"] + Self.quick)
        #expect(output.status == 1)
        #expect(output.stdout.contains("<failure message=\""))
        #expect(output.stdout.contains("[seed 20250101]"))
    }

    /// Root cause first: frames pushed past the screen's bottom fail
    /// geometry-finite, but their numbers are finite, so the checks after
    /// it still run and the rule actually broken (the home-indicator band)
    /// is reported; a NaN still blocks them (`nan_frame`, above).
    @Test func framesOffScreenStillLetTheBrokenRuleBeReported() async throws {
        let output = try await Self.validate([try await ValidateFixture.path("bottom_off_screen"), "--format", "json"] + Self.quick)
        #expect(output.status == 1, "\(output.transcript)")
        let results = Self.results(try HudHost.json(output))
        #expect(Self.failures(try HudHost.json(output)).map(\.check).sorted() == ["geometry-finite", "geometry-safe-bands"], "\(output.stdout)")
        let finite = try #require(results.first { $0["check"]?.stringValue == "geometry-finite" })
        #expect(finite["dependentsRun"] == true && finite["message"]?.stringValue?.contains("is not inside the") == true, "\(finite)")
        #expect(!results.contains { $0["status"]?.stringValue == "skipped" && $0["notApplicable"] != true }, "\(output.stdout)")
    }

    /// A failed check in the text report carries its documented fix and
    /// where its section is, in the CONFORMANCE.md of this hudhost (the
    /// checkout's here; an install's in `share/doc/hud`).
    @Test func theTextReportGivesAFailureItsFixAndSection() async throws {
        let output = try await Self.validate([try await ValidateFixture.path("tiny_hit_target"), "--include", "^geometry-hit-size$"] + Self.quick)
        #expect(output.status == 1, "\(output.transcript)")
        let fix = try #require(ConformanceFixes.byCheck["geometry-hit-size"])
        #expect(output.stdout.contains("\n          fix: \(fix)\n"), "\(output.transcript)")
        let documentation = FixturePlugins.repositoryRoot + "/Docs/CONFORMANCE.md"
        #expect(output.stdout.contains("\n          see: \(documentation)#geometry-hit-size\n"), "\(output.transcript)")
        #expect(try String(contentsOfFile: documentation, encoding: .utf8).contains("### `geometry-hit-size`"))
        // The failure's line names its first case; the details go on from
        // the second, not repeating it.
        let lines = output.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let failure = try #require(lines.firstIndex { $0.hasPrefix("FAIL  geometry-hit-size") })
        let message = lines[failure].dropFirst("FAIL  geometry-hit-size".count).trimmingCharacters(in: .whitespaces)
        #expect(message.hasSuffix("more cases)") && !message.hasPrefix(lines[failure + 1]), "\(output.stdout)")
    }

    @Test func includeAndExcludeSelectChecksByID() async throws {
        let output = try await Self.validate([try await ValidateFixture.path("tiny_hit_target"), "--format", "json",
                                        "--include", "^geometry-", "--exclude", "hit-size"] + Self.quick)
        #expect(output.status == 0, "\(output.transcript)")
        let checks = Set(Self.results(try HudHost.json(output)).compactMap { $0["check"]?.stringValue })
        #expect(!checks.isEmpty && checks.allSatisfy { $0.hasPrefix("geometry-") } && !checks.contains("geometry-hit-size"))
    }

    @Test func warningsFailOnlyWithWerrorAndTheSummaryCountsEveryStatus() {
        let statuses: [CheckStatus] = [.passed, .warning, .skipped]
        let results = statuses.enumerated().map { CheckResult(checkID: "check-\($0.offset)", renderer: "org.example.x", status: $0.element, message: "m") }
        let report = ConformanceReport(profile: "strict", seed: 7, checkIDs: results.map(\.checkID),
                                       targets: [ConformanceTargetReport(argument: "x.so", target: .file(path: "x.so", renderer: nil), results: results, seed: 7)])
        #expect(!report.hasFailures(werror: false))
        #expect(report.hasFailures(werror: true))
        #expect(report.text().hasSuffix("1 passed, 0 failed, 1 warning, 1 skipped, 0 crashed, 0 timed out\n"))
        #expect(report.tap.contains("ok 2 - org.example.x: check-1 # warning: m"))
    }

    @Test func inProcessModeRunsTheSameChecks() async throws {
        let output = try await Self.validate([try await ValidateFixture.path("correct"), "--in-process", "--format", "json"] + Self.roomy)
        #expect(output.status == 0, "\(output.transcript)")
        let json = try HudHost.json(output)
        #expect(Self.failuresBesideLoad(json).isEmpty, "\(output.stdout)")
        // Only abi-quiet-stdout and abi-older-host-sizes need the sandbox.
        let skipped = Self.results(json).filter { $0["status"]?.stringValue == "skipped" }.compactMap { $0["check"]?.stringValue }
        #expect(skipped == ["abi-older-host-sizes", "abi-quiet-stdout"])
    }

    @Test func theSameSeedReproducesTheRandomizedChecks() async throws {
        let plugin = try await ValidateFixture.path("correct")
        let arguments = [plugin, "--include", "^fuzz$", "--profile", "strict", "--seed", "99", "--fuzz-iterations", "30", "--format", "json"]
        let first = try HudHost.json(try await Self.validate(arguments))
        let second = try HudHost.json(try await Self.validate(arguments))
        #expect(first["seed"] == "99")
        #expect(Self.results(first).map { $0["message"] } == Self.results(second).map { $0["message"] })
    }

    @Test func unusableTargetsExitThreeAndBadOptionsAreUsageErrors() async throws {
        #expect(try await Self.validate(["/nonexistent/plugin.so"]).status == 3)
        #expect(try await Self.validate(["no.such.renderer"]).status == 3)
        #expect(try await Self.validate([]).status == 2)
        #expect(try await Self.validate(["com.hudson.tray", "--profile", "extreme"]).status == 2)
        #expect(try await Self.validate(["com.hudson.tray", "--include", "("]).status == 2)
        let notAnObject = FixturePlugins.workDirectory + "/not-a-plugin.so"
        try "not an ELF file".write(toFile: notAnObject, atomically: true, encoding: .utf8)
        let output = try await Self.validate([notAnObject, "--format", "json", "--profile", "basic"])
        #expect(output.status == 3, "\(output.transcript)")
        #expect(try HudHost.json(output)["targets"]?.arrayValue?.first?["unloadable"]?.stringValue != nil)
    }

    @Test func listChecksCoversTheCatalogAndEveryIDIsDocumented() async throws {
        let output = try await Self.validate(["--list-checks", "--json"])
        #expect(output.status == 0)
        let json = try HudHost.json(output)
        let ids = json["checks"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(ids == ConformanceCatalog.checks.map(\.id))
        let docs = try String(contentsOfFile: FixturePlugins.repositoryRoot + "/Docs/CONFORMANCE.md", encoding: .utf8)
        for id in ids {
            #expect(docs.contains("### `\(id)`"), "Docs/CONFORMANCE.md has no section for \(id)")
            let fix = ConformanceFixes.byCheck[id] ?? ""
            #expect(!fix.isEmpty, "the section of \(id) has no **Fix:** (run Scripts/gen-fixes.py after writing it)")
            // validate prints it as one line under the failure: the fix
            // alone, what the check judges goes before it in the section.
            #expect(fix.count <= 200 && !fix.contains("Judged"), "the **Fix:** of \(id) is not one short line: \(fix)")
        }
        // Profiles nest and pin their lists; hudson holds every check.
        let basic = Set(ConformanceProfile.basic.checkIDs), standard = Set(ConformanceProfile.standard.checkIDs)
        let strict = Set(ConformanceProfile.strict.checkIDs), hudson = Set(ConformanceProfile.hudson.checkIDs)
        #expect(basic.isStrictSubset(of: standard) && standard.isStrictSubset(of: strict) && strict.isStrictSubset(of: hudson))
        #expect(hudson == Set(ids))
        // Every check's profile versions and severities.
        #expect(json["profileVersions"] == .array(["1.0", "1.1", "1.2"]))
        let byID = Dictionary(uniqueKeysWithValues: (json["checks"]?.arrayValue ?? []).compactMap { check in check["id"]?.stringValue.map { ($0, check) } })
        #expect(byID["abi-older-host-sizes"]?["severityByVersion"] == .object([("1.0", .null), ("1.1", "warning"), ("1.2", "error")]))
        #expect(byID["output-current-mode"]?["severityByVersion"] == .object([("1.0", .null), ("1.1", .null), ("1.2", "warning")]))
        #expect(byID["output-current-mode"]?["errorFrom"] == "1.3")
        #expect(byID["abi-older-host-sizes"]?["errorFrom"] == "1.2")
        #expect(byID["hudson-chip-inner-side"]?["profiles"] == .array(["hudson"]))
        #expect(byID["abi-load"]?["severityByVersion"] == .object([("1.0", "error"), ("1.1", "error"), ("1.2", "error")]))
        #expect(byID["abi-load"]?["since"] == "1.0")
        let versions = json["profilesByVersion"]
        #expect(versions?["standard@1.0"]?.arrayValue?.contains("abi-older-host-sizes") == false)
        #expect(versions?["standard@1.1"]?.arrayValue?.contains("abi-older-host-sizes") == true)
        // A retired id is listed with what it meant, and no check reuses it.
        let retired = json["retired"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(retired == ["geometry-chip-side"])
        #expect(Set(retired).isDisjoint(with: ids))
        for id in retired { #expect(docs.contains("`\(id)`"), "Docs/CONFORMANCE.md does not mention retired \(id)") }
        let asked = try await Self.validate(["com.hudson.tray", "--include", "geometry-chip-side"])
        #expect(asked.status == 2 && asked.stderr.contains("retired") && asked.stderr.contains("hudson-chip-inner-side"), "\(asked.transcript)")
    }

    /// A style with chips on the outer side is a style, not a failure:
    /// it passes strict; only the opt-in hudson profile asks for Hudson's
    /// inner side (the failure is eachBrokenFixtureFailsExactlyItsCheck's).
    @Test func theHouseStyleIsOptIn() async throws {
        let output = try await Self.validate([try await ValidateFixture.path("chip_outer_side"), "--format", "json"] + Self.quick)
        #expect(output.status == 0, "\(output.transcript)")
        let json = try HudHost.json(output)
        #expect(Self.failuresBesideLoad(json).isEmpty, "\(output.stdout)")
        #expect(json["targets"]?.arrayValue?.first?["profileVersion"] == "strict@1.2")
    }

    /// A check that joined at 1.1 is on notice: a warning (exit 0) in
    /// strict@1.1 that says from which version it is an error, a failure
    /// with --werror, an error in strict@1.2 (what the fixture, built against
    /// this SDK, is held to by default), and not part of strict@1.0 at all.
    /// `ignores_node_stride` refuses a 1.0 host's node stride, as a plugin
    /// comparing it with sizeof would; it forges nothing for this check,
    /// which the child never runs.
    @Test func aCheckOnNoticeWarnsAndSaysWhenItBecomesAnError() async throws {
        let (output, reported) = try await Self.expectHostVerdict("ignores_node_stride", "abi-older-host-sizes", "warning", "at the ABI 1.0 node stride",
                                                            childClaimed: false, profile: "strict@1.1")
        #expect(reported.first?["message"]?.stringValue?.contains("(a warning in strict@1.1; an error from strict@1.2)") == true, "\(output.stdout)")
        try await Self.expectHostVerdict("ignores_node_stride", "abi-older-host-sizes", "failed", "at the ABI 1.0 node stride", childClaimed: false)
        let plugin = try await ValidateFixture.path("ignores_node_stride")
        #expect(try await Self.validate([plugin, "--werror"] + Self.quick(profile: "strict@1.1")).status == 1)
        let old = try await Self.validate([plugin, "--format", "json"] + Self.quick(profile: "strict@1.0"))
        let checks = Self.results(try HudHost.json(old)).compactMap { $0["check"]?.stringValue }
        #expect(old.status == 0 && !checks.isEmpty && !checks.contains("abi-older-host-sizes"), "\(old.transcript)")
    }

    @Test func sandboxIsHiddenFromUsage() async throws {
        let output = try await HudHost.run(["--help"])
        #expect(output.stdout.contains("validate"))
        #expect(!output.stdout.contains("_sandbox"))
    }
}
