// SPDX-License-Identifier: MIT
/// Which renderer the shell dispatches the published complications to.
///
/// The paved path is a variant enum (`.tray`, `.scattered`, `.minimal`);
/// `.renderer(id)` is the open escape hatch for any registered renderer,
/// built-in or plugin (HUD-002: variant enum + open slot).
public enum HudPhoneComplicationsStyle: Sendable, Hashable, CustomStringConvertible {
    /// Default. Bottom three grouped in a glass tray; top two in the nav bar.
    case tray
    /// All five slots float as corner overlays.
    case scattered
    /// Center only; the other positions are ignored.
    case minimal
    /// Any registered renderer, by its reverse-DNS id.
    case renderer(String)

    /// The reverse-DNS id the registry knows the style by.
    public var rendererID: String {
        switch self {
        case .tray: Self.trayID
        case .scattered: Self.scatteredID
        case .minimal: Self.minimalID
        case .renderer(let id): id
        }
    }

    public static let trayID = "com.hudson.tray"
    public static let scatteredID = "com.hudson.scattered"
    public static let minimalID = "com.hudson.minimal"

    /// A style from a CLI or scene word: `tray`, `scattered`, `minimal`, or a
    /// renderer id. Built-in ids map back onto their enum cases, so
    /// `.renderer("com.hudson.tray") == .tray` after parsing.
    public init(name: String) {
        switch name {
        case "tray", Self.trayID: self = .tray
        case "scattered", Self.scatteredID: self = .scattered
        case "minimal", Self.minimalID: self = .minimal
        default: self = .renderer(name)
        }
    }

    public var description: String {
        switch self {
        case .tray: "tray"
        case .scattered: "scattered"
        case .minimal: "minimal"
        case .renderer(let id): id
        }
    }
}

/// The seed's appearance policy for the shell's chrome.
public enum HudPhoneAppShellAppearance: String, Sendable, Hashable, CaseIterable, Codable {
    /// The stable dark palette and dark scheme, whatever the device does.
    case hudson
    /// Follow the environment's color scheme; hosted content must adapt.
    case system
}

/// Light or dark.
public enum HudColorScheme: String, Sendable, Hashable, CaseIterable, Codable {
    case dark
    case light
}

/// Left-to-right or right-to-left.
public enum HudLayoutDirection: String, Sendable, Hashable, CaseIterable, Codable {
    case leftToRight = "ltr"
    case rightToLeft = "rtl"
}
