package import HudModel
package import HudRendererAPI

/// One registered renderer: its descriptor (plugin-owned, valid for the
/// life of the process since libraries are never closed) and a reusable,
/// host-owned node buffer.
///
/// Not thread-safe: one `PluginRenderer` serves one thread at a time (the
/// shell's). The buffer is reused across calls, so a steady-state layout
/// allocates nothing for the call itself.
package final class PluginRenderer {
    package let info: RendererInfo
    private let descriptor: UnsafePointer<hud_renderer_descriptor_t>
    private var buffer: LayoutBuffer
    /// Keeps the title's C string alive while nodes that point at it are read.
    private let titles = TitleStorage()
    /// True while a frame from `buffer` is being read (re-entrancy guard).
    private var frameInUse = false

    package init(info: RendererInfo, descriptor: UnsafePointer<hud_renderer_descriptor_t>) {
        self.info = info
        self.descriptor = descriptor
        self.buffer = LayoutBuffer(capacity: 64)
    }

    /// Calls the renderer, validates every node in place and decodes the
    /// result into Swift values (allocates: the convenience path).
    package func layout(_ snapshot: CComplications, environment: HudEnvironment, interaction: HudInteraction) throws(RegistryError) -> HudLayout {
        try withFrame(snapshot, environment: environment, interaction: interaction) { $0.decoded() }
    }

    /// Calls the renderer into the reused buffer, growing it once if it
    /// asks, validates every node in place and hands `body` a view of them.
    /// The per-frame path: with the buffer already large enough, nothing
    /// here allocates on the heap. The frame is valid only inside `body`.
    package func withFrame<R>(_ snapshot: CComplications, environment: HudEnvironment, interaction: HudInteraction,
                      _ body: (LayoutFrame) -> R) throws(RegistryError) -> R {
        // A layout requested from inside `body` (for the same renderer) must
        // not overwrite, or free, the buffer the outer frame is reading: it
        // gets a renderer of its own for that call.
        if frameInUse {
            return try PluginRenderer(info: info, descriptor: descriptor).withFrame(snapshot, environment: environment, interaction: interaction, body)
        }
        frameInUse = true
        defer { frameInUse = false }
        var output = hud_layout_t()
        let status = try call(snapshot, environment, interaction, &output)
        guard status == Int32(HUD_STATUS_OK) else {
            throw .layoutFailed(id: info.id, origin: info.origin.description, status: status)
        }
        do {
            try LayoutValidator.validate(output, nodes: UnsafeRawPointer(buffer.nodes), stride: buffer.stride)
        } catch {
            throw error.registryError(info)
        }
        let current = buffer
        return withExtendedLifetime(current) {
            body(LayoutFrame(validated: output, nodes: UnsafeRawPointer(current.nodes), stride: current.stride))
        }
    }

    private func call(_ snapshot: CComplications, _ environment: HudEnvironment, _ interaction: HudInteraction,
                      _ output: inout hud_layout_t) throws(RegistryError) -> Int32 {
        var attempts = 0
        var interactionView = InteractionMarshaler.make(interaction)
        while true {
            attempts += 1
            buffer.prepare(&output)
            let (status, violations) = EnvironmentMarshaler.with(environment, titles: titles) { env in
                PluginCalls.layout(descriptor, snapshot.view, env, &interactionView, &output)
            }
            buffer.noteWritten(status: status, count: output.count)
            guard violations == 0 else {
                throw .actionCalledDuringLayout(id: info.id, origin: info.origin.description, count: violations)
            }
            if status == Int32(HUD_STATUS_BUFFER_TOO_SMALL) {
                let needed = output.count
                guard needed > buffer.capacity, needed <= UInt32(ABILimits.maxNodes), attempts < 2 else {
                    throw .layoutTooLarge(id: info.id, origin: info.origin.description, requested: needed)
                }
                buffer = LayoutBuffer(capacity: Int(needed))
                continue
            }
            if status == Int32(HUD_STATUS_OK), output.count > UInt32(buffer.capacity) {
                throw .invalidLayout(id: info.id, origin: info.origin.description, node: nil, field: "count",
                                     reason: "is \(output.count) but the buffer holds \(buffer.capacity) nodes and the status was OK; return HUD_STATUS_BUFFER_TOO_SMALL when the buffer is short")
            }
            return status
        }
    }
}

/// The host-owned node buffer: `capacity` nodes of `stride` bytes, zeroed
/// for the renderer as the ABI promises.
///
/// Zeroing is incremental: the whole buffer is zeroed once when it is made,
/// and before each later call only the nodes the previous call may have
/// written (its `count`, capped at the capacity; the whole buffer after a
/// failed call, whose count says nothing). A renderer writes nodes only
/// below `count`, so the renderer always starts from an all-zero buffer,
/// and a steady-state call clears a few nodes instead of the whole
/// capacity (64 nodes × 168 bytes).
package final class LayoutBuffer {
    package let capacity: Int
    package let stride: Int
    package let nodes: UnsafeMutableRawPointer
    /// Leading nodes that may hold bytes from the previous call.
    private var dirtyNodes: Int

    package init(capacity: Int) {
        self.capacity = capacity
        self.stride = MemoryLayout<hud_node_t>.stride
        self.nodes = .allocate(byteCount: max(1, capacity * stride), alignment: MemoryLayout<hud_node_t>.alignment)
        self.dirtyNodes = capacity
    }

    deinit { nodes.deallocate() }

    /// Zeroes the nodes the previous call may have written and fills the
    /// host's half of the layout header.
    package func prepare(_ output: inout hud_layout_t) {
        if dirtyNodes > 0 {
            nodes.initializeMemory(as: UInt8.self, repeating: 0, count: dirtyNodes * stride)
            dirtyNodes = 0
        }
        output = hud_layout_t()
        output.struct_size = UInt32(MemoryLayout<hud_layout_t>.size)
        output.node_stride = UInt32(stride)
        output.nodes = nodes
        output.capacity = UInt32(capacity)
    }

    /// Records how much of the buffer a call may have written.
    package func noteWritten(status: Int32, count: UInt32) {
        let succeeded = status == Int32(HUD_STATUS_OK) || status == Int32(HUD_STATUS_BUFFER_TOO_SMALL)
        dirtyNodes = succeeded ? min(Int(count), capacity) : capacity
    }
}

/// A NUL-terminated copy of the navigation title that outlives a layout
/// call: renderers may point node strings at `environment.navigation_title`
/// ("into this call's inputs"), and the host validates and reads those
/// nodes after the call returns. Reused while the title is unchanged, so a
/// steady-state frame allocates nothing.
package final class TitleStorage {
    private var current: String?
    private var bytes: UnsafeMutablePointer<CChar>?

    package init() {}

    deinit { bytes?.deallocate() }

    /// The C string for `title` (nil for no title), valid until the next
    /// call with a different title or until this storage is released.
    package func pointer(for title: String?) -> UnsafePointer<CChar>? {
        guard let title else { return nil }
        if title != current || bytes == nil {
            bytes?.deallocate()
            let utf8 = title.utf8
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count + 1)
            var index = 0
            for byte in utf8 {
                buffer[index] = CChar(bitPattern: byte)
                index += 1
            }
            buffer[index] = 0
            bytes = buffer
            current = title
        }
        return UnsafePointer(bytes)
    }
}

/// Builds the ABI's environment view for one call, on the stack.
package enum EnvironmentMarshaler {
    /// With `titles`, the title pointer comes from that storage and stays
    /// valid after `body` returns (what the host needs to read nodes that
    /// point at it); without, it is valid only inside `body`.
    package static func with<T>(_ environment: HudEnvironment, titles: TitleStorage? = nil, _ body: (UnsafePointer<hud_environment_t>) -> T) -> T {
        var palette = palette(environment.chromePalette)
        return withUnsafePointer(to: &palette) { palettePointer in
            func make(_ title: UnsafePointer<CChar>?) -> T {
                var env = hud_environment_t()
                env.struct_size = UInt32(MemoryLayout<hud_environment_t>.size)
                env.layout_direction = environment.layoutDirection == .rightToLeft ? Int32(HUD_LAYOUT_DIRECTION_RTL) : Int32(HUD_LAYOUT_DIRECTION_LTR)
                env.screen_width = environment.screenSize.width
                env.screen_height = environment.screenSize.height
                env.safe_area = insets(environment.safeArea)
                env.scale = environment.scale
                env.text_scale = environment.textScale
                env.color_scheme = environment.chromeScheme == .light ? Int32(HUD_COLOR_SCHEME_LIGHT) : Int32(HUD_COLOR_SCHEME_DARK)
                env.appearance = environment.appearance == .system ? Int32(HUD_APPEARANCE_SYSTEM) : Int32(HUD_APPEARANCE_HUDSON)
                env.palette = palettePointer
                env.navigation_bar = rect(environment.navigationBar)
                env.navigation_title = title
                env.accessibility = environment.accessibility.rawValue
                return withUnsafePointer(to: env, body)
            }
            if let titles {
                return make(titles.pointer(for: environment.navigationTitle))
            }
            if let title = environment.navigationTitle {
                return title.withCString { make($0) }
            }
            return make(nil)
        }
    }

    package static func palette(_ p: HudPalette) -> hud_palette_t {
        var c = hud_palette_t()
        c.struct_size = UInt32(MemoryLayout<hud_palette_t>.size)
        c.bg = p.bg.rgba
        c.surface = p.surface.rgba
        c.chrome = p.chrome.rgba
        c.ink = p.ink.rgba
        c.muted = p.muted.rgba
        c.dim = p.dim.rgba
        c.border = p.border.rgba
        c.accent = p.accent.rgba
        c.status_ok = p.statusOk.rgba
        c.status_warn = p.statusWarn.rgba
        c.status_error = p.statusError.rgba
        c.status_info = p.statusInfo.rgba
        c.hairline_subtle = p.hairlineSubtle.rgba
        c.hairline_standard = p.hairlineStandard.rgba
        return c
    }

    package static func rect(_ r: HudRect) -> hud_rect_t { hud_rect_t(x: r.x, y: r.y, width: r.width, height: r.height) }

    package static func insets(_ i: HudInsets) -> hud_insets_t { hud_insets_t(top: i.top, left: i.left, bottom: i.bottom, right: i.right) }
}

/// Builds the ABI's interaction view.
package enum InteractionMarshaler {
    package static func make(_ interaction: HudInteraction) -> hud_interaction_t {
        var view = hud_interaction_t()
        view.struct_size = UInt32(MemoryLayout<hud_interaction_t>.size)
        view.pressed_position = Int32(HUD_POSITION_NONE)
        view.pressed_part = Int32(HUD_PART_NONE)
        view.pressed_mode_index = -1
        switch interaction.pressed {
        case .slot(let position)?:
            view.pressed_position = hud_position_t(position.rawValue)
            view.pressed_part = Int32(HUD_PART_SLOT)
        case .secondary(let position)?:
            view.pressed_position = hud_position_t(position.rawValue)
            view.pressed_part = Int32(HUD_PART_SECONDARY)
        case .mode(let position, let index)?:
            view.pressed_position = hud_position_t(position.rawValue)
            view.pressed_part = Int32(HUD_PART_MODE)
            view.pressed_mode_index = Int32(clamping: index)
        case nil:
            break
        }
        view.revealed_position = interaction.revealedPosition.map { hud_position_t($0.rawValue) } ?? Int32(HUD_POSITION_NONE)
        return view
    }
}
