// SPDX-License-Identifier: MIT
@testable import HudPluginBoundary
import Foundation
import Testing
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
@testable import HudConformance
import HudTestSupport
@testable import HudSystem

/// The hostile-input corpus (`Tests/Fixtures/hostile`, README there), item
/// by item: every file a user can hand hudhost gets a clear error and a
/// non-zero exit where it is a command, JSON output stays valid, and the
/// rest of the run goes on. The tests are parameterized over the corpus
/// directories, so an item without an expectation here fails.
struct HostileInputTests {
    static let corpus = FixturePlugins.repositoryRoot + "/Tests/Fixtures/hostile"

    /// The entries of a corpus directory, sorted (README excluded).
    static func items(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus + "/" + directory)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The name an item has once made: `x.so.recipe` → `x.so`, `y.c` → `y.so`.
    static func madeName(_ item: String) -> String {
        if item.hasSuffix(".recipe") { return String(item.dropLast(".recipe".count)) }
        if item.hasSuffix(".c") { return String(item.dropLast(2)) + ".so" }
        return item
    }

    // MARK: - Scenes

    /// What `hudhost render --scene FILE` says after "scene FILE: ".
    static let sceneErrors: [String: String] = [
        "truncated.json": "not valid JSON: line 1, column 88: unterminated string",
        "empty.json": "not valid JSON: line 1, column 1: unexpected end of input; expected a value",
        "wrong-type-complications.json": "complications: is an array; expected an object",
        "wrong-type-icon.json": "complications.center.icon: is a number; expected a string",
        "wrong-type-version.json": "schemaVersion: is \"1\"; this host reads version 1",
        "null-slot.json": "complications.center: is null; expected an object",
        "huge-number.json": "not valid JSON: line 1, column 122: number 1e400 is out of range",
        "huge-version.json": "schemaVersion: is 1e+308; this host reads version 1",
        "invalid-utf8-in-string.json": "not valid UTF-8",
        "utf16-bom.json": "not valid UTF-8",
        "nul-in-string.json": "title: contains a NUL character",
        "duplicate-key.json": "not valid JSON: line 1, column 37: duplicate key \"schemaVersion\"",
        "trailing-document.json": "not valid JSON: line 1, column 22: unexpected text after the JSON value",
        "deep-nesting.recipe": "not valid JSON: line 1, column 66: nesting deeper than 64 levels",
        "huge-string-10mb.recipe": "not valid JSON: line 1, column 1: the document is 10000033 bytes; at most 8388608 are accepted",
        "long-string-2mb.recipe": "not valid JSON: line 1, column 1048609: string longer than 1048576 bytes",
    ]

    /// Writes the scene `item` into `directory` (making recipes) and returns its path.
    static func makeScene(_ item: String, in directory: String) throws -> String {
        let path = directory + "/" + madeName(item)
        func titled(_ count: Int) -> Data { Data(("{\"schemaVersion\": 1, \"title\": \"" + String(repeating: "x", count: count) + "\"}").utf8) }
        switch item {
        case "deep-nesting.recipe":
            try Data((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8).write(to: URL(fileURLWithPath: path))
        case "huge-string-10mb.recipe": try titled(10_000_000).write(to: URL(fileURLWithPath: path))
        case "long-string-2mb.recipe": try titled(2_000_000).write(to: URL(fileURLWithPath: path))
        default: try FileManager.default.copyItem(atPath: corpus + "/scenes/" + item, toPath: path)
        }
        return path
    }

    @Test(arguments: items("scenes"))
    func aHostileSceneIsAnUnusableTargetThatNamesTheFileAndTheProblem(_ item: String) async throws {
        let expected = try #require(Self.sceneErrors[item], "scenes/\(item) has no expected error in HostileInputTests.sceneErrors")
        let directory = try FixturePlugins.makeScratchDirectory("hostile-scene")
        let path = try Self.makeScene(item, in: directory)
        let text = try await HudHost.run(["render", "--scene", path])
        #expect(text.status == 3, "\(text.transcript)")
        #expect(text.stderr.contains("scene \(path): \(expected)"), "\(text.transcript)")
        #expect(text.stdout.isEmpty)
        let json = try await HudHost.run(["render", "--scene", path, "--json"])
        #expect(json.status == 3)
        let document = try HudHost.json(json)
        #expect(document["error"]?["code"]?.stringValue == "unusable-scene")
        #expect(document["error"]?["path"]?.stringValue == path)
        #expect(document["error"]?["message"]?.stringValue?.contains(expected) == true, "\(json.stdout)")
    }

    // MARK: - Plugin files

    /// What happens to one plugin-corpus item: its `list` failure record
    /// (nil: it is listed as a renderer) and what `probe FILE` and
    /// `render --plugin FILE` report (nil: they succeed). A `layout`
    /// expectation is for a plugin that loads but misbehaves in layout():
    /// `probe FILE` fails with that code (exit 3), `render --plugin FILE`
    /// with a built-in style succeeds, and `render --style ID` exits 1 with
    /// a JSON error of that code naming the renderer.
    struct PluginExpectation: Sendable {
        var list: (code: String, message: String)?
        var load: (code: String, message: String)?
        var layout: (id: String, code: String, message: String)?

        init(list: (code: String, message: String)?, load: (code: String, message: String)?) {
            self.list = list
            self.load = load
        }

        init(layout id: String, _ code: String, _ message: String) {
            layout = (id, code, message)
        }
    }

    static let pluginExpectations: [String: PluginExpectation] = [
        "not-elf.so": .init(list: ("not-elf", "not an ELF file (no \\x7FELF magic)"), load: ("open-failed", "file too short")),
        "empty.so": .init(list: ("not-elf", "not an ELF file (no \\x7FELF magic)"), load: ("open-failed", "file too short")),
        "truncated-header.so": .init(list: ("truncated-elf", "the ELF header (64 bytes at offset 0) lies outside the 40-byte file"),
                                     load: ("open-failed", "file too short")),
        "truncated-section-table.so": .init(list: ("truncated-elf", "the section headers (192 bytes at offset 504) lies outside the 600-byte file"),
                                            load: ("open-failed", "dlopen failed")),
        "elf32.so": .init(list: ("not-elf64", "a 32-bit ELF file; this host loads 64-bit shared objects"), load: ("open-failed", "wrong ELF class")),
        "big-endian.so": .init(list: ("not-elf64", "a big-endian ELF file; this host is little-endian"), load: ("open-failed", "not little-endian")),
        "executable.so": .init(list: ("not-shared-object", "ELF type 2 is not a shared object (ET_DYN)"), load: ("open-failed", "dlopen failed")),
        "bad-metadata.so": .init(list: ("bad-metadata", "metadata record at byte 0 has size 408"), load: ("bad-metadata", "metadata record at byte 0 has size 408")),
        "foreign-arch.so.recipe": .init(list: ("wrong-architecture", "built for ELF machine"), load: ("open-failed", "dlopen failed")),
        "directory.so.recipe": .init(list: ("not-a-file", "it is a directory"), load: ("not-a-file", "it is a directory")),
        "symlink-loop.so.recipe": .init(list: ("not-a-file", "Too many levels of symbolic links"), load: ("not-a-file", "Too many levels of symbolic links")),
        "unreadable.so.recipe": .init(list: ("io-error", "Permission denied"), load: ("open-failed", "Permission denied")),
        "noisy_init.c": .init(list: nil, load: nil),
        "exit_in_init.c": .init(list: ("exited", "plugins must never call exit()"), load: ("exited", "the plugin ended the scanning process (exit status 7)")),
        "layout_segfault.c": .init(layout: "org.hostile.layout-segfault", "crashed", "its renderer host crashed (killed by SIGSEGV)"),
        "layout_abort.c": .init(layout: "org.hostile.layout-abort", "crashed", "its renderer host crashed (killed by SIGABRT)"),
        "layout_hang.c": .init(layout: "org.hostile.layout-hang", "timed-out", "did not answer within 1 s (layout deadline), killed"),
        "layout_exit.c": .init(layout: "org.hostile.layout-exit", "exited", "exited with status 0; renderers must never call exit()"),
        "layout_stack_overflow.c": .init(layout: "org.hostile.layout-stack-overflow", "crashed", "its renderer host crashed (killed by SIGSEGV)"),
        "layout_wild_pointer.c": .init(layout: "org.hostile.layout-wild-pointer", "crashed", "its renderer host crashed (killed by SIGSEGV)"),
        "layout_overrun.c": .init(layout: "org.hostile.layout-overrun", "crashed", "its renderer host crashed (killed by SIGSEGV)"),
    ]

    /// A sysfs attribute nobody may read, root included (mode 0200 and no
    /// read method: open(O_RDONLY) fails with EACCES).
    static var writeOnlyAttribute: String? {
        let candidates = ((try? FileManager.default.contentsOfDirectory(atPath: "/sys/bus")) ?? []).sorted().map { "/sys/bus/\($0)/drivers_probe" }
        return candidates.first { path in
            let fd = open(path, O_RDONLY)
            if fd >= 0 { close(fd) }
            return fd < 0 && errno == EACCES
        }
    }

    /// Makes the plugin item in `directory`; returns its path and, when
    /// discovery reports it under another (canonical) path, that path.
    static func makePlugin(_ item: String, in directory: String) async throws -> (path: String, reportedPath: String) {
        let path = directory + "/" + madeName(item)
        switch item {
        case "foreign-arch.so.recipe":
            var data = try Data(contentsOf: URL(fileURLWithPath: DiscoveryFixtures.path("meta_good")))
            let foreign: UInt16 = ElfMetadataReader.hostMachine == 183 ? 62 : 183  // x86-64 ⇄ AArch64
            data[18] = UInt8(foreign & 0xFF)
            data[19] = UInt8(foreign >> 8)
            try data.write(to: URL(fileURLWithPath: path))
        case "directory.so.recipe":
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case "symlink-loop.so.recipe":
            let other = directory + "/symlink-loop-partner.so"
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: other)
            try FileManager.default.createSymbolicLink(atPath: other, withDestinationPath: path)
        case "unreadable.so.recipe":
            if let attribute = writeOnlyAttribute {
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: attribute)
                return (path, attribute)
            }
            guard geteuid() != 0 else {
                try Test.cancel("no unreadable file available: running as root (which reads mode-000 files) and no write-only /sys/bus/*/drivers_probe")
            }
            try FileManager.default.copyItem(atPath: DiscoveryFixtures.path("meta_good"), toPath: path)
            chmod(path, 0)
        case _ where item.hasSuffix(".c"):
            try await FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + [
                "-I", FixturePlugins.headerDirectory, "-I", FixturePlugins.sourceDirectory,
                "-o", path, corpus + "/plugins/" + item,
            ])
        default:
            try FileManager.default.copyItem(atPath: corpus + "/plugins/" + item, toPath: path)
        }
        return (path, path)
    }

    @Test(arguments: items("plugins"))
    func aHostilePluginFileGetsItsOwnErrorAndTheRestOfTheRunGoesOn(_ item: String) async throws {
        let expectation = try #require(Self.pluginExpectations[item], "plugins/\(item) has no expectation in HostileInputTests.pluginExpectations")
        let directory = try DiscoveryFixtures.directory("hostile-plugin", discovery: ["meta_good"])
        let cache = try FixturePlugins.makeScratchDirectory("hostile-plugin-cache")
        let (path, reportedPath) = try await Self.makePlugin(item, in: directory)

        // list: one failure record for the item; the other renderers stay.
        let list = try await DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache)
        #expect(list.status == 0, "\(list.transcript)")
        let listed = try HudHost.json(list)  // stdout is one JSON document, whatever the plugin printed
        let ids = Set((listed["renderers"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        #expect(ids.isSuperset(of: ["com.hudson.tray", "com.hudson.scattered", "com.hudson.minimal", "org.scale.p0000"]), "\(list.stdout)")
        let failures = (listed["failures"]?.arrayValue ?? []).filter { $0["path"]?.stringValue == reportedPath }
        if let (code, message) = expectation.list {
            #expect(failures.count == 1, "\(list.stdout)")
            #expect(failures.first?["code"]?.stringValue == code, "\(list.stdout)")
            #expect(failures.first?["message"]?.stringValue?.contains(message) == true, "\(list.stdout)")
        } else {
            #expect(failures.isEmpty, "\(list.stdout)")
        }

        // probe FILE and render --plugin FILE: the same sandboxed trial
        // load, then the sample layout in a renderer host.
        let probe = try await HudHost.run(["probe", path, "--json", "--layout-timeout", "1"])
        let probed = try HudHost.json(probe)
        // --plugin files are loaded once in a sandboxed child first, so even
        // exit() in init() cannot end hudhost.
        let render = try await HudHost.run(["render", "--plugin", path, "--json"])
        let rendered = try HudHost.json(render)
        if let (code, message) = expectation.load {
            #expect(probe.status == 3, "\(probe.transcript)")
            #expect(probed["error"]?["code"]?.stringValue == code, "\(probe.stdout)")
            #expect(probe.stderr.contains(message), "\(probe.transcript)")
            #expect(render.status == 3, "\(render.transcript)")
            #expect(rendered["error"]?["code"]?.stringValue == code, "\(render.stdout)")
            #expect(render.stderr.contains(message), "\(render.transcript)")
        } else if let (id, code, message) = expectation.layout {
            // probe describes the renderer (its descriptor passed) and
            // reports the failed sample: a failure (1), naming the renderer.
            #expect(probe.status == 1, "\(probe.transcript)")
            let sample = probed["renderers"]?.arrayValue?.first { $0["id"]?.stringValue == id }?["sampleError"]
            #expect(sample?["code"]?.stringValue == code, "\(probe.stdout)")
            #expect(sample?["rendererId"]?.stringValue == id, "\(probe.stdout)")
            #expect(sample?["message"]?.stringValue?.contains(message) == true, "\(probe.stdout)")
            #expect(render.status == 0, "\(render.transcript)")
            // Its own style: the render fails with an error naming it, on
            // stdout as one JSON document, and hudhost itself is untouched.
            for arguments in [["render", "--plugin", path, "--style", id, "--json", "--layout-timeout", "1"],
                              ["render", "--style", id, "--json", "--layout-timeout", "1"]] {
                let own = try await DiscoveryFixtures.hudhost(arguments, path: arguments.contains("--plugin") ? "" : directory, cache: cache)
                #expect(own.status == 1, "\(own.transcript)")
                let error = try HudHost.json(own)["error"]
                #expect(error?["code"]?.stringValue == code, "\(own.stdout)")
                #expect(error?["rendererId"]?.stringValue == id, "\(own.stdout)")
                #expect(error?["path"]?.stringValue == reportedPath, "\(own.stdout)")
                #expect(error?["message"]?.stringValue?.contains(message) == true, "\(own.stdout)")
            }
        } else {
            #expect(probe.status == 0, "\(probe.transcript)")
            #expect(render.status == 0, "\(render.transcript)")
        }
    }

    /// noisy_init.c prints while loading, in its sandboxed children: stdout
    /// carries only hudhost's JSON document; what the plugin printed is
    /// shown on stderr, prefixed with whose it is, with `--verbose` (and
    /// only then: the plugin did not fail).
    @Test(arguments: [false, true])
    func aPluginPrintingWhileLoadingCannotBreakJSONOutput(verbose: Bool) async throws {
        let directory = try DiscoveryFixtures.directory("hostile-noisy-\(verbose)")
        let cache = try FixturePlugins.makeScratchDirectory("hostile-noisy-cache-\(verbose)")
        let (path, _) = try await Self.makePlugin("noisy_init.c", in: directory)
        for (arguments, searchPath) in [(["render", "--json", "--plugin", path, "--style", "org.hostile.noisy"], ""),
                                        (["render", "--json", "--style", "org.hostile.noisy"], directory)] {
            let output = try await DiscoveryFixtures.hudhost((verbose ? ["--verbose"] : []) + arguments, path: searchPath, cache: cache)
            #expect(output.status == 0, "\(output.transcript)")
            #expect(try HudHost.json(output)["renderer"]?["id"]?.stringValue == "org.hostile.noisy", "\(output.transcript)")
            #expect(output.stderr.contains("[org.hostile.noisy] noise from the constructor on fd 1") == verbose, "\(output.transcript)")
            #expect(output.stderr.contains("from init, no newline") == verbose, "\(output.transcript)")
        }
    }

    /// A renderer that crashes in layout, run after run: each failure is
    /// counted in the cache, the third turns the file into a failure record
    /// (`list --failed`, `why`), and from then on it is skipped until the
    /// file changes; `demo` shows every other style and exits 1.
    @Test func aRendererThatKeepsCrashingIsRecordedAndSkippedUntilItsFileChanges() async throws {
        let directory = try DiscoveryFixtures.directory("crash-repeated")
        let cache = try FixturePlugins.makeScratchDirectory("crash-repeated-cache")
        let (path, _) = try await Self.makePlugin("layout_segfault.c", in: directory)
        let id = "org.hostile.layout-segfault"

        let demo = try await DiscoveryFixtures.hudhost(["demo", "--no-svg", "--quiet"], path: directory, cache: cache)
        #expect(demo.status == 1, "\(demo.transcript)")
        #expect(demo.stdout.contains("Shown 3 of 4 styles; failed: \(id)"), "\(demo.transcript)")
        #expect(demo.stderr.contains("renderer '\(id)' (\(path)): its renderer host crashed (killed by SIGSEGV)"), "\(demo.transcript)")

        for _ in 0..<2 {
            let render = try await DiscoveryFixtures.hudhost(["render", "--style", id, "--json"], path: directory, cache: cache)
            #expect(render.status == 1, "\(render.transcript)")
            #expect(try HudHost.json(render)["error"]?["code"]?.stringValue == "crashed", "\(render.stdout)")
        }
        let failed = try await DiscoveryFixtures.hudhost(["list", "--json", "--failed"], path: directory, cache: cache)
        let record = (try HudHost.json(failed)["failures"]?.arrayValue ?? []).first { $0["path"]?.stringValue == path }
        #expect(record?["code"]?.stringValue == "crashed", "\(failed.stdout)")
        #expect(record?["message"]?.stringValue?.contains("failed 3 times in a row") == true, "\(failed.stdout)")
        let skipped = try await DiscoveryFixtures.hudhost(["render", "--style", id, "--json"], path: directory, cache: cache)
        #expect(skipped.status == 3, "\(skipped.transcript)")
        #expect(try HudHost.json(skipped)["error"]?["code"]?.stringValue == "unknown-renderer", "\(skipped.stdout)")

        // A new build of the file is tried again.
        _ = try await Self.makePlugin("layout_segfault.c", in: directory)
        let again = try await DiscoveryFixtures.hudhost(["render", "--style", id, "--json"], path: directory, cache: cache)
        #expect(try HudHost.json(again)["error"]?["code"]?.stringValue == "crashed", "\(again.stdout)")
    }

    /// No renderer host outlives the command that started it, whether its
    /// renderer worked or crashed.
    @Test func noRendererHostOutlivesTheCommand() async throws {
        let directory = try DiscoveryFixtures.directory("host-lifetime")
        let cache = try FixturePlugins.makeScratchDirectory("host-lifetime-cache")
        let (good, _) = try await Self.makePlugin("noisy_init.c", in: directory)
        let (bad, _) = try await Self.makePlugin("layout_abort.c", in: directory)
        for (path, id, status) in [(good, "org.hostile.noisy", Int32(0)), (bad, "org.hostile.layout-abort", 1)] {
            let output = try await DiscoveryFixtures.hudhost(["render", "--plugin", path, "--style", id, "--json"], path: "", cache: cache)
            #expect(output.status == status, "\(output.transcript)")
            // The host reaps its renderer host before exiting; a process
            // still seen (a namespace member the kernel is tearing down) gets
            // up to 5 s to go, waited on through its pidfd: no fixed sleep.
            for survivor in Self.processes(mentioning: path) {
                guard let pid = Int32(survivor.prefix { $0 != ":" }), let watch = SystemCalls.processDescriptor(pid) else { continue }
                _ = SystemCalls.pollReadable([watch.rawValue], timeoutMilliseconds: 5000)
                watch.close()
            }
            let survivors = Self.processes(mentioning: path)
            #expect(survivors.isEmpty, "still running after hudhost exited: \(survivors)")
        }
    }

    /// Command lines of live processes that mention `text`.
    static func processes(mentioning text: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return line.contains(text) ? "\(pid): \(line)" : nil
        }
    }

    // MARK: - The corpus itself

    @Test func everyCorpusItemHasAnAssertionAndEveryAssertionAnItem() {
        #expect(Set(Self.items("")) == ["README.md", "plugins", "scenes"])
        #expect(Set(Self.items("scenes")) == Set(Self.sceneErrors.keys))
        #expect(Set(Self.items("plugins")) == Set(Self.pluginExpectations.keys))
    }
}

extension HostileInputTests {
    /// Outputs are replaced, never written through: a symbolic link planted
    /// in the output directory under a name `demo` writes keeps pointing at
    /// an untouched file (the link itself is replaced), and an `--out` that
    /// is a FIFO, a device or a link is refused with exit 3 before any work
    /// (a FIFO used to block for ever).
    @Test func outputsAreNeverWrittenThroughLinksOrIntoSpecialFiles() async throws {
        let outside = try FixturePlugins.makeScratchDirectory("planted-victim") + "/victim"
        try "someone else's file".write(toFile: outside, atomically: false, encoding: .utf8)
        let directory = try FixturePlugins.makeScratchDirectory("planted-demo")
        try FileManager.default.createSymbolicLink(atPath: directory + "/00-tray-start.svg", withDestinationPath: outside)
        let demo = try await HudHost.run(["demo", "--out", directory, "--quiet"])
        #expect(demo.status == 0, "\(demo.transcript)")
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "someone else's file")
        let written = try FileManager.default.attributesOfItem(atPath: directory + "/00-tray-start.svg")
        #expect(written[.type] as? FileAttributeType == .typeRegular, "the planted link was replaced by the picture")
        // No temporary file is left beside the outputs.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).allSatisfy { $0.hasSuffix(".svg") })

        let fifo = directory + "/fifo"
        try #require(mkfifo(fifo, 0o644) == 0)
        for target in [fifo, "/dev/null", directory + "/00-tray-start.svg.link"] {
            if target.hasSuffix(".link") { try FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: outside) }
            let output = try await FixturePlugins.run(["timeout", "60", HudHost.path, "render", "--format", "json", "--out", target])
            #expect(output.status == 3, "\(target): \(output.transcript)")
            #expect(try HudHost.json(output)["error"]?["code"]?.stringValue == "unwritable-output")
        }
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "someone else's file")
    }
}

extension HostileInputTests {
    /// A scene file's texts are data: escape sequences in its title,
    /// labels, mode ids and actions never reach the terminal raw in text
    /// output (the picture, the legend, the event log).
    @Test func controlCharactersFromASceneAreEscapedInTextOutput() async throws {
        let hostile = "\u{1B}]0;owned\u{07}\u{1B}[31m\u{9B}"
        let example = try String(contentsOfFile: FixturePlugins.repositoryRoot + "/Docs/examples/home.json", encoding: .utf8)
        let scene = example
            .replacingOccurrences(of: "\"title\": \"Home\"", with: "\"title\": \"Home\(hostile)\"")
            .replacingOccurrences(of: "\"label\": \"Logs\", \"action\": \"push:Logs\"", with: "\"label\": \"Logs\(hostile)\", \"action\": \"log:x\(hostile)\"")
            .replacingOccurrences(of: "{ \"id\": \"tray\"", with: "{ \"id\": \"tray\(hostile)\"")
            .replacingOccurrences(of: "\\u{1B}", with: "\\u001b")
        #expect(scene.contains("log:x"))
        let path = try FixturePlugins.makeScratchDirectory("hostile-text-scene") + "/scene.json"
        try scene.replacingOccurrences(of: "\u{1B}", with: "\\u001b").replacingOccurrences(of: "\u{07}", with: "\\u0007")
            .replacingOccurrences(of: "\u{9B}", with: "\\u009b").write(toFile: path, atomically: false, encoding: .utf8)
        let output = try await HudHost.run(["render", "--scene", path, "--events", "tap topLeft; longpress center"])
        #expect(output.status == 0, "\(output.transcript)")
        #expect(output.stdout.contains("log x\\u{1b}]0;owned"), "the action is shown, escaped")
        for text in [output.stdout, output.stderr] {
            #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, "\(text)")
        }
    }
}
