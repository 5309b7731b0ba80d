// SPDX-License-Identifier: MIT
import Testing
@testable import HudConformance
@testable import HudRegistry

/// The suite's own rules, below the fixtures `ValidateTests` runs: the
/// contrast arithmetic every colour check rests on, how the host's verdict
/// replaces a claimed pass, and the reproduce line a report prints.
struct ConformanceRulesTests {
    typealias RGB = ContrastRules.RGB

    /// A plugin's code shares the sandboxed child's process and can write
    /// its result frames: every check is judged by the host itself, except
    /// the loading steps whose every rule the host's own load of the file
    /// applies again (a refused load fails them): `abi-load`, `abi-version`,
    /// `abi-descriptors` and `abi-metadata`. A new check must be judged by
    /// the host or argued into that list.
    @Test func everyCheckAPluginCouldForgeIsJudgedByTheHost() {
        let childsWord: Set = ["abi-load", "abi-version", "abi-descriptors", "abi-metadata"]
        let judged = ParentJudgment.judged.union(ParentRuntimeJudgment.judged).union(ConformanceSupervisor.parentChecks(for: .file(path: "/p/lib.so", renderer: nil)))
        let unjudged = ConformanceCatalog.checks.map(\.id).filter { !judged.contains($0) }
        #expect(Set(unjudged) == childsWord, "\(unjudged)")
    }

    @Test func contrastFollowsWCAG() {
        #expect(abs(ContrastRules.ratio(.black, .white) - 21) < 1e-9)
        #expect(abs(ContrastRules.ratio(.white, .white) - 1) < 1e-9)
        // Symmetric, and #777777 on white is the classic just-below-AA grey (4.48:1).
        let grey = RGB(r: 0x77, g: 0x77, b: 0x77)
        #expect(ContrastRules.ratio(grey, .white) == ContrastRules.ratio(.white, grey))
        #expect(abs(ContrastRules.ratio(grey, .white) - 4.48) < 0.01)
        // Straight alpha: half-transparent white over black is mid grey; opaque hides what is under it.
        let half = ContrastRules.over(HudColor(red: 255, green: 255, blue: 255, alpha: 128), .black)
        #expect(abs(half.r - 128) < 0.01 && half.r == half.g && half.g == half.b)
        #expect(ContrastRules.over(HudColor(red: 10, green: 20, blue: 30), .white) == RGB(r: 10, g: 20, b: 30))
    }

    /// A pass the child claimed and the host disproved becomes the host's
    /// failure, and what depended on it is no longer vouched for. A failure
    /// the child reported stands (a plugin gains nothing by failing
    /// itself), and nothing the child did not report is added.
    @Test func theHostsVerdictReplacesAClaimedPassAndUnverifiesItsDependents() {
        let id = "org.test.x"
        var results = [
            CheckResult(checkID: "layout-basic", renderer: id, status: .passed, message: "claimed"),
            CheckResult(checkID: "geometry-finite", renderer: id, status: .passed, message: "claimed"),
            CheckResult(checkID: "output-valid", renderer: id, status: .warning, message: "claimed"),
            CheckResult(checkID: "output-valid", renderer: "org.test.other", status: .passed, message: "another renderer's"),
            CheckResult(checkID: "abi-load", renderer: nil, status: .passed, message: "claimed"),
        ]
        let verdict = CheckResult(checkID: "layout-basic", renderer: id, status: .crashed, message: "the host's own run crashed")
        ParentJudgment.override(&results, check: "layout-basic", renderer: id, with: verdict)
        #expect(results[0].status == .crashed && results[0].message == verdict.message)
        #expect(results[0].details.first == "the sandboxed child reported passed: claimed")
        #expect(results[1].status == .skipped && results[2].status == .skipped, "dependents of layout-basic for this renderer")
        #expect(results[1].message == "not verified: layout-basic failed in the host's own run")
        #expect(results[3].status == .passed && results[4].status == .passed, "another renderer's results, and checks before it, stand")

        var failed = [CheckResult(checkID: "layout-basic", renderer: id, status: .failed, message: "the child's own failure")]
        ParentJudgment.override(&failed, check: "layout-basic", renderer: id, with: verdict)
        #expect(failed[0].message == "the child's own failure")
        var none: [CheckResult] = []
        ParentJudgment.override(&none, check: "layout-basic", renderer: id, with: verdict)
        #expect(none.isEmpty)

        let fromLoad = ParentJudgment.dependents(of: "abi-load")
        #expect(!fromLoad.contains("abi-load") && fromLoad.isSuperset(of: ["abi-entry-symbol", "abi-descriptors", "layout-basic", "output-valid"]))
        #expect(ParentJudgment.dependents(of: "output-valid").isDisjoint(with: ["abi-load", "layout-basic"]))
    }

    /// The runner skips a check only behind a prerequisite that stopped,
    /// for no renderer at all, or for a `--renderer` filter that matches
    /// none: any other skip the child reports hid a failure, and is plugin
    /// code's frame (crashed).
    @Test func aSkipTheRunnerNeverMakesIsPluginCodes() {
        let id = "org.test.x"
        let results = [
            CheckResult(checkID: "layout-basic", renderer: id, status: .passed, message: "ok"),
            CheckResult(checkID: "output-needed-count", renderer: id, status: .skipped, message: "forged"),
            CheckResult(checkID: "geometry-finite", renderer: id, status: .failed, message: "NaN"),
            CheckResult(checkID: "output-valid", renderer: id, status: .skipped, message: "requires geometry-finite, which failed"),
            CheckResult(checkID: "robust-strings", renderer: nil, status: .skipped, message: "no renderer passed loading"),
        ]
        let reported = Set(results.filter { $0.status == .skipped }.map(\.unit))
        let judged = ConformanceSupervisor.unexplainedSkipsFailed(results, reportedByChild: reported, filter: nil, hostServes: { _ in true })
        #expect(judged[1].status == .crashed && judged[1].message.contains("a skip without a prerequisite that did not pass"))
        #expect(judged[1].details == ["the sandboxed child reported skipped: forged"])
        #expect(judged[3].status == .skipped, "behind a prerequisite that failed")
        #expect(judged[4].status == .skipped, "a renderer check for no renderer at all")
        #expect(ConformanceSupervisor.unexplainedSkipsFailed(results, reportedByChild: [], filter: nil, hostServes: nil)[1].status == .skipped,
                "a skip the parent made itself is not the child's")
    }

    /// The host's own checks are skipped the way the runner skips: behind a
    /// selected requirement that did not let dependents run (a prerequisite
    /// not selected does not block), and, for every renderer check, behind
    /// the first loading step that stopped, in the runner's own words.
    @Test func theHostsOwnChecksAreSkippedInTheRunnersWords() throws {
        let id = "org.test.x"
        let hitSize = try #require(ConformanceCatalog.check("geometry-hit-size"))
        let valid = CheckResult(checkID: "output-valid", renderer: id, status: .failed, message: "bad")
        #expect([valid].blocker(of: hitSize, renderer: id, selected: ["output-valid"]) == "requires output-valid, which failed")
        #expect([valid].blocker(of: hitSize, renderer: id, selected: []) == nil, "not selected: does not block")
        #expect([valid].blocker(of: hitSize, renderer: "org.test.other", selected: ["output-valid"]) == nil, "another renderer's")
        var usable = valid
        usable.dependentsRun = true
        #expect([usable].blocker(of: hitSize, renderer: id, selected: ["output-valid"]) == nil, "a finding that leaves the layouts usable")

        let loaded = CheckResult(checkID: "abi-load", renderer: nil, status: .passed, message: "ok")
        let crashed = CheckResult(checkID: "abi-init", renderer: nil, status: .crashed, message: "SIGABRT")
        #expect([loaded].loadingStop == nil)
        #expect([loaded, crashed].loadingStop == "not run: abi-init crashed")
        let runnersSkip = CheckResult(checkID: "layout-basic", renderer: nil, status: .skipped, message: "not run: abi-init crashed (SIGABRT)")
        #expect([loaded, crashed, runnersSkip].loadingStop == "not run: abi-init crashed (SIGABRT)")
        // The child's own crash report names the signal, as the runner's skip does.
        let childCrash = CheckResult(checkID: "abi-init", renderer: nil, status: .crashed, message: "the plugin crashed (SIGABRT) during this check")
        #expect([loaded, childCrash].loadingStop == "not run: abi-init crashed (SIGABRT)")
    }

    /// How a result that stops its dependents is said in their skip: the
    /// runner's words, the signal of a crash (the host's or the child's)
    /// included.
    @Test func aStoppedCheckIsNamedInTheRunnersWords() {
        func result(_ status: CheckStatus, _ message: String = "x") -> CheckResult {
            CheckResult(checkID: "layout-basic", renderer: "org.test.x", status: status, message: message)
        }
        #expect(result(.crashed, "the plugin crashed (SIGSEGV) laying out reference on iphone-16-pro").stoppedAs == "crashed (SIGSEGV)")
        #expect(result(.crashed, "the plugin wrote to the result channel (done before every check had reported)").stoppedAs == "crashed")
        #expect(result(.timedOut).stoppedAs == "timed out")
        #expect(result(.skipped).stoppedAs == "was skipped")
        #expect(result(.failed).stoppedAs == "failed")
        let finite = ConformanceCatalog.check("geometry-finite")!
        #expect([result(.crashed, "the plugin crashed (SIGBUS) laying out a")].blocker(of: finite, renderer: "org.test.x", selected: ["layout-basic"])
                == "requires layout-basic, which crashed (SIGBUS)")
    }

    /// The command a report prints to rerun one check must survive a shell
    /// as one word per argument, whatever the path holds.
    @Test func theReproduceLineQuotesForAShell() {
        #expect(ConformanceSupervisor.shellWord("plain/path-1.so") == "plain/path-1.so")
        #expect(ConformanceSupervisor.shellWord("") == "''")
        #expect(ConformanceSupervisor.shellWord("my plugins/a.so") == "'my plugins/a.so'")
        #expect(ConformanceSupervisor.shellWord("it's") == "'it'\\''s'")
        #expect(ConformanceSupervisor.shellWord("$(rm -rf ~)") == "'$(rm -rf ~)'")
        var configuration = ConformanceConfiguration(checkIDs: ConformanceProfile.standard.checkIDs, seed: 42)
        configuration.layoutTimeoutSeconds = 2
        let line = ConformanceSupervisor.reproduce(.file(path: "/tmp/my plugin.so", renderer: nil), check: "layout-basic", renderer: "org.test.x",
                                                   configuration: configuration)
        #expect(line == "hudhost validate '/tmp/my plugin.so' --profile basic --include '^layout-basic$' --seed 42 --layout-timeout 2")
    }
}
