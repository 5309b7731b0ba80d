// SPDX-License-Identifier: MIT
/// One pointer event fed to the shell, with an explicit timestamp in
/// seconds. Time only moves through these timestamps: nothing sleeps, so
/// interaction is deterministic and testable.
public struct PointerEvent: Sendable, Hashable, CustomStringConvertible {
    public enum Phase: String, Sendable, Hashable {
        /// A finger goes down.
        case down
        /// The finger moves.
        case move
        /// The finger lifts.
        case up
        /// No touch change; the clock advances (long presses are recognized).
        case advance
    }

    public var phase: Phase
    public var x: Double
    public var y: Double
    /// Seconds since any fixed origin; must not go backwards.
    public var time: Double

    public init(_ phase: Phase, x: Double = 0, y: Double = 0, time: Double) {
        self.phase = phase
        self.x = x
        self.y = y
        self.time = time
    }

    public var description: String {
        phase == .advance ? "advance @\(JSONValue.format(time))" : "\(phase.rawValue) \(JSONValue.format(x)),\(JSONValue.format(y)) @\(JSONValue.format(time))"
    }
}

/// One key press fed to the shell, timestamped on the same clock as
/// pointer events. Only the keys the shell acts on exist.
public struct KeyEvent: Sendable, Hashable, CustomStringConvertible {
    public enum Key: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Closes an open mode picker and collapses an expanded control deck.
        case escape

        public var description: String { rawValue }
    }

    public var key: Key
    /// Seconds on the pointer events' clock; must not go backwards.
    public var time: Double

    public init(_ key: Key, time: Double) {
        self.key = key
        self.time = time
    }

    public var description: String { "key \(key) @\(JSONValue.format(time))" }
}

/// What happened in the shell as a result of an event.
public enum ShellEvent: Sendable, Hashable, CustomStringConvertible {
    case pressed(HudInteraction.Target)
    /// The press moved too far (or a second finger came down) and will not tap.
    case cancelled(HudInteraction.Target)
    /// The press was held past the threshold.
    case longPressed(HudInteraction.Target)
    case revealed(Position)
    case dismissed(Position)
    /// An action ran through its C thunk.
    case actionFired(HudInteraction.Target)
    case styleChanged(from: HudPhoneComplicationsStyle, to: HudPhoneComplicationsStyle)
    case pushed(String)
    case popped(String)
    /// A scene's `log:` action.
    case log(String)
    /// A press started on one of the shell's deck controls.
    case deckPressed(HudDeckControl)
    /// That press moved too far and will not tap.
    case deckCancelled(HudDeckControl)
    /// A deck control was tapped.
    case deckTapped(HudDeckControl)
    /// The control deck expanded (the pivot was tapped, or the host asked).
    case deckExpanded
    /// The control deck collapsed, and why.
    case deckCollapsed(HudDeckCollapseReason)
    /// A key was pressed (`KeyEvent`).
    case keyPressed(KeyEvent.Key)

    public var description: String {
        switch self {
        case .pressed(let target): "pressed \(target.name)"
        case .cancelled(let target): "cancelled \(target.name)"
        case .longPressed(let target): "long-pressed \(target.name)"
        case .revealed(let position): "revealed \(position) modes"
        case .dismissed(let position): "dismissed \(position) modes"
        case .actionFired(let target): "action \(target.name)"
        case .styleChanged(let from, let to): "style \(from) → \(to)"
        case .pushed(let title): "pushed \"\(title)\""
        case .popped(let title): "popped \"\(title)\""
        case .log(let text): "log \(text)"
        case .deckPressed(let control): "pressed deck:\(control)"
        case .deckCancelled(let control): "cancelled deck:\(control)"
        case .deckTapped(let control): "tapped deck:\(control)"
        case .deckExpanded: "deck expanded"
        case .deckCollapsed(let reason): "deck collapsed (\(reason))"
        case .keyPressed(let key): "key \(key)"
        }
    }
}

extension HudInteraction.Target {
    /// The target a node stands for, if it is pressable.
    init?(_ node: HudNode) {
        guard node.isInteractive, let position = node.position else { return nil }
        switch node.kind {
        case .slot: self = .slot(position)
        case .secondary: self = .secondary(position)
        case .modeItem:
            guard let index = node.modeIndex else { return nil }
            self = .mode(position, index: index)
        case .container: return nil
        }
    }
}
