// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import HudRegistry
import HudTestSupport

/// Batch scans of files without a metadata section: one
/// sandboxed child loads a batch in turn; a crash or a timeout is blamed on
/// the file being loaded and the scan resumes with the next file; a plugin
/// cannot answer for another file.
struct BatchScanTests {
    /// Copies of good plugins without metadata under distinct names, and
    /// the named discovery fixtures, in one private directory, in `order`.
    private static func files(_ label: String, _ order: [String]) throws -> [String] {
        let directory = try FixturePlugins.makeScratchDirectory(label)
        return try order.enumerated().map { index, name in
            let source = try name == "good" ? FixturePlugins.path(of: .goodSimple) : DiscoveryFixtures.path(name)
            let path = directory + "/\(index)-\(name).so"
            try FileManager.default.copyItem(atPath: source, toPath: path)
            return path
        }
    }

    private static func code(_ result: SandboxScanner.ScanResult) -> FailureCode? {
        if case .failed(let code, _) = result.outcome { code } else { nil }
    }

    private static func ids(_ result: SandboxScanner.ScanResult) -> [String] {
        if case .renderers(let renderers) = result.outcome { renderers.map(\.id) } else { [] }
    }

    @Test func aBatchIsOneChildForEveryFileThatLoads() throws {
        let paths = try Self.files("batch-good", ["good", "good", "good", "good"])
        let report = SandboxScanner().scan(batch: paths)
        #expect(report.children == 1)
        #expect(report.results.map(Self.ids) == Array(repeating: ["org.fixture.simple", "org.fixture.simple-alt"], count: 4))
        #expect(report.results.map(\.loadedFirst) == [true, false, false, false])
        // Smaller batches: one child each.
        #expect(SandboxScanner().scan(batch: paths, batchSize: 2).children == 2)
    }

    @Test func aCrashIsBlamedOnItsFileAndTheScanResumesWithTheNext() throws {
        let paths = try Self.files("batch-crash", ["good", "crash_on_load", "good", "good"])
        let report = SandboxScanner().scan(batch: paths)
        #expect(report.results.map(Self.code) == [nil, .crashed, nil, nil])
        #expect(report.results[2].loadedFirst && Self.ids(report.results[3]) == ["org.fixture.simple", "org.fixture.simple-alt"])
        // The crash in second place is confirmed by loading the file first in
        // a child of its own (another plugin could have caused it), then the
        // rest share one child: 3 in all, not 4.
        #expect(report.children == 3)
        #expect(report.results[1].loadedFirst)
        if case .failed(_, let reason) = report.results[1].outcome { #expect(reason.contains("SIGSEGV")) }
    }

    @Test func aTimeoutIsBlamedOnItsFileAndTheScanResumesWithTheNext() throws {
        let paths = try Self.files("batch-hang", ["good", "hang_on_load", "good"])
        let report = SandboxScanner(timeoutSeconds: 1).scan(batch: paths)
        #expect(report.results.map(Self.code) == [nil, .timedOut, nil])
        // The deadline is per file: the first file's answer restarted it, and
        // a timeout is final at once (no second wait).
        #expect(report.children == 2)
        #expect(report.results[2].loadedFirst)
    }

    @Test func aPluginCannotAnswerForTheNextFile() throws {
        // forge_next_result writes well-formed results (a guessed turn token,
        // and a bare reply) during its own load.
        let paths = try Self.files("batch-forge", ["good", "forge_next_result", "good"])
        let report = SandboxScanner().scan(batch: paths)
        #expect(report.results.map(Self.code) == [nil, .protocolError, nil])
        #expect(Self.ids(report.results[2]) == ["org.fixture.simple", "org.fixture.simple-alt"])
        #expect(!report.results.flatMap(Self.ids).contains("org.forged.victim"))
    }

    @Test func theCatalogScansFilesWithoutMetadataInBatches() throws {
        let directory = try DiscoveryFixtures.directory("batch-catalog", discovery: ["meta_good"], plugins: [.goodSimple, .goodManyNodes])
        let cache = try FixturePlugins.makeScratchDirectory("batch-catalog-cache")
        let json = try HudHost.json(DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache))
        #expect(json["cache"]?["pluginFilesScanned"]?.numberValue == 2)
        #expect(json["cache"]?["scannerProcesses"]?.numberValue == 1)
        let ids = Set((json["renderers"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        #expect(ids.isSuperset(of: ["org.fixture.simple", "org.fixture.many", "org.scale.p0000"]))
    }

    @Test func batchTurnTokensAreFreshAndStrictlyParsed() {
        let token = BatchTurn.newToken()
        #expect(token.count == 16 && token != BatchTurn.newToken())
        #expect(BatchTurn.token(ofRequest: BatchTurn.request(token).dropLast()) == token)
        #expect(BatchTurn.token(ofRequest: "go 0") == nil)
        #expect(BatchTurn.token(ofRequest: "go " + token.uppercased()) == (token == token.uppercased() ? token : nil))
        let frame = BatchTurn.encode(token: token, reply: ScanReply.encode(renderers: [], failures: [], loaded: nil))
        #expect(BatchTurn.decode(frame)?.token == token)
        #expect(BatchTurn.decode(ScanReply.encode(renderers: [], failures: [], loaded: nil)) == nil)
    }
}
