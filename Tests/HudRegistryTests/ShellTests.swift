// SPDX-License-Identifier: MIT
@testable import HudPluginBoundary
import Testing
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport

/// HudPhoneAppShell: preference resolution (last non-nil writer wins),
/// marshal once per publish, appearance, and the shell's navigation.
struct ShellTests {
    final class Recorder {
        var fired: [String] = []
        func action(_ name: String) -> () -> Void { { [unowned self] in self.fired.append(name) } }
    }

    static func set(_ icon: String, _ recorder: Recorder) -> HudPhoneComplications {
        HudPhoneComplications(center: .init(icon: icon, action: recorder.action(icon)))
    }

    static func shell(_ root: HudPage, style: HudPhoneComplicationsStyle = .scattered, appearance: HudPhoneAppShellAppearance = .hudson,
                      environment: HudEnvironment = HudEnvironment(device: .iphone16Pro)) -> HudPhoneAppShell {
        HudPhoneAppShell(complicationsStyle: style, appearance: appearance, registry: .withBuiltins(), environment: environment) { root }
    }

    @Test func theSeedsInitializerDefaults() {
        let shell = HudPhoneAppShell { HudPage(title: "Home") }
        #expect(shell.complicationsStyle == .tray)
        #expect(shell.background == HudPalette.bg)
        #expect(shell.appearance == .hudson)
        #expect(shell.stack.map(\.title) == ["Home"])
    }

    @Test func aChildPageOverridesItsContainersComplications() throws {
        let r = Recorder()
        let root = HudPage(title: "Home", complications: Self.set("container", r), children: [
            HudPage(title: "Feed", complications: nil),
            HudPage(title: "Detail", complications: Self.set("child", r), children: [HudPage(title: "Leaf")]),
        ])
        #expect(root.publishedComplications?.center?.icon == "child")
        let shell = Self.shell(root)
        #expect(try shell.layout().slot(at: .center)?.icon == "child")
    }

    @Test func aPageThatPublishesNothingLeavesTheContainersSetInForce() throws {
        let r = Recorder()
        let root = HudPage(title: "Home", complications: Self.set("container", r), children: [HudPage(title: "Quiet")])
        #expect(root.publishedComplications?.center?.icon == "container")
        #expect(HudPhoneComplicationsKey.reduce([nil, Self.set("a", r), nil]).map { $0.center?.icon } == "a")
        #expect(HudPhoneComplicationsKey.reduce([nil, nil]) == nil)
    }

    @Test func pushingAndPoppingReresolves() throws {
        let r = Recorder()
        let shell = Self.shell(HudPage(title: "Home", complications: Self.set("home", r)))
        #expect(try shell.layout().slot(at: .center)?.icon == "home")
        shell.push(HudPage(title: "Settings", complications: Self.set("settings", r)))
        #expect(try shell.layout().slot(at: .center)?.icon == "settings")
        #expect(shell.environment.navigationTitle == "Settings")
        shell.push(HudPage(title: "About"))  // publishes nothing
        #expect(try shell.layout().slot(at: .center)?.icon == "settings")
        shell.pop()
        shell.pop()
        #expect(try shell.layout().slot(at: .center)?.icon == "home")
        shell.pop()  // the root stays
        #expect(shell.stack.map(\.title) == ["Home"])
        #expect(shell.takePendingEvents() == [.pushed("Settings"), .pushed("About"), .popped("About"), .popped("Settings")])
    }

    @Test func anEqualRepublishKeepsTheSnapshotButRunsTheNewClosure() throws {
        let r = Recorder()
        let shell = Self.shell(HudPage(title: "Home", complications: Self.set("star", r)))
        let pointerBefore = try #require(try currentCenterAction(shell))
        #expect(shell.marshalCount == 1)
        // The page re-renders: same content, a new closure.
        shell.updateTop { $0.complications = HudPhoneComplications(center: .init(icon: "star") { r.fired.append("new closure") }) }
        let pointerAfter = try #require(try currentCenterAction(shell))
        #expect(shell.marshalCount == 1)
        // Plugins keep the very same C pointer; it now runs the new closure.
        #expect(unsafeBitCast(pointerBefore, to: UInt.self) == unsafeBitCast(pointerAfter, to: UInt.self))
        try shell.send(PointerEvent(.down, x: 201, y: 780, time: 0))
        try shell.send(PointerEvent(.up, x: 201, y: 780, time: 0.1))
        #expect(r.fired == ["new closure"])
    }

    @Test func aContentChangeRemarshalsAndRetiresTheOldThunks() throws {
        let r = Recorder()
        let shell = Self.shell(HudPage(title: "Home", complications: Self.set("star", r)))
        let before = try shell.layout()
        let oldSnapshotPointer = try #require(try currentCenterAction(shell))
        let samePointer = try #require(try currentCenterAction(shell))
        #expect(unsafeBitCast(oldSnapshotPointer, to: UInt.self) == unsafeBitCast(samePointer, to: UInt.self))
        shell.updateTop { $0.complications = Self.set("moon", r) }
        let after = try shell.layout()
        #expect(shell.marshalCount == 2)
        #expect(before.slot(at: .center)?.icon == "star" && after.slot(at: .center)?.icon == "moon")
        let caught = ActionThunkCounters.retiredCalls
        oldSnapshotPointer()  // a plugin that kept the old pointer
        #expect(ActionThunkCounters.retiredCalls > caught)
        #expect(r.fired.isEmpty)
    }

    /// The C action pointer of the marshaled center slot.
    func currentCenterAction(_ shell: HudPhoneAppShell) throws -> hud_action_fn? {
        _ = try shell.layout()
        return shell.testingSnapshot?.storage.view.pointee.slots.4?.pointee.action
    }

    @Test func hudsonAppearanceForcesTheStableDarkPaletteOnTheChrome() throws {
        let r = Recorder()
        let light = HudEnvironment(device: .iphone16Pro, colorScheme: .light)
        let hudson = Self.shell(HudPage(title: "Home", complications: Self.set("star", r)), appearance: .hudson, environment: light)
        let system = Self.shell(HudPage(title: "Home", complications: Self.set("star", r)), appearance: .system, environment: light)
        #expect(hudson.environment.chromeScheme == .dark)
        #expect(try hudson.layout().slot(at: .center)?.fill == HudPalette.stable.surface)
        #expect(system.environment.chromeScheme == .light)
        // `.system` frees only the system chrome: the complications keep the stable dark palette.
        #expect(try system.layout().slot(at: .center)?.fill == HudPalette.stable.surface)
    }

    @Test func changingTheStyleDispatchesToAnotherRenderer() throws {
        let shell = DemoComplications.makeShell(registry: .withBuiltins(), environment: HudEnvironment(device: .iphone16Pro))
        #expect(try shell.layout().nodes.contains { $0.kind == .container })  // the tray
        shell.complicationsStyle = .minimal
        let minimal = try shell.layout()
        #expect(minimal.nodes.filter { $0.kind == .slot }.map(\.position) == [.center])
        shell.complicationsStyle = .renderer("org.example.missing")
        #expect(throws: RegistryError.self) { try shell.layout() }
    }
}

import HudRendererAPI
