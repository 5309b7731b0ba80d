// SPDX-License-Identifier: MIT
import Foundation
import Testing
import HudModel
import HudTestSupport

/// `hudhost snapshot record|verify` with real plugins, real PNGs drawn by
/// librsvg and compared by cairo: a moved slot is caught node by node and
/// pixel by pixel and named; a missing baseline is reported, not recorded;
/// a case that crashes fails alone. Each test takes a few cases of the
/// matrix (`--filter`) to stay short.
@Suite struct SnapshotTests {
    /// ExampleRing as shipped, and the same ring with its corner slots
    /// 12 pt further out (`RING_RADIUS` 110 → 122): one renderer id, moved slots.
    static func rings() async throws -> (original: String, moved: String) {
        let directory = try FixturePlugins.makeScratchDirectory("snapshot-rings")
        let source = try String(contentsOfFile: FixturePlugins.repositoryRoot + "/Plugins/ExampleRing/ring.c", encoding: .utf8)
        let moved = source.replacingOccurrences(of: "#define RING_RADIUS 110.0", with: "#define RING_RADIUS 122.0")
        #expect(moved != source, "ring.c no longer defines RING_RADIUS 110.0; move a slot another way")
        var paths: [String] = []
        for (name, text) in [("original", source), ("moved", moved)] {
            try FileManager.default.createDirectory(atPath: directory + "/" + name, withIntermediateDirectories: true)
            try text.write(toFile: directory + "/\(name)/ring.c", atomically: true, encoding: .utf8)
            try await FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + ["-I", FixturePlugins.headerDirectory,
                                                     "-o", directory + "/\(name)/libring.so", directory + "/\(name)/ring.c"])
            paths.append(directory + "/\(name)/libring.so")
        }
        return (paths[0], paths[1])
    }

    static let cases = ["--filter", "iphone-16_portrait_ltr_L_"]

    @Test func aMovedSlotIsCaughtStructurallyAndVisuallyAndNamed() async throws {
        let (original, moved) = try await Self.rings()
        let directory = try FixturePlugins.makeScratchDirectory("snapshot-moved")
        let recorded = try await HudHost.run(["snapshot", "record", original, "--dir", directory] + Self.cases)
        #expect(recorded.status == 0, "\(recorded.transcript)")
        #expect(recorded.stdout.contains("record: 4 cases of org.hudson.example.ring in \(directory): 4 recorded\n"), "\(recorded.stdout)")
        let folder = directory + "/org.hudson.example.ring"
        #expect(FileManager.default.fileExists(atPath: folder + "/iphone-16_portrait_ltr_L_dark_resting.png"))

        let same = try await HudHost.run(["snapshot", "verify", original, "--dir", directory] + Self.cases)
        #expect(same.status == 0, "\(same.transcript)")
        #expect(same.stdout.contains(": 4 unchanged"), "\(same.stdout)")

        let changed = try await HudHost.run(["snapshot", "verify", moved, "--dir", directory] + Self.cases)
        #expect(changed.status == 1, "\(changed.transcript)")
        #expect(changed.stdout.contains("CHANGED org.hudson.example.ring iphone-16_portrait_ltr_L_dark_resting\n"), "\(changed.stdout)")
        #expect(changed.stdout.contains("  slot bottomRight: frame.x 280.83 → 292.65\n"), "\(changed.stdout)")
        #expect(changed.stdout.contains(" pixels changed in x "), "\(changed.stdout)")
        // The collapsed deck hides the corner slots: that case is unchanged.
        #expect(changed.stdout.contains(": 1 unchanged, 3 changed"), "\(changed.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder + "/iphone-16_portrait_ltr_L_dark_resting.new.png"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/iphone-16_portrait_ltr_L_dark_deck.new.png"))

        let document = try HudHost.json(try await HudHost.run(["snapshot", "verify", moved, "--dir", directory, "--json"] + Self.cases))
        let resting = try #require(document["cases"]?.arrayValue?.first { $0["case"]?.stringValue == "iphone-16_portrait_ltr_L_dark_resting" })
        #expect(resting["status"]?.stringValue == "changed")
        let changes = resting["changes"]?.arrayValue ?? []
        #expect(changes.contains { $0["node"]?.stringValue == "slot bottomRight" && $0["field"]?.stringValue == "frame.x" }, "\(resting)")
        #expect((resting["pixels"]?["changed"]?.numberValue ?? 0) > 0, "\(resting)")
    }

    /// The review page and JUnit file name the changed cases; `accept`
    /// promotes the new files, and the next verify is clean.
    @Test func aReportNamesTheChangesAndAcceptingMakesThemTheBaseline() async throws {
        let (original, moved) = try await Self.rings()
        let directory = try FixturePlugins.makeScratchDirectory("snapshot-accept")
        let review = try FixturePlugins.makeScratchDirectory("snapshot-review")
        #expect(try await HudHost.run(["snapshot", "record", original, "--dir", directory] + Self.cases).status == 0)
        let changed = try await HudHost.run(["snapshot", "verify", moved, "--dir", directory, "--report", review] + Self.cases)
        #expect(changed.status == 1, "\(changed.transcript)")
        let page = try String(contentsOfFile: review + "/index.html", encoding: .utf8)
        #expect(page.contains("data-kind=\"both\""), "the page has no changed row")
        #expect(page.contains("<rect data-node=\"slot bottomRight\""), "the moved slot is not outlined")
        #expect(page.contains("<li>slot bottomRight: frame.x 280.83 → 292.65</li>"))
        #expect(page.components(separatedBy: "src=\"data:image/png;base64,").count - 1 == 9, "3 changed cases × baseline, new, diff")
        let junit = try String(contentsOfFile: review + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("<testsuite name=\"org.hudson.example.ring\" tests=\"4\" failures=\"3\">"), "\(junit)")
        #expect(junit.contains("<failure message=\"changed\">"))

        let one = try await HudHost.run(["snapshot", "accept", "--dir", directory, "org.hudson.example.ring/iphone-16_portrait_ltr_L_dark_resting"])
        #expect(one.status == 0 && one.stdout.contains("accept: 1 case in"), "\(one.transcript)")
        let rest = try await HudHost.run(["snapshot", "accept", "--dir", directory, "--all"])
        #expect(rest.status == 0 && rest.stdout.contains("accept: 2 cases in"), "\(rest.transcript)")
        let clean = try await HudHost.run(["snapshot", "verify", moved, "--dir", directory] + Self.cases)
        #expect(clean.status == 0 && clean.stdout.contains(": 4 unchanged"), "\(clean.transcript)")
        let nothing = try await HudHost.run(["snapshot", "accept", "--dir", directory, "iphone-16_portrait_ltr_L_dark_resting"])
        #expect(nothing.status == 3 && nothing.stderr.contains("has no new files"), "\(nothing.transcript)")
    }

    /// The gallery draws every registered style (the built-ins here) and
    /// writes a page that shows each picture; a case a renderer fails in is
    /// on the sheet with its reason, and the exit is 1.
    @Test func theGalleryShowsEveryStyleAndNamesAFailedCase() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("gallery")
        let result = try await HudHost.run(["gallery", "--builtin-only", "--out", directory] + Self.cases)
        #expect(result.status == 0, "\(result.transcript)")
        #expect(result.stdout.contains("gallery: 12 pictures of com.hudson.tray, com.hudson.scattered, com.hudson.minimal"), "\(result.stdout)")
        let page = try String(contentsOfFile: directory + "/index.html", encoding: .utf8)
        for style in ["com.hudson.tray", "com.hudson.scattered", "com.hudson.minimal"] {
            let picture = "\(style)/iphone-16_portrait_ltr_L_dark_revealed.png"
            #expect(page.contains("src=\"\(picture)\""), "\(style)")
            #expect(FileManager.default.fileExists(atPath: directory + "/" + picture))
        }

        let plugin = try await Self.crashingFixture()
        let failing = try await HudHost.run(["gallery", plugin, "--out", directory] + Self.cases)
        #expect(failing.status == 1, "\(failing.transcript)")
        let sheet = try String(contentsOfFile: directory + "/index.html", encoding: .utf8)
        #expect(sheet.contains("<p class=\"failed\">failed: renderer &apos;org.fixture.validate.crash-revealed&apos;"), "\(sheet.prefix(3000))")
    }

    /// `crash_with_center_revealed`, compiled into a directory of the caller's own.
    static func crashingFixture() async throws -> String {
        let plugin = try FixturePlugins.makeScratchDirectory("snapshot-crash-fixture") + "/libcrash_with_center_revealed.so"
        try await FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + [
            "-I", FixturePlugins.headerDirectory, "-I", FixturePlugins.sourceDirectory,
            "-o", plugin, FixturePlugins.repositoryRoot + "/Tests/Fixtures/validate/crash_with_center_revealed.c",
        ])
        return plugin
    }

    @Test func aMissingBaselineIsReportedAndRecordedOnlyWhenAsked() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("snapshot-missing")
        let missing = try await HudHost.run(["snapshot", "verify", "com.hudson.minimal", "--dir", directory] + Self.cases)
        #expect(missing.status == 1, "\(missing.transcript)")
        #expect(missing.stdout.contains("MISSING com.hudson.minimal iphone-16_portrait_ltr_L_dark_resting: no baseline"), "\(missing.stdout)")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/com.hudson.minimal")) ?? []
        #expect(written.isEmpty, "verify wrote \(written)")

        let recorded = try await HudHost.run(["snapshot", "verify", "com.hudson.minimal", "--dir", directory, "--record-missing"] + Self.cases)
        #expect(recorded.status == 0, "\(recorded.transcript)")
        #expect(recorded.stdout.contains(": 4 recorded\n"), "\(recorded.stdout)")
        #expect(recorded.stdout.contains("recorded 4 cases that had no baseline; commit \(directory)"), "\(recorded.stdout)")
        let again = try await HudHost.run(["snapshot", "verify", "com.hudson.minimal", "--dir", directory] + Self.cases)
        #expect(again.status == 0, "\(again.transcript)")
        #expect(again.stdout.contains(": 4 unchanged"), "\(again.stdout)")
    }

    /// `crash_with_center_revealed` crashes only with the center's modes
    /// revealed: that case fails, naming the crash, and the other three are
    /// recorded.
    @Test func aCaseThatCrashesFailsAloneAndTheRestRun() async throws {
        let plugin = try await Self.crashingFixture()
        let directory = try FixturePlugins.makeScratchDirectory("snapshot-crash")
        let result = try await HudHost.run(["snapshot", "record", plugin, "--dir", directory] + Self.cases)
        #expect(result.status == 1, "\(result.transcript)")
        let crashed = result.stdout.split(separator: "\n").filter { $0.hasPrefix("CRASHED ") }
        #expect(crashed.count == 1 && crashed[0].contains("_revealed: ") && crashed[0].contains("killed by SIGSEGV"), "\(result.stdout)")
        #expect(result.stdout.contains(": 3 recorded, 1 crashed"), "\(result.stdout)")
    }

    @Test(arguments: [
        (["snapshot"], 2, "needs record, verify or accept"),
        (["snapshot", "check", "com.hudson.tray", "--dir", "/tmp"], 2, "unknown snapshot action 'check'"),
        (["snapshot", "accept", "--dir", "/tmp"], 2, "needs the cases to accept"),
        (["snapshot", "record", "com.hudson.tray", "--dir", "/tmp", "--report", "/tmp"], 2, "--report goes with verify"),
        (["snapshot", "verify", "com.hudson.tray"], 2, "needs --dir DIR"),
        (["snapshot", "record", "com.hudson.tray", "--dir", "/tmp", "--record-missing"], 2, "--record-missing goes with verify"),
        (["snapshot", "verify", "com.hudson.nope", "--dir", "/tmp/hud-snapshot-unused"], 3, "com.hudson.nope"),
    ])
    func badInputIsASpecificError(arguments: [String], status: Int32, message: String) async throws {
        let result = try await HudHost.run(arguments)
        #expect(result.status == status, "\(result.transcript)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
