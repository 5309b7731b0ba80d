// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Testing
import HudRegistry
import HudTestSupport

/// "no renderer with id X" says why — a typo, the filters, a refused file,
/// a file that failed to load, a metadata mismatch — and points to
/// `hudhost why X`; always exit 3, with a JSON error document under --json.
struct UnknownRendererTests {
    static func render(_ style: String, path: String, cache: String, extra: [String: String] = [:], options: [String] = []) throws -> ProcessOutput {
        try DiscoveryFixtures.hudhost(["render", "--style", style] + options, path: path, cache: cache, extra: extra)
    }

    static func expectExplained(_ output: ProcessOutput, _ pieces: [String], id: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(output.status == 3, "\(output.transcript)", sourceLocation: sourceLocation)
        for piece in pieces + ["run `hudhost why \(id)` for the whole story"] {
            #expect(output.stderr.contains(piece), "missing '\(piece)' in:\n\(output.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [
        ("com.hudson.scatterd", "(did you mean 'com.hudson.scattered'?)"),
        ("minimla", "(did you mean 'minimal'?)"),
        ("COM.HUDSON.TRAY", "(did you mean 'com.hudson.tray'?)"),
        ("org.fixture.simpel", "(did you mean 'org.fixture.simple'?)"),
    ])
    func aTypoGetsTheClosestID(style: String, suggestion: String) throws {
        let directory = try DiscoveryFixtures.directory("typo", plugins: [.goodSimple])
        let cache = try FixturePlugins.makeScratchDirectory("typo-cache")
        let output = try Self.render(style, path: directory, cache: cache)
        Self.expectExplained(output, ["no renderer with id '\(style)' \(suggestion)", "known ids: com.hudson.tray"], id: style)
    }

    @Test func somethingFarFromEveryIDGetsNoSuggestion() throws {
        let output = try HudHost.run(["render", "--style", "org.example.nothing-like-it"])
        Self.expectExplained(output, ["no renderer with id 'org.example.nothing-like-it'; known ids:"], id: "org.example.nothing-like-it")
        #expect(!output.stderr.contains("did you mean"))
    }

    @Test(arguments: [
        (["HUD_RENDERERS_DISABLE": "org.fixture.*"], "disabled by HUD_RENDERERS_DISABLE pattern 'org.fixture.*'"),
        (["HUD_RENDERERS_SELECT": "com.hudson.*"], "not selected by HUD_RENDERERS_SELECT (com.hudson.*)"),
    ])
    func aFilteredRendererSaysWhichFilter(environment: [String: String], reason: String) throws {
        let directory = try DiscoveryFixtures.directory("filtered", plugins: [.goodSimple])
        let cache = try FixturePlugins.makeScratchDirectory("filtered-cache")
        let output = try Self.render("org.fixture.simple", path: directory, cache: cache, extra: environment, options: ["--json"])
        Self.expectExplained(output, ["renderer 'org.fixture.simple' is not available; it is filtered out: \(reason)"], id: "org.fixture.simple")
        let json = try HudHost.json(output)
        #expect(json["error"]?["code"]?.stringValue == "unknown-renderer")
        #expect(json["error"]?["rendererId"]?.stringValue == "org.fixture.simple")
    }

    @Test func aRefusedFileIsNamedAsOneThatMightProvideIt() throws {
        let directory = try DiscoveryFixtures.directory("refused", plugins: [.goodSimple])
        let cache = try FixturePlugins.makeScratchDirectory("refused-cache")
        chmod(directory + "/good_simple.so", 0o666)
        let output = try Self.render("org.fixture.simple", path: directory, cache: cache)
        Self.expectExplained(output, ["no renderer with id 'org.fixture.simple'", "\(directory)/good_simple.so was refused (the file is writable by everyone",
                                      "it might provide it (development only: --allow-insecure-path)"], id: "org.fixture.simple")
    }

    @Test func aFileThatCrashesWhileLoadingIsNamedWithItsFailure() throws {
        let directory = try DiscoveryFixtures.directory("crashes", discovery: ["meta_crash_on_load", "crash_on_load"])
        let cache = try FixturePlugins.makeScratchDirectory("crashes-cache")
        // Its metadata lists the id: the failure is its own.
        let listed = try Self.render("org.fixture.meta-crash", path: directory, cache: cache)
        Self.expectExplained(listed, ["renderer 'org.fixture.meta-crash' is not available; its file failed to load: \(directory)/meta_crash_on_load.so",
                                      "crashed"], id: "org.fixture.meta-crash")
        // No metadata: the file's ids are unknown, so it is one that might provide it.
        let unlisted = try Self.render("org.fixture.crash-on-load", path: directory, cache: cache)
        Self.expectExplained(unlisted, ["no renderer with id 'org.fixture.crash-on-load'", "\(directory)/crash_on_load.so failed [crashed]",
                                        "it might provide it"], id: "org.fixture.crash-on-load")
    }

    @Test(arguments: ["in-process", "process"])
    func aMetadataMismatchIsNamed(isolation: String) throws {
        let directory = try DiscoveryFixtures.directory("mismatch", discovery: ["meta_mismatch"])
        let cache = try FixturePlugins.makeScratchDirectory("mismatch-cache")
        let output = try Self.render("org.fixture.mismatch", path: directory, cache: cache, options: ["--isolation", isolation, "--json"])
        #expect(output.status == 3, "\(output.transcript)")
        #expect(output.stderr.contains("descriptor and .hud_renderers metadata disagree") && output.stderr.contains("version (metadata '9.9.9', descriptor '1.0.0')"),
                "\(output.transcript)")
        #expect(try HudHost.json(output)["error"]?["code"]?.stringValue == "metadata-mismatch", "\(output.stdout)")
    }

    /// `why` states the same facts for an unknown id (the shared lookup).
    @Test func whyGivesTheSameSuggestion() throws {
        let output = try HudHost.run(["why", "com.hudson.tary"])
        #expect(output.status == 3, "\(output.transcript)")
        #expect(output.stdout.contains("did you mean 'com.hudson.tray'?"), "\(output.stdout)")
        #expect(output.stdout.contains("NOT AVAILABLE: no file on the search path provides it (did you mean 'com.hudson.tray'?)."), "\(output.stdout)")
    }
}
