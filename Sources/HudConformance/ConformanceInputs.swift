// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
/// The inputs the checks feed renderers: complication sets as plain values
/// (so a fuzz failure can be shrunk and printed), device environments, and
/// the matrices built from them. Everything here is deterministic; random
/// inputs come only from `SplitMix64` with a printed seed.
struct ComplicationsSpec: Hashable {
    struct SecondarySpec: Hashable {
        var icon: String
        var label: String?
        var isControl: Bool
    }

    struct ModeSpec: Hashable {
        var id: String
        var icon: String
        var label: String
        /// Flagged `HUD_MODE_FLAG_CURRENT` (ABI 1.2).
        var isCurrent = false
    }

    struct SlotSpec: Hashable {
        var icon: String
        var role: HudPhoneComplications.Role = .standard
        var label: String?
        var secondary: SecondarySpec?
        var modes: [ModeSpec] = []
    }

    var slots: [Position: SlotSpec] = [:]

    var publishedPositions: Set<Position> { Set(slots.keys) }

    /// The Swift value the host would publish (every action a no-op).
    func make() -> HudPhoneComplications {
        var complications = HudPhoneComplications()
        for (position, slot) in slots {
            complications[position] = HudPhoneComplications.Slot(
                icon: slot.icon, role: slot.role, label: slot.label,
                secondary: slot.secondary.map { .init(icon: $0.icon, label: $0.label, action: $0.isControl ? {} : nil) },
                longPressModes: slot.modes.isEmpty ? nil : slot.modes.map { .init(id: $0.id, icon: $0.icon, label: $0.label, isCurrent: $0.isCurrent) {} },
                action: {})
        }
        return complications
    }

    /// A readable description for reports.
    var json: JSONValue {
        .object(Position.allCases.compactMap { position in
            guard let slot = slots[position] else { return nil }
            var members: [(String, JSONValue)] = [("icon", .string(slot.icon)), ("role", .string(slot.role.description))]
            if let label = slot.label { members.append(("label", .string(Self.abbreviate(label)))) }
            if let secondary = slot.secondary {
                var chip: [(String, JSONValue)] = [("icon", .string(secondary.icon)), ("control", .bool(secondary.isControl))]
                if let label = secondary.label { chip.append(("label", .string(Self.abbreviate(label)))) }
                members.append(("secondary", .object(chip)))
            }
            if !slot.modes.isEmpty { members.append(("modes", .number(Double(slot.modes.count)))) }
            return (position.description, .object(members))
        })
    }

    static func abbreviate(_ text: String) -> String {
        text.utf8.count <= 48 ? text : String(text.prefix(20)) + "…(\(text.utf8.count) bytes)"
    }

    // MARK: - Fixed sets

    static func modes(_ count: Int, prefix: String = "mode") -> [ModeSpec] {
        (0..<count).map { ModeSpec(id: "\(prefix)-\($0)", icon: "circle.fill", label: "Mode \($0 + 1)") }
    }

    /// The reference set: every position, labels, a badge chip, two control
    /// chips, modes on two slots (the center's with a current mode, as the
    /// demo's style picker), all three roles.
    static let reference = ComplicationsSpec(slots: [
        .topLeft: SlotSpec(icon: "list.bullet", label: "Logs", secondary: SecondarySpec(icon: "circle.fill", label: nil, isControl: false)),
        .topRight: SlotSpec(icon: "ellipsis.circle", label: "Menu", secondary: SecondarySpec(icon: "bell.badge", label: "Alerts", isControl: true)),
        .bottomLeft: SlotSpec(icon: "trash", role: .destructive, label: "Delete", modes: modes(2, prefix: "delete")),
        .bottomRight: SlotSpec(icon: "rectangle.3.group", label: "Shell", secondary: SecondarySpec(icon: "plus", label: "New", isControl: true)),
        .center: SlotSpec(icon: "circle.grid.2x2", role: .accent, label: "Complications", modes: [
            ModeSpec(id: "tray", icon: "rectangle.bottomthird.inset.filled", label: "Tray", isCurrent: true),
            ModeSpec(id: "scattered", icon: "circle.grid.cross.fill", label: "Scattered"),
            ModeSpec(id: "minimal", icon: "circle.fill", label: "Minimal"),
        ]),
    ])

    /// Icons only: no labels, chips or modes (every optional field missing).
    static let plain = ComplicationsSpec(slots: Dictionary(uniqueKeysWithValues: Position.allCases.map {
        ($0, SlotSpec(icon: ["list.bullet", "ellipsis.circle", "gearshape", "rectangle.3.group", "circle.grid.2x2"][$0.rawValue]))
    }))

    /// The roles swapped around, with chips and modes, for contrast.
    static let roles = ComplicationsSpec(slots: [
        .topLeft: SlotSpec(icon: "star", role: .accent, label: "Favorite", secondary: SecondarySpec(icon: "plus", label: "Add", isControl: true)),
        .topRight: SlotSpec(icon: "trash", role: .destructive, label: "Delete", modes: modes(2)),
        .bottomLeft: SlotSpec(icon: "bolt", role: .accent, label: "Boost", modes: modes(3)),
        .bottomRight: SlotSpec(icon: "xmark", role: .destructive, label: "Stop", secondary: SecondarySpec(icon: "circle.fill", label: nil, isControl: false)),
        .center: SlotSpec(icon: "house", role: .standard, label: "Home", secondary: SecondarySpec(icon: "bell", label: "Alerts", isControl: true), modes: modes(4)),
    ])

    /// Only `position`, from the reference set.
    static func single(_ position: Position) -> ComplicationsSpec {
        ComplicationsSpec(slots: [position: reference.slots[position]!])
    }

    static let empty = ComplicationsSpec()
}

/// One layout request: complications, environment, interaction, named.
struct LayoutCase {
    var name: String
    var complications: ComplicationsSpec
    var environment: HudEnvironment
    var interaction: HudInteraction = .idle

    var json: JSONValue {
        .object([
            ("name", .string(name)),
            ("complications", complications.json),
            ("environment", .string(ConformanceInputs.describe(environment))),
            ("interaction", LayoutJSON.interaction(interaction)),
        ])
    }
}

enum ConformanceInputs {
    static func describe(_ e: HudEnvironment) -> String {
        var parts = ["\(format(e.screenSize.width))×\(format(e.screenSize.height))@\(format(e.scale))x",
                     "safe \(format(e.safeArea.top))/\(format(e.safeArea.left))/\(format(e.safeArea.bottom))/\(format(e.safeArea.right))",
                     e.layoutDirection.rawValue, e.colorScheme.rawValue, e.appearance.rawValue,
                     "text ×\(format(e.textScale))"]
        if e.accessibility.contains(.reduceTransparency) { parts.append("reduce-transparency") }
        if e.accessibility.contains(.increaseContrast) { parts.append("increase-contrast") }
        return parts.joined(separator: " ")
    }

    private static func format(_ value: Double) -> String { JSONValue.format(value) }

    static func device(_ device: DevicePreset, _ orientation: DevicePreset.Orientation = .portrait,
                       _ direction: HudLayoutDirection = .leftToRight, textSize: TextSizeCategory = .large,
                       scheme: HudColorScheme = .dark, appearance: HudPhoneAppShellAppearance = .hudson,
                       accessibility: HudEnvironment.AccessibilityOptions = []) -> HudEnvironment {
        HudEnvironment(device: device, orientation: orientation, layoutDirection: direction, colorScheme: scheme,
                       appearance: appearance, textSize: textSize, navigationTitle: "Home", accessibility: accessibility)
    }

    static func name(_ device: DevicePreset, _ orientation: DevicePreset.Orientation, _ direction: HudLayoutDirection,
                     _ textSize: TextSizeCategory) -> String {
        "\(device.id) \(orientation.rawValue) \(direction.rawValue) text \(textSize.rawValue)"
    }

    /// The reference layout on the default device.
    static let basic = LayoutCase(name: "reference on \(DevicePreset.default.id)", complications: .reference,
                                  environment: device(.default))

    /// The geometry matrix: every device, orientation and direction, two text
    /// sizes, the fixed sets with pickers revealed and parts pressed, plus
    /// each position alone and the empty set. Realistic screens only: every
    /// geometry rule must hold on all of them.
    static let geometryMatrix: [LayoutCase] = {
        var cases: [LayoutCase] = []
        for device in DevicePreset.all {
            for orientation in DevicePreset.Orientation.allCases {
                for direction in HudLayoutDirection.allCases {
                    for textSize in [TextSizeCategory.large, .accessibility5] {
                        let environment = Self.device(device, orientation, direction, textSize: textSize)
                        let base = name(device, orientation, direction, textSize)
                        cases.append(LayoutCase(name: "reference, \(base)", complications: .reference, environment: environment))
                        cases.append(LayoutCase(name: "reference, bottomLeft modes revealed, \(base)", complications: .reference,
                                                environment: environment, interaction: HudInteraction(revealedPosition: .bottomLeft)))
                        cases.append(LayoutCase(name: "reference, center modes revealed, center mode 1 pressed, \(base)", complications: .reference,
                                                environment: environment,
                                                interaction: HudInteraction(pressed: .mode(.center, index: 1), revealedPosition: .center)))
                        cases.append(LayoutCase(name: "reference, topRight chip pressed, \(base)", complications: .reference,
                                                environment: environment, interaction: HudInteraction(pressed: .secondary(.topRight))))
                        cases.append(LayoutCase(name: "plain, center pressed, \(base)", complications: .plain, environment: environment,
                                                interaction: HudInteraction(pressed: .slot(.center))))
                        cases.append(LayoutCase(name: "roles, topRight modes revealed, \(base)", complications: .roles, environment: environment,
                                                interaction: HudInteraction(revealedPosition: .topRight)))
                        guard textSize == .large else { continue }
                        for position in Position.allCases {
                            cases.append(LayoutCase(name: "\(position) alone, \(base)", complications: .single(position), environment: environment))
                        }
                        cases.append(LayoutCase(name: "empty, \(base)", complications: .empty, environment: environment))
                    }
                }
            }
        }
        return cases
    }()

    /// Both schemes × both appearances × accessibility settings, the sets
    /// with every role and chip, pickers revealed.
    static let contrastMatrix: [LayoutCase] = {
        var cases: [LayoutCase] = []
        for scheme in HudColorScheme.allCases {
            for appearance in HudPhoneAppShellAppearance.allCases {
                for accessibility in [HudEnvironment.AccessibilityOptions(), .increaseContrast, .reduceTransparency] {
                    for device in [DevicePreset.default, .iphoneSE] {
                        let environment = Self.device(device, scheme: scheme, appearance: appearance, accessibility: accessibility)
                        let base = describe(environment)
                        for (setName, set, revealed) in [("reference", ComplicationsSpec.reference, Position.center),
                                                         ("reference", .reference, .bottomLeft),
                                                         ("roles", .roles, .topRight), ("roles", .roles, .center)] {
                            cases.append(LayoutCase(name: "\(setName), \(revealed) modes revealed, \(base)", complications: set,
                                                    environment: environment, interaction: HudInteraction(revealedPosition: revealed)))
                        }
                    }
                }
            }
        }
        return cases
    }()

    /// Optional fields missing, positions alone, badges, empty labels.
    static let complicationSets: [(String, ComplicationsSpec)] = {
        var sets: [(String, ComplicationsSpec)] = [("empty", .empty), ("all five, icons only", .plain), ("reference", .reference), ("roles", .roles)]
        for position in Position.allCases { sets.append(("\(position) alone", .single(position))) }
        var badges = ComplicationsSpec.plain
        for position in Position.allCases { badges.slots[position]?.secondary = .init(icon: "circle.fill", label: nil, isControl: false) }
        sets.append(("badge chips without labels or actions", badges))
        var controls = ComplicationsSpec.plain
        for position in Position.allCases {
            controls.slots[position]?.secondary = .init(icon: "plus", label: nil, isControl: true)
            controls.slots[position]?.modes = ComplicationsSpec.modes(3)
        }
        sets.append(("control chips and modes everywhere, no labels", controls))
        var emptyLabels = ComplicationsSpec.reference
        for position in Position.allCases { emptyLabels.slots[position]?.label = "" }
        sets.append(("empty labels", emptyLabels))
        return sets
    }()

    /// Strings at their limits and strings that trip naive text handling.
    static let oddStrings: [(String, String)] = [
        ("4096 ASCII bytes", String(repeating: "W", count: 4096)),
        ("4096 bytes of emoji", String(repeating: "😀", count: 1024)),
        ("family emoji (ZWJ sequence)", "👨‍👩‍👧‍👦👩🏽‍💻🏳️‍🌈"),
        ("Arabic (RTL)", "مرحبا بالعالم"),
        ("Hebrew with digits", "שלום 123 עולם"),
        ("stacked combining marks", "e\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}"),
        ("invisible and bidi controls", "\u{200B}\u{FEFF}\u{202E}abc\u{202C}\u{2066}"),
        ("replacement character and noncharacters", "\u{FFFD}\u{FFFE}\u{FFFF}\u{10FFFF}"),
        ("format specifiers", "%s%n%x%p%%"),
        ("control characters", "a\tb\nc\r\u{1B}[31m"),
        ("single space", " "),
    ]

    static func oddStringSets() -> [(String, ComplicationsSpec, String?)] {
        var sets: [(String, ComplicationsSpec, String?)] = []
        for (name, text) in oddStrings {
            var spec = ComplicationsSpec.reference
            for position in Position.allCases {
                spec.slots[position]?.label = text
                if spec.slots[position]?.secondary != nil { spec.slots[position]?.secondary?.label = text }
                spec.slots[position]?.modes = (0..<3).map { .init(id: "m\($0)", icon: "circle", label: text) }
            }
            sets.append(("labels: \(name)", spec, text))
        }
        var longIcons = ComplicationsSpec.reference
        let icon = String(repeating: "i", count: 128)
        for position in Position.allCases {
            longIcons.slots[position]?.icon = icon
            longIcons.slots[position]?.secondary = .init(icon: icon, label: nil, isControl: true)
            longIcons.slots[position]?.modes = [.init(id: String(repeating: "m", count: 64), icon: icon, label: "Long")]
        }
        sets.append(("128-byte icons, 64-byte mode ids", longIcons, nil))
        var emojiIcons = ComplicationsSpec.reference
        for position in Position.allCases { emojiIcons.slots[position]?.icon = "🙂" }
        sets.append(("emoji icon names", emojiIcons, String(repeating: "T", count: 4096)))
        return sets
    }

    /// Screens no device has, with the reason each is there.
    static let viewports: [(String, HudEnvironment)] = {
        func env(_ width: Double, _ height: Double, _ safe: HudInsets, scale: Double = 3,
                 _ direction: HudLayoutDirection = .leftToRight) -> HudEnvironment {
            HudEnvironment(screenSize: HudSize(width: width, height: height), safeArea: safe, scale: scale,
                           layoutDirection: direction, navigationTitle: "Home")
        }
        return [
            ("1×1 screen", env(1, 1, .zero)),
            ("10×10 screen", env(10, 10, .zero)),
            ("44×44 screen", env(44, 44, .zero, .rightToLeft)),
            ("100000×100000 screen", env(100_000, 100_000, HudInsets(top: 50, left: 0, bottom: 50, right: 0))),
            ("zero safe area", env(402, 874, .zero)),
            ("insets larger than the screen", env(375, 667, HudInsets(top: 700, left: 400, bottom: 700, right: 400))),
            ("top inset larger than the screen", env(375, 667, HudInsets(top: 1000, left: 0, bottom: 0, right: 0), .rightToLeft)),
            ("fractional scale 2.625", env(392.7, 850.9, HudInsets(top: 47.3, left: 0, bottom: 33.7, right: 0), scale: 2.625)),
            ("fractional scale 1.5, landscape", env(851.3, 393.4, HudInsets(top: 0, left: 59.5, bottom: 21.2, right: 59.5), scale: 1.5, .rightToLeft)),
            ("very wide and short", env(4000, 120, HudInsets(top: 10, left: 0, bottom: 10, right: 0))),
            ("very tall and narrow", env(120, 4000, HudInsets(top: 60, left: 0, bottom: 30, right: 0))),
        ]
    }()
}
