import Foundation
import Testing
@testable import HudRegistry
import HudTestSupport

/// One word per concept, where the registry meets it: failure codes in the
/// cache, and a shell whose environment is the one renderers get.
struct VocabularyTests {
    @Test func aCacheRecordWithAnUnknownCodeIsNotTrusted() throws {
        let directory = try FixturePlugins.makeScratchDirectory("cache-unknown-code")
        let cache = RegistryCache(directory: directory, searchPath: ["/nowhere"])
        cache.store(PluginRecord(path: "/nowhere/libx.so", stamp: FileStamp(device: 1, inode: 2, size: 3, modifiedNanoseconds: 4),
                                 buildID: nil, status: .failed, renderers: [], source: .sandboxScan, failureCode: .crashed,
                                 failureReason: "boom", time: 0, validation: nil))
        #expect(cache.save() == nil)
        #expect(RegistryCache(directory: directory, searchPath: ["/nowhere"]).allRecords.first?.failureCode == .crashed)
        let text = try String(contentsOfFile: cache.path, encoding: .utf8).replacingOccurrences(of: "\"crashed\"", with: "\"exploded\"")
        try text.write(toFile: cache.path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: cache.path)
        let reread = RegistryCache(directory: directory, searchPath: ["/nowhere"])
        #expect(reread.allRecords.isEmpty)
        #expect(reread.discardReason == "a file record is malformed")
    }

    @Test func theShellsEnvironmentIsWhatRenderersGet() throws {
        let shell = HudPhoneAppShell(appearance: .system, environment: HudEnvironment(device: .iphone16Pro)) { HudPage(title: "Home") }
        // The seed's appearance parameter lives in the environment: one place.
        #expect(shell.appearance == .system && shell.environment.appearance == .system)
        shell.appearance = .hudson
        #expect(shell.environment.appearance == .hudson)
        // The title belongs to the page stack, and says so in the environment.
        #expect(shell.environment.navigationTitle == "Home")
        shell.push(HudPage(title: "Settings"))
        #expect(shell.environment.navigationTitle == "Settings")
        var rotated = HudEnvironment(device: .iphone16Pro, orientation: .landscape)
        rotated.navigationTitle = "ignored"
        shell.environment = rotated
        #expect(shell.environment.navigationTitle == "Settings" && shell.environment.screenSize == rotated.screenSize)
        shell.pop()
        #expect(shell.environment.navigationTitle == "Home")
    }
}
