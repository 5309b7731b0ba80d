// SPDX-License-Identifier: MIT
import HudUnsafe
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
    public var environment: HudEnvironment {
        didSet {
            environment.navigationTitle = stack.last?.title
            cachedLayout = nil
        }
    }
    public var complicationsStyle: HudPhoneComplicationsStyle {
        didSet {
            guard complicationsStyle != oldValue else { return }
            machine.reset()
            cachedLayout = nil
        }
    }
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

    public init(
        complicationsStyle: HudPhoneComplicationsStyle = .tray,
        background: HudColor = HudPalette.bg,
        appearance: HudPhoneAppShellAppearance = .hudson,
        registry: RendererRegistry = .withBuiltins(),
        environment: HudEnvironment = HudEnvironment(device: .default),
        root: () -> HudPage
    ) {
        self.complicationsStyle = complicationsStyle
        self.background = background
        self.registry = registry
        let root = root()
        var environment = environment
        environment.appearance = appearance
        environment.navigationTitle = root.title
        self.environment = environment
        self.stack = [root]
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
        if let cachedLayout { return cachedLayout }
        let current = try currentSnapshot()
        do {
            let layout = try registry.layout(style: complicationsStyle, snapshot: current, environment: environment, interaction: machine.state)
            rendererFailure = nil
            cachedLayout = layout
            return layout
        } catch {
            guard case .rendererHostFailed = error, fallbackStyle != complicationsStyle else { throw error }
            rendererFailure = error
            return try registry.layout(style: fallbackStyle, snapshot: current, environment: environment, interaction: machine.state)
        }
    }

    /// Feeds one pointer event; returns what happened, in order, including
    /// actions fired (through their C thunks) and what they caused.
    @discardableResult
    public func send(_ event: PointerEvent) throws(RegistryError) -> [ShellEvent] {
        let onScreen = try layout()
        let current = try currentSnapshot()
        let before = machine.state
        let outcome = machine.handle(event, layout: onScreen, hasModes: { current.modeIDs[$0]?.isEmpty == false })
        if machine.state != before { cachedLayout = nil }
        var events = outcome.events
        for target in outcome.fire {
            if current.invoke(target) { events.append(.actionFired(target)) }
            events += pendingEvents
            pendingEvents.removeAll()
        }
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
            self.marshaled = resolved
            needsResolve = false
            return snapshot
        }
        let fresh = try ComplicationsSnapshot(resolved)
        marshalCount += 1
        snapshot = fresh  // releases (retires) the previous snapshot's thunks
        marshaled = resolved
        needsResolve = false
        cachedLayout = nil
        return fresh
    }
}
