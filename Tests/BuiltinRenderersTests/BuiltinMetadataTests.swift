// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import HudRegistry
import HudTestSupport

/// The built-ins' ELF metadata records are generated from the code the
/// descriptors are made from (Scripts/gen-builtin-metadata.py): a style's
/// facts are written once, and the committed records are never stale.
struct BuiltinMetadataTests {
    static let generator = FixturePlugins.repositoryRoot + "/Scripts/gen-builtin-metadata.py"

    @Test func theCommittedRecordsAreWhatTheGeneratorMakesOfTheStyles() async throws {
        let output = try await FixturePlugins.run(["python3", Self.generator, "--check"])
        #expect(output.status == 0, "run Scripts/gen-builtin-metadata.py and commit the result\n\(output.transcript)")
    }

    /// What `list` reads from libBuiltinRenderers.so without loading it
    /// agrees with what the built-ins' entry says, field by field, and
    /// names the header's ABI version.
    @Test func theSectionAgreesWithTheDescriptors() throws {
        let library = FixturePlugins.binDirectory + "/libBuiltinRenderers.so"
        let metadata = try ElfMetadataReader.read(path: library)
        let records = metadata.renderers
        let registry = RendererRegistry()
        registry.registerBuiltins()
        #expect(records.map(\.id) == registry.renderers.map(\.id))
        for record in records {
            let descriptor = try #require(registry.info(id: record.id))
            #expect(descriptor.differences(fromRecord: record).isEmpty, "\(record.id)")
            #expect(record.abiVersion == .host, "\(record.id): the record names \(record.abiVersion)")
        }
    }
}
