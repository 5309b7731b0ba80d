// SPDX-License-Identifier: MIT
/// The host-owned gesture state machine: turns timestamped pointer events
/// and the current layout into presses, taps, long presses, picker reveals
/// and the actions to fire. Renderers never see gestures; they only get the
/// resulting `HudInteraction` (pressed target, revealed position).
///
/// Rules (iOS semantics; the original Hudson threshold):
/// - a press starts on the topmost interactive node under the finger;
/// - moving more than `movementTolerance` from the press point cancels it;
/// - held for `longPressThreshold` or longer: a long press. On a slot with
///   modes it reveals them; a second long press on the slot whose modes are
///   revealed closes them again (a toggle, as in the original); on anything
///   else it does nothing beyond the press feedback. Releasing after a long
///   press fires nothing;
/// - released earlier: a tap, which fires the node's action. While a picker
///   is open, any tap closes it and then acts on what is under the finger,
///   as in the original: tapping one of its modes fires the mode, tapping
///   its slot fires the slot's action, tapping another control fires that
///   control, tapping empty space only closes the picker;
/// - the shell's own deck controls (pivot, close, backdrop: nodes with a
///   `deckControl`) are pressed and tapped like any node; their taps are
///   reported in `Outcome.deckTaps` for the shell to carry out.
public struct InteractionMachine: Sendable {
    public var longPressThreshold: Double
    public var movementTolerance: Double
    /// What the renderer is told.
    public private(set) var state = HudInteraction.idle
    /// The shell's deck control under a held press (drawn pressed).
    public private(set) var pressedDeckControl: HudDeckControl?
    /// True while a finger is down (a press that has not been released,
    /// cancelled by movement or not).
    public var isPressing: Bool { press != nil }

    private struct Press: Sendable {
        var target: HudInteraction.Target?
        var deckControl: HudDeckControl?
        var x: Double
        var y: Double
        var time: Double
        var longPressed = false
        var cancelled = false
    }
    private var press: Press?
    /// The latest timestamp seen (-∞ before the first event).
    public private(set) var clock = -Double.infinity
    /// Timestamps are sums of seconds in binary floating point (1.45 − 1 is
    /// 0.4499…); a nanosecond of slack makes "held for the threshold" exact.
    static let timeTolerance = 1e-9

    public init(longPressThreshold: Double = 0.45, movementTolerance: Double = 10) {
        self.longPressThreshold = longPressThreshold
        self.movementTolerance = movementTolerance
    }

    /// What the machine decided for one event.
    public struct Outcome: Sendable, Hashable {
        public var events: [ShellEvent] = []
        /// Actions to run, in order (the shell runs them through their thunks).
        public var fire: [HudInteraction.Target] = []
        /// Deck controls tapped, in order (the shell expands or collapses).
        public var deckTaps: [HudDeckControl] = []
    }

    /// Feeds one event. `layout` is what is on screen now (hit testing uses
    /// its hit regions, topmost z first); `hasModes` tells whether a
    /// position's slot has long-press modes.
    public mutating func handle(_ event: PointerEvent, layout: HudLayout, hasModes: (Position) -> Bool) -> Outcome {
        var outcome = Outcome()
        let time = max(event.time, clock)  // time never runs backwards
        advance(to: time, hasModes: hasModes, into: &outcome)
        clock = time
        switch event.phase {
        case .advance:
            break
        case .down:
            if let previous = press, !previous.cancelled { Self.cancel(previous, into: &outcome) }
            let node = layout.hitTest(x: event.x, y: event.y)
            let target = node.flatMap(HudInteraction.Target.init)
            let deckControl = target == nil ? node?.deckControl : nil
            press = Press(target: target, deckControl: deckControl, x: event.x, y: event.y, time: time)
            state.pressed = target
            pressedDeckControl = deckControl
            if let target { outcome.events.append(.pressed(target)) }
            if let deckControl { outcome.events.append(.deckPressed(deckControl)) }
        case .move:
            guard var current = press, !current.cancelled else { break }
            if distance(current, event) > movementTolerance {
                current.cancelled = true
                press = current
                state.pressed = nil
                pressedDeckControl = nil
                Self.cancel(current, into: &outcome)
            }
        case .up:
            guard let current = press else { break }
            press = nil
            state.pressed = nil
            pressedDeckControl = nil
            guard !current.cancelled, !current.longPressed else { break }
            guard distance(current, event) <= movementTolerance else {
                Self.cancel(current, into: &outcome)
                break
            }
            tap(current, into: &outcome)
        }
        return outcome
    }

    /// Sets the revealed position directly (an accessibility action).
    public mutating func reveal(_ position: Position?) {
        state.revealedPosition = position
    }

    /// Closes any open picker (e.g. after navigation or a style change).
    public mutating func reset() {
        press = nil
        state = .idle
        pressedDeckControl = nil
    }

    /// Closes an open picker (Escape); returns the event, or nil when none
    /// was open. A held press stays held.
    public mutating func dismissPicker() -> ShellEvent? {
        guard let open = state.revealedPosition else { return nil }
        state.revealedPosition = nil
        return .dismissed(open)
    }

    private static func cancel(_ press: Press, into outcome: inout Outcome) {
        if let target = press.target { outcome.events.append(.cancelled(target)) }
        if let deckControl = press.deckControl { outcome.events.append(.deckCancelled(deckControl)) }
    }

    private mutating func advance(to time: Double, hasModes: (Position) -> Bool, into outcome: inout Outcome) {
        guard var current = press, !current.cancelled, !current.longPressed,
              time - current.time >= longPressThreshold - Self.timeTolerance else { return }
        current.longPressed = true
        press = current
        guard let target = current.target else { return }
        outcome.events.append(.longPressed(target))
        guard case .slot(let position) = target, hasModes(position) else { return }
        if state.revealedPosition == position {
            // A second long press on the revealed slot toggles its picker closed.
            state.revealedPosition = nil
            outcome.events.append(.dismissed(position))
            return
        }
        if let open = state.revealedPosition { outcome.events.append(.dismissed(open)) }
        state.revealedPosition = position
        outcome.events.append(.revealed(position))
    }

    private mutating func tap(_ press: Press, into outcome: inout Outcome) {
        if let open = state.revealedPosition {
            // The tap closes the picker, then acts on what is under it.
            state.revealedPosition = nil
            outcome.events.append(.dismissed(open))
        }
        if let target = press.target {
            outcome.fire.append(target)
        } else if let deckControl = press.deckControl {
            outcome.deckTaps.append(deckControl)
        }
    }

    private func distance(_ press: Press, _ event: PointerEvent) -> Double {
        let dx = event.x - press.x, dy = event.y - press.y
        return (dx * dx + dy * dy).squareRoot()
    }
}
