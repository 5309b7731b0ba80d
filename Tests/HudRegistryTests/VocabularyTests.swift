import Foundation
import Testing
@testable import HudRegistry
import HudTestSupport

/// One word per concept: ABI versions, failure codes and metadata sources
/// as value types, and a shell whose environment is the one renderers get.
struct VocabularyTests {
    @Test func abiVersionsParsePrintCompareAndPack() {
        let v = ABIVersion(major: 1, minor: 2)
        #expect(v.description == "1.2" && ABIVersion("1.2") == v)
        #expect(ABIVersion(packed: 0x0001_0002) == v && v.packed == 0x0001_0002)
        #expect(ABIVersion(major: 1, minor: 0) < v && v < ABIVersion(major: 2, minor: 0))
        for bad in ["", "1", "1.", ".1", "1.2.3", "a.b", "-1.0", "65536.0"] { #expect(ABIVersion(bad) == nil, "\(bad)") }
        #expect(ABIVersion.host.description == "1.0")
        // Majors must match; any minor of the host's major loads.
        #expect(ABIVersion(major: 1, minor: 9).isLoadable() && !ABIVersion(major: 2, minor: 0).isLoadable() && !ABIVersion(major: 0, minor: 1).isLoadable())
    }

    @Test func failureCodesAreUniqueKebabCaseStrings() {
        let raw = FailureCode.allCases.map(\.rawValue)
        #expect(Set(raw).count == raw.count)
        for code in raw { #expect(code.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } && !code.hasPrefix("-"), "\(code)") }
        // The strings scripts and the cache already depend on.
        #expect(FailureCode.actionCalledDuringLayout.rawValue == "action-during-layout")
        #expect(FailureCode.wrongClass.rawValue == "not-elf64" && FailureCode.timedOut.rawValue == "timed-out")
        #expect(RegistryError.initFailed(path: "/p", status: -3).code == .initFailed)
    }

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
