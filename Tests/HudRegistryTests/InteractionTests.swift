// SPDX-License-Identifier: MIT
import Testing
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport

/// The host's gesture state machine, driven through the shell with
/// timestamped events: taps, long presses, cancels, the mode picker.
struct InteractionTests {
    final class Recorder {
        var fired: [String] = []
    }

    /// The demo-like set on the tray: center has three modes, bottomLeft none,
    /// topRight has a tappable chip.
    static func shell(_ r: Recorder, threshold: Double? = nil) -> HudPhoneAppShell {
        let complications = HudPhoneComplications(
            topRight: .init(icon: "person", secondary: .init(icon: "plus") { r.fired.append("chip") }) { r.fired.append("topRight") },
            bottomLeft: .init(icon: "gearshape") { r.fired.append("bottomLeft") },
            center: .init(icon: "circle.grid.2x2", role: .accent, longPressModes: [
                .init(id: "a", icon: "a.circle", label: "A") { r.fired.append("mode a") },
                .init(id: "b", icon: "b.circle", label: "B") { r.fired.append("mode b") },
            ]) { r.fired.append("center") })
        let shell = HudPhoneAppShell(complicationsStyle: .tray, environment: HudEnvironment(device: .iphone16Pro)) {
            HudPage(title: "Home", complications: complications)
        }
        if let threshold { shell.longPressThreshold = threshold }
        return shell
    }

    static func point(_ shell: HudPhoneAppShell, _ kind: HudNode.Kind, _ position: Position, mode: Int? = nil) throws -> (x: Double, y: Double) {
        let node = try #require(try shell.layout().nodes.first { $0.kind == kind && $0.position == position && (mode == nil || $0.modeIndex == mode) })
        return (node.hit.midX, node.hit.midY)
    }

    @discardableResult
    static func tap(_ shell: HudPhoneAppShell, _ p: (x: Double, y: Double), at t: Double, hold: Double = 0.1) throws -> [ShellEvent] {
        try shell.send(PointerEvent(.down, x: p.x, y: p.y, time: t)) + shell.send(PointerEvent(.up, x: p.x, y: p.y, time: t + hold))
    }

    @Test func aReleaseJustBeforeTheThresholdIsATap() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        let events = try Self.tap(shell, Self.point(shell, .slot, .center), at: 1, hold: 0.449)
        #expect(r.fired == ["center"])
        #expect(events == [.pressed(.slot(.center)), .actionFired(.slot(.center))])
        #expect(shell.interaction == .idle)
    }

    @Test func holdingToTheThresholdIsALongPressThatRevealsModesAndFiresNothing() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        let events = try Self.tap(shell, Self.point(shell, .slot, .center), at: 1, hold: 0.45)
        #expect(r.fired.isEmpty)
        #expect(events == [.pressed(.slot(.center)), .longPressed(.slot(.center)), .revealed(.center)])
        #expect(shell.interaction.revealedPosition == .center)
        let layout = try shell.layout()
        #expect(layout.nodes.filter { $0.kind == .modeItem }.count == 2)
    }

    @Test func theThresholdIsConfigurable() throws {
        let r = Recorder()
        let shell = Self.shell(r, threshold: 0.8)
        try Self.tap(shell, Self.point(shell, .slot, .center), at: 0, hold: 0.6)
        #expect(r.fired == ["center"])
        try Self.tap(shell, Self.point(shell, .slot, .center), at: 2, hold: 0.8)
        #expect(shell.interaction.revealedPosition == .center)
    }

    @Test func anAdvanceEventRecognizesTheLongPressWhileTheFingerIsDown() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        let p = try Self.point(shell, .slot, .center)
        try shell.send(PointerEvent(.down, x: p.x, y: p.y, time: 0))
        #expect(try shell.send(PointerEvent(.advance, time: 0.3)).isEmpty)
        #expect(try shell.send(PointerEvent(.advance, time: 0.5)) == [.longPressed(.slot(.center)), .revealed(.center)])
        #expect(try shell.layout().nodes.contains { $0.kind == .modeItem })
        #expect(try shell.send(PointerEvent(.up, x: p.x, y: p.y, time: 0.6)).isEmpty)
        #expect(r.fired.isEmpty)
    }

    @Test func movingMoreThanTenPointsCancels() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        let p = try Self.point(shell, .slot, .center)
        try shell.send(PointerEvent(.down, x: p.x, y: p.y, time: 0))
        #expect(try shell.send(PointerEvent(.move, x: p.x + 10.5, y: p.y, time: 0.1)) == [.cancelled(.slot(.center))])
        #expect(try shell.send(PointerEvent(.up, x: p.x, y: p.y, time: 0.2)).isEmpty)
        #expect(r.fired.isEmpty)
        // Within 10 pt it is still a tap.
        try shell.send(PointerEvent(.down, x: p.x, y: p.y, time: 1))
        try shell.send(PointerEvent(.move, x: p.x + 6, y: p.y + 8, time: 1.1))
        try shell.send(PointerEvent(.up, x: p.x + 6, y: p.y + 8, time: 1.2))
        #expect(r.fired == ["center"])
    }

    @Test func aMovedPressIsNotALongPress() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        let p = try Self.point(shell, .slot, .center)
        try shell.send(PointerEvent(.down, x: p.x, y: p.y, time: 0))
        try shell.send(PointerEvent(.move, x: p.x + 30, y: p.y, time: 0.2))
        #expect(try shell.send(PointerEvent(.advance, time: 1)).isEmpty)
        #expect(shell.interaction.revealedPosition == nil)
    }

    @Test func aLongPressOnASlotWithoutModesOnlyGivesPressFeedback() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        let p = try Self.point(shell, .slot, .bottomLeft)
        try shell.send(PointerEvent(.down, x: p.x, y: p.y, time: 0))
        #expect(try shell.layout().slot(at: .bottomLeft)?.isPressed == true)
        let events = try shell.send(PointerEvent(.up, x: p.x, y: p.y, time: 0.7))
        #expect(events == [.longPressed(.slot(.bottomLeft))])
        #expect(r.fired.isEmpty)
        #expect(shell.interaction == .idle)
        #expect(try shell.layout().slot(at: .bottomLeft)?.isPressed == false)
    }

    @Test func tappingAModeRunsItAndClosesThePicker() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.tap(shell, Self.point(shell, .slot, .center), at: 0, hold: 0.5)
        let events = try Self.tap(shell, Self.point(shell, .modeItem, .center, mode: 1), at: 1)
        #expect(r.fired == ["mode b"])
        #expect(events == [.pressed(.mode(.center, index: 1)), .dismissed(.center), .actionFired(.mode(.center, index: 1))])
        #expect(try !shell.layout().nodes.contains { $0.kind == .modeItem })
    }

    @Test func tappingTheRevealedSlotRunsItsActionAndClosesThePicker() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        let center = try Self.point(shell, .slot, .center)
        try Self.tap(shell, center, at: 0, hold: 0.5)
        try Self.tap(shell, center, at: 1)
        #expect(r.fired == ["center"])
        #expect(shell.interaction.revealedPosition == nil)
    }

    /// The original lets a tap elsewhere through. This
    /// replaces the test that pinned the old swallowing behaviour.
    @Test func tappingElsewhereClosesThePickerAndActsOnWhatIsUnderTheTap() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.tap(shell, Self.point(shell, .slot, .center), at: 0, hold: 0.5)
        // Empty space: only the picker closes.
        #expect(try Self.tap(shell, (200, 400), at: 1) == [.dismissed(.center)])
        #expect(r.fired.isEmpty)
        try Self.tap(shell, Self.point(shell, .slot, .center), at: 2, hold: 0.5)
        // Another control: the picker closes and the tap reaches the control.
        #expect(try Self.tap(shell, Self.point(shell, .slot, .bottomLeft), at: 3)
                == [.pressed(.slot(.bottomLeft)), .dismissed(.center), .actionFired(.slot(.bottomLeft))])
        #expect(r.fired == ["bottomLeft"])
        #expect(shell.interaction.revealedPosition == nil)
    }

    @Test func aSecondLongPressOnTheRevealedSlotTogglesThePickerClosed() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        let center = try Self.point(shell, .slot, .center)
        #expect(try Self.tap(shell, center, at: 0, hold: 0.5) == [.pressed(.slot(.center)), .longPressed(.slot(.center)), .revealed(.center)])
        #expect(try Self.tap(shell, center, at: 1, hold: 0.5) == [.pressed(.slot(.center)), .longPressed(.slot(.center)), .dismissed(.center)])
        #expect(shell.interaction.revealedPosition == nil)
        #expect(try !shell.layout().nodes.contains { $0.kind == .modeItem })
        // A third opens it again; nothing fired on the way.
        try Self.tap(shell, center, at: 2, hold: 0.5)
        #expect(shell.interaction.revealedPosition == .center)
        #expect(r.fired.isEmpty)
    }

    @Test func escapeClosesAnOpenPicker() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.tap(shell, Self.point(shell, .slot, .center), at: 0, hold: 0.5)
        #expect(try shell.send(KeyEvent(.escape, time: 1)) == [.keyPressed(.escape), .dismissed(.center)])
        #expect(shell.interaction.revealedPosition == nil)
        #expect(try shell.send(KeyEvent(.escape, time: 2)) == [.keyPressed(.escape)])
    }

    @Test func tappingASecondaryChipRunsTheChipsActionOnly() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        let events = try Self.tap(shell, Self.point(shell, .secondary, .topRight), at: 0)
        #expect(r.fired == ["chip"])
        #expect(events.last == .actionFired(.secondary(.topRight)))
    }

    @Test func everyTapFiresItsActionExactlyOnce() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        let p = try Self.point(shell, .slot, .bottomLeft)
        for i in 0..<25 { try Self.tap(shell, p, at: Double(i)) }
        #expect(r.fired == Array(repeating: "bottomLeft", count: 25))
    }

    @Test func timeThatRunsBackwardsIsClampedNotReplayed() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        let p = try Self.point(shell, .slot, .center)
        try shell.send(PointerEvent(.down, x: p.x, y: p.y, time: 5))
        try shell.send(PointerEvent(.up, x: p.x, y: p.y, time: 1))  // earlier than the press
        #expect(r.fired == ["center"])
    }
}
