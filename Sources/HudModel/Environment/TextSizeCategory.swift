// SPDX-License-Identifier: MIT
/// Dynamic Type categories and their body-size scale factors (size / 17).
public enum TextSizeCategory: String, Sendable, Hashable, CaseIterable, Codable {
    case extraSmall = "xS"
    case small = "S"
    case medium = "M"
    case large = "L"
    case extraLarge = "xL"
    case extraExtraLarge = "xxL"
    case extraExtraExtraLarge = "xxxL"
    case accessibility1 = "AX1"
    case accessibility2 = "AX2"
    case accessibility3 = "AX3"
    case accessibility4 = "AX4"
    case accessibility5 = "AX5"

    /// Body text size in points.
    public var bodyPointSize: Double {
        switch self {
        case .extraSmall: 14
        case .small: 15
        case .medium: 16
        case .large: 17
        case .extraLarge: 19
        case .extraExtraLarge: 21
        case .extraExtraExtraLarge: 23
        case .accessibility1: 28
        case .accessibility2: 33
        case .accessibility3: 40
        case .accessibility4: 47
        case .accessibility5: 53
        }
    }

    /// The factor labels scale by; 1.0 at `.large`, the default.
    public var scale: Double { bodyPointSize / 17 }

    /// Parses the short names (`L`, `ax5`, `xxxl`), case-insensitively.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = match
    }
}
