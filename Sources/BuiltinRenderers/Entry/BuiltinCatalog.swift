// SPDX-License-Identifier: MIT
import HudRendererAPI

/// The built-ins' renderer descriptors: three `hud_renderer_descriptor_t`
/// in one block of static storage, in `BuiltinStyle.allCases` order.
enum BuiltinCatalog {
    static let version: StaticString = "1.0.0"
    static let vendor: StaticString = "Hudson"

    /// Allocated and filled once by Swift's thread-safe lazy global
    /// initialization, never written or freed afterwards: every reader sees
    /// the same constant descriptors, so sharing them across threads is safe.
    nonisolated(unsafe) static let descriptors: UnsafePointer<hud_renderer_descriptor_t> = {
        let styles = BuiltinStyle.allCases
        let storage = UnsafeMutablePointer<hud_renderer_descriptor_t>.allocate(capacity: styles.count)
        for (index, style) in styles.enumerated() {
            unsafe (storage + index).initialize(to: hud_renderer_descriptor_t(
                struct_size: LayoutRequest.structSize(hud_renderer_descriptor_t.self),
                capabilities: UInt32(HUD_CAPABILITY_THREAD_SAFE),
                id: LayoutRequest.cString(style.id),
                name: LayoutRequest.cString(style.name),
                version: LayoutRequest.cString(version),
                vendor: LayoutRequest.cString(vendor),
                description: LayoutRequest.cString(style.summary),
                supported_positions: style.supportedPositions,
                reserved: 0,
                layout: layoutFunction(for: style),
                get_extension: { _, _ in nil }, // No extensions yet.
                picker_icon: unsafe LayoutRequest.cString(style.pickerIcon)
            ))
        }
        return unsafe UnsafePointer(storage)
    }()

    static var count: Int { BuiltinStyle.allCases.count }

    /// A C function per style: C function pointers cannot capture, so each
    /// style gets its own literal.
    private static func layoutFunction(for style: BuiltinStyle) -> hud_layout_fn {
        switch style {
        case .tray: { unsafe BuiltinStyle.tray.layout(descriptor: $0, complications: $1, environment: $2, interaction: $3, layout: $4) }
        case .scattered: { unsafe BuiltinStyle.scattered.layout(descriptor: $0, complications: $1, environment: $2, interaction: $3, layout: $4) }
        case .minimal: { unsafe BuiltinStyle.minimal.layout(descriptor: $0, complications: $1, environment: $2, interaction: $3, layout: $4) }
        }
    }
}
