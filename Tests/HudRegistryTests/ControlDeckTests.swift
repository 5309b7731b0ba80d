// SPDX-License-Identifier: MIT
import Testing
@testable import HudRegistry
import HudTestSupport

/// The control deck (`.summonOnDemand`): its state machine on the event
/// clock, every dismissal rule, the timeout at its boundary and its
/// suspensions, and its geometry with every built-in style on every preset,
/// driven through the shell with the real built-in renderers.
struct ControlDeckTests {
    final class Recorder {
        var fired: [String] = []
    }

    /// Five slots: topLeft with a control chip and two modes, topRight with a badge,
    /// bottomLeft, bottomRight, and a center with two modes.
    static func complications(_ r: Recorder) -> HudPhoneComplications {
        HudPhoneComplications(
            topLeft: .init(icon: "list.bullet", label: "Logs", secondary: .init(icon: "bell", label: "Alerts") { r.fired.append("chip") },
                           longPressModes: [
                               .init(id: "all", icon: "tray", label: "All") { r.fired.append("mode all") },
                               .init(id: "errors", icon: "exclamationmark.circle", label: "Errors only") { r.fired.append("mode errors") },
                           ]) {
                r.fired.append("topLeft")
            },
            topRight: .init(icon: "ellipsis.circle", secondary: .init(icon: "exclamationmark.circle")) { r.fired.append("topRight") },
            bottomLeft: .init(icon: "gearshape") { r.fired.append("bottomLeft") },
            bottomRight: .init(icon: "rectangle.3.group") { r.fired.append("bottomRight") },
            center: .init(icon: "circle.grid.2x2", role: .accent, longPressModes: [
                .init(id: "a", icon: "a.circle", label: "A") { r.fired.append("mode a") },
                .init(id: "b", icon: "b.circle", label: "B") { r.fired.append("mode b") },
            ]) { r.fired.append("center") })
    }

    static func shell(_ r: Recorder, style: HudPhoneComplicationsStyle = .tray, timeout: Double = 6,
                      environment: HudEnvironment = HudEnvironment(device: .iphone16Pro)) -> HudPhoneAppShell {
        HudPhoneAppShell(complicationsStyle: style,
                         complicationsPresentation: .summonOnDemand(HudPhoneControlDeckPolicy(inactivityTimeout: timeout)),
                         environment: environment) {
            HudPage(title: "Home", complications: complications(r))
        }
    }

    static func center(_ node: HudNode) -> (x: Double, y: Double) { (node.hit.midX, node.hit.midY) }

    static func control(_ shell: HudPhoneAppShell, _ control: HudDeckControl) throws -> HudNode {
        try #require(try shell.layout().nodes.first { $0.deckControl == control })
    }

    static func node(_ shell: HudPhoneAppShell, _ kind: HudNode.Kind, _ position: Position, mode: Int? = nil) throws -> HudNode {
        try #require(try shell.layout().nodes.first { $0.kind == kind && $0.position == position && (mode == nil || $0.modeIndex == mode) })
    }

    @discardableResult
    static func tap(_ shell: HudPhoneAppShell, _ p: (x: Double, y: Double), at t: Double, hold: Double = 0.05) throws -> [ShellEvent] {
        try shell.send(PointerEvent(.down, x: p.x, y: p.y, time: t)) + shell.send(PointerEvent(.up, x: p.x, y: p.y, time: t + hold))
    }

    /// Taps the pivot at `t` (released at `t + 0.05`) and checks it expanded.
    static func expand(_ shell: HudPhoneAppShell, at t: Double) throws {
        let events = try tap(shell, center(try control(shell, .pivot)), at: t)
        #expect(events == [.deckPressed(.pivot), .deckTapped(.pivot), .deckExpanded])
        #expect(shell.deckStatus?.isExpanded == true)
    }

    // MARK: - The API and the default

    @Test func theDefaultIsAlwaysVisibleAndDrawsNoDeck() throws {
        let r = Recorder()
        let shell = HudPhoneAppShell(environment: HudEnvironment(device: .iphone16Pro)) { HudPage(title: "Home", complications: Self.complications(r)) }
        #expect(shell.complicationsPresentation == .alwaysVisible)
        #expect(shell.deckStatus == nil)
        let layout = try shell.layout()
        #expect(layout.deck == nil)
        #expect(!layout.nodes.contains { $0.isHostDrawn })
        #expect(shell.environment.presentation == .alwaysVisible)
        #expect(shell.environment.reservedLanes == HudInsets())
        #expect(shell.expandDeck().isEmpty)
        #expect(try shell.send(KeyEvent(.escape, time: 0)) == [.keyPressed(.escape)])
    }

    @Test func thePolicysDefaultTimeoutIsSixSeconds() {
        #expect(HudPhoneControlDeckPolicy().inactivityTimeout == 6)
        #expect(HudPhoneComplicationsPresentation.summonOnDemand().deckPolicy == HudPhoneControlDeckPolicy())
        #expect(HudPhoneComplicationsPresentation.alwaysVisible.deckPolicy == nil)
    }

    // MARK: - Resting

    @Test func restingShowsOnlyThePivotAndReservesTheBottomLane() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        let layout = try shell.layout()
        #expect(layout.nodes.count == 1)
        let pivot = try #require(layout.nodes.first)
        #expect(pivot.deckControl == .pivot)
        #expect(pivot.frame.width == 56 && pivot.frame.height == 56)
        #expect(pivot.shape == .circle)
        #expect(pivot.icon == "circle.grid.2x2.fill")
        #expect(pivot.fill == HudPalette.stable.accent)
        #expect(pivot.iconColor == HudPalette.stable.bg)
        #expect(pivot.stroke == HudPalette.stable.accent.opacity(0.6))
        #expect(pivot.accessibilityLabel == "Show controls")
        let safe = shell.environment.safeRect
        #expect(pivot.frame.midX == safe.midX)
        #expect(pivot.frame.maxY == safe.maxY - 8)
        #expect(layout.contentInsets == HudInsets(bottom: 64))
        #expect(layout.hiddenPositions == Set(Position.allCases))
        #expect(shell.environment.presentation == .deckResting)
        #expect(shell.environment.reservedLanes == HudInsets(bottom: 64))
        #expect(layout.deck?.presentation == .deckResting)
        #expect(layout.deck?.accessibilityFocus == nil)
        #expect(layout.deck?.contentHiddenFromAccessibility == false)
    }

    @Test func restingATapWhereASlotStandsWhenExpandedDoesNothing() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.expand(shell, at: 0)
        let bottomLeft = Self.center(try Self.node(shell, .slot, .bottomLeft))
        let topLeft = Self.center(try Self.node(shell, .slot, .topLeft))
        try Self.tap(shell, Self.center(try Self.control(shell, .close)), at: 1)
        #expect(shell.deckStatus?.isExpanded == false)
        #expect(try Self.tap(shell, bottomLeft, at: 2).isEmpty)
        #expect(try Self.tap(shell, topLeft, at: 3).isEmpty)
        #expect(r.fired.isEmpty)
    }

    // MARK: - Expanded

    @Test func tappingThePivotExpandsAndMovesFocusToTheCloseButton() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.expand(shell, at: 1)
        let layout = try shell.layout()
        let deck = try #require(layout.deck)
        #expect(deck.presentation == .deckExpanded)
        #expect(deck.accessibilityFocus == .close)
        #expect(deck.contentHiddenFromAccessibility)
        #expect(deck.lastInteraction == 1.05)
        #expect(deck.collapseDeadline == 7.05)
        #expect(shell.environment.presentation == .deckExpanded)
        #expect(shell.environment.reservedLanes == HudInsets(top: 60))
        #expect(layout.contentInsets.top >= 60)
        let close = try Self.control(shell, .close)
        #expect(close.frame.width == 40 && close.icon == "xmark" && close.accessibilityLabel == "Hide controls")
        #expect(close.hit.width >= 44 && close.hit.height >= 44)
        let backdrop = try Self.control(shell, .backdrop)
        #expect(backdrop.frame == shell.environment.screen)
        #expect(backdrop.fill.alpha == 0)
        #expect(backdrop.accessibilityLabel == "Dismiss controls")
        #expect(backdrop.z < layout.nodes.filter { $0.deckControl != .backdrop }.map(\.z).min()!)
        // No pivot while expanded; the top slots are the shell's, at 48 pt in the lane.
        #expect(!layout.nodes.contains { $0.deckControl == .pivot })
        for position in [Position.topLeft, .topRight] {
            let slots = layout.nodes.filter { $0.kind == .slot && $0.position == position }
            #expect(slots.count == 1)
            #expect(slots.first?.isHostDrawn == true)
            #expect(slots.first?.frame.width == 48)
        }
    }

    @Test func theTopLaneSitsUnderTheNavigationBarWithChipsOnTheInnerSide() throws {
        for direction in [HudLayoutDirection.leftToRight, .rightToLeft] {
            let r = Recorder()
            let shell = Self.shell(r, environment: HudEnvironment(device: .iphone16Pro, layoutDirection: direction))
            try Self.expand(shell, at: 0)
            let bar = shell.environment.navigationBar
            let safe = shell.environment.safeRect
            let topLeft = try Self.node(shell, .slot, .topLeft)
            let topRight = try Self.node(shell, .slot, .topRight)
            #expect(topLeft.frame.minY == bar.maxY + 6)
            #expect(topLeft.frame.maxY == bar.maxY + 54)
            let (leading, trailing) = direction == .leftToRight ? (topLeft, topRight) : (topRight, topLeft)
            #expect(leading.frame.minX == safe.minX + 12, "\(direction)")
            #expect(trailing.frame.maxX == safe.maxX - 12, "\(direction)")
            for slot in [topLeft, topRight] {
                let chip = try Self.node(shell, .secondary, slot.position!)
                #expect(chip.frame.width == 22)
                #expect(chip.frame.midY == slot.frame.midY)
                // Inner side: toward the screen's centre, 4 pt away.
                if slot.frame.midX < safe.midX {
                    #expect(chip.frame.minX == slot.frame.maxX + 4)
                } else {
                    #expect(chip.frame.maxX == slot.frame.minX - 4)
                }
            }
            let close = try Self.control(shell, .close)
            #expect(close.frame.midX == safe.midX)
            #expect(close.frame.midY == topLeft.frame.midY)
        }
    }

    @Test func theStyleLaysOutOnlyTheBottomSlots() throws {
        for style in [HudPhoneComplicationsStyle.tray, .scattered, .minimal] {
            let r = Recorder()
            let shell = Self.shell(r, style: style)
            try Self.expand(shell, at: 0)
            let layout = try shell.layout()
            let rendererNodes = layout.nodes.filter { !$0.isHostDrawn }
            #expect(!rendererNodes.contains { $0.position == .topLeft || $0.position == .topRight }, "\(style)")
            #expect(rendererNodes.contains { $0.kind == .slot && $0.position == .center }, "\(style)")
            // Not one of the renderer's nodes sits in the navigation bar.
            #expect(!rendererNodes.contains { $0.placement == .navigationBar }, "\(style)")
        }
    }

    @Test func theTopLanesSlotsFireTheirOwnActionsAndCollapseTheDeck() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.expand(shell, at: 0)
        let events = try Self.tap(shell, Self.center(try Self.node(shell, .slot, .topLeft)), at: 1)
        #expect(events == [.pressed(.slot(.topLeft)), .actionFired(.slot(.topLeft)), .deckCollapsed(.action)])
        #expect(r.fired == ["topLeft"])
        try Self.expand(shell, at: 2)
        let chip = try Self.node(shell, .secondary, .topLeft)
        #expect(chip.isInteractive)
        try Self.tap(shell, Self.center(chip), at: 3)
        #expect(r.fired == ["topLeft", "chip"])
        #expect(shell.deckStatus?.isExpanded == false)
        #expect(shell.deckStatus?.accessibilityFocus == .pivot)
        // The badge on topRight is not a control.
        try Self.expand(shell, at: 4)
        #expect(try Self.node(shell, .secondary, .topRight).isInteractive == false)
    }

    @Test func aTopLaneSlotsModesAreDrawnByTheShellBelowIt() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.expand(shell, at: 0)
        let slot = try Self.node(shell, .slot, .topLeft)
        #expect(slot.accessibilityActions == [0, 1])
        let events = try Self.tap(shell, Self.center(slot), at: 1, hold: 0.5)
        #expect(events == [.pressed(.slot(.topLeft)), .longPressed(.slot(.topLeft)), .revealed(.topLeft)])
        let layout = try shell.layout()
        let card = try #require(layout.nodes.first { $0.kind == .container && $0.position == .topLeft })
        #expect(card.frame.midY == slot.frame.midY + 76)
        #expect(card.cornerRadius == 8 && card.isHostDrawn)
        let items = layout.nodes.filter { $0.kind == .modeItem && $0.position == .topLeft }
        #expect(items.map(\.label) == ["All", "Errors only"])
        #expect(items.allSatisfy { $0.fontSize == 10 && $0.glyphSize == 14 && $0.hit.height >= 44 && $0.hit.width >= 44 })
        // Tapping a mode runs it through the snapshot's thunk and collapses the deck.
        let tapped = try Self.tap(shell, Self.center(items[1]), at: 2)
        #expect(tapped == [.pressed(.mode(.topLeft, index: 1)), .dismissed(.topLeft), .actionFired(.mode(.topLeft, index: 1)), .deckCollapsed(.action)])
        #expect(r.fired == ["mode errors"])
    }

    // MARK: - Collapse rules

    @Test func aBottomSlotActionCollapses() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.expand(shell, at: 0)
        let events = try Self.tap(shell, Self.center(try Self.node(shell, .slot, .bottomLeft)), at: 1)
        #expect(events == [.pressed(.slot(.bottomLeft)), .actionFired(.slot(.bottomLeft)), .deckCollapsed(.action)])
        #expect(try shell.layout().nodes.map(\.deckControl) == [.pivot])
    }

    @Test func aModeActionCollapsesAndThePickerIsTheStyles() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.expand(shell, at: 0)
        try Self.tap(shell, Self.center(try Self.node(shell, .slot, .center)), at: 1, hold: 0.5)
        #expect(shell.interaction.revealedPosition == .center)
        let events = try Self.tap(shell, Self.center(try Self.node(shell, .modeItem, .center, mode: 1)), at: 2)
        #expect(events == [.pressed(.mode(.center, index: 1)), .dismissed(.center), .actionFired(.mode(.center, index: 1)), .deckCollapsed(.action)])
        #expect(r.fired == ["mode b"])
    }

    @Test func theCloseButtonCollapses() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.expand(shell, at: 0)
        let events = try Self.tap(shell, Self.center(try Self.control(shell, .close)), at: 1)
        #expect(events == [.deckPressed(.close), .deckTapped(.close), .deckCollapsed(.close)])
        #expect(shell.deckStatus?.accessibilityFocus == .pivot)
        #expect(shell.environment.reservedLanes == HudInsets(bottom: 64))
        #expect(r.fired.isEmpty)
    }

    @Test func aBackdropTapCollapses() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.expand(shell, at: 0)
        let events = try Self.tap(shell, (200, 400), at: 1)
        #expect(events == [.deckPressed(.backdrop), .deckTapped(.backdrop), .deckCollapsed(.backdrop)])
        #expect(r.fired.isEmpty)
    }

    @Test func aTapElsewhereWithAPickerOpenClosesItAndReachesTheBackdrop() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.expand(shell, at: 0)
        try Self.tap(shell, Self.center(try Self.node(shell, .slot, .center)), at: 1, hold: 0.5)
        let events = try Self.tap(shell, (200, 400), at: 2)
        #expect(events == [.deckPressed(.backdrop), .dismissed(.center), .deckTapped(.backdrop), .deckCollapsed(.backdrop)])
    }

    @Test func escapeClosesThePickerAndCollapses() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.expand(shell, at: 0)
        try Self.tap(shell, Self.center(try Self.node(shell, .slot, .center)), at: 1, hold: 0.5)
        #expect(try shell.send(KeyEvent(.escape, time: 2)) == [.keyPressed(.escape), .dismissed(.center), .deckCollapsed(.escape)])
        #expect(shell.interaction.revealedPosition == nil)
        // Resting, Escape does nothing more.
        #expect(try shell.send(KeyEvent(.escape, time: 3)) == [.keyPressed(.escape)])
    }

    // MARK: - The timeout

    @Test func theTimeoutCollapsesAtExactlySixSecondsNotBefore() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.expand(shell, at: 1)  // the tap ends at 1.05
        #expect(try shell.send(PointerEvent(.advance, time: 7.0499)).isEmpty)
        #expect(shell.deckStatus?.isExpanded == true)
        #expect(try shell.send(PointerEvent(.advance, time: 7.05)) == [.deckCollapsed(.timeout)])
        #expect(shell.deckStatus?.isExpanded == false)
        #expect(shell.deckStatus?.accessibilityFocus == .pivot)
    }

    @Test func anyInteractionRestartsTheTimer() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.expand(shell, at: 0)  // 0.05
        // A press that moves away (no action) at 5 s is an interaction.
        try shell.send(PointerEvent(.down, x: 200, y: 400, time: 5))
        try shell.send(PointerEvent(.move, x: 260, y: 400, time: 5.1))
        try shell.send(PointerEvent(.up, x: 260, y: 400, time: 5.2))
        #expect(shell.deckStatus?.isExpanded == true)
        #expect(shell.deckStatus?.collapseDeadline == 11.2)
        // The layout's copy of the status follows too, though no node changed.
        #expect(try shell.layout().deck?.collapseDeadline == 11.2)
        #expect(try shell.send(PointerEvent(.advance, time: 11.19)).isEmpty)
        #expect(try shell.send(PointerEvent(.advance, time: 11.2)) == [.deckCollapsed(.timeout)])
    }

    @Test func aCustomTimeoutIsHonoured() throws {
        let r = Recorder()
        let shell = Self.shell(r, timeout: 2)
        try Self.expand(shell, at: 0)
        #expect(try shell.send(PointerEvent(.advance, time: 2.04)).isEmpty)
        #expect(try shell.send(PointerEvent(.advance, time: 2.05)) == [.deckCollapsed(.timeout)])
    }

    @Test func theTimeoutIsSuspendedWhileAPickerIsOpen() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.expand(shell, at: 0)
        try Self.tap(shell, Self.center(try Self.node(shell, .slot, .center)), at: 1, hold: 0.5)  // open at 1.45, up 1.5
        #expect(shell.deckStatus?.suspendedBy == [.modePicker])
        #expect(shell.deckStatus?.collapseDeadline == nil)
        #expect(try shell.send(PointerEvent(.advance, time: 30)).isEmpty)
        #expect(shell.deckStatus?.isExpanded == true)
        // Closing the picker without an action (a second long press) restarts the timer from then.
        try Self.tap(shell, Self.center(try Self.node(shell, .slot, .center)), at: 31, hold: 0.5)
        #expect(shell.interaction.revealedPosition == nil)
        #expect(shell.deckStatus?.collapseDeadline == 37.5)
        #expect(try shell.send(PointerEvent(.advance, time: 37.49)).isEmpty)
        #expect(try shell.send(PointerEvent(.advance, time: 37.5)) == [.deckCollapsed(.timeout)])
    }

    @Test func theTimeoutIsSuspendedWhileAnAssistiveTechnologyRuns() throws {
        let r = Recorder()
        var environment = HudEnvironment(device: .iphone16Pro)
        environment.accessibility.insert(.assistiveTechnology)
        let shell = Self.shell(r, environment: environment)
        try Self.expand(shell, at: 0)
        #expect(shell.deckStatus?.suspendedBy == [.assistiveTechnology])
        #expect(try shell.send(PointerEvent(.advance, time: 100)).isEmpty)
        #expect(shell.deckStatus?.isExpanded == true)
        // It stops at 100: the timer runs in full from there.
        shell.environment.accessibility.remove(.assistiveTechnology)
        #expect(shell.deckStatus?.collapseDeadline == 106)
        #expect(try shell.send(PointerEvent(.advance, time: 105.9)).isEmpty)
        #expect(try shell.send(PointerEvent(.advance, time: 106)) == [.deckCollapsed(.timeout)])
        // The shell keeps the deck's fields in the environment it owns.
        #expect(shell.environment.presentation == .deckResting)
    }

    @Test func theTimeoutIsSuspendedWhileAFingerIsDown() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        try Self.expand(shell, at: 0)
        try shell.send(PointerEvent(.down, x: 200, y: 400, time: 1))
        #expect(try shell.send(PointerEvent(.advance, time: 20)).isEmpty)
        #expect(shell.deckStatus?.suspendedBy == [.press])
        #expect(try shell.layout().deck?.suspendedBy == [.press])
        // Lifting on the backdrop: a long press there fires nothing, the deck stays.
        #expect(try shell.send(PointerEvent(.up, x: 200, y: 400, time: 20.1)).isEmpty)
        #expect(shell.deckStatus?.isExpanded == true)
        #expect(shell.deckStatus?.collapseDeadline == 26.1)
    }

    @Test func theControlDeckMachineAlone() {
        var deck = ControlDeck(policy: HudPhoneControlDeckPolicy(inactivityTimeout: 6))
        #expect(deck.presentation == .deckResting)
        #expect(deck.expire(at: 1000, suspended: false).isEmpty)
        #expect(deck.collapse(.host).isEmpty)
        #expect(deck.expand(at: 10) == [.deckExpanded])
        #expect(deck.expand(at: 11).isEmpty)
        #expect(deck.deadline(suspended: false) == 16)
        #expect(deck.deadline(suspended: true) == nil)
        #expect(deck.expire(at: 15.999, suspended: false).isEmpty)
        #expect(deck.expire(at: 16, suspended: true).isEmpty)
        deck.touch(at: 12)
        #expect(deck.expire(at: 17.999, suspended: false).isEmpty)
        #expect(deck.expire(at: 18, suspended: false) == [.deckCollapsed(.timeout)])
        #expect(deck.accessibilityFocus == .pivot)
        #expect(deck.reservedLanes == HudInsets(bottom: 64))
    }

    @Test func theHostCanExpandAndCollapseDirectly() throws {
        let r = Recorder()
        let shell = Self.shell(r)
        #expect(shell.expandDeck(at: 3) == [.deckExpanded])
        #expect(shell.deckStatus?.lastInteraction == 3)
        #expect(shell.collapseDeck() == [.deckCollapsed(.host)])
        #expect(shell.collapseDeck().isEmpty)
        // A new presentation puts the deck at rest, and .alwaysVisible removes it.
        shell.expandDeck()
        shell.complicationsPresentation = .summonOnDemand(HudPhoneControlDeckPolicy(inactivityTimeout: 3))
        #expect(shell.deckStatus?.isExpanded == false)
        shell.complicationsPresentation = .alwaysVisible
        #expect(shell.deckStatus == nil)
        #expect(try shell.layout().nodes.filter { $0.kind == .slot }.count == 5)
    }

    /// A 1.0 plugin (the good_simple fixture, in its own renderer host)
    /// works unchanged under the deck: it lays out the bottom slots only.
    @Test func aPluginStyleWorksUnchangedUnderTheDeck() throws {
        let registry = RendererRegistry.withBuiltins()
        let loaded = try registry.load(path: FixturePlugins.path(of: .goodSimple))
        let info = try #require(loaded.first)
        let r = Recorder()
        let shell = HudPhoneAppShell(complicationsStyle: HudPhoneComplicationsStyle(name: info.id),
                                     complicationsPresentation: .summonOnDemand(), registry: registry,
                                     environment: HudEnvironment(device: .iphone16Pro)) {
            HudPage(title: "Home", complications: Self.complications(r))
        }
        try Self.expand(shell, at: 0)
        let layout = try shell.layout()
        #expect(shell.rendererFailure == nil)
        #expect(!layout.nodes.contains { !$0.isHostDrawn && ($0.position == .topLeft || $0.position == .topRight) })
        #expect(layout.nodes.contains { !$0.isHostDrawn && $0.position == .bottomLeft })
        try Self.tap(shell, Self.center(try #require(layout.nodes.first { !$0.isHostDrawn && $0.kind == .slot && $0.position == .bottomLeft })), at: 1)
        #expect(r.fired == ["bottomLeft"])
        #expect(shell.deckStatus?.isExpanded == false)
    }

    // MARK: - Every built-in style on every preset

    struct Case: CustomTestStringConvertible, Sendable {
        var style: HudPhoneComplicationsStyle
        var device: DevicePreset
        var orientation: DevicePreset.Orientation
        var direction: HudLayoutDirection
        var testDescription: String { "\(style) \(device.id) \(orientation.rawValue) \(direction.rawValue)" }
    }

    static let cases: [Case] = [HudPhoneComplicationsStyle.tray, .scattered, .minimal].flatMap { style in
        DevicePreset.all.flatMap { device in
            [DevicePreset.Orientation.portrait, .landscape].flatMap { orientation in
                [HudLayoutDirection.leftToRight, .rightToLeft].map { Case(style: style, device: device, orientation: orientation, direction: $0) }
            }
        }
    }

    /// Hit regions of the nodes a finger can reach first: every interactive
    /// node but the backdrop, which lies under all of them by design.
    static func targets(_ layout: HudLayout) -> [HudNode] {
        layout.nodes.filter { $0.isInteractive && $0.deckControl != .backdrop }
    }

    static func expectTargetsAreFullSizeAndDisjoint(_ layout: HudLayout, _ c: Case, _ state: String) {
        let targets = targets(layout)
        for node in targets {
            #expect(node.hit.width >= 44 && node.hit.height >= 44, "\(c.testDescription) \(state): \(node.kind) \(String(describing: node.position)) \(node.hit)")
        }
        for (i, a) in targets.enumerated() {
            for b in targets[(i + 1)...] {
                #expect(!a.hit.intersects(b.hit), "\(c.testDescription) \(state): \(a.kind) \(String(describing: a.position)) \(a.hit) overlaps \(b.kind) \(String(describing: b.position)) \(b.hit)")
            }
        }
    }

    @Test(arguments: cases)
    func everyBuiltinStyleWorksUnderTheDeckWithFullSizeDisjointTargets(_ c: Case) throws {
        let r = Recorder()
        let environment = HudEnvironment(device: c.device, orientation: c.orientation, layoutDirection: c.direction)
        let shell = Self.shell(r, style: c.style, environment: environment)
        let resting = try shell.layout()
        #expect(resting.contentInsets.bottom == 64)
        Self.expectTargetsAreFullSizeAndDisjoint(resting, c, "resting")
        #expect(environment.safeRect.contains(try Self.control(shell, .pivot).hit))
        shell.expandDeck(at: 0)
        let expanded = try shell.layout()
        #expect(expanded.contentInsets.top >= 60)
        Self.expectTargetsAreFullSizeAndDisjoint(expanded, c, "expanded")
        for node in Self.targets(expanded) where node.isHostDrawn {
            #expect(environment.safeRect.contains(node.hit), "\(c.testDescription): \(node.hit)")
        }
        // The lane's nodes lie inside the 60 pt lane under the bar.
        let laneTop = environment.navigationBar.maxY
        for node in expanded.nodes where node.isHostDrawn && node.deckControl != .backdrop {
            #expect(node.frame.minY >= laneTop && node.frame.maxY <= laneTop + 60, "\(c.testDescription): \(node.frame)")
        }
        // And with the center's picker open, or the top lane's, still disjoint.
        try shell.reveal(.center)
        Self.expectTargetsAreFullSizeAndDisjoint(try shell.layout(), c, "expanded, center picker open")
        try shell.reveal(.topLeft)
        let lanePicker = try shell.layout()
        Self.expectTargetsAreFullSizeAndDisjoint(lanePicker, c, "expanded, top-lane picker open")
        let items = lanePicker.nodes.filter { $0.kind == .modeItem }
        #expect(items.count == 2, "\(c.testDescription)")
        for item in items { #expect(environment.safeRect.contains(item.hit), "\(c.testDescription): \(item.hit)") }
    }
}
