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
///   modes it reveals them; otherwise it does nothing beyond the press
///   feedback. Releasing after a long press fires nothing;
/// - released earlier: a tap, which fires the node's action. While a picker
///   is open, tapping one of its modes fires the mode and closes it, tapping
///   its slot fires the slot's action and closes it, and tapping anything
///   else only closes it (no action: the tap dismisses, like a menu).
public struct InteractionMachine: Sendable {
    public var longPressThreshold: Double
    public var movementTolerance: Double
    /// What the renderer is told.
    public private(set) var state = HudInteraction.idle

    private struct Press: Sendable {
        var target: HudInteraction.Target?
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
            if let previous = press, !previous.cancelled, let target = previous.target {
                outcome.events.append(.cancelled(target))
            }
            let target = layout.hitTest(x: event.x, y: event.y).flatMap(HudInteraction.Target.init)
            press = Press(target: target, x: event.x, y: event.y, time: time)
            state.pressed = target
            if let target { outcome.events.append(.pressed(target)) }
        case .move:
            guard var current = press, !current.cancelled else { break }
            if distance(current, event) > movementTolerance {
                current.cancelled = true
                press = current
                state.pressed = nil
                if let target = current.target { outcome.events.append(.cancelled(target)) }
            }
        case .up:
            guard let current = press else { break }
            press = nil
            state.pressed = nil
            guard !current.cancelled, !current.longPressed else { break }
            guard distance(current, event) <= movementTolerance else {
                if let target = current.target { outcome.events.append(.cancelled(target)) }
                break
            }
            tap(current.target, into: &outcome)
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
    }

    private mutating func advance(to time: Double, hasModes: (Position) -> Bool, into outcome: inout Outcome) {
        guard var current = press, !current.cancelled, !current.longPressed,
              time - current.time >= longPressThreshold - Self.timeTolerance else { return }
        current.longPressed = true
        press = current
        guard let target = current.target else { return }
        outcome.events.append(.longPressed(target))
        if case .slot(let position) = target, hasModes(position) {
            if let open = state.revealedPosition, open != position { outcome.events.append(.dismissed(open)) }
            state.revealedPosition = position
            outcome.events.append(.revealed(position))
        }
    }

    private mutating func tap(_ target: HudInteraction.Target?, into outcome: inout Outcome) {
        if let open = state.revealedPosition {
            state.revealedPosition = nil
            outcome.events.append(.dismissed(open))
            switch target {
            case .mode(open, _)?, .slot(open)?:
                outcome.fire.append(target!)
            default:
                break  // a tap elsewhere only dismisses
            }
            return
        }
        if let target { outcome.fire.append(target) }
    }

    private func distance(_ press: Press, _ event: PointerEvent) -> Double {
        let dx = event.x - press.x, dy = event.y - press.y
        return (dx * dx + dy * dy).squareRoot()
    }
}
