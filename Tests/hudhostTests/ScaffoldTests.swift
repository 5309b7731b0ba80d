// SPDX-License-Identifier: MIT
import Foundation
import Testing
import HudModel
import HudTestSupport

/// `hudhost new`: the project it writes is the template with its
/// placeholders filled and this SDK wired in, it builds with its one
/// command, and the library passes `validate --profile strict`.
struct ScaffoldTests {
    static let templates = FixturePlugins.repositoryRoot + "/Plugins/Templates"

    static var cargo: String? {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? "/root"
        return ["/usr/bin/cargo", "/usr/local/bin/cargo", home + "/.cargo/bin/cargo", "/root/.cargo/bin/cargo"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Every file below `directory`, as paths relative to it.
    static func files(below directory: String) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        var found: [String] = []
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                found.append(path)
            }
        }
        return found.sorted()
    }

    static func scaffold(_ language: String, id: String, name: String? = nil) async throws -> (directory: String, output: ProcessOutput) {
        let directory = try FixturePlugins.makeScratchDirectory("new-\(language)") + "/project"
        var arguments = ["new", "--lang", language, "--id", id]
        if let name { arguments += ["--name", name] }
        let output = try await HudHost.run(arguments + [directory])
        return (directory, output)
    }

    @Test(arguments: ["c", "rust", "swift"])
    func theProjectIsTheTemplateWithItsPlaceholdersFilled(language: String) async throws {
        let (directory, output) = try await Self.scaffold(language, id: "org.example.night-shift", name: "Night Shift")
        #expect(output.status == 0, "\(output.stderr)")
        let include = try await HudHost.run(["sdk", "--include-dir"]).stdout.trimmingCharacters(in: .newlines)
        let substitutions = [("@ID@", "org.example.night-shift"), ("@NAME@", "Night Shift"), ("@IDENT@", "night_shift"),
                             ("@LIB@", "night_shift"), ("@HUD_HEADER@", include + "/hud_renderer.h")]
        let template = Self.templates + "/" + language
        let written = try Self.files(below: directory)
        var expected = try Self.files(below: template)
        for path in expected {
            let source = try String(contentsOfFile: template + "/" + path, encoding: .utf8)
            let filled = substitutions.reduce(source) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
            let made = try String(contentsOfFile: directory + "/" + path, encoding: .utf8)
            #expect(made == filled, "\(language): \(path) differs from its template (run Scripts/gen-templates.py)")
            #expect(!made.contains("@ID@") && !made.contains("@IDENT@") && !made.contains("@LIB@"), "\(path) kept a placeholder")
        }
        switch language {
        case "c":
            expected.append("sdk/hud-renderer.pc")
            let pc = try String(contentsOfFile: directory + "/sdk/hud-renderer.pc", encoding: .utf8)
            #expect(pc == (try await HudHost.run(["sdk", "--pkg-config"])).stdout)
        case "rust":
            let bindings = FixturePlugins.repositoryRoot + "/Sources/HudRendererAPI/bindings/rust/hud_renderer.rs"
            #expect(try String(contentsOfFile: directory + "/src/hud_renderer.rs", encoding: .utf8) == String(contentsOfFile: bindings, encoding: .utf8),
                    "src/hud_renderer.rs is not the SDK's generated bindings")
            if !expected.contains("src/hud_renderer.rs") { expected.append("src/hud_renderer.rs") }
        default: break
        }
        #expect(written == expected.sorted())
    }

    /// Builds `directory` with `command`, validates `library` strictly, and
    /// checks its style picker: every mode item of the demo's center shows
    /// its mode's name as visible text under its icon.
    static func buildAndValidate(_ command: [String], in directory: String, library: String, id: String) async throws {
        let build = try await FixturePlugins.run(["sh", "-c", "cd '\(directory)' && " + command.map { "'\($0)'" }.joined(separator: " ") + " 2>&1"])
        #expect(build.status == 0, "\(command.joined(separator: " ")) failed:\n\(build.stdout)")
        #expect(!build.stdout.contains("warning:"), "the build warned:\n\(build.stdout)")
        // A fixed seed and a short fuzz run; the timing checks (warnings a
        // loaded machine can raise for any plugin, which never fail strict:
        // the perf- checks and abi-load-time) left out.
        let validation = try await HudHost.run(["validate", "--profile", "strict", "--seed", "20250101", "--fuzz-iterations", "40",
                                                "--exclude", TimingWarnings.excludePattern, "--layout-timeout", "20",
                                          directory + "/" + library])
        #expect(validation.status == 0, "validate --profile strict failed:\n\(validation.stdout)\n\(validation.stderr)")
        #expect(validation.stdout.contains(" 0 failed, 0 warnings, 0 skipped, 0 crashed, 0 timed out"), "\(validation.stdout)")

        let render = try await HudHost.run(["render", "--plugin", directory + "/" + library, "--style", id, "--reveal", "center", "--json"])
        #expect(render.status == 0, "\(render.transcript)")
        let nodes = try HudHost.json(render)["layout"]?["nodes"]?.arrayValue ?? []
        let items = nodes.filter { $0["kind"]?.stringValue == "modeItem" }
        let labels = items.compactMap { item in (item["fontSize"]?.numberValue ?? 0) > 0 ? item["label"]?.stringValue : nil }
        #expect(labels.count == items.count && labels.starts(with: ["Tray", "Scattered", "Minimal"]), "mode items without a visible label: \(items)")
    }

    @Test func theCProjectBuildsWithMakeAndPassesStrict() async throws {
        let (directory, output) = try await Self.scaffold("c", id: "org.example.glow")
        try #require(output.status == 0, "\(output.stderr)")
        try await Self.buildAndValidate(["make"], in: directory, library: "libglow.so", id: "org.example.glow")
    }

    /// The project's one test command (`make test`; `sh test.sh` for Rust
    /// and Swift runs the same two hudhost lines): the first run records
    /// the snapshots, the next verifies them, and a change to the style is
    /// caught and named. A few cases of the matrix (SNAPSHOT_FLAGS) keep it short.
    @Test func theCProjectsTestCommandRecordsOnItsFirstRunAndVerifiesAfter() async throws {
        let (directory, output) = try await Self.scaffold("c", id: "org.example.ember")
        try #require(output.status == 0, "\(output.stderr)")
        func makeTest() async throws -> ProcessOutput {
            try await FixturePlugins.run(["make", "-C", directory, "test", "HUDHOST=\(HudHost.path)",
                                          "SNAPSHOT_FLAGS=--filter iphone-16_portrait_ltr_L_"])
        }
        let first = try await makeTest()
        #expect(first.status == 0, "\(first.transcript)")
        #expect(first.stdout.contains(": 4 recorded\n") && first.stdout.contains("recorded 4 cases that had no baseline; commit \(directory)/snapshots"),
                "\(first.stdout)")
        let second = try await makeTest()
        #expect(second.status == 0 && second.stdout.contains(": 4 unchanged\n"), "\(second.transcript)")

        // Every corner slot a little larger: caught, named, exit 1.
        let source = directory + "/starter.c"
        let text = try String(contentsOfFile: source, encoding: .utf8)
        let changed = text.replacingOccurrences(of: "#define STARTER_CORNER_SIZE 48.0", with: "#define STARTER_CORNER_SIZE 52.0")
        try #require(changed != text, "starter.c no longer defines STARTER_CORNER_SIZE 48.0")
        try changed.write(toFile: source, atomically: true, encoding: .utf8)
        let third = try await makeTest()
        #expect(third.status != 0 && third.stdout.contains("CHANGED org.example.ember iphone-16_portrait_ltr_L_dark_resting"), "\(third.transcript)")
    }

    /// The Rust project's `sh test.sh`: build, validate, record on the
    /// first run, verify on the next. (The Swift project's is the same
    /// script with `swift build`.)
    @Test(Requirement.when(cargo != nil, "needs cargo (rustup's ~/.cargo/bin/cargo)"))
    func theRustProjectsTestScriptRecordsThenVerifies() async throws {
        let (directory, output) = try await Self.scaffold("rust", id: "org.example.coil")
        try #require(output.status == 0, "\(output.stderr)")
        let cargoDirectory = String(try #require(Self.cargo).dropLast("/cargo".count))
        func runScript() async throws -> ProcessOutput {
            try await FixturePlugins.run(["sh", "-c", "cd '\(directory)' && PATH='\(cargoDirectory)':\"$PATH\" HUDHOST='\(HudHost.path)' "
                                          + "SNAPSHOT_FLAGS='--filter iphone-se_portrait_ltr_L_' sh test.sh"])
        }
        let first = try await runScript()
        #expect(first.status == 0 && first.stdout.contains(": 4 recorded\n"), "\(first.transcript)")
        let second = try await runScript()
        #expect(second.status == 0 && second.stdout.contains(": 4 unchanged\n"), "\(second.transcript)")
    }

    @Test(Requirement.when(cargo != nil, "needs cargo (rustup's ~/.cargo/bin/cargo)"))
    func theRustProjectBuildsOfflineAndPassesStrict() async throws {
        let (directory, output) = try await Self.scaffold("rust", id: "org.example.rings")
        try #require(output.status == 0, "\(output.stderr)")
        try await Self.buildAndValidate([try #require(Self.cargo), "build", "--release", "--offline", "--quiet"], in: directory, library: "target/release/librings.so", id: "org.example.rings")
    }

    @Test func theSwiftProjectBuildsAndPassesStrict() async throws {
        let (directory, output) = try await Self.scaffold("swift", id: "org.example.night-shift")
        try #require(output.status == 0, "\(output.stderr)")
        try await Self.buildAndValidate(["swift", "build", "-c", "release"], in: directory, library: ".build/release/libnight_shift.so", id: "org.example.night-shift")
    }

    @Test func newRefusesWhatItCannotUse() async throws {
        let (directory, first) = try await Self.scaffold("c", id: "org.example.twice")
        #expect(first.status == 0)
        let again = try await HudHost.run(["new", directory])
        #expect(again.status == 3)
        #expect(again.stderr.contains("not empty"), "\(again.stderr)")
        let badID = try await HudHost.run(["new", "--id", "Not.An.Id", directory + "-other"])
        #expect(badID.status == 2)
        #expect(badID.stderr.contains("lowercase"), "\(badID.stderr)")
        let badLanguage = try await HudHost.run(["new", "--lang", "cobol", directory + "-other"])
        #expect(badLanguage.status == 2)
        let keyword = try await Self.scaffold("c", id: "org.example.fn")
        #expect(keyword.output.status == 0)
        #expect(FileManager.default.fileExists(atPath: keyword.directory + "/Makefile"))
        #expect(try String(contentsOfFile: keyword.directory + "/Makefile", encoding: .utf8).contains("fn_style"))
    }
}
