// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import Glibc

/// WCAG 2.x contrast, as in `devices-and-accessibility.md`: channels
/// linearized, L = 0.2126 R + 0.7152 G + 0.0722 B, ratio (L1 + 0.05) /
/// (L2 + 0.05). Translucent colors are composited over what lies beneath
/// (lower nodes whose frame holds the node's center, then a backdrop);
/// when translucency lets the backdrop through, the worst of the palette's
/// bg, chrome and surface and pure black and white is kept.
enum ContrastRules {
    struct RGB: Equatable {
        var r: Double, g: Double, b: Double
        static let black = RGB(r: 0, g: 0, b: 0)
        static let white = RGB(r: 255, g: 255, b: 255)
        init(r: Double, g: Double, b: Double) { self.r = r; self.g = g; self.b = b }
        init(_ c: HudColor) { self.init(r: Double(c.red), g: Double(c.green), b: Double(c.blue)) }
    }

    static func luminance(_ c: RGB) -> Double {
        HudColor.relativeLuminance(red: c.r, green: c.g, blue: c.b)
    }

    static func ratio(_ a: RGB, _ b: RGB) -> Double {
        let (l1, l2) = (luminance(a), luminance(b))
        return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
    }

    /// `top` (straight alpha) over an opaque `bottom`.
    static func over(_ top: HudColor, _ bottom: RGB) -> RGB {
        let a = Double(top.alpha) / 255
        return RGB(r: Double(top.red) * a + bottom.r * (1 - a), g: Double(top.green) * a + bottom.g * (1 - a),
                   b: Double(top.blue) * a + bottom.b * (1 - a))
    }

    /// The layers beneath node `index` (including its own fill), bottom first.
    static func layers(under index: Int, in layout: HudLayout) -> [HudColor] {
        let node = layout.nodes[index]
        let order = layout.nodes.indices.sorted { (layout.nodes[$0].z, $0) < (layout.nodes[$1].z, $1) }
        guard let position = order.firstIndex(of: index) else { return [] }
        var layers: [HudColor] = []
        for other in order[..<position] {
            let below = layout.nodes[other]
            if below.material != .none, below.fill.alpha > 0, below.frame.contains(x: node.frame.midX, y: node.frame.midY) {
                layers.append(below.fill)
            }
        }
        if node.material != .none, node.fill.alpha > 0 { layers.append(node.fill) }
        return layers
    }

    /// The possible backgrounds of node `index`.
    static func backgrounds(of index: Int, in layout: HudLayout, palette: HudPalette) -> [RGB] {
        let stack = layers(under: index, in: layout)
        var backdrops = [RGB(palette.bg), RGB(palette.chrome), RGB(palette.surface)]
        if stack.contains(where: { $0.alpha > 0 && $0.alpha < 255 }) { backdrops += [.black, .white] }
        var results: [RGB] = []
        for backdrop in backdrops {
            var color = backdrop
            for layer in stack { color = over(layer, color) }
            if !results.contains(color) { results.append(color) }
        }
        return results
    }

    /// Icons ≥ 3:1, text ≥ 4.5:1 (≥ 3:1 at 18 pt and up) against the worst background.
    static func problems(_ layout: HudLayout, palette: HudPalette) -> [String] {
        var problems: [String] = []
        for (index, node) in layout.nodes.enumerated() {
            let hasIcon = node.icon.map { !$0.isEmpty } ?? false
            let hasText = (node.label.map { !$0.isEmpty } ?? false) && node.fontSize > 0
            guard hasIcon || hasText else { continue }
            let backgrounds = backgrounds(of: index, in: layout, palette: palette)
            func worst(_ foreground: HudColor) -> (Double, RGB) {
                backgrounds.map { (ratio(over(foreground, $0), $0), $0) }.min { $0.0 < $1.0 } ?? (21, .black)
            }
            func hex(_ c: RGB) -> String { HudColor(red: UInt8(c.r.rounded()), green: UInt8(c.g.rounded()), blue: UInt8(c.b.rounded())).description }
            if hasIcon {
                let (value, background) = worst(node.iconColor)
                if value < 3 - 1e-9 {
                    problems.append("\(GeometryRules.describe(node, index)) icon \(node.iconColor) on \(hex(background)) has contrast \(rounded(value)):1; icons need 3:1")
                }
            }
            if hasText {
                let needed = node.fontSize >= 18 ? 3.0 : 4.5
                let (value, background) = worst(node.textColor)
                if value < needed - 1e-9 {
                    problems.append("\(GeometryRules.describe(node, index)) text \(node.textColor) at \(JSONValue.format(node.fontSize)) pt on \(hex(background)) has contrast \(rounded(value)):1; it needs \(JSONValue.format(needed)):1")
                }
            }
        }
        return problems
    }

    static func rounded(_ value: Double) -> String { JSONValue.format((value * 100).rounded() / 100) }
}
