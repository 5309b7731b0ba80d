// SPDX-License-Identifier: MIT
/// The seed's `HudPhoneAppShell`, headless: a navigation stack of pages,
/// the complications they publish (last non-nil writer wins), a render
/// style, and the interaction state — dispatched to whichever renderer the
/// style names.
///
/// The shell marshals the resolved complications once per publish: a
/// republish with the same content keeps the snapshot (and its C thunks)
/// and only rebinds the thunks to the new closures; a change of content
/// re-marshals. Laying out, hit testing and firing actions all use the
/// snapshot's C view, the same pointers a plugin sees.
///
/// Under `complicationsPresentation: .summonOnDemand(policy)` the shell
/// also owns the control deck (`ControlDeck`): resting, it draws only its
/// pivot button and asks no renderer; expanded, it draws the top lane (the
/// top corners, the close button) and a backdrop itself and asks the style
/// to lay out the bottom slots only (the top positions are stripped from
/// what the renderer receives), so every registered style works unchanged;
/// a top-lane slot's long-press modes are drawn by the shell too.
/// Its nodes go into the same `HudLayout` (`deck`, `HudNode.deckControl`).
///
/// Not thread-safe: drive a shell from one thread.
public final class HudPhoneAppShell {
    public let registry: RendererRegistry
    /// Fills the whole screen behind the root, safe areas included.
    public let background: HudColor
    /// The seed's `appearance`: stored in `environment.appearance`, the one
    /// place renderers read it from, so the two can never disagree.
    public var appearance: HudPhoneAppShellAppearance {
        get { environment.appearance }
        set { environment.appearance = newValue }
    }
    /// The environment renderers receive, exactly. The shell owns one field
    /// of it: `navigationTitle` is always the top page's title (set on every
    /// navigation, and when a new environment is assigned), the way a
    /// navigation stack owns its bar's title. Everything else is the caller's.
    ///
    /// Under `.summonOnDemand` the shell also owns `presentation` and
    /// `reservedLanes` (the deck's state and lanes). Clearing
    /// `.assistiveTechnology` restarts the deck's inactivity timer from
    /// the shell's clock.
    public var environment: HudEnvironment {
        didSet {
            environment.navigationTitle = stack.last?.title
            if oldValue.accessibility.contains(.assistiveTechnology), !environment.accessibility.contains(.assistiveTechnology),
               let clock {
                deck.touch(at: clock)
            }
            applyDeckEnvironment()
            cachedLayout = nil
        }
    }
    /// `.alwaysVisible` (the seed's shell) or `.summonOnDemand(policy)` (the
    /// control deck). Assigning a new value puts the deck at rest.
    public var complicationsPresentation: HudPhoneComplicationsPresentation {
        didSet {
            guard complicationsPresentation != oldValue else { return }
            deck = ControlDeck(policy: complicationsPresentation.deckPolicy ?? HudPhoneControlDeckPolicy())
            machine.reset()
            applyDeckEnvironment()
            cachedLayout = nil
        }
    }
    /// The control deck as it stands (nil under `.alwaysVisible`): state,
    /// accessibility focus, the timer's deadline and what suspends it.
    public var deckStatus: HudDeckStatus? {
        guard complicationsPresentation.deckPolicy != nil else { return nil }
        return deck.status(suspendedBy: deckSuspensions)
    }
    public var complicationsStyle: HudPhoneComplicationsStyle {
        didSet {
            guard complicationsStyle != oldValue else { return }
            machine.reset()
            cachedLayout = nil
            styleDidChange?(complicationsStyle)
        }
    }
    /// Called after `complicationsStyle` changes, whatever changed it (a
    /// mode's action, a host's setting): a host whose complications mark
    /// the style in use (`Mode.isCurrent`) publishes them again here
    /// (`updatePages`).
    public var styleDidChange: ((HudPhoneComplicationsStyle) -> Void)?
    /// The navigation stack; the root first.
    public private(set) var stack: [HudPage]

    public var longPressThreshold: Double {
        get { machine.longPressThreshold }
        set { machine.longPressThreshold = newValue }
    }

    /// How many times the shell marshaled a complications set (for tests and
    /// diagnostics: equal republishes do not count).
    public private(set) var marshalCount = 0
    /// The latest event timestamp the shell has seen, or nil before any.
    public var clock: Double? { machine.clock.isFinite ? machine.clock : nil }
    /// What the renderer is told about presses and reveals.
    public var interaction: HudInteraction { machine.state }
    /// The style drawn in place of one whose renderer host failed (crashed,
    /// hung, exited, or is waiting to be restarted): always a built-in.
    public var fallbackStyle: HudPhoneComplicationsStyle = .tray
    /// Why the last frame was drawn with `fallbackStyle`, or nil when the
    /// chosen style drew it. The shell's state (page stack, revealed modes,
    /// chosen style) is kept; the next `layout()` tries the chosen style again
    /// (its renderer host is restarted with backoff).
    public private(set) var rendererFailure: RegistryError?

    private var machine = InteractionMachine()
    private var snapshot: ComplicationsSnapshot?
    private var marshaled: HudPhoneComplications?
    private var needsResolve = true
    private var cachedLayout: HudLayout?
    private var pendingEvents: [ShellEvent] = []
    private var deck = ControlDeck()
    /// The resolved set without its top positions, marshaled for the style
    /// while the deck is expanded (made on first use per publish; its thunks
    /// are never called by the shell, which fires through `snapshot`).
    private var bottomSnapshot: ComplicationsSnapshot?

    public init(
        complicationsStyle: HudPhoneComplicationsStyle = .tray,
        complicationsPresentation: HudPhoneComplicationsPresentation = .alwaysVisible,
        background: HudColor = HudPalette.bg,
        appearance: HudPhoneAppShellAppearance = .hudson,
        registry: RendererRegistry = .withBuiltins(),
        environment: HudEnvironment = HudEnvironment(device: .default),
        root: () -> HudPage
    ) {
        self.complicationsStyle = complicationsStyle
        self.complicationsPresentation = complicationsPresentation
        self.background = background
        self.registry = registry
        let root = root()
        var environment = environment
        environment.appearance = appearance
        environment.navigationTitle = root.title
        self.environment = environment
        self.stack = [root]
        deck = ControlDeck(policy: complicationsPresentation.deckPolicy ?? HudPhoneControlDeckPolicy())
        applyDeckEnvironment()
    }

    // MARK: - Navigation and publishing

    public func push(_ page: HudPage) {
        stack.append(page)
        pendingEvents.append(.pushed(page.title))
        navigated()
    }

    /// Pops the top page; the root is never popped.
    public func pop() {
        guard stack.count > 1, let page = stack.popLast() else { return }
        pendingEvents.append(.popped(page.title))
        navigated()
    }

    /// Replaces the top page (a page re-rendering with new state, which
    /// republishes its complications).
    public func updateTop(_ body: (inout HudPage) -> Void) {
        body(&stack[stack.count - 1])
        environment.navigationTitle = stack.last?.title
        needsResolve = true
        cachedLayout = nil
    }

    /// Changes every page of the stack in place, root first (a host
    /// republishing complications whose current mode changed); the stack,
    /// the revealed slot and the style stay.
    public func updatePages(_ body: (inout HudPage) -> Void) {
        for index in stack.indices { body(&stack[index]) }
        environment.navigationTitle = stack.last?.title
        needsResolve = true
        cachedLayout = nil
    }

    /// Replaces the root and clears the stack above it.
    public func setRoot(_ page: HudPage) {
        stack = [page]
        navigated()
    }

    /// The complications in force: the last non-nil writer over the whole
    /// stack in tree order (the root's tree first, the top page's last).
    public var resolvedComplications: HudPhoneComplications? {
        HudPhoneComplicationsKey.reduce(stack.map(\.publishedComplications))
    }

    /// Records an event caused outside `send` (a host's own action, e.g. a
    /// scene's named action), reported with the next `send` or by
    /// `takePendingEvents()`.
    public func record(_ event: ShellEvent) {
        pendingEvents.append(event)
    }

    // MARK: - Layout and events

    /// The layout on screen now (cached until something changes).
    ///
    /// When the chosen renderer runs in a renderer host that fails, the
    /// frame is drawn with `fallbackStyle` and `rendererFailure` says why;
    /// such a frame is not cached, so the next call tries again. Any other
    /// error (an invalid layout, an unknown style) is thrown.
    public func layout() throws(RegistryError) -> HudLayout {
        if var cachedLayout {
            // The deck's timer and suspensions move without changing a node.
            if cachedLayout.deck != nil { cachedLayout.deck = deck.status(suspendedBy: deckSuspensions) }
            return cachedLayout
        }
        let current = try currentSnapshot()
        guard complicationsPresentation.deckPolicy != nil else {
            return try styleLayout(snapshot: current, interaction: machine.state)
        }
        if !deck.isExpanded {
            // Resting: the pivot alone; no renderer is asked.
            let layout = HudLayout(nodes: [DeckChrome.pivot(environment, pressed: machine.pressedDeckControl == .pivot, z: 0)],
                                   contentInsets: HudInsets(bottom: DeckChrome.bottomLane), hiddenPositions: current.occupiedPositions,
                                   deck: deck.status(suspendedBy: deckSuspensions))
            rendererFailure = nil
            cachedLayout = layout
            return layout
        }
        // Expanded: the style lays out the bottom slots; the shell adds the
        // top lane above and the backdrop below everything it drew.
        var interaction = machine.state
        if let pressed = interaction.pressed, Self.laneHosted.contains(pressed.position) { interaction.pressed = nil }
        if let revealed = interaction.revealedPosition, Self.laneHosted.contains(revealed) { interaction.revealedPosition = nil }
        let styled = try styleLayout(snapshot: try currentBottomSnapshot(), interaction: interaction, cache: false)
        let lowest = styled.nodes.map(\.z).min() ?? 0
        let highest = styled.nodes.map(\.z).max() ?? 0
        var nodes = [DeckChrome.backdrop(environment, pressed: machine.pressedDeckControl == .backdrop, z: lowest - 1)]
        nodes += styled.nodes
        let resolved = marshaled ?? HudPhoneComplications()
        for position in [Position.topLeft, .topRight] {
            guard let slot = resolved[position] else { continue }
            let lane = DeckChrome.laneSlot(slot, at: position, environment, pressed: machine.state.pressed, z: highest + 1)
            nodes += lane
            if machine.state.revealedPosition == position, let slotFrame = lane.first?.frame {
                nodes += DeckChrome.lanePicker(slot, at: position, slotFrame: slotFrame, environment, pressed: machine.state.pressed, z: highest + 2)
            }
        }
        nodes.append(DeckChrome.close(environment, pressed: machine.pressedDeckControl == .close, z: highest + 1))
        var insets = styled.contentInsets
        insets.top = max(insets.top, DeckChrome.topLane)
        let layout = HudLayout(nodes: nodes, contentInsets: insets, hiddenPositions: styled.hiddenPositions,
                               deck: deck.status(suspendedBy: deckSuspensions))
        if rendererFailure == nil { cachedLayout = layout }
        return layout
    }

    /// The top positions, which the expanded deck's top lane hosts.
    static let laneHosted: Set<Position> = [.topLeft, .topRight]

    /// The chosen style's layout of `snapshot`, or the fallback style's when
    /// the chosen renderer's host failed (not cached then).
    private func styleLayout(snapshot: ComplicationsSnapshot, interaction: HudInteraction, cache: Bool = true) throws(RegistryError) -> HudLayout {
        do {
            let layout = try registry.layout(style: complicationsStyle, snapshot: snapshot, environment: environment, interaction: interaction)
            rendererFailure = nil
            if cache { cachedLayout = layout }
            return layout
        } catch {
            guard case .rendererHostFailed = error, fallbackStyle != complicationsStyle else { throw error }
            rendererFailure = error
            return try registry.layout(style: fallbackStyle, snapshot: snapshot, environment: environment, interaction: interaction)
        }
    }

    /// Feeds one pointer event; returns what happened, in order, including
    /// actions fired (through their C thunks) and what they caused.
    @discardableResult
    public func send(_ event: PointerEvent) throws(RegistryError) -> [ShellEvent] {
        var events = expireDeck(at: event.time)
        let onScreen = try layout()
        let current = try currentSnapshot()
        let before = machine.state, pressedBefore = machine.pressedDeckControl
        let onDemand = complicationsPresentation.deckPolicy != nil
        let outcome = machine.handle(event, layout: onScreen, hasModes: { [deck] position in
            // Resting, nothing is shown to long-press.
            if onDemand, !deck.isExpanded { return false }
            return current.modeIDs[position]?.isEmpty == false
        })
        if machine.state != before || machine.pressedDeckControl != pressedBefore { cachedLayout = nil }
        events += outcome.events
        var acted = false
        for target in outcome.fire {
            if current.invoke(target) {
                events.append(.actionFired(target))
                acted = true
            }
            events += pendingEvents
            pendingEvents.removeAll()
        }
        if onDemand {
            if acted { events += collapseDeck(.action) }
            for control in outcome.deckTaps {
                events.append(.deckTapped(control))
                switch control {
                case .pivot: events += expandDeck(at: machine.clock)
                case .close: events += collapseDeck(.close)
                case .backdrop: events += collapseDeck(.backdrop)
                }
            }
            if event.phase != .advance || !deckSuspensions.isEmpty { deck.touch(at: machine.clock) }
        }
        return events
    }

    /// Feeds one key press: Escape closes an open mode picker and collapses
    /// an expanded control deck. The clock advances to the key's time first
    /// (a held press may become a long press; the deck may time out).
    @discardableResult
    public func send(_ key: KeyEvent) throws(RegistryError) -> [ShellEvent] {
        var events = try send(PointerEvent(.advance, time: key.time))
        events.append(.keyPressed(key.key))
        switch key.key {
        case .escape:
            if let dismissed = machine.dismissPicker() {
                events.append(dismissed)
                cachedLayout = nil
            }
            events += collapseDeck(.escape)
        }
        if complicationsPresentation.deckPolicy != nil { deck.touch(at: machine.clock) }
        return events
    }

    /// Expands the resting control deck, as tapping the pivot does (for a
    /// host's own control, e.g. a preview's button, or an accessibility
    /// action). `time` is on the event clock (default: the shell's clock).
    /// Returns `[.deckExpanded]`, or nothing when there is no deck or it is
    /// already expanded.
    @discardableResult
    public func expandDeck(at time: Double? = nil) -> [ShellEvent] {
        guard complicationsPresentation.deckPolicy != nil else { return [] }
        let events = deck.expand(at: max(time ?? machine.clock, machine.clock.isFinite ? machine.clock : 0))
        if !events.isEmpty { deckChanged() }
        return events
    }

    /// Collapses the expanded control deck (closing any open picker).
    /// Returns what happened; nothing when there is no deck or it rests.
    @discardableResult
    public func collapseDeck(_ reason: HudDeckCollapseReason = .host) -> [ShellEvent] {
        guard complicationsPresentation.deckPolicy != nil, deck.isExpanded else { return [] }
        var events: [ShellEvent] = []
        if let dismissed = machine.dismissPicker() { events.append(dismissed) }
        events += deck.collapse(reason)
        deckChanged()
        return events
    }

    /// Opens (or, with nil, closes) a slot's long-press modes directly, as an
    /// accessibility action would. Ignored for a slot without modes.
    public func reveal(_ position: Position?) throws(RegistryError) {
        let current = try currentSnapshot()
        if let position, current.modeIDs[position]?.isEmpty != false { return }
        machine.reveal(position)
        cachedLayout = nil
    }

    /// Events caused outside `send` (push/pop/perform called directly).
    public func takePendingEvents() -> [ShellEvent] {
        defer { pendingEvents.removeAll() }
        return pendingEvents
    }

    /// The mode ids of the slot at `position` in the marshaled set.
    public func modeIDs(at position: Position) throws(RegistryError) -> [String] {
        try currentSnapshot().modeIDs[position] ?? []
    }

    /// The marshaled snapshot in use (for tests in this package).
    var testingSnapshot: ComplicationsSnapshot? { snapshot }

    // MARK: - Private

    /// What suspends the deck's inactivity timer now.
    private var deckSuspensions: [HudDeckSuspension] {
        var reasons: [HudDeckSuspension] = []
        if machine.state.revealedPosition != nil { reasons.append(.modePicker) }
        if machine.isPressing { reasons.append(.press) }
        if environment.accessibility.contains(.assistiveTechnology) { reasons.append(.assistiveTechnology) }
        return reasons
    }

    /// Collapses the expanded deck if its timer ran out by `time`.
    private func expireDeck(at time: Double) -> [ShellEvent] {
        guard complicationsPresentation.deckPolicy != nil else { return [] }
        let events = deck.expire(at: max(time, machine.clock), suspended: !deckSuspensions.isEmpty)
        if !events.isEmpty { deckChanged() }
        return events
    }

    private func deckChanged() {
        applyDeckEnvironment()
        cachedLayout = nil
    }

    /// Writes the deck's state and lanes into the environment renderers get.
    private func applyDeckEnvironment() {
        let onDemand = complicationsPresentation.deckPolicy != nil
        let presentation = onDemand ? deck.presentation : .alwaysVisible
        let lanes = onDemand ? deck.reservedLanes : HudInsets()
        // Guarded: assigning the environment runs its didSet again.
        if environment.presentation != presentation { environment.presentation = presentation }
        if environment.reservedLanes != lanes { environment.reservedLanes = lanes }
    }

    private func navigated() {
        environment.navigationTitle = stack.last?.title
        machine.reset()
        needsResolve = true
        cachedLayout = nil
    }

    /// Re-resolves the preference if anything changed, and marshals only
    /// when the resolved content differs from what is marshaled.
    private func currentSnapshot() throws(RegistryError) -> ComplicationsSnapshot {
        if !needsResolve, let snapshot { return snapshot }
        let resolved = resolvedComplications ?? HudPhoneComplications()
        if let snapshot, let marshaled, marshaled.hasSameContent(as: resolved) {
            snapshot.rebind(to: resolved)
            bottomSnapshot?.rebind(to: resolved.withoutTopPositions)
            self.marshaled = resolved
            needsResolve = false
            return snapshot
        }
        let fresh = try ComplicationsSnapshot(resolved)
        marshalCount += 1
        snapshot = fresh  // releases (retires) the previous snapshot's thunks
        bottomSnapshot = nil
        marshaled = resolved
        needsResolve = false
        cachedLayout = nil
        return fresh
    }

    /// The resolved set without its top positions, for the style while the
    /// deck is expanded; marshaled once per publish.
    private func currentBottomSnapshot() throws(RegistryError) -> ComplicationsSnapshot {
        _ = try currentSnapshot()
        if let bottomSnapshot { return bottomSnapshot }
        let fresh = try ComplicationsSnapshot((marshaled ?? HudPhoneComplications()).withoutTopPositions)
        bottomSnapshot = fresh
        return fresh
    }
}

extension HudPhoneComplications {
    /// This set with `topLeft` and `topRight` removed.
    var withoutTopPositions: HudPhoneComplications {
        var copy = self
        copy[.topLeft] = nil
        copy[.topRight] = nil
        return copy
    }
}
