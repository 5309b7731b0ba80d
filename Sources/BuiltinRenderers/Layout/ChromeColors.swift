// SPDX-License-Identifier: MIT
import HudRendererAPI

/// Every color the built-ins draw with, resolved from the host's palette
/// (never hard-coded) and the accessibility flags.
struct ChromeColors {
    /// Fill, stroke and icon colors of one node.
    struct Style {
        var fill: hud_rgba_t
        var stroke: hud_rgba_t
        var icon: hud_rgba_t
    }

    let palette: hud_palette_t
    /// Reduce transparency or increase contrast: containers are solid.
    let prefersSolidContainers: Bool

    init(palette: hud_palette_t, accessibility: UInt32) {
        self.palette = palette
        let solidFlags = UInt32(HUD_ACCESSIBILITY_REDUCE_TRANSPARENCY) | UInt32(HUD_ACCESSIBILITY_INCREASE_CONTRAST)
        prefersSolidContainers = accessibility & solidFlags != 0
    }

    /// `color` with its alpha byte replaced.
    static func withAlpha(_ color: hud_rgba_t, _ alpha: UInt32) -> hud_rgba_t {
        (color & 0xFFFF_FF00) | (alpha & 0xFF)
    }

    /// Hudson's `tintStrong(c)`: c at 60% opacity (alpha 0x99).
    static func tintStrong(_ color: hud_rgba_t) -> hud_rgba_t {
        withAlpha(color, 0x99)
    }

    /// A slot button by role. Unknown roles (a newer host) draw as standard.
    func slot(role: hud_role_t) -> Style {
        switch role {
        case hud_role_t(HUD_ROLE_ACCENT):
            Style(fill: palette.accent, stroke: Self.tintStrong(palette.accent), icon: palette.bg)
        case hud_role_t(HUD_ROLE_DESTRUCTIVE):
            Style(fill: palette.status_error, stroke: Self.tintStrong(palette.status_error), icon: palette.ink)
        default:
            Style(fill: palette.surface, stroke: palette.hairline_standard, icon: palette.ink)
        }
    }

    /// A secondary chip, whatever its slot's role.
    var chip: Style {
        Style(fill: palette.surface, stroke: palette.hairline_subtle, icon: palette.muted)
    }

    /// A mode item: no background of its own, ink icon and label.
    var modeItem: Style {
        Style(fill: 0, stroke: 0, icon: palette.ink)
    }

    var text: hud_rgba_t { palette.ink }

    /// The regular material's tint: surface at 80 %, so the content behind
    /// shows through as it does under the original's `.regularMaterial`.
    static let materialAlpha: UInt32 = 0xCC
    /// The original's 0.5 pt white highlight edge on material (its gradient
    /// runs 18 % → 4 %; one stroke color carries the 18 % end).
    static let highlightStroke: hud_rgba_t = 0xFFFF_FF2E

    /// The tray: regular material, or (reduce transparency / increase
    /// contrast) solid.
    var trayMaterial: hud_material_t {
        prefersSolidContainers ? hud_material_t(HUD_MATERIAL_SOLID) : hud_material_t(HUD_MATERIAL_REGULAR)
    }

    /// Regular material: surface at 80 % with the white highlight edge;
    /// solid: an opaque surface (#171717) capsule with a hairline.standard
    /// edge.
    var tray: Style {
        prefersSolidContainers
            ? Style(fill: Self.withAlpha(palette.surface, 0xFF), stroke: palette.hairline_standard, icon: 0)
            : Style(fill: Self.withAlpha(palette.surface, Self.materialAlpha), stroke: Self.highlightStroke, icon: 0)
    }

    /// The mode picker card: regular material, or solid.
    var modePickerMaterial: hud_material_t {
        prefersSolidContainers ? hud_material_t(HUD_MATERIAL_SOLID) : hud_material_t(HUD_MATERIAL_REGULAR)
    }

    /// Surface at 80 % (regular material) or opaque, always with the 0.5 pt
    /// hairline.standard edge.
    var modePicker: Style {
        Style(
            fill: Self.withAlpha(palette.surface, prefersSolidContainers ? 0xFF : Self.materialAlpha),
            stroke: palette.hairline_standard, icon: 0
        )
    }
}
