// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import HudRegistry
import HudTestSupport

/// What still runs in-process is kept honest: plugin text cannot carry
/// terminal controls, a PIE is not a plugin, a lying metadata record is
/// remembered as a failure.
struct HygieneTests {
    @Test func descriptorTextWithControlCharactersIsRefusedAtLoad() throws {
        let path = try DiscoveryFixtures.path("control_chars_descriptor")
        let registry = RendererRegistry()
        #expect(try registry.load(path: path).isEmpty)
        guard case .invalidDescriptor(_, _, let id, let field, let reason)? = registry.failures.first else {
            Issue.record("expected an invalid descriptor, got \(registry.failures)")
            return
        }
        #expect(id == "org.fixture.control-chars" && field == "name" && reason.contains("control character"))
    }

    @Test func metadataWithControlCharactersIsBadMetadataAndNeverPrinted() throws {
        let directory = try DiscoveryFixtures.directory("control-meta", discovery: ["control_chars_metadata", "control_chars_descriptor"])
        let cache = try FixturePlugins.makeScratchDirectory("control-meta-cache")
        let output = try DiscoveryFixtures.hudhost(["list"], path: directory, cache: cache)
        #expect(output.status == 0, "\(output.transcript)")
        #expect(output.stdout.contains("bad-metadata"))
        #expect(!output.stdout.contains("\u{1b}") && !output.stdout.contains("\r") && !output.stdout.contains("com.fake.renderer"))
        let json = try HudHost.json(try DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache))
        let ids = (json["renderers"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        #expect(!ids.contains("org.fixture.control-meta") && !ids.contains("org.fixture.control-chars"))
    }

    @Test func aPositionIndependentExecutableIsNotAPlugin() throws {
        let directory = try FixturePlugins.makeScratchDirectory("pie")
        let source = directory + "/main.c", executable = directory + "/pie.so"
        try "int main(void) { return 0; }\n".write(toFile: source, atomically: true, encoding: .utf8)
        try FixturePlugins.compileCommand(["cc", "-fPIE", "-pie", "-o", executable, source])
        #expect {
            try ElfMetadataReader.read(path: executable)
        } throws: { error in
            (error as? ElfError)?.kind == .executable && "\(error)".contains("position-independent executable")
        }
        #expect {
            try RendererRegistry().load(path: executable)
        } throws: { error in
            (error as? RegistryError)?.code == .executable
        }
    }

    @Test func aMetadataMismatchIsCachedAsAFailure() throws {
        let directory = try DiscoveryFixtures.directory("mismatch-cached", discovery: ["meta_mismatch"])
        let cache = try FixturePlugins.makeScratchDirectory("mismatch-cached-cache")
        let before = try HudHost.json(try DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache))
        #expect((before["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.fixture.mismatch" })
        // Loading it (render does) finds the lie and records it.
        let render = try DiscoveryFixtures.hudhost(["render", "--format", "json"], path: directory, cache: cache)
        #expect(render.status == 0, "\(render.transcript)")
        let after = try HudHost.json(try DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache))
        #expect(!(after["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.fixture.mismatch" })
        #expect((after["failures"]?.arrayValue ?? []).contains { $0["code"]?.stringValue == "metadata-mismatch" })
    }
}
