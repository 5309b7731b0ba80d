// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import HudRegistry
import HudTestSupport

/// `hudhost render --presentation on-demand`: the deck in every format, the
/// documented JSON schema, scripting it, and its usage errors.
struct DeckCLITests {
    static func schema() throws -> JSONValue {
        try JSONParser.parse(String(contentsOfFile: FixturePlugins.repositoryRoot + "/Docs/schemas/render-v1.schema.json", encoding: .utf8))
    }

    @Test(arguments: ["tray", "scattered", "minimal"])
    func renderJSONOfTheDeckValidatesAgainstTheSchema(style: String) throws {
        for events in [nil, "tap pivot", "tap pivot; longpress center", "tap pivot; key escape", "tap pivot; wait 6s"] {
            let output = try HudHost.run(["render", "--style", style, "--json", "--presentation", "on-demand"] + (events.map { ["--events", $0] } ?? []))
            #expect(output.status == 0, "\(output.transcript)")
            let json = try HudHost.json(output)
            let errors = JSONSchemaValidator(root: try Self.schema()).validate(json)
            #expect(errors.isEmpty, "\(events ?? "-"): \(errors.prefix(10).joined(separator: "\n"))")
            let expanded = events == "tap pivot" || events == "tap pivot; longpress center"
            #expect(json["layout"]?["deck"]?["presentation"]?.stringValue == (expanded ? "deckExpanded" : "deckResting"), "\(events ?? "-")")
        }
    }

    @Test func theScriptsStepsCarryTheDeckAndTheKey() throws {
        let output = try HudHost.run(["render", "--json", "--presentation", "on-demand", "--deck-timeout", "2", "--events", "tap pivot; key escape; tap pivot; wait 2"])
        #expect(output.status == 0, "\(output.transcript)")
        let steps = try #require(try HudHost.json(output)["events"]?.arrayValue)
        #expect(steps[0]["deck"]?["presentation"]?.stringValue == "deckExpanded")
        #expect(steps[0]["deck"]?["inactivityTimeout"]?.numberValue == 2)
        #expect(steps[1]["key"]?["key"]?.stringValue == "escape")
        #expect(steps[1]["events"] == .array(["key escape", "deck collapsed (escape)"]))
        #expect(steps[3]["events"] == .array(["deck collapsed (timeout)"]))
    }

    @Test func asciiAndSvgShowTheDeck() throws {
        let ascii = try HudHost.run(["render", "--presentation", "on-demand", "--events", "tap pivot"])
        #expect(ascii.status == 0, "\(ascii.transcript)")
        #expect(ascii.stdout.contains("▸ tap pivot: pressed deck:pivot, tapped deck:pivot, deck expanded"))
        #expect(ascii.stdout.contains("(X)"))
        #expect(ascii.stdout.contains("the content behind the backdrop is hidden from accessibility"))
        let svg = try HudHost.run(["render", "--presentation", "on-demand", "--format", "svg"])
        #expect(svg.status == 0)
        #expect(svg.stdout.contains("data-deck-control=\"pivot\""))
        #expect(svg.stdout.contains("data-presentation=\"deckResting\""))
    }

    @Test func theAssistiveTechnologyFlagSuspendsTheTimeout() throws {
        let output = try HudHost.run(["render", "--json", "--presentation", "on-demand", "--assistive-technology", "--events", "tap pivot; wait 60"])
        #expect(output.status == 0, "\(output.transcript)")
        let deck = try HudHost.json(output)["layout"]?["deck"]
        #expect(deck?["presentation"]?.stringValue == "deckExpanded")
        #expect(deck?["suspendedBy"] == .array(["assistiveTechnology"]))
    }

    @Test func aScenesPresentationIsUsedAndTheCommandLineOverridesIt() throws {
        let directory = try FixturePlugins.makeScratchDirectory("cli-deck-scene")
        let path = directory + "/deck.json"
        try #"{"schemaVersion": 1, "presentation": "summonOnDemand", "complications": {"center": {"icon": "circle.grid.2x2"}}}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let onDemand = try HudHost.json(try HudHost.run(["render", "--json", "--scene", path]))
        #expect(onDemand["layout"]?["deck"]?["presentation"]?.stringValue == "deckResting")
        let always = try HudHost.json(try HudHost.run(["render", "--json", "--scene", path, "--presentation", "always"]))
        #expect(always["layout"]?["deck"] == nil)
    }

    @Test(arguments: [
        (["--presentation", "sometimes"], 2, "invalid value 'sometimes' for --presentation"),
        (["--deck-timeout", "3"], 2, "--deck-timeout 3 only applies with --presentation on-demand"),
        (["--presentation", "on-demand", "--deck-timeout", "0"], 2, "--deck-timeout"),
        (["--events", "key enter"], 2, "unknown key 'enter'"),
        (["--events", "tap close"], 1, "this shell has none"),
        (["--presentation", "on-demand", "--events", "tap close"], 1, "the close is not on screen: the deck is resting"),
    ])
    func badDeckInputIsASpecificError(arguments: [String], status: Int32, message: String) throws {
        let output = try HudHost.run(["render"] + arguments)
        #expect(output.status == status, "\(output.transcript)")
        #expect(output.stderr.contains(message), "\(output.transcript)")
    }
}
