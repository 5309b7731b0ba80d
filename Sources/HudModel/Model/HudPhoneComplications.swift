// SPDX-License-Identifier: MIT
/// The five programmable affordances a page publishes, one optional slot per
/// position (the seed's `HudPhoneComplications`).
///
/// Positions are a closed set; slots are open data. A renderer receives this
/// as data (marshaled once per publish into a C view), never as views, so any
/// renderer can restyle any page.
///
/// Actions are plain closures, like the seed's `() -> Void`. They run on the
/// thread that drives the shell; the type is therefore not `Sendable`.
public struct HudPhoneComplications {
    public var topLeft: Slot?
    public var topRight: Slot?
    public var bottomLeft: Slot?
    public var bottomRight: Slot?
    public var center: Slot?

    public init(
        topLeft: Slot? = nil,
        topRight: Slot? = nil,
        bottomLeft: Slot? = nil,
        bottomRight: Slot? = nil,
        center: Slot? = nil
    ) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
        self.center = center
    }

    /// The slot published at `position`, if any.
    public subscript(position: Position) -> Slot? {
        get {
            switch position {
            case .topLeft: topLeft
            case .topRight: topRight
            case .bottomLeft: bottomLeft
            case .bottomRight: bottomRight
            case .center: center
            }
        }
        set {
            switch position {
            case .topLeft: topLeft = newValue
            case .topRight: topRight = newValue
            case .bottomLeft: bottomLeft = newValue
            case .bottomRight: bottomRight = newValue
            case .center: center = newValue
            }
        }
    }

    /// The positions that hold a slot, in `Position` order.
    public var occupiedPositions: [Position] {
        Position.allCases.filter { self[$0] != nil }
    }

    /// The five positions. `topLeft`/`bottomLeft` are the leading corners:
    /// in right-to-left layouts they render on the right. The center stays.
    public enum Position: Int, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
        case topLeft = 0
        case topRight = 1
        case bottomLeft = 2
        case bottomRight = 3
        case center = 4

        /// The camelCase name used by the CLI, scene files and JSON.
        public var description: String {
            switch self {
            case .topLeft: "topLeft"
            case .topRight: "topRight"
            case .bottomLeft: "bottomLeft"
            case .bottomRight: "bottomRight"
            case .center: "center"
            }
        }

        /// Parses `topLeft`, `top-left` or `tl` (case-insensitive).
        public init?(name: String) {
            let key = String(name.lowercased().filter { $0 != "-" && $0 != "_" })
            switch key {
            case "topleft", "tl": self = .topLeft
            case "topright", "tr": self = .topRight
            case "bottomleft", "bl": self = .bottomLeft
            case "bottomright", "br": self = .bottomRight
            case "center", "c": self = .center
            default: return nil
            }
        }
    }

    /// Drives a slot's fill, stroke and icon colors.
    public enum Role: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        case standard = 0
        case accent = 1
        case destructive = 2

        public var description: String {
            switch self {
            case .standard: "standard"
            case .accent: "accent"
            case .destructive: "destructive"
            }
        }

        public init?(name: String) {
            guard let role = Role.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
            self = role
        }
    }

    /// One programmable affordance.
    public struct Slot {
        /// SF Symbol name.
        public var icon: String
        public var role: Role
        /// Optional text label (renderer-specific; always the accessibility label).
        public var label: String?
        /// A smaller chip beside the slot, on its inner side (toward the
        /// screen's centre: the seed's diagram `[TL]·s   s·[TR]`).
        public var secondary: Secondary?
        /// Alternative actions surfaced on long press.
        public var longPressModes: [Mode]?
        /// Tap handler.
        public var action: () -> Void

        public init(
            icon: String,
            role: Role = .standard,
            label: String? = nil,
            secondary: Secondary? = nil,
            longPressModes: [Mode]? = nil,
            action: @escaping () -> Void
        ) {
            self.icon = icon
            self.role = role
            self.label = label
            self.secondary = secondary
            self.longPressModes = longPressModes
            self.action = action
        }
    }

    /// A smaller chip on the slot's inner side (toward the screen's centre;
    /// the seed's table says "outer", its diagram and the original renderers
    /// put it inside). Without an action it is a
    /// badge (decoration, not a control); with one it is a control of its own
    /// with a full 44×44 pt touch target.
    public struct Secondary {
        public var icon: String
        public var label: String?
        public var action: (() -> Void)?

        public init(icon: String, label: String? = nil, action: (() -> Void)? = nil) {
            self.icon = icon
            self.label = label
            self.action = action
        }
    }

    /// A long-press mode: an alternative action for the slot's job, not a
    /// navigation menu in disguise.
    public struct Mode {
        public var id: String
        public var icon: String
        public var label: String
        /// The mode the slot is in now (the style in use, in the demo's
        /// style picker): at most one mode of a slot. A renderer built for
        /// ABI 1.2 marks its picker item (`HudNode.isSelected`).
        public var isCurrent: Bool
        public var action: () -> Void

        public init(id: String, icon: String, label: String, isCurrent: Bool = false, action: @escaping () -> Void) {
            self.id = id
            self.icon = icon
            self.label = label
            self.isCurrent = isCurrent
            self.action = action
        }
    }
}

/// Short name used across the library and the CLI.
public typealias Position = HudPhoneComplications.Position

extension HudPhoneComplications.Position {
    /// The ABI's bit for this position (`HUD_POSITION_BIT`).
    public var bit: UInt32 { 1 << UInt32(rawValue) }

    /// A set of positions as the ABI's bit mask.
    public static func mask(_ positions: some Sequence<Position>) -> UInt32 {
        positions.reduce(0) { $0 | $1.bit }
    }

    /// `mask` of a set, without the generic sequence code (`list` asks it
    /// for every row).
    public static func mask(_ positions: Set<Position>) -> UInt32 {
        var mask: UInt32 = 0
        for position in positions { mask |= position.bit }
        return mask
    }

    /// The positions a bit mask names, in position order (unknown bits ignored).
    public static func positions(in mask: UInt32) -> [Position] {
        allCases.filter { mask & $0.bit != 0 }
    }

    /// The set of positions a bit mask names (unknown bits ignored), made
    /// once per mask: every renderer record read from the registry cache
    /// needs one, and building a `Set` hashes each element.
    public static func set(in mask: UInt32) -> Set<Position> {
        setsByMask[Int(mask & allMask)]
    }

    /// Every position's bit.
    static let allMask: UInt32 = mask(allCases)

    private static let setsByMask: [Set<Position>] = (0...allMask).map { Set(positions(in: $0)) }
}
