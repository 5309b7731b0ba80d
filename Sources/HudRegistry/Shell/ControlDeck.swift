// SPDX-License-Identifier: MIT
/// The control deck's state machine (`.summonOnDemand`), owned by the shell
/// like the picker: resting or expanded, where accessibility focus is, and
/// when the expanded deck times out. Time is the shell's event clock only
/// (the timestamps of pointer and key events); nothing reads a wall clock.
///
/// Rules (the reference sheet, "The control deck"):
/// - `expand(at:)` (the pivot tapped): expanded, focus on the close button,
///   the inactivity timer starts at that time;
/// - `collapse(_:)` (after any slot, chip or mode action, the close button,
///   a backdrop tap, Escape, the host): resting, focus back on the pivot;
/// - `expire(at:suspended:)`: collapses when `inactivityTimeout` seconds
///   have passed since the last interaction — at exactly the deadline, not
///   a moment before — unless the timer is suspended;
/// - `touch(at:)`: an interaction (any pointer or key event), or a moment
///   the timer was suspended: the timer restarts from there, so it runs
///   again in full once the picker closes or the assistive technology
///   stops.
public struct ControlDeck: Sendable, Hashable {
    public var policy: HudPhoneControlDeckPolicy
    public private(set) var isExpanded = false
    public private(set) var accessibilityFocus: HudDeckControl?
    /// The last interaction (or suspended moment) on the event clock.
    public private(set) var lastInteraction: Double?

    /// Timestamps are sums of seconds in binary floating point; a
    /// nanosecond of slack makes "6 s later" exact.
    static let timeTolerance = 1e-9

    public init(policy: HudPhoneControlDeckPolicy = HudPhoneControlDeckPolicy()) {
        self.policy = policy
    }

    public var presentation: HudPresentationState { isExpanded ? .deckExpanded : .deckResting }

    /// The lanes the deck reserves now: the bottom lane while resting, the
    /// top lane while expanded (ABI 1.1 `reserved_lanes`).
    public var reservedLanes: HudInsets {
        isExpanded ? HudInsets(top: DeckChrome.topLane) : HudInsets(bottom: DeckChrome.bottomLane)
    }

    /// When the expanded deck collapses if nothing happens; nil while
    /// resting or suspended.
    public func deadline(suspended: Bool) -> Double? {
        guard isExpanded, !suspended, let lastInteraction else { return nil }
        return lastInteraction + policy.inactivityTimeout
    }

    /// Expands the resting deck. Returns the events (none if it was expanded).
    public mutating func expand(at time: Double) -> [ShellEvent] {
        guard !isExpanded else { return [] }
        isExpanded = true
        accessibilityFocus = .close
        lastInteraction = time
        return [.deckExpanded]
    }

    /// Collapses the expanded deck. Returns the events (none if it was resting).
    public mutating func collapse(_ reason: HudDeckCollapseReason) -> [ShellEvent] {
        guard isExpanded else { return [] }
        isExpanded = false
        accessibilityFocus = .pivot
        return [.deckCollapsed(reason)]
    }

    /// Collapses by timeout if the deadline has come by `time`.
    public mutating func expire(at time: Double, suspended: Bool) -> [ShellEvent] {
        guard let deadline = deadline(suspended: suspended), time >= deadline - Self.timeTolerance else { return [] }
        return collapse(.timeout)
    }

    /// Records an interaction (or a suspended moment) at `time`.
    public mutating func touch(at time: Double) {
        lastInteraction = max(time, lastInteraction ?? time)
    }

    /// The status presenters and JSON show.
    public func status(suspendedBy: [HudDeckSuspension]) -> HudDeckStatus {
        HudDeckStatus(presentation: presentation, accessibilityFocus: accessibilityFocus, contentHiddenFromAccessibility: isExpanded,
                      inactivityTimeout: policy.inactivityTimeout, lastInteraction: lastInteraction,
                      collapseDeadline: deadline(suspended: !suspendedBy.isEmpty), suspendedBy: suspendedBy, reservedLanes: reservedLanes)
    }
}
