// SPDX-License-Identifier: MIT
import Foundation
import Testing
import HudRegistry
import HudTestSupport

/// The outside-plugin corpus (Docs/COMPATIBILITY.md): plugins written the
/// way outside authors write them from the ABI 1.0 docs — a C plugin with
/// its own geometry and chips on the outer side, the same plugin by an
/// author who compares the node stride with sizeof(hud_node_t), a Rust
/// plugin on the 1.0 bindings, and a Swift plugin whose entry is Swift and
/// whose metadata record a script wrote once at 1.0 — each built against
/// the frozen 1.0 SDK and against today's. Every build must appear in
/// `list`, render in both isolation modes and pass `validate` at the
/// profile versions it was written for (strict@1.0 and strict@1.1, the SDKs
/// they were written against). Held to its own ABI minor, a build against
/// today's SDK meets what changed since on notice: the checks that became
/// errors at 1.2, and 1.2's own notices (its picker's current mode).
/// The corpus (Tests/Fixtures/outside) is frozen: when one of these fails,
/// the host broke a promise; the corpus is never edited to fit the host.
struct OutsidePluginCorpusTests {
    enum SDK: String, CaseIterable, Sendable {
        case frozen10 = "1.0"
        case current = "1.2"

        var cHeaders: String {
            switch self {
            case .frozen10: FixturePlugins.repositoryRoot + "/Tests/Fixtures/abi-1.0/hud"
            case .current: FixturePlugins.headerDirectory
            }
        }

        var rustBindings: String {
            switch self {
            case .frozen10: FixturePlugins.repositoryRoot + "/Tests/Fixtures/abi-1.0/rust/hud_renderer.rs"
            case .current: FixturePlugins.repositoryRoot + "/Sources/HudRendererAPI/bindings/rust/hud_renderer.rs"
            }
        }
    }

    /// One corpus plugin built against one SDK.
    struct Build {
        var path: String
        var id: String
        var sdk: SDK
    }

    static let corpus = FixturePlugins.repositoryRoot + "/Tests/Fixtures/outside/"

    /// A directory of its own for each build, so `list` sees only it.
    static func directory(_ name: String, _ sdk: SDK) throws -> String {
        let directory = try FixturePlugins.makeScratchDirectory("outside-\(name)-\(sdk.rawValue)")
        chmod(directory, 0o755)
        return directory
    }

    static func buildC(_ source: String, id: String, sdk: SDK) async throws -> Build {
        let output = try directory(source, sdk) + "/" + source + ".so"
        try await FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + ["-I", sdk.cHeaders, "-o", output, corpus + source + ".c"])
        return Build(path: output, id: id, sdk: sdk)
    }

    static func buildRust(_ sdk: SDK) async throws -> Build {
        let rustc = try #require(RustToolchain.rustc)
        let directory = try directory("rust", sdk)
        let sources = try FixturePlugins.makeScratchDirectory("outside-rust-source-\(sdk.rawValue)")
        try FileManager.default.copyItem(atPath: corpus + "rust_outer.rs", toPath: sources + "/rust_outer.rs")
        try FileManager.default.copyItem(atPath: sdk.rustBindings, toPath: sources + "/hud_renderer.rs")
        let output = directory + "/librust_outer.so"
        try await FixturePlugins.compileCommand([rustc, "--edition", "2021", "--crate-type", "cdylib", "-O", "-C", "panic=abort", "-D", "warnings",
                                           "-o", output, sources + "/rust_outer.rs"])
        return Build(path: output, id: "org.outside.rust-outer", sdk: sdk)
    }

    /// The author's build: swiftc on the Swift files, the SDK's header
    /// through a module map, and the record their script wrote.
    static func buildSwift(_ sdk: SDK) async throws -> Build {
        let directory = try directory("swift", sdk)
        let work = try FixturePlugins.makeScratchDirectory("outside-swift-work-\(sdk.rawValue)")
        try FileManager.default.createDirectory(atPath: work + "/module", withIntermediateDirectories: true)
        try "module HudRendererAPI [system] {\n    header \"\(sdk.cHeaders)/hud_renderer.h\"\n    export *\n}\n"
            .write(toFile: work + "/module/module.modulemap", atomically: true, encoding: .utf8)
        let sources = corpus + "swift_outer/"
        try await FixturePlugins.compileCommand(["cc", "-c", "-o", work + "/record.o", sources + "record.s"])
        let output = directory + "/libswift_outer.so"
        try await FixturePlugins.compileCommand(["swiftc", "-emit-library", "-parse-as-library", "-module-name", "OutsideSwift", "-swift-version", "5", "-O",
                                           "-I", work + "/module", "-module-cache-path", work + "/cache", "-o", output, work + "/record.o"]
                                          + ["Layout", "Metrics", "WorkingFrame", "Entry"].map { sources + $0 + ".swift" })
        return Build(path: output, id: "org.outside.swift-outer", sdk: sdk)
    }

    /// What every build must do on this host.
    /// `findings` are the checks (`id status`) each build's own-minor run
    /// does not pass, by path; every other check passes.
    static func expectWorks(_ builds: [Build], findings: [String: [String]] = [:]) async throws {
        for build in builds {
            let directory = (build.path as NSString).deletingLastPathComponent
            let cache = try FixturePlugins.makeScratchDirectory("outside-cache")
            let listed = try await HudHost.run(["list", "--json"], environment: ["HUD_RENDERER_PATH": directory, "XDG_CACHE_HOME": cache])
            #expect(listed.status == 0, "\(build.id) built against \(build.sdk.rawValue): \(listed.transcript)")
            let ids = try HudHost.json(listed)["renderers"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            #expect(ids.contains(build.id), "\(build.id) (\(build.sdk.rawValue)) is not listed: \(ids)")
            for isolation in ["process", "in-process"] {
                let rendered = try await HudHost.run(["render", "--plugin", build.path, "--style", build.id, "--isolation", isolation, "--json"],
                                               environment: ["XDG_CACHE_HOME": cache])
                #expect(rendered.status == 0, "\(build.id) (\(build.sdk.rawValue)) in \(isolation): \(rendered.transcript)")
                guard rendered.status == 0 else { continue }
                let json = try HudHost.json(rendered)
                #expect(json["renderer"]?["id"]?.stringValue == build.id)
                // The host holds a renderer to the version its entry declares.
                #expect(json["renderer"]?["abiVersion"]?.stringValue == build.sdk.rawValue, "\(rendered.stdout.prefix(600))")
                #expect((json["layout"]?["nodes"]?.arrayValue?.count ?? 0) > 0, "\(build.id) (\(build.sdk.rawValue)) in \(isolation) drew nothing")
            }
        }
        // Each build held to the profile version of its own minor…
        // The timing checks (perf-*) are warnings a loaded machine can
        // raise and this test ignores: left out.
        let options = ["--format", "json", "--seed", "20250101", "--fuzz-iterations", "40", "--timeout", "20", "--layout-timeout", "20", "-j", "2", "--exclude", "^perf-"]
        let validated = try await HudHost.run(["validate"] + builds.map(\.path) + ["--profile", "strict"] + options)
        let failing = builds.contains { (findings[$0.path] ?? []).contains { !$0.hasSuffix(" warning") } }
        #expect(validated.status == (failing ? 1 : 0), "\(validated.transcript)")
        let report = try HudHost.json(validated)
        for (build, target) in zip(builds, report["targets"]?.arrayValue ?? []) {
            #expect(target["profileVersion"]?.stringValue == "strict@" + build.sdk.rawValue, "\(build.path)")
            let notPassed = (target["results"]?.arrayValue ?? []).filter { $0["status"]?.stringValue != "passed" }
                .compactMap { result -> String? in
                    guard let check = result["check"]?.stringValue, let status = result["status"]?.stringValue else { return nil }
                    // Timing warnings depend on the machine's load (perf-*, abi-load-time).
                    if status == "warning", check.hasPrefix("perf-") || check == "abi-load-time" { return nil }
                    return "\(check) \(status)"
                }
            #expect(notPassed.sorted() == (findings[build.path] ?? []).sorted(), "\(build.id) (\(build.sdk.rawValue)): \(notPassed)")
        }
        // …and every build passes the versions they were written for.
        let current = builds.filter { $0.sdk != .frozen10 }.map(\.path)
        if !current.isEmpty {
            let old = try await HudHost.run(["validate"] + current + ["--profile", "strict@1.0", "--werror"] + options)
            #expect(old.status == 0 || TimingWarningsInReport.only(old), "\(old.transcript)")
            let written = try await HudHost.run(["validate"] + current + ["--profile", "strict@1.1"] + options)
            #expect(written.status == 0, "\(written.transcript)")
        }
    }

    /// Rebuilt against today's SDK, a picker that does not mark the current
    /// mode (1.2) is on notice: a warning in strict@1.2.
    static func pickerNotice(_ builds: [Build]) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: builds.filter { $0.sdk == .current }.map { ($0.path, ["output-current-mode warning"]) })
    }

    @Test func aCPluginWithItsOwnGeometryAndOuterChips() async throws {
        let builds = try await Self.eachSDK { try await Self.buildC("ring_outer", id: "org.outside.ring-outer", sdk: $0) }
        try await Self.expectWorks(builds, findings: Self.pickerNotice(builds))
    }

    /// It refuses a 1.0 host's stride: on notice in strict@1.1 (a warning),
    /// an error from 1.2, which a rebuild against today's SDK claims; and
    /// nothing at all at 1.0.
    @Test func aCPluginThatComparesTheStrideWithSizeof() async throws {
        let builds = try await Self.eachSDK { try await Self.buildC("ring_sizeof_stride", id: "org.outside.ring-sizeof", sdk: $0) }
        try await Self.expectWorks(builds, findings: [builds[1].path: ["abi-older-host-sizes failed", "output-current-mode warning"]])
    }

    @Test(Requirement.when(RustToolchain.rustc != nil, "needs rustc on PATH or in ~/.cargo/bin"))
    func aRustPluginOnThe10Bindings() async throws {
        let builds = try await Self.eachSDK(Self.buildRust)
        try await Self.expectWorks(builds, findings: Self.pickerNotice(builds))
    }

    /// Its record, written at 1.0, says 1.0 while the rebuilt entry says
    /// 1.1: consistent (a record may name an older minor), and the host
    /// shows the entry's version.
    @Test func aSwiftPluginWithAHandWrittenRecord() async throws {
        let builds = try await Self.eachSDK(Self.buildSwift)
        try await Self.expectWorks(builds, findings: Self.pickerNotice(builds))
    }
}

extension OutsidePluginCorpusTests {
    /// `build` against each SDK, one after the other.
    static func eachSDK(_ build: (SDK) async throws -> Build) async throws -> [Build] {
        var builds: [Build] = []
        for sdk in SDK.allCases { builds.append(try await build(sdk)) }
        return builds
    }
}

/// A `--werror` run that failed only because of a timing warning, which
/// depends on the machine's load (perf-*, abi-load-time), not the plugin.
enum TimingWarningsInReport {
    static func only(_ output: ProcessOutput) -> Bool {
        guard output.status == 1, let report = try? HudHost.json(output) else { return false }
        let results = (report["targets"]?.arrayValue ?? []).flatMap { $0["results"]?.arrayValue ?? [] }
        let bad = results.filter { $0["status"]?.stringValue != "passed" && $0["status"]?.stringValue != "skipped" }
        return !bad.isEmpty && bad.allSatisfy { result in
            let check = result["check"]?.stringValue ?? ""
            return result["status"]?.stringValue == "warning" && (check.hasPrefix("perf-") || check == "abi-load-time")
        }
    }
}
