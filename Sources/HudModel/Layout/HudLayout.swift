// SPDX-License-Identifier: MIT
/// What a renderer returned for one (complications, environment,
/// interaction): validated and decoded into Swift values. The one node list
/// that every presenter (ASCII, SVG, JSON) and hit testing read.
public struct HudLayout: Sendable, Hashable {
    /// In the order the renderer emitted them.
    public var nodes: [HudNode]
    /// Points the chrome takes from the content area, which lies below the
    /// navigation bar: the top inset inward from the bar's bottom edge (the
    /// safe area's top when there is no bar), the others inward from the
    /// safe-area edges (the tray's bottom inset).
    public var contentInsets: HudInsets
    /// Positions that had a slot but were deliberately not shown.
    public var hiddenPositions: Set<Position>
    /// The control deck, when the shell composed this layout under
    /// `.summonOnDemand` (its own nodes carry `deckControl` or stand in the
    /// top lane); nil for a renderer's own layout and under `.alwaysVisible`.
    public var deck: HudDeckStatus?

    public init(nodes: [HudNode], contentInsets: HudInsets, hiddenPositions: Set<Position>, deck: HudDeckStatus? = nil) {
        self.nodes = nodes
        self.contentInsets = contentInsets
        self.hiddenPositions = hiddenPositions
        self.deck = deck
    }

    /// The nodes in paint order (ascending z; emission order breaks ties).
    public var paintOrder: [HudNode] {
        nodes.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }.map(\.element)
    }

    /// The topmost interactive node whose hit region contains the point:
    /// the highest z, and among equal z the one emitted last (painted on
    /// top). One pass, no sorting or allocation.
    public func hitTest(x: Double, y: Double) -> HudNode? {
        nodes.topmostHitIndex(x: x, y: y).map { nodes[$0] }
    }

    /// The slot node shown for a position, if any.
    public func slot(at position: Position) -> HudNode? {
        nodes.first { $0.kind == .slot && $0.position == position }
    }
}

/// One laid-out piece of chrome.
public struct HudNode: Sendable, Hashable {
    public var kind: Kind
    public var position: Position?
    public var part: Part?
    /// Index into the slot's long-press modes for mode items.
    public var modeIndex: Int?
    /// The visual's bounds in points.
    public var frame: HudRect
    /// The touch target (zero for nodes that are not interactive).
    public var hit: HudRect
    public var shape: Shape
    public var material: Material
    public var cornerRadius: Double
    public var strokeWidth: Double
    /// Label text size in points; 0 when the node shows no text.
    public var fontSize: Double
    public var fill: HudColor
    public var stroke: HudColor
    public var iconColor: HudColor
    public var textColor: HudColor
    public var placement: Placement
    public var z: Int
    public var isPressed: Bool
    public var isInteractive: Bool
    /// A mode item drawn as its slot's current mode (ABI 1.2
    /// `HUD_NODE_FLAG_SELECTED`); false on every other node, and from a
    /// renderer built for 1.0 or 1.1.
    public var isSelected: Bool
    public var icon: String?
    public var label: String?
    public var accessibilityLabel: String?
    /// Icon glyph size in points (ABI 1.1 `glyph_size`); 0 when the renderer
    /// did not say (every 1.0 renderer): presenters then use their default
    /// for the node's kind.
    public var glyphSize: Double
    /// For a slot node: the indices of its long-press modes offered as named
    /// accessibility actions, in the order a screen reader lists them
    /// (ABI 1.1). Empty for every other node.
    public var accessibilityActions: [Int]
    /// The deck control this node is, for nodes the shell draws itself
    /// (the pivot, the close button, the backdrop); nil for every other
    /// node, including the top lane's slots (those keep their position).
    public var deckControl: HudDeckControl?
    /// True for nodes the shell drew (the control deck), not the renderer.
    public var isHostDrawn: Bool

    public init(kind: Kind, position: Position?, part: Part?, modeIndex: Int?, frame: HudRect, hit: HudRect,
                shape: Shape, material: Material, cornerRadius: Double, strokeWidth: Double, fontSize: Double,
                fill: HudColor, stroke: HudColor, iconColor: HudColor, textColor: HudColor, placement: Placement,
                z: Int, isPressed: Bool, isInteractive: Bool, icon: String?, label: String?, accessibilityLabel: String?,
                glyphSize: Double = 0, accessibilityActions: [Int] = [], deckControl: HudDeckControl? = nil, isHostDrawn: Bool = false,
                isSelected: Bool = false) {
        self.kind = kind
        self.position = position
        self.part = part
        self.modeIndex = modeIndex
        self.frame = frame
        self.hit = hit
        self.shape = shape
        self.material = material
        self.cornerRadius = cornerRadius
        self.strokeWidth = strokeWidth
        self.fontSize = fontSize
        self.fill = fill
        self.stroke = stroke
        self.iconColor = iconColor
        self.textColor = textColor
        self.placement = placement
        self.z = z
        self.isPressed = isPressed
        self.isInteractive = isInteractive
        self.isSelected = isSelected && kind == .modeItem
        self.icon = icon
        self.label = label
        self.accessibilityLabel = accessibilityLabel
        self.glyphSize = glyphSize
        self.accessibilityActions = accessibilityActions
        self.deckControl = deckControl
        self.isHostDrawn = isHostDrawn || deckControl != nil
    }

    public enum Kind: Int32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case container = 0
        case slot = 1
        case secondary = 2
        case modeItem = 3

        public var description: String {
            switch self {
            case .container: "container"
            case .slot: "slot"
            case .secondary: "secondary"
            case .modeItem: "modeItem"
            }
        }
    }

    public enum Part: Int32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case slot = 0
        case secondary = 1
        case mode = 2
        case container = 3

        public var description: String {
            switch self {
            case .slot: "slot"
            case .secondary: "secondary"
            case .mode: "mode"
            case .container: "container"
            }
        }
    }

    public enum Shape: Int32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case rectangle = 0
        case roundedRectangle = 1
        case circle = 2
        case capsule = 3

        public var description: String {
            switch self {
            case .rectangle: "rectangle"
            case .roundedRectangle: "roundedRectangle"
            case .circle: "circle"
            case .capsule: "capsule"
            }
        }
    }

    public enum Material: Int32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case none = 0
        case solid = 1
        case glass = 2
        case regular = 3

        public var description: String {
            switch self {
            case .none: "none"
            case .solid: "solid"
            case .glass: "glass"
            case .regular: "regular"
            }
        }
    }

    public enum Placement: Int32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case overlay = 0
        case navigationBar = 1
        case bottomInset = 2

        public var description: String {
            switch self {
            case .overlay: "overlay"
            case .navigationBar: "navigationBar"
            case .bottomInset: "bottomInset"
            }
        }
    }
}

/// What the user is doing right now; owned by the host, reflected by the
/// renderer (pressed feedback, the revealed mode picker).
public struct HudInteraction: Sendable, Hashable {
    public var pressed: Target?
    /// The position whose long-press modes are revealed.
    public var revealedPosition: Position?

    public init(pressed: Target? = nil, revealedPosition: Position? = nil) {
        self.pressed = pressed
        self.revealedPosition = revealedPosition
    }

    public static let idle = HudInteraction()

    /// A pressable part of a position.
    public enum Target: Sendable, Hashable {
        case slot(Position)
        case secondary(Position)
        case mode(Position, index: Int)

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
    }
}
