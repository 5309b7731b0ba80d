// SPDX-License-Identifier: MIT
import Testing
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport

/// The --events grammar, scene navigation and style switching through
/// named actions.
struct EventScriptTests {
    @Test func parsesEveryVerbAndTargetForm() throws {
        let script = try EventScript(parsing: "tap topLeft; longpress center\npress secondary:top-right @1.5; move 10,20; release; release br; wait 0.25; tap mode:scattered; tap slot:c")
        #expect(script.steps.map(\.verb) == [.tap, .longpress, .press, .move, .release, .release, .wait, .tap, .tap])
        #expect(script.steps[0].target == .slot(.topLeft))
        #expect(script.steps[2].target == .secondary(.topRight) && script.steps[2].at == 1.5)
        #expect(script.steps[3].target == .point(x: 10, y: 20))
        #expect(script.steps[4].target == nil && script.steps[5].target == .slot(.bottomRight))
        #expect(script.steps[6].seconds == 0.25)
        #expect(script.steps[7].target == .mode("scattered"))
        #expect(script.steps[8].target == .slot(.center))
    }

    @Test(arguments: [
        ("", "no events"),
        ("poke center", "unknown verb 'poke'"),
        ("tap", "tap takes one target"),
        ("tap middle", "'middle' is not a target"),
        ("tap slot:middle", "'middle' is not a position"),
        ("tap mode:", "mode: needs a mode id"),
        ("wait soon", "wait takes a number of seconds"),
        ("tap center @-1", "'@-1' is not a time"),
        ("tap 1,nan", "'1,nan' is not a point"),
        ("tap center; frob:x", "event 2"),
    ])
    func badScriptsSayWhichEventAndWhy(source: String, message: String) {
        #expect {
            _ = try EventScript(parsing: source)
        } throws: { error in
            (error as? EventScript.ParseError)?.description.contains(message) == true
        }
    }

    static let navigationScene = """
        {"schemaVersion": 1, "style": "tray",
         "pages": [
           {"title": "Home",
            "complications": {
              "topLeft": {"icon": "gearshape", "label": "Settings", "action": "push:Settings"},
              "center": {"icon": "circle.grid.2x2", "role": "accent",
                         "longPressModes": [{"id": "minimal", "icon": "circle.fill", "label": "Minimal", "action": "style:minimal"},
                                            {"id": "tray", "icon": "rectangle", "label": "Tray", "action": "style:tray"}]}},
            "children": [{"title": "Feed"}]},
           {"title": "Settings",
            "complications": {"topLeft": {"icon": "chevron.backward", "label": "Back", "action": "pop"},
                              "center": {"icon": "checkmark", "action": "log:saved"}}}
         ],
         "stack": ["Home"]}
        """

    @Test func aSceneSwitchesStyleThroughAModeAction() throws {
        let scene = try SceneFile(json: Self.navigationScene)
        let shell = scene.makeShell(registry: .withBuiltins(), environment: HudEnvironment(device: .iphone16Pro))
        let results = try EventScriptRunner(shell: shell).run(EventScript(parsing: "longpress center; tap mode:minimal"))
        #expect(results[0].events.contains(.revealed(.center)))
        #expect(results[1].events.contains(.styleChanged(from: .tray, to: .minimal)))
        #expect(shell.complicationsStyle == .minimal)
        #expect(try shell.layout().nodes.filter { $0.kind == .slot }.map(\.position) == [.center])
    }

    @Test func aScenePushesAndPopsPagesByTitle() throws {
        let scene = try SceneFile(json: Self.navigationScene)
        let shell = scene.makeShell(registry: .withBuiltins(), environment: HudEnvironment(device: .iphone16Pro))
        let runner = EventScriptRunner(shell: shell)
        let push = try runner.run(EventScript(parsing: "tap topLeft"))
        #expect(push[0].events.contains(.pushed("Settings")))
        #expect(shell.stack.map(\.title) == ["Home", "Settings"])
        #expect(shell.environment.navigationTitle == "Settings")
        #expect(try shell.layout().slot(at: .topLeft)?.icon == "chevron.backward")
        let saved = try runner.run(EventScript(parsing: "tap center"))
        #expect(saved[0].events.contains(.log("saved")))
        let pop = try runner.run(EventScript(parsing: "tap topLeft"))
        #expect(pop[0].events.contains(.popped("Settings")))
        #expect(try shell.layout().slot(at: .topLeft)?.icon == "gearshape")
    }

    @Test func aModeThatIsNotOnScreenIsAClearFailure() throws {
        let shell = DemoComplications.makeShell(registry: .withBuiltins(), environment: HudEnvironment(device: .iphone16Pro))
        #expect {
            _ = try EventScriptRunner(shell: shell).run(EventScript(parsing: "tap mode:scattered"))
        } throws: { error in
            "\(error)".contains("no modes are revealed (long-press their slot first); modes: center has tray, scattered, minimal;")
        }
        #expect {
            _ = try EventScriptRunner(shell: shell).run(EventScript(parsing: "longpress center; tap mode:sparkly"))
        } throws: { error in
            "\(error)".contains("has no mode 'sparkly'; its modes: tray, scattered, minimal")
        }
    }

    @Test(arguments: [
        (#"{"schemaVersion": 1, "pages": []}"#, "pages: must be a non-empty array"),
        (#"{"schemaVersion": 1, "pages": [{"title": "A"}, {"title": "A"}]}"#, "pages[1].title: 'A' is already the title"),
        (#"{"schemaVersion": 1, "pages": [{"title": "A"}], "stack": ["B"]}"#, "stack[0]: 'B' is not the title of a page"),
        (#"{"schemaVersion": 1, "title": "A", "pages": [{"title": "A"}]}"#, "title: cannot be combined with \"pages\""),
        (#"{"schemaVersion": 1, "pages": [{"complications": {}}]}"#, "pages[0].title: is missing"),
        (#"{"schemaVersion": 1, "pages": [{"title": "A", "children": [{"title": "B", "colour": 1}]}]}"#, "pages[0].children[0].colour: is not a known key"),
    ])
    func badPageTablesNameThePath(json: String, message: String) {
        #expect {
            _ = try SceneFile(json: json)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
