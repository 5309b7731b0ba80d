// SPDX-License-Identifier: MIT
import Foundation
import Glibc
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

/// Where the registry cache may live.
struct CacheLocationTests {
    static func record() -> PluginRecord {
        PluginRecord(path: "/nowhere/libx.so", stamp: FileStamp(device: 1, inode: 2, size: 3, modifiedNanoseconds: 4), buildID: nil,
                     status: .ok, renderers: [], source: .elfSection, failureCode: nil, failureReason: nil, time: 0, validation: nil)
    }

    /// XDG_CACHE_HOME may be a symlink into a directory of yours; into one
    /// another user owns, the cache is neither read nor written there.
    @Test(Requirement.when(geteuid() == 0, "needs root: chown gives a directory to another user"))
    func aCacheBehindAnotherUsersDirectoryIsNotUsed() throws {
        let base = try FixturePlugins.makeScratchDirectory("cache-owner")
        let theirs = base + "/theirs", mine = base + "/mine"
        #expect(mkdir(theirs, 0o755) == 0 && chown(theirs, 65534, 65534) == 0 && mkdir(mine, 0o700) == 0)
        #expect(symlink(theirs, base + "/xdg-theirs") == 0 && symlink(mine, base + "/xdg-mine") == 0)

        let refused = RegistryCache(directory: base + "/xdg-theirs/hud", searchPath: ["/nowhere"])
        #expect(refused.discardReason?.contains("owned by uid 65534") == true, "\(String(describing: refused.discardReason))")
        refused.store(Self.record())
        #expect(refused.save() != nil)
        #expect(!FileManager.default.fileExists(atPath: theirs + "/hud"))

        let accepted = RegistryCache(directory: base + "/xdg-mine/hud", searchPath: ["/nowhere"])
        #expect(accepted.discardReason == nil)
        accepted.store(Self.record())
        #expect(accepted.save() == nil)
        #expect(RegistryCache(directory: base + "/xdg-mine/hud", searchPath: ["/nowhere"]).allRecords.count == 1)
    }

    /// Saving creates the cache directory and nothing above it: a
    /// mistyped XDG_CACHE_HOME makes no directories.
    @Test func savingNeverCreatesTheDirectoriesAboveTheCache() throws {
        let base = try FixturePlugins.makeScratchDirectory("cache-parents")
        let missing = RegistryCache(directory: base + "/no/such/xdg/hud", searchPath: ["/nowhere"])
        missing.store(Self.record())
        let problem = missing.save()
        #expect(problem?.contains("does not exist") == true, "\(String(describing: problem))")
        #expect(!FileManager.default.fileExists(atPath: base + "/no"))

        let present = RegistryCache(directory: base + "/hud", searchPath: ["/nowhere"])
        present.store(Self.record())
        #expect(present.save() == nil)
        var info = stat()
        #expect(stat(base + "/hud", &info) == 0 && info.st_mode & 0o777 == 0o700)
    }

    /// A missing XDG_CACHE_HOME is created, mode 0700, as the XDG spec
    /// asks, when the directory it would live in is the user's: a fresh
    /// account's second run is warm.
    @Test func aMissingXDGCacheHomeIsCreatedPrivate() throws {
        let base = try FixturePlugins.makeScratchDirectory("cache-xdg-fresh")
        let directory = try DiscoveryFixtures.directory("cache-xdg-plugins", discovery: ["meta_good"])
        let xdg = base + "/fresh-cache"
        let cold = try DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: xdg)
        #expect(cold.status == 0 && !cold.stderr.contains("does not exist"), "\(cold.transcript)")
        for made in [xdg, xdg + "/hud"] {
            var info = stat()
            #expect(stat(made, &info) == 0 && info.st_mode & 0o777 == 0o700, "\(made)")
        }
        let cached = try FileManager.default.contentsOfDirectory(atPath: xdg + "/hud").filter { $0.hasPrefix("registry-") }
        #expect(cached.count == 1, "\(cached)")
    }
}
