// SPDX-License-Identifier: MIT
import Testing
@testable import HudRegistry
@testable import HudScenes
import HudTestSupport

/// The events grammar and scene files for the control deck: `key escape`,
/// `wait 6s`, `tap pivot|close|backdrop`, `deck:<control>`, the scene's
/// `presentation` and `deckTimeout`, and their errors.
struct ControlDeckScriptTests {
    @Test func parsesKeysDeckTargetsAndWaitsWithAUnit() throws {
        let script = try EventScript(parsing: "tap pivot; tap close; tap backdrop; tap deck:Pivot; key escape; key ESC; wait 6s; wait 0.5S; wait 2")
        #expect(script.steps.map(\.verb) == [.tap, .tap, .tap, .tap, .key, .key, .wait, .wait, .wait])
        #expect(script.steps[0].target == .deck(.pivot))
        #expect(script.steps[1].target == .deck(.close))
        #expect(script.steps[2].target == .deck(.backdrop))
        #expect(script.steps[3].target == .deck(.pivot))
        #expect(script.steps[4].key == .escape && script.steps[5].key == .escape)
        #expect(script.steps.suffix(3).map(\.seconds) == [6, 0.5, 2])
    }

    @Test(arguments: [
        ("key", "event 1 'key': key takes one key name, e.g. key escape"),
        ("key enter", "event 1 'key enter': unknown key 'enter'; keys: escape"),
        ("tap pivot; key escape escape", "event 2"),
        ("tap deck:menu", "'menu' is not a deck control; use pivot, close, backdrop"),
        ("tap pivot; wait 6m", "event 2 'wait 6m': wait takes a number of seconds from 0 to 3600"),
        ("wait s", "wait takes a number of seconds"),
        ("wait 3601s", "wait takes a number of seconds from 0 to 3600"),
        ("tap pivot\ntap hatch", "event 2 'tap hatch': 'hatch' is not a target; use a position (topLeft, …, center), slot:/secondary:<position>, mode:<id>, pivot, close, backdrop or x,y"),
    ])
    func badDeckStepsSayWhichEventAndWhy(source: String, message: String) {
        #expect {
            _ = try EventScript(parsing: source)
        } throws: { error in
            (error as? EventScript.ParseError)?.description.contains(message) == true
        }
    }

    static func demoShell(_ presentation: HudPhoneComplicationsPresentation) -> HudPhoneAppShell {
        DemoComplications.makeShell(presentation: presentation, registry: .withBuiltins(), environment: HudEnvironment(device: .iphone16Pro))
    }

    @Test func aScriptExpandsWaitsAndTimesOutAtTheBoundary() throws {
        let shell = Self.demoShell(.summonOnDemand())
        let results = try EventScriptRunner(shell: shell).run(EventScript(parsing: "tap pivot; wait 5.9; wait 0.1s"))
        #expect(results[0].events == [.deckPressed(.pivot), .deckTapped(.pivot), .deckExpanded])
        #expect(results[0].deck?.presentation == .deckExpanded)
        #expect(results[1].events.isEmpty)
        #expect(results[2].events == [.deckCollapsed(.timeout)])
        #expect(results[2].deck?.presentation == .deckResting)
    }

    @Test func aScriptTapsCloseBackdropAndPressesEscape() throws {
        let shell = Self.demoShell(.summonOnDemand())
        let results = try EventScriptRunner(shell: shell).run(EventScript(parsing:
            "tap pivot; tap close; tap pivot; tap backdrop; tap pivot; longpress center; key escape"))
        #expect(results[1].events.last == .deckCollapsed(.close))
        #expect(results[3].events.last == .deckCollapsed(.backdrop))
        #expect(results[5].interaction.revealedPosition == .center)
        #expect(results[6].keyEvent?.key == .escape)
        #expect(results[6].events == [.keyPressed(.escape), .dismissed(.center), .deckCollapsed(.escape)])
    }

    @Test func deckTargetsThatAreNotOnScreenFailNamingTheDecksState() throws {
        let cases: [(HudPhoneComplicationsPresentation, String, String)] = [
            (.summonOnDemand(), "tap close", "the close is not on screen: the deck is resting"),
            (.summonOnDemand(), "tap pivot; tap pivot", "the pivot is not on screen: the deck is expanded"),
            (.alwaysVisible, "tap pivot", "this shell has none (presentation alwaysVisible; choose summonOnDemand)"),
        ]
        for (presentation, source, message) in cases {
            let shell = Self.demoShell(presentation)
            #expect {
                _ = try EventScriptRunner(shell: shell).run(EventScript(parsing: source))
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }

    // MARK: - Scene files

    static func scene(_ extra: String) -> String {
        #"{"schemaVersion": 1, "complications": {"center": {"icon": "circle.grid.2x2"}}\#(extra)}"#
    }

    @Test func aSceneChoosesThePresentationAndItsTimeout() throws {
        #expect(try SceneFile(json: Self.scene("")).presentation == nil)
        #expect(try SceneFile(json: Self.scene(#", "presentation": "alwaysVisible""#)).presentation == .alwaysVisible)
        #expect(try SceneFile(json: Self.scene(#", "presentation": "summonOnDemand""#)).presentation == .summonOnDemand())
        let timed = try SceneFile(json: Self.scene(#", "presentation": "summonOnDemand", "deckTimeout": 2.5"#))
        #expect(timed.presentation == .summonOnDemand(HudPhoneControlDeckPolicy(inactivityTimeout: 2.5)))
        let shell = timed.makeShell(registry: .withBuiltins(), environment: HudEnvironment(device: .iphone16Pro))
        #expect(shell.deckStatus?.inactivityTimeout == 2.5)
        #expect(try shell.layout().nodes.map(\.deckControl) == [.pivot])
        // The host's choice overrides the scene's.
        let overridden = timed.makeShell(presentation: .alwaysVisible, registry: .withBuiltins(), environment: HudEnvironment(device: .iphone16Pro))
        #expect(overridden.deckStatus == nil)
    }

    @Test(arguments: [
        (#", "presentation": "hidden""#, "presentation: 'hidden' is not a presentation; use alwaysVisible or summonOnDemand"),
        (#", "presentation": 1"#, "presentation: is a number; expected a string"),
        (#", "deckTimeout": 3"#, #"deckTimeout: only applies with "presentation": "summonOnDemand""#),
        (#", "presentation": "alwaysVisible", "deckTimeout": 3"#, "deckTimeout: only applies with"),
        (#", "presentation": "summonOnDemand", "deckTimeout": 0"#, "deckTimeout: is 0; a timeout is more than 0 and at most 3600 seconds"),
        (#", "presentation": "summonOnDemand", "deckTimeout": 4000"#, "deckTimeout: is 4000"),
        (#", "presentation": "summonOnDemand", "deckTimeout": "6s""#, "deckTimeout: is a string; expected a number of seconds"),
        (#", "presentaton": "summonOnDemand""#, "presentaton: is not a known key"),
    ])
    func badPresentationsInASceneAreSpecificErrors(extra: String, message: String) {
        #expect {
            _ = try SceneFile(json: Self.scene(extra))
        } throws: { error in
            (error as? SceneFile.Error)?.description.contains(message) == true
        }
    }
}
