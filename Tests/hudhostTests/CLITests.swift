// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
@testable import HudConformance
import HudTestSupport

/// hudhost as a user runs it: a real subprocess of the built binary, with an
/// isolated HOME and no HUD_RENDERER_PATH, checked by exit code and output.
struct CLITests {
    static func goldenPath(_ name: String) -> String { FixturePlugins.repositoryRoot + "/Tests/Fixtures/golden/" + name }

    /// Compares with a golden file; `HUD_UPDATE_GOLDEN=1 swift test` rewrites it deliberately.
    static func expectGolden(_ actual: String, _ name: String) throws {
        let path = goldenPath(name)
        if ProcessInfo.processInfo.environment["HUD_UPDATE_GOLDEN"] == "1" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(actual == expected, "output differs from \(path); if the change is intended, regenerate with HUD_UPDATE_GOLDEN=1")
    }

    @Test func listShowsTheThreeBuiltins() async throws {
        let output = try await HudHost.run(["list"])
        #expect(output.status == 0, "\(output.transcript)")
        for id in ["com.hudson.tray", "com.hudson.scattered", "com.hudson.minimal"] {
            #expect(output.stdout.contains(id))
        }
        #expect(output.stdout.contains("built-in"))
        #expect(!output.stdout.contains("failure"))
    }

    /// The text table's columns line up by what a terminal shows: a name
    /// with non-ASCII letters is padded by its `Character`s, not its bytes,
    /// and every row's ORIGIN starts in the same column.
    @Test func listTableAlignsColumnsByCharactersForNonASCIINames() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("cli-list-table")
        let source = try String(contentsOfFile: FixturePlugins.sourceDirectory + "/good_simple.c", encoding: .utf8)
            .replacingOccurrences(of: "\"Simple (alternate)\"", with: "\"Größe (alternate)\"")
        try source.write(toFile: directory + "/wide_name.c", atomically: true, encoding: .utf8)
        try await FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags
            + ["-I", FixturePlugins.headerDirectory, "-I", FixturePlugins.sourceDirectory, "-o", directory + "/wide_name.so", directory + "/wide_name.c"])
        let output = try await HudHost.run(["list"], environment: ["HUD_RENDERER_PATH": directory])
        #expect(output.status == 0, "\(output.transcript)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let rows = lines.prefix { !$0.isEmpty }
        #expect(rows.count == 6, "header, 3 built-ins, 2 fixture renderers: \(output.stdout)")
        #expect(rows.contains { $0.contains("Größe (alternate)") })
        // The ORIGIN column holds the header, "built-in" or a path in `directory`.
        let originColumns = Set(rows.map { row in
            let origin = ["ORIGIN", "built-in", directory].first { row.contains($0) }!
            return row.distance(from: row.startIndex, to: row.range(of: origin)!.lowerBound)
        })
        #expect(originColumns.count == 1, "ORIGIN starts in columns \(originColumns.sorted()):\n\(output.stdout)")
    }

    @Test func listJSONCarriesSchemaVersionAndEveryRenderer() async throws {
        let output = try await HudHost.run(["list", "--json"])
        #expect(output.status == 0)
        let json = try HudHost.json(output)
        #expect(json["schemaVersion"] == 1)
        let ids = json["renderers"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
        #expect(ids == ["com.hudson.tray", "com.hudson.scattered", "com.hudson.minimal"])
        #expect(json["failures"]?.arrayValue?.isEmpty == true)
    }

    @Test func listReportsBrokenPluginsOnTheSearchPathAndKeepsTheRest() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("cli-list")
        for fixture in [Fixture.goodSimple, .wrongMajor, .missingEntry] {
            try FileManager.default.copyItem(atPath: FixturePlugins.path(of: fixture), toPath: directory + "/" + fixture.fileName)
        }
        let output = try await HudHost.run(["list", "--json"], environment: ["HUD_RENDERER_PATH": directory])
        #expect(output.status == 0, "\(output.transcript)")
        let json = try HudHost.json(output)
        let ids = Set(json["renderers"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
        #expect(ids.isSuperset(of: ["com.hudson.tray", "org.fixture.simple", "org.fixture.simple-alt"]))
        let codes = Set(json["failures"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? [])
        #expect(codes == ["incompatible-abi", "missing-entry-symbol"])
    }

    @Test func listJSONIsTheSameBytesAsTheDocumentTreeWouldBe() async throws {
        // `list --json` streams its document member by member into one
        // buffer; the bytes must be exactly what the tree printer lays out
        // for the same document. A directory name with a quote, a
        // backslash and non-ASCII puts escapes into every origin.
        let base = try FixturePlugins.makeScratchDirectory("cli-list-bytes")
        let directory = base + "/say \"hi\" \\ ü"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for fixture in [Fixture.goodSimple, .wrongMajor] {
            try FileManager.default.copyItem(atPath: FixturePlugins.path(of: fixture), toPath: directory + "/" + fixture.fileName)
        }
        let cache = try FixturePlugins.makeScratchDirectory("cli-list-bytes-cache")
        for run in ["cold", "warm"] {
            let output = try await HudHost.run(["list", "--json"], environment: ["HUD_RENDERER_PATH": directory, "XDG_CACHE_HOME": cache])
            #expect(output.status == 0, "\(run): \(output.transcript)")
            let tree = try HudHost.json(output)
            #expect(tree["renderers"]?.arrayValue?.contains { $0["origin"]?.stringValue?.hasPrefix(directory) == true } == true, "\(run)")
            #expect(tree["failures"]?.arrayValue?.count == 1, "\(run)")
            #expect(tree.serialized() == output.stdout, "\(run)")
        }
    }

    @Test func renderDrawsTheTrayInTheTerminal() async throws {
        let output = try await HudHost.run(["render", "--style", "tray", "--format", "ascii"])
        #expect(output.status == 0, "\(output.transcript)")
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let trayTop = try #require(lines.firstIndex { $0.contains("╭") })
        let slotRow = try #require(lines.firstIndex { $0.contains("(BL)") })
        #expect(slotRow > trayTop)
        #expect(lines[slotRow].contains("(C)") && lines[slotRow].contains("(BR)"))
        let titleRow = try #require(lines.firstIndex { $0.contains("Home") })
        #expect(lines[titleRow].contains("(TL)") && lines[titleRow].contains("(TR)"))
        #expect(titleRow < trayTop)
        try Self.expectGolden(output.stdout, "render-tray-iphone-16-pro.txt")
    }

    @Test(arguments: ["tray", "scattered", "minimal"], [false, true])
    func renderJSONValidatesAgainstTheDocumentedSchema(style: String, rtl: Bool) async throws {
        let schema = try JSONParser.parse(String(contentsOfFile: FixturePlugins.repositoryRoot + "/Docs/schemas/render-v1.schema.json", encoding: .utf8))
        let output = try await HudHost.run(["render", "--style", style, "--json", "--reveal", "center"] + (rtl ? ["--rtl"] : []))
        #expect(output.status == 0, "\(output.transcript)")
        let json = try HudHost.json(output)
        let errors = JSONSchemaValidator(root: schema).validate(json)
        #expect(errors.isEmpty, "\(errors.prefix(10).joined(separator: "\n"))")
        #expect(json["schemaVersion"] == 1)
        #expect(json["renderer"]?["id"]?.stringValue == HudPhoneComplicationsStyle(name: style).rendererID)
    }

    @Test func theSchemaCheckCatchesAMalformedDocument() async throws {
        let schema = try JSONParser.parse(String(contentsOfFile: FixturePlugins.repositoryRoot + "/Docs/schemas/render-v1.schema.json", encoding: .utf8))
        let output = try await HudHost.run(["render", "--json"])
        let text = output.stdout.replacingOccurrences(of: "\"kind\": \"slot\"", with: "\"kind\": \"button\"")
        #expect(text != output.stdout)
        #expect(!JSONSchemaValidator(root: schema).validate(try JSONParser.parse(text)).isEmpty)
    }

    @Test func renderJSONOfScatteredRTLIsStable() async throws {
        let output = try await HudHost.run(["render", "--style", "scattered", "--rtl", "--device", "iphone-se", "--json"])
        #expect(output.status == 0)
        try Self.expectGolden(output.stdout, "render-scattered-iphone-se-rtl.json")
    }

    @Test func probeLoadsTheBuiltinsThroughDlopen() async throws {
        let library = FixturePlugins.binDirectory + "/libBuiltinRenderers.so"
        let output = try await HudHost.run(["probe", library, "--json"])
        #expect(output.status == 0, "\(output.transcript)")
        let json = try HudHost.json(output)
        let renderers = try #require(json["renderers"]?.arrayValue)
        #expect(renderers.compactMap { $0["id"]?.stringValue } == ["com.hudson.tray", "com.hudson.scattered", "com.hudson.minimal"])
        for renderer in renderers {
            #expect(renderer["origin"]?.stringValue == FixturePlugins.canonical(library))
            #expect(renderer["builtin"] == false)
            #expect(renderer["sampleLayout"]?["nodes"]?.arrayValue?.isEmpty == false)
        }
        // The same descriptors the linked-in built-ins report.
        let listed = try await HudHost.json(HudHost.run(["list", "--json"]))["renderers"]?.arrayValue ?? []
        for (probed, builtin) in zip(renderers, listed) {
            for key in ["id", "name", "version", "vendor", "description", "abiVersion", "supportedPositions", "capabilities"] {
                #expect(probed[key] == builtin[key], "\(key)")
            }
        }
    }

    @Test func probeByIDDescribesARegisteredRenderer() async throws {
        let output = try await HudHost.run(["probe", "com.hudson.minimal"])
        #expect(output.status == 0, "\(output.transcript)")
        #expect(output.stdout.contains("Minimal — com.hudson.minimal"))
        #expect(output.stdout.contains("positions     center"))
        #expect(output.stdout.contains("sample layout"))
    }

    @Test(arguments: [
        (["render", "--colour"], 2, "unknown option '--colour'"),
        (["render", "--device", "nokia"], 2, "invalid value 'nokia' for --device"),
        (["render", "--text-size", "huge"], 2, "invalid value 'huge' for --text-size"),
        (["render", "--scene", "/nonexistent/scene.json"], 3, "scene /nonexistent/scene.json: cannot read it: No such file or directory"),
        (["frobnicate"], 2, "unknown command 'frobnicate'"),
        (["probe"], 2, "probe needs a plugin path or a renderer id"),
        (["render", "--style", "org.example.missing"], 3, "no renderer with id 'org.example.missing'"),
        (["probe", "/nonexistent/plugin.so"], 3, "/nonexistent/plugin.so"),
        (["render", "--plugin", "/nonexistent/plugin.so"], 3, "/nonexistent/plugin.so"),
    ] as [([String], Int32, String)])
    func badInputGetsASpecificErrorAndExitCode(arguments: [String], status: Int32, message: String) async throws {
        let output = try await HudHost.run(arguments)
        #expect(output.status == status, "\(output.transcript)")
        #expect(output.stderr.contains(message), "\(output.transcript)")
    }

    @Test func failuresInJSONModeStillPrintValidJSON() async throws {
        let output = try await HudHost.run(["render", "--style", "org.example.missing", "--json"])
        #expect(output.status == 3)
        let json = try HudHost.json(output)
        #expect(json["schemaVersion"] == 1)
        #expect(json["error"]?["code"]?.stringValue == "unknown-renderer")
    }

    @Test(arguments: ["list", "probe", "render"])
    func everyCommandHasHelpWithExamplesAndExitCodes(command: String) async throws {
        let output = try await HudHost.run([command, "--help"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("USAGE: hudhost \(command)"))
        #expect(output.stdout.contains("EXAMPLES"))
        #expect(output.stdout.contains("EXIT CODES"))
    }

    @Test func renderReadsASceneFile() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("cli-scene")
        let scene = """
            {"schemaVersion": 1, "title": "Inbox", "style": "minimal",
             "complications": {"center": {"icon": "square.and.pencil", "role": "accent", "label": "Compose"},
                               "topLeft": {"icon": "line.3.horizontal"}}}
            """
        try scene.write(toFile: directory + "/inbox.json", atomically: true, encoding: .utf8)
        let output = try await HudHost.run(["render", "--scene", directory + "/inbox.json", "--json"])
        #expect(output.status == 0, "\(output.transcript)")
        let json = try HudHost.json(output)
        #expect(json["renderer"]?["id"]?.stringValue == "com.hudson.minimal")
        #expect(json["environment"]?["navigationTitle"]?.stringValue == "Inbox")
        let nodes = json["layout"]?["nodes"]?.arrayValue ?? []
        #expect(nodes.compactMap { $0["accessibilityLabel"]?.stringValue } == ["Compose"])
        #expect(json["layout"]?["hiddenPositions"] == .array(["topLeft"]))
    }

    @Test func renderPlaysEventsAndReportsActionsAndStyleChanges() async throws {
        let output = try await HudHost.run(["render", "--events", "longpress center; tap mode:scattered; tap bottomLeft", "--json"])
        #expect(output.status == 0, "\(output.transcript)")
        let json = try HudHost.json(output)
        let steps = try #require(json["events"]?.arrayValue)
        #expect(steps.count == 3)
        #expect(steps[0]["interaction"]?["revealedPosition"]?.stringValue == "center")
        #expect(steps[1]["actions"] == .array(["mode:center#1"]))
        #expect(steps[1]["style"]?.stringValue == "com.hudson.scattered")
        #expect(steps[2]["actions"] == .array(["slot:bottomLeft"]))
        #expect(json["renderer"]?["id"]?.stringValue == "com.hudson.scattered")
        let schema = try JSONParser.parse(String(contentsOfFile: FixturePlugins.repositoryRoot + "/Docs/schemas/render-v1.schema.json", encoding: .utf8))
        #expect(JSONSchemaValidator(root: schema).validate(json).isEmpty)
    }

    @Test func everyThunkIsRetiredWhenTheShellIsReleased() async throws {
        let output = try await HudHost.run(["render", "--events", "longpress center; tap mode:minimal; longpress center; tap mode:tray", "--stats"])
        #expect(output.status == 0, "\(output.transcript)")
        // Three marshals of the demo set (five slots + three modes each): the
        // first, and one after each style change, which makes the new
        // style's mode the current one.
        #expect(output.stderr.contains("thunks: created 24, live after release 0, late calls caught 0, calls during layout 0"), "\(output.transcript)")
    }

    @Test func renderWritesAnSVGFile() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("cli-svg")
        let output = try await HudHost.run(["render", "--format", "svg", "--out", directory + "/tray.svg", "--reveal", "center"])
        #expect(output.status == 0, "\(output.transcript)")
        let svg = try String(contentsOfFile: directory + "/tray.svg", encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") || svg.hasPrefix("<svg"))
        #expect(svg.contains("data-kind=\"modeItem\""))
    }

    @Test func demoWalksEveryStyleAndWritesOneSVGPerStep() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("cli-demo")
        let output = try await HudHost.run(["demo", "--out", directory + "/out", "--quiet"])
        #expect(output.status == 0, "\(output.transcript)")
        #expect(output.stdout.contains("Shown 3 of 3 styles."))
        #expect(output.stdout.contains("Wrote 9 SVG files to \(directory)/out"))
        #expect(output.stdout.contains("tap pivot: pressed deck:pivot, tapped deck:pivot, deck expanded"))
        for style in ["tray", "scattered", "minimal"] {
            #expect(output.stdout.contains("tap mode:\(style)"))
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory + "/out").sorted()
        #expect(files == ["00-tray-start.svg", "01-tray-center-modes-revealed.svg", "02-com.hudson.tray.svg",
                          "03-tray-center-modes-revealed.svg", "04-com.hudson.scattered.svg",
                          "05-scattered-center-modes-revealed.svg", "06-com.hudson.minimal.svg",
                          "07-control-deck-resting.svg", "08-control-deck-expanded.svg"])
        let expanded = try String(contentsOfFile: directory + "/out/08-control-deck-expanded.svg", encoding: .utf8)
        #expect(expanded.contains("data-presentation=\"deckExpanded\""))
        #expect(expanded.contains("data-deck-control=\"close\""))
    }

    @Test func demoPicksUpAPluginStyleWithoutCodeChanges() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("cli-demo-plugin")
        try FileManager.default.copyItem(atPath: FixturePlugins.path(of: .goodSimple), toPath: directory + "/good_simple.so")
        let output = try await HudHost.run(["demo", "--no-svg", "--quiet"], environment: ["HUD_RENDERER_PATH": directory])
        #expect(output.status == 0, "\(output.transcript)")
        #expect(output.stdout.contains("tap mode:org.fixture.simple:"))
        #expect(output.stdout.contains("Shown 5 of 5 styles."))
    }

    @Test func usageErrorsInJSONModeKeepStdoutJSON() async throws {
        let output = try await HudHost.run(["render", "--device", "nokia", "--json"])
        #expect(output.status == 2)
        let json = try HudHost.json(output)
        #expect(json["error"]?["code"]?.stringValue == "usage")
    }

    @Test func aBrokenSceneNamesTheFileAndTheField() async throws {
        let directory = try FixturePlugins.makeScratchDirectory("cli-bad-scene")
        try #"{"schemaVersion": 1, "complications": {"center": {"icon": "a", "role": "loud"}}}"#
            .write(toFile: directory + "/bad.json", atomically: true, encoding: .utf8)
        let output = try await HudHost.run(["render", "--scene", directory + "/bad.json"])
        #expect(output.status == 3)
        #expect(output.stderr.contains("bad.json: complications.center.role: 'loud' is not a role"), "\(output.transcript)")
    }
}

extension CLITests {
    /// The render schema's error codes are exactly `FailureCode` plus the
    /// CLI's own four, so a new code cannot ship undocumented.
    @Test func theSchemaListsEveryFailureCode() throws {
        let schema = try JSONParser.parse(String(contentsOfFile: FixturePlugins.repositoryRoot + "/Docs/schemas/render-v1.schema.json", encoding: .utf8))
        var listed: [String] = []
        func walk(_ value: JSONValue) {
            if let codes = value["properties"]?["code"]?["enum"]?.arrayValue {
                listed = codes.compactMap(\.stringValue)
                return
            }
            for key in ["$defs", "definitions", "properties"] {
                if case .object(let members)? = value[key] { for (_, member) in members { walk(member) } }
            }
        }
        walk(schema)
        #expect(Set(listed) == Set(FailureCode.allCases.map(\.rawValue) + ["usage", "event-target", "unusable-scene", "unwritable-output"]))
    }
}
