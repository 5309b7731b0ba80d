// SPDX-License-Identifier: MIT
// FROZEN — part of the outside-plugin corpus (Docs/COMPATIBILITY.md). Never
// edit it to make a test pass.
//
// The entry and the descriptor, written in Swift by an author who did not
// want a C file: the SDK's HUD_DECLARE_RENDERER and HUD_DEFINE_ENTRY are C
// macros Swift cannot use, so the structures are filled in here (field by
// field from zero, so the code builds against any 1.x header) and the
// .hud_renderers metadata record is record.s, which the author's small
// script wrote once from the descriptor's strings while the SDK was 1.0. The
// record therefore keeps saying ABI 1.0 when the plugin is rebuilt against a
// newer SDK, while the entry says what the header it was built with says.
import HudRendererAPI
import Glibc

/// init() calls not yet balanced by deinit(). The host loads and calls the
/// entry from one thread at a time.
nonisolated(unsafe) private var references: UInt32 = 0

/// A C string that lives as long as the process.
private func forever(_ text: String) -> UnsafePointer<CChar> { UnsafePointer(strdup(text)!) }

private func noExtensions(_ self: UnsafePointer<hud_renderer_descriptor_t>?, _ id: UnsafePointer<CChar>?) -> UnsafeRawPointer? { nil }

private let descriptor: UnsafeMutablePointer<hud_renderer_descriptor_t> = {
    var value = hud_renderer_descriptor_t()
    value.struct_size = UInt32(MemoryLayout<hud_renderer_descriptor_t>.size)
    value.capabilities = UInt32(HUD_CAPABILITY_THREAD_SAFE)
    value.id = forever("org.outside.swift-outer")
    value.name = forever("Swift corners")
    value.version = forever("1.0.0")
    value.vendor = forever("Outside authors")
    value.description = forever("Corner slots in the safe area's corners, the center slot at the bottom middle, chips on the outer side.")
    value.supported_positions = UInt32(HUD_POSITION_ALL_BITS)
    value.layout = { layout($0, $1, $2, $3, $4) }  // Layout.swift
    value.get_extension = noExtensions
    let stored = UnsafeMutablePointer<hud_renderer_descriptor_t>.allocate(capacity: 1)
    stored.initialize(to: value)
    return stored
}()

private let entry: UnsafeMutablePointer<hud_entry_t> = {
    var value = hud_entry_t()
    value.abi_version = UInt32(HUD_ABI_VERSION_MAJOR) << 16 | UInt32(HUD_ABI_VERSION_MINOR)
    value.struct_size = UInt32(MemoryLayout<hud_entry_t>.size)
    value.`init` = {
        references += 1
        return hud_status_t(HUD_STATUS_OK)
    }
    value.`deinit` = {
        if references > 0 { references -= 1 }
    }
    value.renderer_count = { references > 0 ? 1 : 0 }
    value.renderer_at = { index in references > 0 && index == 0 ? UnsafePointer(descriptor) : nil }
    let stored = UnsafeMutablePointer<hud_entry_t>.allocate(capacity: 1)
    stored.initialize(to: value)
    return stored
}()

@_cdecl("hud_renderer_get_entry")
public func hudRendererGetEntry() -> UnsafePointer<hud_entry_t> { UnsafePointer(entry) }
