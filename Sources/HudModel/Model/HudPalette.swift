// SPDX-License-Identifier: MIT
/// Hudson's color tokens. `HudPalette.stable` is the stable dark palette of
/// the design tokens: the complications always use it, under either
/// appearance. `HudPalette.light` is only for the system chrome the host
/// draws (status bar, navigation bar, home indicator) when `.system`
/// appearance meets a light scheme (see Docs/HUD-002-renderer-registry.md).
///
/// The static token properties (`HudPalette.bg`, ...) are the stable
/// palette's, as in the seed's `background: Color = HudPalette.bg`.
public struct HudPalette: Sendable, Hashable {
    public var bg: HudColor
    public var surface: HudColor
    public var chrome: HudColor
    public var ink: HudColor
    public var muted: HudColor
    public var dim: HudColor
    public var border: HudColor
    public var accent: HudColor
    public var statusOk: HudColor
    public var statusWarn: HudColor
    public var statusError: HudColor
    public var statusInfo: HudColor
    public var hairlineSubtle: HudColor
    public var hairlineStandard: HudColor

    public init(
        bg: HudColor, surface: HudColor, chrome: HudColor, ink: HudColor, muted: HudColor,
        dim: HudColor, border: HudColor, accent: HudColor, statusOk: HudColor, statusWarn: HudColor,
        statusError: HudColor, statusInfo: HudColor, hairlineSubtle: HudColor, hairlineStandard: HudColor
    ) {
        self.bg = bg
        self.surface = surface
        self.chrome = chrome
        self.ink = ink
        self.muted = muted
        self.dim = dim
        self.border = border
        self.accent = accent
        self.statusOk = statusOk
        self.statusWarn = statusWarn
        self.statusError = statusError
        self.statusInfo = statusInfo
        self.hairlineSubtle = hairlineSubtle
        self.hairlineStandard = hairlineStandard
    }

    /// The colors in declaration order (the order of `hud_palette_t`).
    package var allColors: [HudColor] {
        [bg, surface, chrome, ink, muted, dim, border, accent, statusOk, statusWarn, statusError, statusInfo,
         hairlineSubtle, hairlineStandard]
    }

    package static let colorCount = 14

    /// A palette from `allColors` order; `colors` has `colorCount` entries.
    package init(allColors c: [HudColor]) {
        precondition(c.count == Self.colorCount, "a palette has \(Self.colorCount) colors")
        self.init(bg: c[0], surface: c[1], chrome: c[2], ink: c[3], muted: c[4], dim: c[5], border: c[6], accent: c[7],
                  statusOk: c[8], statusWarn: c[9], statusError: c[10], statusInfo: c[11], hairlineSubtle: c[12],
                  hairlineStandard: c[13])
    }

    /// The stable dark palette (Hudson's design tokens).
    public static let stable = HudPalette(
        bg: HudColor(hex: 0x0A0A0A),
        surface: HudColor(hex: 0x171717),
        chrome: HudColor(hex: 0x060606),
        ink: HudColor(hex: 0xE5E5E5),
        muted: HudColor(hex: 0xA3A3A3),
        dim: HudColor(hex: 0x737373),
        border: HudColor(hex: 0x272727),
        accent: HudColor(hex: 0x10B981),
        statusOk: HudColor(hex: 0x22C55E),
        statusWarn: HudColor(hex: 0xF59E0B),
        statusError: HudColor(hex: 0xDC2626),
        statusInfo: HudColor(hex: 0x3B82F6),
        hairlineSubtle: HudColor(hex: 0x181818),
        hairlineStandard: HudColor(hex: 0x262626)
    )

    /// The system chrome's colors for `.system` appearance in a light scheme:
    /// the same token roles on the neutral scale's light end. Never handed to
    /// renderers: the complications keep `stable` (see `HudEnvironment`).
    public static let light = HudPalette(
        bg: HudColor(hex: 0xFAFAFA),
        surface: HudColor(hex: 0xFFFFFF),
        chrome: HudColor(hex: 0xF5F5F5),
        ink: HudColor(hex: 0x171717),
        muted: HudColor(hex: 0x525252),
        dim: HudColor(hex: 0x737373),
        border: HudColor(hex: 0xE5E5E5),
        accent: HudColor(hex: 0x047857),
        statusOk: HudColor(hex: 0x15803D),
        statusWarn: HudColor(hex: 0xB45309),
        statusError: HudColor(hex: 0xDC2626),
        statusInfo: HudColor(hex: 0x2563EB),
        hairlineSubtle: HudColor(hex: 0xEDEDED),
        hairlineStandard: HudColor(hex: 0xD4D4D4)
    )

    /// The palette the system chrome uses for an appearance and a device
    /// scheme: `.hudson` always the stable dark one; `.system` follows the
    /// scheme. The complications use `stable` in every case.
    public static func resolved(appearance: HudPhoneAppShellAppearance, scheme: HudColorScheme) -> (palette: HudPalette, scheme: HudColorScheme) {
        switch (appearance, scheme) {
        case (.hudson, _), (.system, .dark): (stable, .dark)
        case (.system, .light): (light, .light)
        }
    }

    public static var bg: HudColor { stable.bg }
    public static var surface: HudColor { stable.surface }
    public static var chrome: HudColor { stable.chrome }
    public static var ink: HudColor { stable.ink }
    public static var muted: HudColor { stable.muted }
    public static var dim: HudColor { stable.dim }
    public static var border: HudColor { stable.border }
    public static var accent: HudColor { stable.accent }
    public static var statusOk: HudColor { stable.statusOk }
    public static var statusWarn: HudColor { stable.statusWarn }
    public static var statusError: HudColor { stable.statusError }
    public static var statusInfo: HudColor { stable.statusInfo }
}
