// SPDX-License-Identifier: MIT
/// How the shell presents the complications (the newest original shell's
/// `complicationsPresentation`): always, as the seed describes, or behind
/// the control deck's pivot button until summoned.
public enum HudPhoneComplicationsPresentation: Sendable, Hashable, CustomStringConvertible {
    /// The seed's shell: the style shows every slot all the time.
    case alwaysVisible
    /// The control deck: resting, one pivot button; expanded, the top lane,
    /// the style's bottom slots and a backdrop, until a dismissal rule fires.
    case summonOnDemand(HudPhoneControlDeckPolicy = HudPhoneControlDeckPolicy())

    /// The deck's policy, or nil under `.alwaysVisible`.
    public var deckPolicy: HudPhoneControlDeckPolicy? {
        if case .summonOnDemand(let policy) = self { policy } else { nil }
    }

    public var description: String {
        switch self {
        case .alwaysVisible: "alwaysVisible"
        case .summonOnDemand(let policy): "summonOnDemand(timeout \(JSONValue.format(policy.inactivityTimeout)) s)"
        }
    }
}

/// When the expanded control deck collapses by itself.
public struct HudPhoneControlDeckPolicy: Sendable, Hashable {
    /// Seconds without interaction after which the expanded deck collapses
    /// (the original: 6). Suspended while a mode picker is open, a finger is
    /// down, or `.assistiveTechnology` is set. Must be finite and > 0.
    public var inactivityTimeout: Double

    public static let defaultInactivityTimeout = 6.0
    /// The largest timeout accepted by scene files and the CLI.
    public static let maximumInactivityTimeout = 3600.0

    public init(inactivityTimeout: Double = HudPhoneControlDeckPolicy.defaultInactivityTimeout) {
        self.inactivityTimeout = inactivityTimeout
    }
}

/// A control the shell itself draws for the deck (never a renderer).
public enum HudDeckControl: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The resting deck's 56 pt accent button: expands the deck.
    case pivot
    /// The expanded deck's 40 pt `xmark` button in the top lane: collapses it.
    case close
    /// The expanded deck's full-screen clear layer under the lanes: a tap
    /// on it collapses the deck.
    case backdrop

    public var description: String { rawValue }

    /// The spoken name (the original's accessibility labels).
    public var accessibilityLabel: String {
        switch self {
        case .pivot: "Show controls"
        case .close: "Hide controls"
        case .backdrop: "Dismiss controls"
        }
    }

    /// The SF Symbol drawn (nil: the backdrop shows nothing).
    public var icon: String? {
        switch self {
        case .pivot: "circle.grid.2x2.fill"
        case .close: "xmark"
        case .backdrop: nil
        }
    }
}

/// Why the expanded deck collapsed.
public enum HudDeckCollapseReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A slot's, chip's or mode's action ran.
    case action
    /// The close button was tapped.
    case close
    /// The backdrop was tapped.
    case backdrop
    /// Escape was pressed.
    case escape
    /// `inactivityTimeout` seconds passed without interaction.
    case timeout
    /// The host collapsed it (`collapseDeck()`, or a new presentation).
    case host

    public var description: String { rawValue }
}

/// The control deck as it stands, for presenters, JSON and hosts: carried by
/// the shell's layouts (`HudLayout.deck`, nil under `.alwaysVisible`).
public struct HudDeckStatus: Sendable, Hashable {
    /// `.deckResting` or `.deckExpanded`.
    public var presentation: HudPresentationState
    /// Where accessibility focus is: the close button right after the deck
    /// expands, the pivot right after it collapses; nil before either.
    public var accessibilityFocus: HudDeckControl?
    /// True while expanded: the page content behind the backdrop is hidden
    /// from assistive technologies (only the lanes and the backdrop are read).
    public var contentHiddenFromAccessibility: Bool
    /// The policy's timeout in seconds.
    public var inactivityTimeout: Double
    /// The event-clock time of the last interaction (nil before any).
    public var lastInteraction: Double?
    /// When the expanded deck collapses if nothing happens: nil while
    /// resting or while the timeout is suspended.
    public var collapseDeadline: Double?
    /// Why the timeout is suspended now (empty: it is not).
    public var suspendedBy: [HudDeckSuspension]
    /// The lanes the deck reserves (also `HudEnvironment.reservedLanes`).
    public var reservedLanes: HudInsets

    public init(presentation: HudPresentationState, accessibilityFocus: HudDeckControl?, contentHiddenFromAccessibility: Bool,
                inactivityTimeout: Double, lastInteraction: Double?, collapseDeadline: Double?, suspendedBy: [HudDeckSuspension],
                reservedLanes: HudInsets) {
        self.presentation = presentation
        self.accessibilityFocus = accessibilityFocus
        self.contentHiddenFromAccessibility = contentHiddenFromAccessibility
        self.inactivityTimeout = inactivityTimeout
        self.lastInteraction = lastInteraction
        self.collapseDeadline = collapseDeadline
        self.suspendedBy = suspendedBy
        self.reservedLanes = reservedLanes
    }

    public var isExpanded: Bool { presentation == .deckExpanded }
}

/// What holds the expanded deck's inactivity timeout.
public enum HudDeckSuspension: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A mode picker is open.
    case modePicker
    /// A finger is down.
    case press
    /// `HudEnvironment.AccessibilityOptions.assistiveTechnology` is set.
    case assistiveTechnology

    public var description: String { rawValue }
}
