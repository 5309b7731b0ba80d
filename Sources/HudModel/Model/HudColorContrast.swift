// SPDX-License-Identifier: MIT
import Glibc

/// WCAG 2.x contrast (`devices-and-accessibility.md`): each channel
/// linearized (c/12.92 up to 0.04045, else ((c+0.055)/1.055)^2.4),
/// L = 0.2126 R + 0.7152 G + 0.0722 B, ratio (L1 + 0.05) / (L2 + 0.05);
/// translucent colors are composited over what lies beneath first.
extension HudColor {
    /// The relative luminance of channels given as 0…255 values.
    package static func relativeLuminance(red: Double, green: Double, blue: Double) -> Double {
        func linear(_ value: Double) -> Double {
            let s = value / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// This color's relative luminance (alpha ignored).
    package var relativeLuminance: Double {
        Self.relativeLuminance(red: Double(red), green: Double(green), blue: Double(blue))
    }

    /// This color (straight alpha) painted over `bottom` (taken as opaque).
    package func composited(over bottom: HudColor) -> HudColor {
        let a = Double(alpha) / 255
        func mix(_ top: UInt8, _ below: UInt8) -> UInt8 { UInt8((Double(top) * a + Double(below) * (1 - a)).rounded()) }
        return HudColor(red: mix(red, bottom.red), green: mix(green, bottom.green), blue: mix(blue, bottom.blue))
    }

    /// The contrast ratio of two opaque colors, 1…21.
    package static func contrast(_ a: HudColor, _ b: HudColor) -> Double {
        let (l1, l2) = (a.relativeLuminance, b.relativeLuminance)
        return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
    }

    /// A text color readable on the opaque `backdrop` (WCAG 1.4.3: `minimum`
    /// 4.5:1 for normal text, 3:1 for large): this color if it is, painted
    /// over the backdrop; else this color opaque; else black or white,
    /// whichever contrasts more.
    package func readable(on backdrop: HudColor, minimum: Double = 4.5) -> HudColor {
        if Self.contrast(composited(over: backdrop), backdrop) >= minimum { return self }
        let opaque = HudColor(red: red, green: green, blue: blue)
        if Self.contrast(opaque, backdrop) >= minimum { return opaque }
        let black = HudColor(hex: 0x000000), white = HudColor(hex: 0xFFFFFF)
        return Self.contrast(black, backdrop) >= Self.contrast(white, backdrop) ? black : white
    }
}
