package import HudModel
package import HudRendererAPI

/// Every call from the host into plugin code goes through this file: the
/// entry function, init/deinit, the descriptor accessors, layout and the
/// extension lookup. Each function documents what it trusts.
package enum PluginCalls {
    /// Calls a `hud_get_entry_fn` found by `dlsym` (or linked in).
    package static func entry(at address: UnsafeMutableRawPointer) -> UnsafePointer<hud_entry_t>? {
        let function = unsafeBitCast(address, to: hud_get_entry_fn.self)
        return function()
    }

    package static func initialize(_ entry: UnsafePointer<hud_entry_t>) -> Int32? {
        guard let initialize = entry.pointee.`init` else { return nil }
        return initialize()
    }

    package static func deinitialize(_ entry: UnsafePointer<hud_entry_t>) {
        entry.pointee.deinit?()
    }

    package static func rendererCount(_ entry: UnsafePointer<hud_entry_t>) -> UInt32? {
        guard let count = entry.pointee.renderer_count else { return nil }
        return count()
    }

    package static func renderer(_ entry: UnsafePointer<hud_entry_t>, at index: UInt32) -> UnsafePointer<hud_renderer_descriptor_t>? {
        guard let at = entry.pointee.renderer_at else { return nil }
        return at(index)
    }

    /// Runs the renderer's layout with the action-during-layout guard armed;
    /// `violations` counts actions the renderer tried to call (not run).
    package static func layout(
        _ descriptor: UnsafePointer<hud_renderer_descriptor_t>,
        _ complications: UnsafePointer<hud_complications_t>,
        _ environment: UnsafePointer<hud_environment_t>,
        _ interaction: UnsafePointer<hud_interaction_t>,
        _ output: UnsafeMutablePointer<hud_layout_t>
    ) -> (status: Int32, violations: Int) {
        guard let layout = descriptor.pointee.layout else { return (Int32(HUD_STATUS_INVALID_ARGUMENT), 0) }
        let (status, violations) = ActionThunk.duringLayout {
            layout(descriptor, complications, environment, interaction, output)
        }
        return (status, violations)
    }

    /// The extension with `id`, or nil. The result is only compared with nil.
    package static func hasExtension(_ descriptor: UnsafePointer<hud_renderer_descriptor_t>, id: String) -> Bool {
        guard let lookup = descriptor.pointee.get_extension else { return false }
        return id.withCString { lookup(descriptor, $0) } != nil
    }
}
