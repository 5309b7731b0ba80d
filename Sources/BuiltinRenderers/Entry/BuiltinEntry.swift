// SPDX-License-Identifier: MIT
package import HudRendererAPI
import Synchronization

/// The built-ins' plugin entry: the same `hud_entry_t` a third-party plugin
/// exports. HudRegistry links it and calls `hudRendererGetEntry()`;
/// libBuiltinRenderers.so exports it as `hud_renderer_get_entry`.
enum BuiltinEntry {
    /// HUD_ABI_MAKE_VERSION(MAJOR, MINOR): Swift cannot import the
    /// function-like macro, so it is spelled out.
    static let abiVersion: UInt32 = (UInt32(HUD_ABI_VERSION_MAJOR) << 16) | (UInt32(HUD_ABI_VERSION_MINOR) & 0xFFFF)

    /// Successful init() calls not yet matched by deinit().
    static let initCount = Atomic<Int>(0)

    /// Allocated and filled once by Swift's thread-safe lazy global
    /// initialization, never written or freed afterwards: the one constant
    /// entry every caller gets, so sharing it across threads is safe.
    nonisolated(unsafe) static let entry: UnsafePointer<hud_entry_t> = {
        let storage = UnsafeMutablePointer<hud_entry_t>.allocate(capacity: 1)
        unsafe storage.initialize(to: hud_entry_t(
            abi_version: abiVersion,
            struct_size: LayoutRequest.structSize(hud_entry_t.self),
            init: { BuiltinEntry.initialize() },
            deinit: { BuiltinEntry.deinitialize() },
            renderer_count: { BuiltinEntry.rendererCount() },
            renderer_at: { unsafe BuiltinEntry.renderer(at: $0) }
        ))
        return unsafe UnsafePointer(storage)
    }()

    /// Nothing to prepare: the descriptors are static. Counts the reference.
    static func initialize() -> hud_status_t {
        initCount.add(1, ordering: .acquiringAndReleasing)
        return hud_status_t(HUD_STATUS_OK)
    }

    /// Drops one reference; a no-op when there is none.
    static func deinitialize() {
        var current = initCount.load(ordering: .acquiring)
        while current > 0 {
            let (exchanged, original) = initCount.compareExchange(
                expected: current, desired: current - 1, ordering: .acquiringAndReleasing
            )
            if exchanged { return }
            current = original
        }
    }

    static func rendererCount() -> UInt32 {
        initCount.load(ordering: .acquiring) > 0 ? UInt32(BuiltinCatalog.count) : 0
    }

    static func renderer(at index: UInt32) -> UnsafePointer<hud_renderer_descriptor_t>? {
        guard index < rendererCount() else { return nil }
        return unsafe BuiltinCatalog.descriptors + Int(index)
    }
}

/// The plugin's one exported symbol (HUD_ENTRY_SYMBOL_NAME). Returns the same
/// constant entry on every call, with no side effects.
@_cdecl("hud_renderer_get_entry")
package func hudRendererGetEntry() -> UnsafePointer<hud_entry_t> {
    unsafe BuiltinEntry.entry
}
