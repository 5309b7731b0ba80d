// SPDX-License-Identifier: MIT
/// An sRGB color with straight (not premultiplied) alpha, 8 bits a channel.
/// Crosses the ABI as `0xRRGGBBAA`.
public struct HudColor: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `HudColor(hex: 0x10B981)` — an opaque color from `0xRRGGBB`.
    public init(hex: UInt32) {
        self.init(rgba: (hex << 8) | 0xFF)
    }

    /// A color from `0xRRGGBBAA`, the ABI's representation.
    public init(rgba: UInt32) {
        self.init(
            red: UInt8(truncatingIfNeeded: rgba >> 24),
            green: UInt8(truncatingIfNeeded: rgba >> 16),
            blue: UInt8(truncatingIfNeeded: rgba >> 8),
            alpha: UInt8(truncatingIfNeeded: rgba)
        )
    }

    /// `0xRRGGBBAA`.
    public var rgba: UInt32 {
        UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha)
    }

    /// The same color at `opacity` (0…1) of full alpha.
    public func opacity(_ opacity: Double) -> HudColor {
        var copy = self
        copy.alpha = UInt8((min(max(opacity, 0), 1) * 255).rounded())
        return copy
    }

    /// Hudson's `tintStrong(c)`: the color at 60% opacity.
    public var tintStrong: HudColor { opacity(0.6) }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var description: String {
        let hex = alpha == 255 ? rgba >> 8 : rgba
        let digits = String(hex, radix: 16, uppercase: true)
        let width = alpha == 255 ? 6 : 8
        return "#" + String(repeating: "0", count: width - digits.count) + digits
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (the `#` is optional).
    public init?(string: String) {
        var text = Substring(string)
        if text.hasPrefix("#") { text = text.dropFirst() }
        guard text.count == 6 || text.count == 8, let value = UInt32(text, radix: 16) else { return nil }
        self.init(rgba: text.count == 6 ? (value << 8) | 0xFF : value)
    }
}
