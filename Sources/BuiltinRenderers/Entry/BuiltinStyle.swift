// SPDX-License-Identifier: MIT
import HudRendererAPI

/// The three built-in render styles: what each descriptor says, and the
/// layout() behind it.
enum BuiltinStyle: CaseIterable {
    case tray
    case scattered
    case minimal

    var id: StaticString {
        switch self {
        case .tray: "com.hudson.tray"
        case .scattered: "com.hudson.scattered"
        case .minimal: "com.hudson.minimal"
        }
    }

    var name: StaticString {
        switch self {
        case .tray: "Tray"
        case .scattered: "Scattered"
        case .minimal: "Minimal"
        }
    }

    /// The icon a style picker shows (the seed's demo icons), the
    /// descriptor's `picker_icon` (ABI 1.2).
    var pickerIcon: StaticString {
        switch self {
        case .tray: "rectangle.bottomthird.inset.filled"
        case .scattered: "circle.grid.cross.fill"
        case .minimal: "circle.fill"
        }
    }

    /// One sentence each, from the seed's render-style table.
    var summary: StaticString {
        switch self {
        case .tray:
            "The default: bottom-left, center and bottom-right grouped in a glass tray inset at the bottom, with the top two as navigation-bar items."
        case .scattered:
            "All five slots float as corner overlays, with no grouping and no tray, for sparser chrome."
        case .minimal:
            "The center slot only, with the other positions ignored, for focus and takeover flows."
        }
    }

    var supportedPositions: UInt32 {
        switch self {
        case .tray: TrayRenderer.supportedPositions
        case .scattered: ScatteredRenderer.supportedPositions
        case .minimal: MinimalRenderer.supportedPositions
        }
    }

    /// layout() for this style: validate, lay out, reveal the mode picker,
    /// write. Pure and thread-safe: all state is local to the call.
    func layout(
        descriptor: UnsafePointer<hud_renderer_descriptor_t>?,
        complications: UnsafePointer<hud_complications_t>?,
        environment: UnsafePointer<hud_environment_t>?,
        interaction: UnsafePointer<hud_interaction_t>?,
        layout: UnsafeMutablePointer<hud_layout_t>?
    ) -> hud_status_t {
        let request: LayoutRequest
        do {
            request = unsafe try LayoutRequest(
                descriptor: descriptor, complications: complications,
                environment: environment, interaction: interaction, layout: layout
            )
        } catch {
            return error.status
        }
        guard let layout = unsafe layout else { return hud_status_t(HUD_STATUS_INVALID_ARGUMENT) }

        var builder = LayoutBuilder(request: request, supportedPositions: supportedPositions)
        switch self {
        case .tray: TrayRenderer.layout(into: &builder)
        case .scattered: ScatteredRenderer.layout(into: &builder)
        case .minimal: MinimalRenderer.layout(into: &builder)
        }
        ModePicker(revealedIn: builder)?.append(to: &builder)
        return unsafe builder.write(to: layout)
    }
}
