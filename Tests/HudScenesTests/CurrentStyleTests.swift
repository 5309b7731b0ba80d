// SPDX-License-Identifier: MIT
import Testing
import HudRegistry
import HudScenes
import HudTestSupport

/// The demo's and a scene's style picker mark the style in use (ABI 1.2
/// `Mode.isCurrent`) after a change from any source: a mode's action or a
/// host setting the shell's style (the preview's style menu).
struct CurrentStyleTests {
    /// The labels of the center's mode items drawn selected.
    static func selected(_ shell: HudPhoneAppShell) throws -> [String] {
        try shell.reveal(.center)
        return try shell.layout().nodes.filter { $0.kind == .modeItem && $0.isSelected }.compactMap(\.label)
    }

    @Test func theDemoMarksTheStyleInUseWhateverChangedIt() throws {
        let shell = DemoComplications.makeShell(registry: .withBuiltins(), environment: HudEnvironment(device: .iphone16Pro))
        #expect(try Self.selected(shell) == ["Tray"])
        shell.complicationsStyle = .minimal
        #expect(try Self.selected(shell) == ["Minimal"])
        shell.perform(.style(.scattered))
        #expect(try Self.selected(shell) == ["Scattered"])
    }

    @Test func aSceneMarksTheModeThatSwitchesToTheStyleInUse() throws {
        let scene = try SceneFile(json: """
            {"schemaVersion": 1, "title": "Home", "style": "tray", "complications": {"center": {
              "icon": "circle.grid.2x2", "action": "log:tap", "longPressModes": [
                {"id": "a", "icon": "rectangle.bottomthird.inset.filled", "label": "Tray", "action": "style:tray"},
                {"id": "b", "icon": "circle.fill", "label": "Minimal", "action": "style:minimal"}]}}}
            """)
        let shell = scene.makeShell(registry: .withBuiltins(), environment: HudEnvironment(device: .iphone16Pro))
        #expect(try Self.selected(shell) == ["Tray"])
        shell.complicationsStyle = .minimal
        #expect(try Self.selected(shell) == ["Minimal"])
    }
}
