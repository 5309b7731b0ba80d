// SPDX-License-Identifier: MIT
import Synchronization

/// Everything about the screen and the user a renderer may depend on.
/// The host builds it (usually from a `DevicePreset`); the registry marshals
/// it into the ABI's `hud_environment_t` for each layout call.
public struct HudEnvironment: Sendable, Hashable {
    public var screenSize: HudSize { didSet { revision = Revision() } }
    public var safeArea: HudInsets { didSet { revision = Revision() } }
    public var scale: Double { didSet { revision = Revision() } }
    public var layoutDirection: HudLayoutDirection { didSet { revision = Revision() } }
    /// The device's scheme. The chrome's effective scheme also depends on
    /// `appearance`; see `chromeScheme`.
    public var colorScheme: HudColorScheme { didSet { revision = Revision() } }
    public var appearance: HudPhoneAppShellAppearance { didSet { revision = Revision() } }
    public var textScale: Double { didSet { revision = Revision() } }
    public var navigationBar: HudRect { didSet { revision = Revision() } }
    public var navigationTitle: String? { didSet { revision = Revision() } }
    public var accessibility: AccessibilityOptions { didSet { revision = Revision() } }
    /// Overrides both palettes, the complications' and the chrome's (nil:
    /// the stable dark palette for the complications, and the chrome's
    /// resolved from appearance + scheme).
    public var paletteOverride: HudPalette? { didSet { revision = Revision() } }
    /// Where the control deck stands (ABI 1.1 `presentation`); the shell
    /// sets it. `.alwaysVisible` is the seed's shell and every 1.0 host.
    public var presentation: HudPresentationState = .alwaysVisible { didSet { revision = Revision() } }
    /// Points the shell reserves at the screen's edges for its own lanes
    /// (ABI 1.1 `reserved_lanes`), measured inward from the safe area (top:
    /// from the navigation bar's bottom edge): the deck's bottom lane while
    /// resting, its top lane while expanded. Zero under `.alwaysVisible`.
    public var reservedLanes = HudInsets() { didSet { revision = Revision() } }

    /// Which state of the environment this value holds: a fresh stamp is
    /// taken whenever any field is set (and when the value is made), and
    /// copies share their stamp. So two values with the same stamp hold
    /// the same fields, and a host that marshaled one can reuse that view
    /// for the other after one word compare (comparing the fields costs
    /// more than marshaling them again). Different stamps say nothing:
    /// setting a field to the value it had takes a new stamp too. Not part
    /// of the value: `==` and `hash(into:)` ignore it.
    ///
    /// Every stored property above carries `didSet { revision = Revision() }`;
    /// a new one must too, or renderers keep the view of its old value
    /// (`EnvironmentViews`; add it to `FastPathTests`' list as well).
    package private(set) var revision = Revision()

    /// A stamp from one process-wide counter (`HudEnvironment.revision`).
    package struct Revision: Sendable, Hashable {
        /// Unique per stamp taken in this process (64 bits never wrap).
        package let value: UInt64

        private static let counter = Atomic<UInt64>(0)

        /// A stamp no value has had before.
        package init() {
            value = Self.counter.add(1, ordering: .relaxed).newValue
        }

        // Every stamp equals every other, so the environment's derived
        // `==` and `hash(into:)` compare only its fields; compare `value`
        // to tell stamps apart.
        package static func == (_: Revision, _: Revision) -> Bool { true }
        package func hash(into hasher: inout Hasher) {}
    }

    public init(
        screenSize: HudSize,
        safeArea: HudInsets,
        scale: Double = 3,
        layoutDirection: HudLayoutDirection = .leftToRight,
        colorScheme: HudColorScheme = .dark,
        appearance: HudPhoneAppShellAppearance = .hudson,
        textScale: Double = 1,
        navigationBar: HudRect? = nil,
        navigationTitle: String? = nil,
        accessibility: AccessibilityOptions = [],
        paletteOverride: HudPalette? = nil
    ) {
        self.screenSize = screenSize
        self.safeArea = safeArea
        self.scale = scale
        self.layoutDirection = layoutDirection
        self.colorScheme = colorScheme
        self.appearance = appearance
        self.textScale = textScale
        self.navigationBar = navigationBar ?? Self.standardNavigationBar(screenSize: screenSize, safeArea: safeArea)
        self.navigationTitle = navigationTitle
        self.accessibility = accessibility
        self.paletteOverride = paletteOverride
    }

    /// The environment of a device preset.
    public init(
        device: DevicePreset,
        orientation: DevicePreset.Orientation = .portrait,
        layoutDirection: HudLayoutDirection = .leftToRight,
        colorScheme: HudColorScheme = .dark,
        appearance: HudPhoneAppShellAppearance = .hudson,
        textSize: TextSizeCategory = .large,
        navigationTitle: String? = nil,
        accessibility: AccessibilityOptions = []
    ) {
        self.init(
            screenSize: device.size(orientation),
            safeArea: device.safeArea(orientation),
            scale: device.scale,
            layoutDirection: layoutDirection,
            colorScheme: colorScheme,
            appearance: appearance,
            textScale: textSize.scale,
            navigationTitle: navigationTitle,
            accessibility: accessibility
        )
    }

    /// The navigation bar under the top safe-area inset: 44 pt high, or
    /// 32 pt in compact-height (landscape) screens, full width.
    public static func standardNavigationBar(screenSize: HudSize, safeArea: HudInsets) -> HudRect {
        let compactHeight = screenSize.width > screenSize.height
        return HudRect(x: 0, y: safeArea.top, width: screenSize.width, height: compactHeight ? 32 : 44)
    }

    /// The palette Hudson's own complications use, handed to renderers in
    /// `hud_environment_t.palette`: the stable dark palette under either
    /// appearance and scheme (only system chrome follows the scheme).
    public var complicationPalette: HudPalette {
        paletteOverride ?? HudPalette.stable
    }

    /// The palette and scheme the system chrome (status bar, navigation
    /// bar, home indicator, sheets) uses: dark under `.hudson`, the device
    /// scheme under `.system`. Never the complications' colors.
    public var chromePalette: HudPalette {
        paletteOverride ?? HudPalette.resolved(appearance: appearance, scheme: colorScheme).palette
    }

    public var chromeScheme: HudColorScheme {
        HudPalette.resolved(appearance: appearance, scheme: colorScheme).scheme
    }

    /// The screen rectangle.
    public var screen: HudRect { HudRect(x: 0, y: 0, width: screenSize.width, height: screenSize.height) }

    /// The screen minus the safe-area insets.
    public var safeRect: HudRect {
        HudRect(x: safeArea.left, y: safeArea.top,
                width: max(0, screenSize.width - safeArea.left - safeArea.right),
                height: max(0, screenSize.height - safeArea.top - safeArea.bottom))
    }

    public struct AccessibilityOptions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let reduceMotion = AccessibilityOptions(rawValue: 0x1)
        public static let reduceTransparency = AccessibilityOptions(rawValue: 0x2)
        public static let increaseContrast = AccessibilityOptions(rawValue: 0x4)
        /// An assistive technology is running (VoiceOver, Switch Control):
        /// the control deck's inactivity timeout is suspended while set.
        /// Bit 0x8 of `hud_environment_t.accessibility`; renderers ignore
        /// bits they do not know.
        public static let assistiveTechnology = AccessibilityOptions(rawValue: 0x8)
    }
}

/// The control deck's state as renderers see it (`hud_presentation_t`).
public enum HudPresentationState: Int32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The seed's shell: the complications are always shown.
    case alwaysVisible = 0
    /// Summon on demand, collapsed: only the shell's pivot button shows.
    case deckResting = 1
    /// Summon on demand, expanded: the shell's top lane hosts the top
    /// corners and its close button; the style lays out the bottom slots.
    case deckExpanded = 2

    public var description: String {
        switch self {
        case .alwaysVisible: "alwaysVisible"
        case .deckResting: "deckResting"
        case .deckExpanded: "deckExpanded"
        }
    }
}
