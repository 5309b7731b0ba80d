// SPDX-License-Identifier: MIT
import Foundation
import Synchronization
import Testing
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport
@testable import HudSystem

/// Discovery at scale and safety: metadata read from the ELF file without
/// running plugin code, the registry cache, sandboxed scanning with failure
/// records, load-time security, filters, and `hudhost why`.
struct DiscoveryTests {
    // MARK: - Fixtures

    // MARK: - ELF metadata

    @Test func theELFReaderFindsTheMetadataSectionAndBuildID() throws {
        let metadata = try ElfMetadataReader.read(path: DiscoveryFixtures.path("meta_good"))
        #expect(metadata.hasMetadataSection)
        #expect(metadata.renderers == [RendererInfo(id: "org.scale.p0000", name: "Metadata fixture", version: "1.0.0", vendor: "Hudson fixtures",
                                                    summary: "", supportedPositions: Set(Position.allCases), capabilities: [],
                                                    abiVersion: .host, origin: .file(try DiscoveryFixtures.path("meta_good")))])
        #expect(metadata.buildID?.count == 40)
        let none = try ElfMetadataReader.read(path: FixturePlugins.path(of: .goodSimple))
        #expect(!none.hasMetadataSection && none.renderers.isEmpty)
    }

    @Test func theBuiltinsSharedObjectCarriesMetadataMatchingItsDescriptors() throws {
        let path = FixturePlugins.binDirectory + "/libBuiltinRenderers.so"
        let metadata = try ElfMetadataReader.read(path: path)
        #expect(metadata.renderers.map(\.id) == ["com.hudson.tray", "com.hudson.scattered", "com.hudson.minimal"])
        let registry = RendererRegistry()
        #expect(try registry.load(path: path).count == 3)
        #expect(registry.failures.isEmpty)  // no metadata-mismatch
    }

    @Test func hostileFilesGiveSpecificELFErrors() throws {
        let directory = try FixturePlugins.makeScratchDirectory("elf-hostile")
        let good = try Data(contentsOf: URL(fileURLWithPath: DiscoveryFixtures.path("meta_good")))
        func write(_ name: String, _ data: Data) throws -> String {
            let path = directory + "/" + name
            try data.write(to: URL(fileURLWithPath: path))
            return path
        }
        var foreign = good
        foreign[18] = 183  // e_machine = AArch64 (or x86-64 on an ARM host)
        foreign[19] = 0
        if ElfMetadataReader.hostMachine == 183 { foreign[18] = 62 }
        var badSectionTable = good
        for i in 40..<48 { badSectionTable[i] = 0xFF }  // e_shoff far past the end
        let cases: [(String, Data, FailureCode)] = [
            ("text.so", Data("not a plugin\n".utf8), .notELF),
            ("truncated.so", good.prefix(40), .truncated),
            ("foreign.so", foreign, .wrongMachine),
            ("badtable.so", badSectionTable, .truncated),
            ("empty.so", Data(), .notELF),
        ]
        for (name, data, kind) in cases {
            let path = try write(name, data)
            #expect(throws: ElfError.self, "\(name)") { try ElfMetadataReader.read(path: path) }
            do throws(ElfError) {
                _ = try ElfMetadataReader.read(path: path)
            } catch {
                #expect(error.kind == kind, "\(name): \(error)")
            }
        }
    }

    @Test func metadataRecordsAreParsedStrictly() throws {
        var record = [UInt8](repeating: 0, count: 408)
        record.replaceSubrange(0..<8, with: Array("HUDMETA1".utf8))
        record[8] = 0x98; record[9] = 0x01  // 408
        record[14] = 1                       // ABI 1.0
        record[16] = 0x1F                    // every position
        record.replaceSubrange(24..<29, with: Array("a.b.c".utf8))
        #expect(try HudMetadataFormat.parse([0, 0, 0] + record + [0] + record, path: "x").map(\.id) == ["a.b.c", "a.b.c"])
        var unterminated = record
        for i in 24..<96 { unterminated[i] = 0x61 }
        #expect(throws: ElfError.self) { try HudMetadataFormat.parse(unterminated, path: "x") }
        #expect(throws: ElfError.self) { try HudMetadataFormat.parse([1, 2, 3], path: "x") }
        #expect(throws: ElfError.self) { try HudMetadataFormat.parse(Array(record.prefix(100)), path: "x") }
        // A record `list` could show must describe a renderer the host could
        // load: a valid id, some and only known positions, the host's major.
        var badID = record
        badID.replaceSubrange(24..<29, with: Array("A B\nC".utf8.prefix(5)))
        var noPositions = record
        noPositions[16] = 0
        var unknownBits = record
        unknownBits[16] = 0x3F
        var foreignMajor = record
        foreignMajor[14] = 2
        for (label, bytes) in [("bad id", badID), ("no positions", noPositions), ("unknown bits", unknownBits), ("ABI 2.0", foreignMajor)] {
            #expect(throws: ElfError.self, "\(label)") { try HudMetadataFormat.parse(bytes, path: "x") }
        }
    }

    // MARK: - Listing runs no plugin code; the cache

    @Test func listReadsMetadataWithoutRunningPluginCodeAndAWarmRunOnlyStats() async throws {
        let directory = try DiscoveryFixtures.directory("list-no-code", discovery: ["meta_good"])
        let cache = try FixturePlugins.makeScratchDirectory("list-no-code-cache")
        let marker = cache + "/marker"
        let cold = try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache, extra: ["HUD_FIXTURE_MARKER": marker])
        #expect(cold.status == 0, "\(cold.transcript)")
        let rows = try HudHost.json(cold)["renderers"]?.arrayValue ?? []
        let row = try #require(rows.first { $0["id"]?.stringValue == "org.scale.p0000" })
        #expect(row["source"]?.stringValue == "elf-section" && row["cached"] == false)
        #expect(!FileManager.default.fileExists(atPath: marker), "the plugin's constructor ran during list")
        let warm = try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache, extra: ["HUD_FIXTURE_MARKER": marker])
        let warmRow = try #require((try HudHost.json(warm)["renderers"]?.arrayValue ?? []).first { $0["id"]?.stringValue == "org.scale.p0000" })
        #expect(warmRow["cached"] == true)
        #expect(!FileManager.default.fileExists(atPath: marker))
        // Nor does render with a built-in style: the plugin's trial load is in
        // the sandbox (where it cannot write the marker) and its renderers
        // would run in a renderer host.
        _ = try await DiscoveryFixtures.hudhost(["render", "--style", "tray"], path: directory, cache: cache, extra: ["HUD_FIXTURE_MARKER": marker])
        #expect(!FileManager.default.fileExists(atPath: marker))
        // HUD_ISOLATION=in-process dlopens it here, which shows the marker works.
        _ = try await DiscoveryFixtures.hudhost(["render", "--style", "tray"], path: directory, cache: cache,
                                          extra: ["HUD_FIXTURE_MARKER": marker, "HUD_ISOLATION": "in-process"])
        #expect(FileManager.default.fileExists(atPath: marker))
        // An unknown value is a usage error, like the flag's.
        for (arguments, extra) in [(["render", "--style", "tray"], ["HUD_ISOLATION": "thread"]),
                                   (["render", "--style", "tray", "--isolation", "thread"], [:])] {
            let refused = try await DiscoveryFixtures.hudhost(arguments, path: directory, cache: cache, extra: extra)
            #expect(refused.status == 2, "\(refused.transcript)")
            #expect(refused.stderr.contains("thread") && refused.stderr.contains("in-process"), "\(refused.transcript)")
        }
    }

    @Test func aWarmCatalogScanReadsNoPluginFile() throws {
        let directory = try DiscoveryFixtures.directory("warm-scan", discovery: ["meta_good", "meta_mismatch"])
        let cacheDirectory = try FixturePlugins.makeScratchDirectory("warm-scan-cache")
        let paths = SearchPaths(directories: [directory])
        let cold = PluginCatalog(searchPaths: paths, cache: RegistryCache(directory: cacheDirectory, searchPath: paths.directories)).scan()
        #expect(cold.files.allSatisfy { !$0.fromCache })
        #expect(cold.filesRead == 2)
        let warm = PluginCatalog(searchPaths: paths, cache: RegistryCache(directory: cacheDirectory, searchPath: paths.directories)).scan()
        #expect(warm.files.count == 2 && warm.files.allSatisfy(\.fromCache))
        #expect(warm.files.map(\.renderers) == cold.files.map(\.renderers))
        #expect(warm.filesRead == 0)
        var info = stat()
        let cacheFile = try #require(try FileManager.default.contentsOfDirectory(atPath: cacheDirectory).first { $0.hasPrefix("registry-") })
        #expect(stat(cacheDirectory + "/" + cacheFile, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    /// A warm scan in which every record matched an unchanged file leaves
    /// the cache as it is (not rewritten); a record whose file is gone is
    /// dropped and the cache rewritten without it.
    @Test func aWarmScanKeepsTheCacheAndARemovedFileLeavesIt() throws {
        let directory = try DiscoveryFixtures.directory("stale", discovery: ["meta_good", "meta_mismatch"])
        let cacheDirectory = try FixturePlugins.makeScratchDirectory("stale-cache")
        let paths = SearchPaths(directories: [directory])
        func cache() -> RegistryCache { RegistryCache(directory: cacheDirectory, searchPath: paths.directories) }
        func cacheInode(_ cache: RegistryCache) -> UInt64 {
            var info = stat()
            return stat(cache.path, &info) == 0 ? UInt64(info.st_ino) : 0
        }
        let first = cache()
        _ = PluginCatalog(searchPaths: paths, cache: first).scan()
        #expect(first.count == 2)
        let written = cacheInode(first)
        #expect(written != 0)
        let warm = cache()
        let report = PluginCatalog(searchPaths: paths, cache: warm).scan()
        #expect(report.files.allSatisfy { $0.fromCache })
        #expect(warm.count == 2)
        #expect(cacheInode(warm) == written)
        try FileManager.default.removeItem(atPath: directory + "/meta_mismatch.so")
        let after = cache()
        let rescanned = PluginCatalog(searchPaths: paths, cache: after).scan()
        #expect(rescanned.files.count == 1 && rescanned.files.allSatisfy { $0.fromCache })
        #expect(after.count == 1)
        #expect(cacheInode(after) != written)
        let reread = cache()
        #expect(reread.discardReason == nil)
        #expect(reread.allRecords.map { $0.path.hasSuffix("/meta_good.so") } == [true])
    }

    @Test func aChangedFileIsReadAgain() throws {
        let directory = try DiscoveryFixtures.directory("changed", discovery: ["meta_good"])
        let cacheDirectory = try FixturePlugins.makeScratchDirectory("changed-cache")
        let paths = SearchPaths(directories: [directory])
        _ = PluginCatalog(searchPaths: paths, cache: RegistryCache(directory: cacheDirectory, searchPath: paths.directories)).scan()
        // Replace the file with the mismatch fixture under the same name.
        try FileManager.default.removeItem(atPath: directory + "/meta_good.so")
        try FileManager.default.copyItem(atPath: DiscoveryFixtures.path("meta_mismatch"), toPath: directory + "/meta_good.so")
        let again = PluginCatalog(searchPaths: paths, cache: RegistryCache(directory: cacheDirectory, searchPath: paths.directories)).scan()
        #expect(again.files.first?.fromCache == false)
        #expect(again.files.first?.renderers.map(\.id) == ["org.fixture.mismatch"])
    }

    /// A verdict belongs to the file that earned it. A file replaced after
    /// the catalog looked at it but before its scan child opened it: the
    /// child reports the file it opened, and its answer is shown for this
    /// run but not filed under the file the catalog had checked. A failure
    /// recorded later is filed under the checked file, never under whatever
    /// the path names by then (a fixed build put in place is judged anew).
    @Test func aVerdictIsFiledUnderTheFileThatEarnedIt() throws {
        let directory = try DiscoveryFixtures.directory("verdict-owner", plugins: [.goodSimple])
        let cacheDirectory = try FixturePlugins.makeScratchDirectory("verdict-owner-cache")
        let paths = SearchPaths(directories: [directory])
        let path = FixturePlugins.canonical(directory + "/" + Fixture.goodSimple.fileName)
        let replacement = try FixturePlugins.path(of: .titleLabel)
        func replace(with source: String) throws {
            try FileManager.default.copyItem(atPath: source, toPath: path + ".new")
            #expect(rename(path + ".new", path) == 0)
        }
        func stamp() throws -> FileStamp { try FileStamp(SystemCalls.status(of: path).get()) }

        let cache = RegistryCache(directory: cacheDirectory, searchPath: paths.directories)
        let catalog = PluginCatalog(searchPaths: paths, cache: cache)
        var swapped = false
        catalog.willScan = { scanned in
            guard scanned == path, !swapped else { return }
            swapped = true
            try? replace(with: replacement)
        }
        let report = catalog.scan()
        #expect(swapped)
        // What the child loaded (the new file) is what this run shows...
        #expect(report.files.first?.renderers.map(\.id) == ["org.fixture.title-label"])
        // ...but the file the catalog checked earned no verdict.
        #expect(cache.record(for: path) == nil)

        // The next run scans the new file and files its verdict.
        let next = RegistryCache(directory: cacheDirectory, searchPath: paths.directories)
        let again = PluginCatalog(searchPaths: paths, cache: next).scan()
        #expect(again.filesScanned == 1 && again.files.first?.renderers.map(\.id) == ["org.fixture.title-label"])
        let checked = try stamp()
        #expect(next.record(for: path)?.stamp == checked)

        // A failure noted after the file was replaced again stays with the
        // file that was checked; the replacement is judged on its own.
        try replace(with: try FixturePlugins.path(of: .goodSimple))
        next.markFailed(path: path, code: .crashed, reason: "crashed in its trial load")
        #expect(next.record(for: path)?.stamp == checked && next.record(for: path)?.status == .failed)
        #expect(next.save() == nil)
        let fixed = PluginCatalog(searchPaths: paths, cache: RegistryCache(directory: cacheDirectory, searchPath: paths.directories)).scan()
        #expect(fixed.files.first?.fromCache == false)
        #expect(fixed.files.first?.renderers.map(\.id) == ["org.fixture.simple", "org.fixture.simple-alt"])
        // A verdict about a file other than the record's is not kept at all.
        let current = RegistryCache(directory: cacheDirectory, searchPath: paths.directories)
        _ = PluginCatalog(searchPaths: paths, cache: current).scan()
        current.markFailed(path: path, code: .crashed, reason: "about another file", loaded: checked)
        #expect(current.record(for: path)?.status == .ok)
    }

    @Test func theCacheReadsItsOwnFormatInOnePassAndOtherJSONOfTheSameSchemaAlike() throws {
        let directory = try DiscoveryFixtures.directory("cache-forms", discovery: ["meta_good", "meta_mismatch"], plugins: [.goodSimple])
        let cacheDirectory = try FixturePlugins.makeScratchDirectory("cache-forms-cache")
        let paths = SearchPaths(directories: [directory])
        let first = RegistryCache(directory: cacheDirectory, searchPath: paths.directories)
        let files = PluginCatalog(searchPaths: paths, cache: first).scan().files.compactMap(\.canonicalPath)
        #expect(files.count == 3)
        // Text the writer must escape, and a record of every kind: metadata,
        // a sandbox scan, a failure with a reason and a validation summary.
        let meta = try #require(files.first { $0.hasSuffix("/meta_good.so") })
        let mismatch = try #require(files.first { $0.hasSuffix("/meta_mismatch.so") })
        first.markFailed(path: mismatch, code: .crashed, reason: "said \"no\"\n\tthen \u{1}\u{1F} \\ / é ✓")
        first.setValidation(path: meta, summary: "passed 12/12 — «ok»")
        #expect(first.save() == nil)
        let written = try #require(FileManager.default.contents(atPath: first.path)).map { $0 }

        // This host's own form: read by the one-pass reader, into the same records.
        var reader = RegistryCacheFormat.FastReader(written)
        let read = reader.records(key: first.key)
        let fast = try #require(read)
        #expect(fast.values.sorted { $0.path < $1.path } == first.allRecords)
        // The streamed file is laid out exactly as the tree printer would.
        let tree = try JSONParser.parse(bytes: written)
        #expect(String(decoding: written, as: UTF8.self) == tree.serialized(pretty: false) + "\n")
        let reread = RegistryCache(directory: cacheDirectory, searchPath: paths.directories)
        #expect(reread.discardReason == nil)
        #expect(reread.allRecords == first.allRecords)

        // The same document pretty-printed is valid JSON in another form: the
        // one-pass reader declines it and the general parser reads the same records.
        let pretty = Array(tree.serialized(pretty: true).utf8)
        var declined = RegistryCacheFormat.FastReader(pretty)
        let declinedRecords = declined.records(key: first.key)
        #expect(declinedRecords == nil)
        try Data(pretty).write(to: URL(fileURLWithPath: first.path))
        chmod(first.path, 0o600)
        let general = RegistryCache(directory: cacheDirectory, searchPath: paths.directories)
        #expect(general.discardReason == nil)
        #expect(general.allRecords == first.allRecords)
        // A status or source that is not one of the enums' values: the
        // one-pass reader declines it, and the general parser discards the cache.
        let text = String(decoding: written, as: UTF8.self)
        for (from, to) in [("\"status\":\"ok\"", "\"status\":\"okay\""), ("\"source\":\"elf-section\"", "\"source\":\"elf\"")] {
            #expect(text.contains(from))
            let altered = Array(text.replacingOccurrences(of: from, with: to).utf8)
            var reader = RegistryCacheFormat.FastReader(altered)
            let records = reader.records(key: first.key)
            #expect(records == nil, "\(to)")
            try Data(altered).write(to: URL(fileURLWithPath: first.path))
            chmod(first.path, 0o600)
            #expect(RegistryCache(directory: cacheDirectory, searchPath: paths.directories).discardReason == "a file record is malformed")
        }
        // Another key (search path) is refused by the one-pass reader too.
        var otherKey = RegistryCacheFormat.FastReader(written)
        let otherKeyRecords = otherKey.records(key: first.key + "/elsewhere")
        #expect(otherKeyRecords == nil)
    }

    /// Storing a record changes the table of records in place: the same
    /// storage before and after, where a copy per record made a cold
    /// `list` quadratic in the files (seconds for 10,000). The records
    /// stored again replace existing ones, so the table never grows and a
    /// table changed in place keeps its storage.
    @Test func storingARecordChangesTheTableInPlace() throws {
        let directory = try FixturePlugins.makeScratchDirectory("in-place-cache")
        let cache = RegistryCache(directory: directory, searchPath: ["/p"])
        func record(_ index: Int, time: Int64) -> PluginRecord {
            PluginRecord(path: "/p/\(index).so", stamp: FileStamp(device: 1, inode: UInt64(index), size: 3, modifiedNanoseconds: 4), buildID: nil,
                         status: .ok, renderers: [], source: .elfSection, failureCode: nil, failureReason: nil, time: time, validation: nil)
        }
        for index in 0..<64 { cache.store(record(index, time: 0)) }
        // The word a native dictionary is: the address of its storage.
        func storage() -> UInt { unsafeBitCast(cache.records, to: UInt.self) }
        let before = storage()
        for index in 0..<64 {
            cache.store(record(index, time: 1))
            // After each store: a copy freed per store could be allocated
            // again at the first address two stores later.
            #expect(storage() == before, "record \(index)")
        }
        #expect(cache.records.count == 64 && cache.records.values.allSatisfy { $0.time == 1 })
    }

    /// The one-pass reader takes the records in any order (the general
    /// parser's records); a path twice is left to the general parser,
    /// which keeps the last.
    @Test func theOnePassReaderDeclinesAPathTwice() throws {
        func record(_ path: String, time: Int64 = 5) -> PluginRecord {
            PluginRecord(path: path, stamp: FileStamp(device: 1, inode: 2, size: 3, modifiedNanoseconds: 4), buildID: "ab",
                         status: .ok, renderers: [], source: .elfSection, failureCode: nil, failureReason: nil, time: time, validation: nil)
        }
        let key = "abi 1.1\n/p"
        let reversed = RegistryCacheFormat.write(key: key, records: [record("/p/b.so"), record("/p/a.so")])
        var anyOrder = RegistryCacheFormat.FastReader(reversed)
        #expect(anyOrder.records(key: key) == (try RegistryCache.generalRecords(reversed, key: key).get()))
        let twice = RegistryCacheFormat.write(key: key, records: [record("/p/a.so"), record("/p/a.so", time: 6)])
        var reader = RegistryCacheFormat.FastReader(twice)
        #expect(reader.records(key: key) == nil)
        #expect(try RegistryCache.generalRecords(twice, key: key).get() == ["/p/a.so": record("/p/a.so", time: 6)])
    }

    /// A renderer's ABI 1.2 picker icon (a scanned file's record) reads
    /// back through the one-pass reader as through the general parser; an
    /// empty one makes the record malformed for both.
    @Test func aPickerIconRoundTripsThroughBothCacheReaders() throws {
        let key = "abi 1.2\n/p"
        func record(icon: String?) -> PluginRecord {
            let info = RendererInfo(id: "org.example.ring", name: "Ring", version: "1.0.0", vendor: "Example", summary: "A ring.",
                                    supportedPositions: [.center], capabilities: [], abiVersion: ABIVersion(major: 1, minor: 2),
                                    origin: .file("/p/ring.so"), pickerIcon: icon)
            return PluginRecord(path: "/p/ring.so", stamp: FileStamp(device: 1, inode: 2, size: 3, modifiedNanoseconds: 4), buildID: nil,
                                status: .ok, renderers: [info], source: .sandboxScan, failureCode: nil, failureReason: nil, time: 5,
                                validation: nil)
        }
        let bytes = RegistryCacheFormat.write(key: key, records: [record(icon: "circle.circle")])
        var reader = RegistryCacheFormat.FastReader(bytes)
        let read = reader.records(key: key)
        let fast = try #require(read)
        #expect(fast["/p/ring.so"]?.renderers.first?.pickerIcon == "circle.circle")
        #expect(try RegistryCache.generalRecords(bytes, key: key).get() == fast)
        let empty = RegistryCacheFormat.write(key: key, records: [record(icon: "")])
        var declining = RegistryCacheFormat.FastReader(empty)
        let declined = declining.records(key: key)
        #expect(declined == nil)
        #expect(throws: RegistryCache.Discard.self) { try RegistryCache.generalRecords(empty, key: key).get() }
    }

    @Test func aCorruptOrForeignCacheIsDiscardedAndRebuilt() throws {
        let directory = try DiscoveryFixtures.directory("corrupt", discovery: ["meta_good"])
        let cacheDirectory = try FixturePlugins.makeScratchDirectory("corrupt-cache")
        let paths = SearchPaths(directories: [directory])
        let first = RegistryCache(directory: cacheDirectory, searchPath: paths.directories)
        _ = PluginCatalog(searchPaths: paths, cache: first).scan()
        for (content, reason) in [("{ not json", "corrupt"), (#"{"cacheFormat": 999, "key": "x", "files": []}"#, "another cache format"),
                                  (#"{"cacheFormat": 1, "key": "other", "files": []}"#, "another host ABI or search path"),
                                  (#"{"cacheFormat": 1, "key": "\#(first.path.isEmpty ? "" : "x")", "files": [{"path": 3}]}"#, "")] {
            try content.write(toFile: first.path, atomically: true, encoding: .utf8)
            chmod(first.path, 0o600)
            let cache = RegistryCache(directory: cacheDirectory, searchPath: paths.directories)
            #expect(cache.discardReason != nil)
            if !reason.isEmpty { #expect(cache.discardReason?.contains(reason) == true, "\(cache.discardReason ?? "")") }
            let report = PluginCatalog(searchPaths: paths, cache: cache).scan()
            #expect(report.files.first?.renderers.map(\.id) == ["org.scale.p0000"])
            #expect(RegistryCache(directory: cacheDirectory, searchPath: paths.directories).discardReason == nil)
        }
    }

    @Test func aCacheOthersCouldWriteIsNotTrusted() throws {
        let directory = try DiscoveryFixtures.directory("untrusted-cache", discovery: ["meta_good"])
        let cacheDirectory = try FixturePlugins.makeScratchDirectory("untrusted-cache-dir")
        let paths = SearchPaths(directories: [directory])
        let first = RegistryCache(directory: cacheDirectory, searchPath: paths.directories)
        _ = PluginCatalog(searchPaths: paths, cache: first).scan()
        chmod(first.path, 0o644)
        #expect(RegistryCache(directory: cacheDirectory, searchPath: paths.directories).discardReason?.contains("not a private regular file") == true)
        chmod(first.path, 0o600)
        chmod(cacheDirectory, 0o777)
        let open = RegistryCache(directory: cacheDirectory, searchPath: paths.directories)
        #expect(open.discardReason?.contains("writable by others") == true)
        #expect(open.allRecords.isEmpty)
        _ = PluginCatalog(searchPaths: paths, cache: open).scan()
        #expect(open.save()?.contains("not writing the cache") == true)
        chmod(cacheDirectory, 0o700)
    }

    @Test func concurrentListsLeaveAValidCache() throws {
        let directory = try DiscoveryFixtures.directory("concurrent", discovery: ["meta_good", "meta_mismatch"], plugins: [.goodSimple])
        let cache = try FixturePlugins.makeScratchDirectory("concurrent-cache")
        let results = Mutex<[Int32]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            let status = (try? DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache).status) ?? -1
            results.withLock { $0.append(status) }
        }
        #expect(results.withLock { $0 } == Array(repeating: 0, count: 6))
        let standard = [directory, FixturePlugins.workDirectory + "/no-home/.local/lib/hud/renderers"] + SearchPaths.systemDirectories
        let reread = RegistryCache(directory: cache + "/hud", searchPath: standard)
        #expect(reread.discardReason == nil)
        #expect(reread.allRecords.count == 3)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: cache + "/hud").filter { $0.contains(".json.") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    // MARK: - Sandboxed scanning and failure records

    @Test func crashingHangingAndDependencyMissingPluginsBecomeFailureRecords() async throws {
        let directory = try DiscoveryFixtures.directory("bad-plugins", discovery: ["crash_on_load", "hang_on_load", "needs_missing_lib", "meta_good"],
                                           plugins: [.goodSimple])
        let cache = try FixturePlugins.makeScratchDirectory("bad-plugins-cache")
        let output = try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache)
        #expect(output.status == 0, "\(output.transcript)")
        let json = try HudHost.json(output)
        let codes = Dictionary(uniqueKeysWithValues: (json["failures"]?.arrayValue ?? []).compactMap { f -> (String, String)? in
            guard let path = f["path"]?.stringValue, let code = f["code"]?.stringValue else { return nil }
            return ((path as NSString).lastPathComponent, code)
        })
        #expect(codes == ["crash_on_load.so": "crashed", "hang_on_load.so": "timed-out", "needs_missing_lib.so": "open-failed"])
        let ids = Set((json["renderers"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        #expect(ids.isSuperset(of: ["org.fixture.simple", "org.fixture.simple-alt", "org.scale.p0000", "com.hudson.tray"]))
        // The host survives and keeps rendering with what works.
        let render = try await DiscoveryFixtures.hudhost(["render", "--style", "org.fixture.simple"], path: directory, cache: cache)
        #expect(render.status == 0, "\(render.transcript)")
        // The records are reused (no rescan) until the file changes...
        let failed = try await DiscoveryFixtures.hudhost(["list", "--failed"], path: directory, cache: cache)
        #expect(failed.stdout.contains("recorded earlier; retried when the file changes"))
        // ...and a changed file is retried: replace the crasher with a good plugin.
        try FileManager.default.removeItem(atPath: directory + "/crash_on_load.so")
        try FileManager.default.copyItem(atPath: FixturePlugins.path(of: .goodManyNodes), toPath: directory + "/crash_on_load.so")
        let retried = try await HudHost.json(DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache))
        #expect((retried["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.fixture.many" })
        #expect(!(retried["failures"]?.arrayValue ?? []).contains { $0["code"]?.stringValue == "crashed" })
    }

    @Test func probeRunsThePluginInASandboxAndSurvivesACrash() async throws {
        let crasher = try DiscoveryFixtures.path("crash_on_load")
        let crash = try await HudHost.run(["probe", crasher, "--json"])
        #expect(crash.status == 3, "\(crash.transcript)")
        #expect(try HudHost.json(crash)["error"]?["code"]?.stringValue == "crashed")
        #expect(crash.stderr.contains("killed by SIGSEGV"))
        let hang = try await HudHost.run(["probe", DiscoveryFixtures.path("hang_on_load")], environment: ["HUD_SCAN_TIMEOUT": "1"])
        #expect(hang.status == 3 && hang.stderr.contains("no progress for 1 s, killed"), "\(hang.transcript)")
        let missing = try await HudHost.run(["probe", FixturePlugins.path(of: .missingEntry)])
        #expect(missing.status == 3 && missing.stderr.contains("no entry symbol 'hud_renderer_get_entry'"), "\(missing.transcript)")
    }

    @Test func aMetadataMismatchIsReportedOnLoad() throws {
        let registry = RendererRegistry()
        let path = try DiscoveryFixtures.path("meta_mismatch")
        #expect(try registry.load(path: path).isEmpty)
        let error = try #require(registry.failures.first)
        #expect(error.code.rawValue == "metadata-mismatch")
        #expect(error.description.contains("version (metadata '9.9.9', descriptor '1.0.0')"))
    }

    // MARK: - Security

    @Test func worldWritableFilesAndDirectoriesAndForeignOwnersAreRefused() throws {
        let base = try DiscoveryFixtures.directory("insecure", plugins: [.goodSimple])
        let file = base + "/" + Fixture.goodSimple.fileName
        let security = PathSecurity()
        #expect(security.problem(canonicalPath: file) == nil)
        chmod(file, 0o666)
        #expect(security.problem(canonicalPath: file)?.contains("writable by everyone") == true)
        chmod(file, 0o644)
        chmod(base, 0o775)
        #expect(security.problem(canonicalPath: file)?.contains("directory \(base) is writable by its group") == true)
        chmod(base, 0o755)
        if getuid() == 0 {  // only root can give a file away
            chown(file, 65534, 65534)
            #expect(security.problem(canonicalPath: file)?.contains("owned by uid 65534") == true)
            chown(file, 0, 0)
        }
        #expect(PathSecurity(allowInsecure: true).problem(canonicalPath: file) == nil)
        // The registry refuses to load an insecure file.
        chmod(file, 0o666)
        defer { chmod(file, 0o644) }
        #expect {
            try RendererRegistry().load(path: file)
        } throws: { ($0 as? RegistryError)?.code.rawValue == "insecure-path" }
        #expect(try RendererRegistry(security: PathSecurity(allowInsecure: true)).load(path: file).count == 2)
    }

    @Test func theCLIRefusesAnInsecurePluginAndExplainsWhy() async throws {
        let directory = try DiscoveryFixtures.directory("cli-insecure", plugins: [.goodSimple])
        let cache = try FixturePlugins.makeScratchDirectory("cli-insecure-cache")
        chmod(directory + "/good_simple.so", 0o666)
        let list = try await HudHost.json(DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache))
        #expect((list["failures"]?.arrayValue ?? []).contains { $0["code"]?.stringValue == "insecure-path" })
        let why = try await DiscoveryFixtures.hudhost(["why", directory + "/good_simple.so"], path: directory, cache: cache)
        #expect(why.status == 3)
        #expect(why.stdout.contains("REFUSED: the file is writable by everyone"))
        let allowed = try await DiscoveryFixtures.hudhost(["list", "--json", "--allow-insecure-path"], path: directory, cache: cache)
        #expect(allowed.stderr.contains("WARNING: --allow-insecure-path"))
        #expect((try HudHost.json(allowed)["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.fixture.simple" })
    }

    @Test func anInsecurePluginNamedOnTheCommandLineRunsNoCodeAtAll() async throws {
        let directory = try DiscoveryFixtures.directory("insecure-explicit", discovery: ["meta_good"])
        let file = directory + "/meta_good.so"
        chmod(file, 0o666)
        let marker = try FixturePlugins.makeScratchDirectory("insecure-explicit-marker") + "/ran"
        let output = try await HudHost.run(["render", "--plugin", file, "--json"], environment: ["HUD_FIXTURE_MARKER": marker])
        #expect(output.status == 3, "\(output.transcript)")
        #expect(try HudHost.json(output)["error"]?["code"]?.stringValue == "insecure-path")
        #expect(!FileManager.default.fileExists(atPath: marker), "the constructor ran (in the sandbox or the host)")
    }

    @Test func aFarFutureTimestampDoesNotBreakListing() async throws {
        let directory = try DiscoveryFixtures.directory("far-future", discovery: ["meta_good"])
        var times = [timespec(tv_sec: 10_413_792_000, tv_nsec: 0), timespec(tv_sec: 10_413_792_000, tv_nsec: 0)]  // year 2300
        #expect(utimensat(AT_FDCWD, directory + "/meta_good.so", &times, 0) == 0)
        let cache = try FixturePlugins.makeScratchDirectory("far-future-cache")
        let output = try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache)
        #expect(output.status == 0, "\(output.transcript)")
        #expect((try HudHost.json(output)["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.scale.p0000" })
    }

    @Test func symlinksAndHardLinksResolveToOneFile() throws {
        let directory = try DiscoveryFixtures.directory("links", discovery: ["meta_good"])
        symlink(directory + "/meta_good.so", directory + "/zz_symlink.so")
        link(directory + "/meta_good.so", directory + "/zz_hardlink.so")
        symlink(directory + "/loop_b.so", directory + "/loop_a.so")
        symlink(directory + "/loop_a.so", directory + "/loop_b.so")
        let report = PluginCatalog(searchPaths: SearchPaths(directories: [directory]), cache: nil).scan()
        let available = report.files.filter { !$0.renderers.isEmpty }
        #expect(available.map(\.path) == [directory + "/meta_good.so"])
        let duplicates = report.files.filter { if case .duplicate = $0.state { true } else { false } }
        #expect(Set(duplicates.map(\.path)) == [directory + "/zz_symlink.so", directory + "/zz_hardlink.so"])
        let loops = report.files.filter { $0.path.contains("loop_") }
        #expect(loops.count == 2 && loops.allSatisfy { if case .failed(let code, _) = $0.state { code == .notAFile } else { false } })
    }

    /// The listing `lstat`s each file relative to the listed directory's
    /// descriptor, sharing a long list with a helper thread: every status
    /// must be the file's own, in the sorted order, whichever thread made
    /// it (sizes differ file to file, so a status in the wrong slot shows).
    @Test(arguments: [5, 300])
    func theListingLstatsEveryFileOfTheListedDirectoryInOrder(count: Int) throws {
        let directory = try FixturePlugins.makeScratchDirectory("lstat-\(count)")
        for index in 0..<count {
            try Data(repeating: 0x41, count: index + 1).write(to: URL(fileURLWithPath: directory + "/f\(String(format: "%04d", count - index)).so"))
        }
        symlink(directory + "/f0001.so", directory + "/link.so")
        mkdir(directory + "/dir.so", 0o755)
        try Data().write(to: URL(fileURLWithPath: directory + "/.hidden.so"))
        try Data().write(to: URL(fileURLWithPath: directory + "/notes.txt"))
        let listed = try SystemCalls.sortedDirectoryFilesWithStatus(directory, suffix: ".so", prefixing: "shown/").get()
        let names = ((0..<count).map { "f" + String(format: "%04d", count - $0) + ".so" } + ["link.so", "dir.so"]).sorted()
        #expect(listed.paths == names.map { "shown/" + $0 })
        #expect(listed.statuses.count == names.count)
        for (name, status) in zip(names, listed.statuses) {
            let expected = try SystemCalls.status(of: directory + "/" + name, followLinks: false).get()
            #expect(status == expected, "\(name)")
        }
        #expect(listed.statuses[names.firstIndex(of: "link.so")!]?.isSymbolicLink == true)
        #expect(listed.statuses[names.firstIndex(of: "dir.so")!]?.isDirectory == true)
    }

    @Test func relativeSearchPathEntriesAreRefused() async throws {
        let output = try await HudHost.run(["list", "--json"], environment: ["HUD_RENDERER_PATH": "plugins:/nonexistent-abs"])
        let refused = try HudHost.json(output)["refusedPaths"]?.arrayValue ?? []
        #expect(refused.count == 1 && refused[0].stringValue?.hasPrefix("plugins: HUD_RENDERER_PATH entries must be absolute") == true)
    }

    // MARK: - Filters and safe mode

    @Test func disableAndSelectFiltersApplyToIDsCaseInsensitively() throws {
        let filters = RendererFilters(disable: ["COM.HUDSON.MIN*"], select: ["com.hudson.*", "org.?ixture.simple"])
        #expect(filters.exclusion(for: "com.hudson.minimal")?.contains("HUD_RENDERERS_DISABLE") == true)
        #expect(filters.exclusion(for: "com.hudson.tray") == nil)
        #expect(filters.exclusion(for: "org.fixture.simple") == nil)
        #expect(filters.exclusion(for: "org.fixture.many")?.contains("HUD_RENDERERS_SELECT") == true)
        let registry = RendererRegistry.withBuiltins(filters: filters)
        #expect(registry.renderers.map(\.id) == ["com.hudson.tray", "com.hudson.scattered"])
        #expect(registry.filtered.map(\.id) == ["com.hudson.minimal"])
    }

    @Test func builtinOnlyKeepsThirdPartyRecords() async throws {
        let directory = try DiscoveryFixtures.directory("safe-mode", discovery: ["meta_good", "crash_on_load"])
        let cache = try FixturePlugins.makeScratchDirectory("safe-mode-cache")
        _ = try await DiscoveryFixtures.hudhost(["list"], path: directory, cache: cache)
        let safe = try await HudHost.json(DiscoveryFixtures.hudhost(["list", "--json", "--builtin-only"], path: directory, cache: cache))
        #expect((safe["renderers"]?.arrayValue ?? []).count == 3)
        let records = try await HudHost.json(DiscoveryFixtures.hudhost(["cache", "--json"], path: directory, cache: cache))["files"]?.arrayValue ?? []
        #expect(records.count == 2)
        #expect(records.contains { $0["status"]?.stringValue == "failed" && $0["failureCode"]?.stringValue == "crashed" })
        let cleared = try await DiscoveryFixtures.hudhost(["cache", "--clear"], path: directory, cache: cache)
        #expect(cleared.stdout.contains("removed 1 cache file"))
    }

    @Test func filtersFromTheEnvironmentShapeListAndRender() async throws {
        let output = try await HudHost.run(["list", "--json", "--all"], environment: ["HUD_RENDERERS_DISABLE": "*scattered"])
        let rows = try HudHost.json(output)["renderers"]?.arrayValue ?? []
        #expect(rows.first { $0["id"]?.stringValue == "com.hudson.scattered" }?["excluded"]?.stringValue?.contains("*scattered") == true)
        let render = try await HudHost.run(["render", "--style", "scattered"], environment: ["HUD_RENDERERS_DISABLE": "*scattered"])
        #expect(render.status == 3, "\(render.transcript)")
        #expect(render.stderr.contains("renderer 'com.hudson.scattered' is not available; it is filtered out: disabled by HUD_RENDERERS_DISABLE pattern '*scattered'"),
                "\(render.transcript)")
        #expect(render.stderr.contains("run `hudhost why com.hudson.scattered`"), "\(render.transcript)")
    }

    // MARK: - why

    @Test func whyExplainsAvailableFailedAndUnknownRenderers() async throws {
        let directory = try DiscoveryFixtures.directory("why", discovery: ["meta_good", "crash_on_load"])
        let cache = try FixturePlugins.makeScratchDirectory("why-cache")
        let builtin = try await DiscoveryFixtures.hudhost(["why", "com.hudson.tray"], path: directory, cache: cache)
        #expect(builtin.status == 0 && builtin.stdout.contains("built-in"))
        let good = try await DiscoveryFixtures.hudhost(["why", "org.scale.p0000"], path: directory, cache: cache)
        #expect(good.status == 0, "\(good.transcript)")
        for line in ["Search path", "[HUD_RENDERER_PATH]", "read from the file's .hud_renderers ELF section", "org.scale.p0000: allowed",
                     "Load (now, in a sandboxed child process)", "never validated", "AVAILABLE"] {
            #expect(good.stdout.contains(line), "missing '\(line)' in:\n\(good.stdout)")
        }
        let crashed = try await DiscoveryFixtures.hudhost(["why", directory + "/crash_on_load.so"], path: directory, cache: cache)
        #expect(crashed.status == 3)
        #expect(crashed.stdout.contains("FAILED [crashed]") && crashed.stdout.contains("NOT AVAILABLE"))
        let unknown = try await DiscoveryFixtures.hudhost(["why", "org.nowhere.x"], path: directory, cache: cache)
        #expect(unknown.status == 3 && unknown.stdout.contains("no plugin file on the search path provides 'org.nowhere.x'"))
        let disabled = try await DiscoveryFixtures.hudhost(["why", "org.scale.p0000"], path: directory, cache: cache, extra: ["HUD_RENDERERS_DISABLE": "org.scale.*"])
        #expect(disabled.status == 3 && disabled.stdout.contains("disabled by HUD_RENDERERS_DISABLE pattern 'org.scale.*'"))
    }

    // MARK: - Scale

    @Test func listIsCorrectForAThousandPluginsColdAndWarmAndRunsNoneOfThem() async throws {
        let template = try Data(contentsOf: URL(fileURLWithPath: DiscoveryFixtures.path("meta_good")))
        let token = Data("p0000".utf8)
        let directory = try FixturePlugins.makeScratchDirectory("scale")
        chmod(directory, 0o755)
        let count = 1000
        for index in 0..<count {
            let id = String(format: "p%04d", index)
            var copy = template
            var searchRange = copy.startIndex..<copy.endIndex
            while let range = copy.range(of: token, in: searchRange) {
                copy.replaceSubrange(range, with: Data(id.utf8))
                searchRange = range.upperBound..<copy.endIndex
            }
            try copy.write(to: URL(fileURLWithPath: directory + "/\(id).so"))
        }
        let cache = try FixturePlugins.makeScratchDirectory("scale-cache")
        let marker = cache + "/constructor-ran"
        for run in ["cold", "warm"] {
            let output = try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache, extra: ["HUD_FIXTURE_MARKER": marker])
            #expect(output.status == 0, "\(run): \(output.transcript)")
            let json = try HudHost.json(output)
            // Every copy's constructor would write the marker: none may run.
            #expect(!FileManager.default.fileExists(atPath: marker), "\(run): plugin code ran")
            // Cold reads each file's ELF headers once; warm reads none.
            #expect(json["cache"]?["pluginFilesRead"]?.numberValue == (run == "cold" ? Double(count) : 0), "\(run)")
            #expect(json["cache"]?["pluginFilesScanned"]?.numberValue == 0)
            let rows = json["renderers"]?.arrayValue ?? []
            let ids = rows.compactMap { $0["id"]?.stringValue }.filter { $0.hasPrefix("org.scale.") }
            #expect(ids == (0..<count).map { String(format: "org.scale.p%04d", $0) }, "\(run)")
            #expect(rows.filter { $0["id"]?.stringValue?.hasPrefix("org.scale.") == true }.allSatisfy { $0["cached"] == .bool(run == "warm") })
            // The rows are written straight into bytes, streamed every 64
            // KiB: the document must still be byte for byte what one
            // writer lays out for the same tree.
            #expect(output.stdout == json.serialized(pretty: true), "\(run)")
        }
        // The text table: every row in order, every ORIGIN cell in the
        // header's column.
        let text = try await DiscoveryFixtures.hudhost(["list"], path: directory, cache: cache)
        #expect(text.status == 0, "\(text.transcript)")
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let header = try #require(lines.first)
        let originColumn = try #require(header.range(of: "ORIGIN")).lowerBound.utf16Offset(in: header)
        let scaleLines = lines.filter { $0.hasPrefix("org.scale.") }
        #expect(scaleLines.map { String($0.prefix(15)) } == (0..<count).map { String(format: "org.scale.p%04d", $0) })
        #expect(lines.dropFirst().allSatisfy { line in
            let prefix = line.utf8.prefix(originColumn)
            let cell = line.utf8.dropFirst(originColumn).first
            return prefix.count == originColumn && prefix.last == UInt8(ascii: " ") && cell != nil && cell != UInt8(ascii: " ")
        })
    }
}

extension DiscoveryTests {
    /// A file rewritten in place with its size and mtime put back is still
    /// a changed file: the cache's identity includes the ctime, which only
    /// the kernel sets, so its old verdict is not replayed.
    @Test func aFileRewrittenInPlaceWithItsMtimeRestoredIsReadAgain() async throws {
        let directory = try DiscoveryFixtures.directory("rewritten-in-place", discovery: ["meta_good"])
        let cache = try FixturePlugins.makeScratchDirectory("rewritten-in-place-cache")
        let file = directory + "/meta_good.so"
        let listed = try HudHost.json(try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache))
        #expect((listed["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.scale.p0000" })
        var before = stat()
        try #require(stat(file, &before) == 0)
        // Same size, same mtime, other bytes: no longer an ELF file.
        let fd = open(file, O_WRONLY)
        try #require(fd >= 0)
        #expect(pwrite(fd, "NOPE", 4, 0) == 4)
        close(fd)
        var times = [before.st_atim, before.st_mtim]
        try #require(utimensat(AT_FDCWD, file, &times, 0) == 0)
        var after = stat()
        try #require(stat(file, &after) == 0)
        #expect(after.st_size == before.st_size && after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        try #require(after.st_ctim.tv_sec != before.st_ctim.tv_sec || after.st_ctim.tv_nsec != before.st_ctim.tv_nsec,
                     "the file system did not advance the ctime")
        let again = try HudHost.json(try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache))
        #expect(!(again["renderers"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "org.scale.p0000" }, "\(again)")
        #expect((again["failures"]?.arrayValue ?? []).contains { $0["code"]?.stringValue == "not-elf" }, "\(again)")
    }
}

extension DiscoveryTests {
    /// A run killed between writing the cache's temporary file and renaming
    /// it leaves the temporary behind; the next save removes such orphans
    /// (older than `orphanAgeSeconds`), never a fresh one another run may
    /// be about to rename.
    @Test func orphanedCacheTemporariesAreSweptAndFreshOnesKept() async throws {
        let directory = try DiscoveryFixtures.directory("orphans", discovery: ["meta_good"])
        let cache = try FixturePlugins.makeScratchDirectory("orphans-cache")
        _ = try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache)
        let hud = cache + "/hud"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: hud).first { $0.hasPrefix("registry-") && $0.hasSuffix(".json") })
        let orphan = hud + "/" + name + ".k1LLed", fresh = hud + "/" + name + ".w2iting"
        for path in [orphan, fresh] { try "partial".write(toFile: path, atomically: false, encoding: .utf8) }
        let longAgo = time(nil) - Int(RegistryCache.orphanAgeSeconds) - 60
        var old = [timespec(tv_sec: longAgo, tv_nsec: 0), timespec(tv_sec: longAgo, tv_nsec: 0)]
        try #require(utimensat(AT_FDCWD, orphan, &old, 0) == 0)
        // Another plugin makes the cache change, so this run saves it.
        try FileManager.default.copyItem(atPath: try DiscoveryFixtures.path("crash_on_load"), toPath: directory + "/crash_on_load.so")
        _ = try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache)
        #expect(!FileManager.default.fileExists(atPath: orphan))
        #expect(FileManager.default.fileExists(atPath: fresh))
    }
}
