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
        }
    }
}

extension HudInteraction.Target {
    /// `slot:center`, `secondary:topLeft`, `mode:center#2`.
    public var name: String {
        switch self {
        case .slot(let position): "slot:\(position)"
        case .secondary(let position): "secondary:\(position)"
        case .mode(let position, let index): "mode:\(position)#\(index)"
        }
    }

    public var position: Position {
        switch self {
        case .slot(let position), .secondary(let position), .mode(let position, _): position
        }
    }

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
