// SPDX-License-Identifier: MIT
package import HudModel
package import HudRendererAPI
import Glibc

// The C view of a layout call's inputs, built by the host and owned by it:
// the marshaled complications (one per publish), the environment and the
// interaction (per call, on the stack), and the navigation title's storage.
// Pointers into these are valid for the duration of one layout call
// (`hud_renderer.h`: "valid only during layout"); in practice the
// complications stay valid until the next publish.

/// The C view of one published `HudPhoneComplications`, made once per
/// publish and handed unchanged to every layout call until the next publish.
///
/// The snapshot owns everything the view points to: the strings, the slot,
/// secondary and mode structures, the mode pointer arrays, and one action
/// thunk per closure. All of it is freed (thunks retired) when the snapshot
/// is released, which is why the ABI says input pointers are valid only
/// during layout: in practice until the set is republished.
@safe package final class CComplications {
    /// The marshaled structure plugins receive. Host-owned.
    package let view: UnsafeMutablePointer<hud_complications_t>
    /// Which positions hold a slot.
    package let occupiedPositions: Set<Position>
    /// Per position, the slot's mode ids (to resolve `mode:<id>` targets).
    package let modeIDs: [Position: [String]]
    /// Per position, how many modes its slot has (checks and defaults the
    /// nodes' `accessibility_actions`).
    package let modeCounts: ModeCounts

    private var allocations: [UnsafeMutableRawPointer] = unsafe []
    /// Every string of the view, NUL-terminated, back to back in one
    /// block (sized before marshaling), so the validator can tell a node
    /// string the host made by its address (`HostStrings`).
    private let arena: UnsafeMutablePointer<CChar>?
    private let arenaCapacity: Int
    private var arenaUsed = 0
    /// The arena as the validator sees it (`HostStrings`): a `let`, so the
    /// per-call read has no exclusivity check.
    package let stringArena: HostStrings.Range
    private var thunks: [ActionThunk] = []
    /// The thunk for each tappable target, for the host's own dispatch.
    private var targets: [HudInteraction.Target: ActionThunk] = [:]

    package init(_ complications: HudPhoneComplications) throws(RegistryError) {
        unsafe view = .allocate(capacity: 1)
        unsafe view.initialize(to: hud_complications_t())
        unsafe view.pointee.struct_size = UInt32(MemoryLayout<hud_complications_t>.size)
        occupiedPositions = Set(complications.occupiedPositions)
        modeIDs = Dictionary(uniqueKeysWithValues: complications.occupiedPositions.map { position in
            (position, complications[position]?.longPressModes?.map(\.id) ?? [])
        })
        modeCounts = ModeCounts(modeIDs.mapValues(\.count))
        let (bytes, longest) = Self.stringBytes(complications)
        arenaCapacity = bytes
        // Zeroed: bytes the marshaling does not write (none, unless it
        // throws) read as empty strings.
        unsafe arena = bytes > 0 ? UnsafeMutablePointer<CChar>.allocate(capacity: bytes) : nil
        if let arena = unsafe arena {
            unsafe UnsafeMutableRawPointer(arena).setBytes(to: 0, count: bytes)
            unsafe allocations.append(UnsafeMutableRawPointer(arena))
        }
        stringArena = unsafe HostStrings.Range(start: arena.map { UnsafeRawPointer($0) }, count: bytes, longest: longest)
        // Every stored property is initialized here, so if marshaling throws,
        // deinit runs and frees what was made so far.
        for position in Position.allCases {
            guard let slot = complications[position] else { continue }
            let pointer = unsafe try marshal(slot, at: position)
            unsafe withUnsafeMutablePointer(to: &view.pointee.slots) { tuple in
                unsafe tuple.withMemoryRebound(to: UnsafePointer<hud_slot_t>?.self, capacity: Int(HUD_POSITION_COUNT)) {
                    unsafe $0[position.rawValue] = unsafe UnsafePointer(pointer)
                }
            }
        }
    }

    deinit { release() }

    /// Runs the action bound to `target` through its C thunk (the same
    /// pointer a plugin sees). Returns false if there is no such action.
    @discardableResult
    package func invoke(_ target: HudInteraction.Target) -> Bool {
        guard let thunk = targets[target] else { return false }
        thunk.callThroughPointer()
        return true
    }

    /// Rebinds every thunk to the closures of `complications`, which must
    /// have the same content (`hasSameContent(as:)`) as the set this
    /// snapshot was made from. No thunk is created or freed; the C view is
    /// untouched.
    package func rebind(to complications: HudPhoneComplications) {
        for (target, thunk) in targets {
            switch target {
            case .slot(let position):
                if let action = complications[position]?.action { thunk.rebind(action) }
            case .secondary(let position):
                if let action = complications[position]?.secondary?.action { thunk.rebind(action) }
            case .mode(let position, let index):
                if let modes = complications[position]?.longPressModes, index < modes.count { thunk.rebind(modes[index].action) }
            }
        }
    }

    /// True when `target` has an action in this snapshot.
    package func hasAction(_ target: HudInteraction.Target) -> Bool { targets[target] != nil }

    /// The number of thunks this snapshot owns.
    package var thunkCount: Int { thunks.count }

    // MARK: - Marshaling

    private func marshal(_ slot: HudPhoneComplications.Slot, at position: Position) throws(RegistryError) -> UnsafeMutablePointer<hud_slot_t> {
        let field = "\(position)"
        let pointer = unsafe allocate(hud_slot_t.self)
        unsafe pointer.pointee.struct_size = unsafe UInt32(MemoryLayout<hud_slot_t>.size)
        unsafe pointer.pointee.role = hud_role_t(slot.role.rawValue)
        unsafe pointer.pointee.icon = unsafe try string(slot.icon, field: "\(field).icon", limit: Int(HUD_MAX_ICON_BYTES), allowEmpty: false)
        unsafe pointer.pointee.label = unsafe try slot.label.map { label throws(RegistryError) in
            unsafe try string(label, field: "\(field).label", limit: Int(HUD_MAX_LABEL_BYTES))
        }
        unsafe pointer.pointee.action = try thunk(slot.action, for: .slot(position))
        if let secondary = slot.secondary {
            let chip = unsafe allocate(hud_secondary_t.self)
            unsafe chip.pointee.struct_size = unsafe UInt32(MemoryLayout<hud_secondary_t>.size)
            unsafe chip.pointee.icon = unsafe try string(secondary.icon, field: "\(field).secondary.icon", limit: Int(HUD_MAX_ICON_BYTES), allowEmpty: false)
            unsafe chip.pointee.label = unsafe try secondary.label.map { label throws(RegistryError) in
                unsafe try string(label, field: "\(field).secondary.label", limit: Int(HUD_MAX_LABEL_BYTES))
            }
            unsafe chip.pointee.action = try secondary.action.map { action throws(RegistryError) in
                try thunk(action, for: .secondary(position))
            }
            unsafe pointer.pointee.secondary = unsafe UnsafePointer(chip)
        }
        let modes = slot.longPressModes ?? []
        guard modes.count <= Int(HUD_MAX_MODES) else {
            throw .invalidComplications(field: "\(field).longPressModes", reason: "has \(modes.count) modes; at most \(HUD_MAX_MODES) are allowed")
        }
        var seen = Set<String>()
        for mode in modes where !seen.insert(mode.id).inserted {
            throw .invalidComplications(field: "\(field).longPressModes", reason: "repeats mode id '\(mode.id)'; mode ids must be unique within a slot")
        }
        guard modes.count(where: \.isCurrent) <= 1 else {
            throw .invalidComplications(field: "\(field).longPressModes", reason: "marks \(modes.count(where: \.isCurrent)) modes current; at most one mode of a slot is current")
        }
        if !modes.isEmpty {
            let array = unsafe allocateArray(UnsafePointer<hud_mode_t>?.self, count: modes.count)
            for (index, mode) in modes.enumerated() {
                let modeField = "\(field).longPressModes[\(index)]"
                let item = unsafe allocate(hud_mode_t.self)
                unsafe item.pointee.struct_size = unsafe UInt32(MemoryLayout<hud_mode_t>.size)
                unsafe item.pointee.id = unsafe try string(mode.id, field: "\(modeField).id", limit: Int(HUD_MAX_ID_BYTES), allowEmpty: false)
                unsafe item.pointee.icon = unsafe try string(mode.icon, field: "\(modeField).icon", limit: Int(HUD_MAX_ICON_BYTES), allowEmpty: false)
                unsafe item.pointee.label = unsafe try string(mode.label, field: "\(modeField).label", limit: Int(HUD_MAX_LABEL_BYTES))
                unsafe item.pointee.action = try thunk(mode.action, for: .mode(position, index: index))
                unsafe item.pointee.flags = mode.isCurrent ? HUD_MODE_FLAG_CURRENT : 0
                unsafe array[index] = unsafe UnsafePointer(item)
            }
            unsafe pointer.pointee.modes = unsafe UnsafePointer(array)
            unsafe pointer.pointee.mode_count = UInt32(modes.count)
        }
        return unsafe pointer
    }

    private func thunk(_ action: @escaping () -> Void, for target: HudInteraction.Target) throws(RegistryError) -> hud_action_fn {
        let thunk = try ActionThunk(action)
        thunks.append(thunk)
        targets[target] = thunk
        return thunk.function
    }

    /// A NUL-terminated copy the snapshot owns.
    private func string(_ value: String, field: String, limit: Int, allowEmpty: Bool = true) throws(RegistryError) -> UnsafePointer<CChar> {
        let bytes = value.utf8
        guard bytes.count <= limit else {
            throw .invalidComplications(field: field, reason: "is \(bytes.count) bytes of UTF-8; at most \(limit) are allowed")
        }
        guard allowEmpty || !bytes.isEmpty else {
            throw .invalidComplications(field: field, reason: "is empty; give a non-empty value")
        }
        guard !bytes.contains(0) else {
            throw .invalidComplications(field: field, reason: "contains a NUL character, which C strings cannot carry")
        }
        // Into the arena (sized by `stringBytes` for exactly these strings);
        // a block of its own only if that sizing were ever short.
        let buffer: UnsafeMutablePointer<CChar>
        if let arena = unsafe arena, arenaUsed + bytes.count + 1 <= arenaCapacity {
            unsafe buffer = unsafe arena + arenaUsed
            arenaUsed += bytes.count + 1
        } else {
            unsafe buffer = unsafe allocateArray(CChar.self, count: bytes.count + 1)
        }
        var index = 0
        for byte in bytes {
            unsafe buffer[index] = CChar(bitPattern: byte)
            index += 1
        }
        unsafe buffer[index] = 0
        return unsafe UnsafePointer(buffer)
    }

    /// The bytes `string(_:field:limit:)` will copy for `complications`
    /// (each marshaled string plus its NUL) and the longest string's length.
    private static func stringBytes(_ complications: HudPhoneComplications) -> (total: Int, longest: Int) {
        var total = 0, longest = 0
        func add(_ value: String?) {
            guard let value else { return }
            total += value.utf8.count + 1
            longest = max(longest, value.utf8.count)
        }
        for position in Position.allCases {
            guard let slot = complications[position] else { continue }
            add(slot.icon)
            add(slot.label)
            if let secondary = slot.secondary {
                add(secondary.icon)
                add(secondary.label)
            }
            for mode in slot.longPressModes ?? [] {
                add(mode.id)
                add(mode.icon)
                add(mode.label)
            }
        }
        return (total, longest)
    }

    private func allocate<T>(_ type: T.Type) -> UnsafeMutablePointer<T> {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<T>.stride, alignment: MemoryLayout<T>.alignment)
        unsafe raw.setBytes(to: 0, count: MemoryLayout<T>.stride)
        unsafe allocations.append(raw)
        return unsafe raw.assumingMemoryBound(to: T.self)
    }

    private func allocateArray<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        let bytes = MemoryLayout<T>.stride * count
        let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: MemoryLayout<T>.alignment)
        unsafe raw.setBytes(to: 0, count: bytes)
        unsafe allocations.append(raw)
        return unsafe raw.assumingMemoryBound(to: T.self)
    }

    private func release() {
        for thunk in thunks { thunk.retire() }
        thunks.removeAll()
        targets.removeAll()
        for unsafe raw in unsafe allocations { unsafe raw.deallocate() }
        unsafe allocations.removeAll()
        unsafe view.deallocate()
    }
}

/// A NUL-terminated copy of the navigation title that outlives a layout
/// call: renderers may point node strings at `environment.navigation_title`
/// ("into this call's inputs"), and the host validates and reads those
/// nodes after the call returns. Reused while the title is unchanged, so a
/// steady-state frame allocates nothing.
@safe package final class TitleStorage {
    /// The title last asked for, its C string and that string's range.
    /// Kept behind a pointer: the per-call reads are plain loads, without
    /// the dynamic exclusivity checks a class's stored `var`s get.
    @safe private struct State {
        var current: String?
        var bytes: UnsafeMutablePointer<CChar>?
        var range = HostStrings.Range.empty
    }
    private let state: UnsafeMutablePointer<State>

    package init() {
        unsafe state = .allocate(capacity: 1)
        unsafe state.initialize(to: State())
    }

    deinit {
        unsafe state.pointee.bytes?.deallocate()
        unsafe state.deinitialize(count: 1)
        unsafe state.deallocate()
    }

    /// The current title's bytes and NUL, host-made (see `HostStrings`).
    package var range: HostStrings.Range { unsafe state.pointee.range }

    /// The C string for `title` (nil for no title), valid until the next
    /// call with a different title or until this storage is released.
    package func pointer(for title: String?) -> UnsafePointer<CChar>? {
        guard let title else { return nil }
        if unsafe title != state.pointee.current || state.pointee.bytes == nil {
            unsafe state.pointee.bytes?.deallocate()
            let utf8 = title.utf8
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count + 1)
            var index = 0
            for byte in utf8 {
                unsafe buffer[index] = CChar(bitPattern: byte)
                index += 1
            }
            unsafe buffer[index] = 0
            unsafe state.pointee.bytes = unsafe buffer
            unsafe state.pointee.current = title
            unsafe state.pointee.range = unsafe HostStrings.Range(start: UnsafeRawPointer(buffer), count: utf8.count + 1, longest: utf8.count)
        }
        return unsafe UnsafePointer(state.pointee.bytes)
    }
}

/// The ABI's environment view for one renderer's layout calls, kept while
/// the environment is unchanged: a call whose `HudEnvironment` has the
/// revision of the previous call's (a copy of the same value; see
/// `HudEnvironment.revision`) reuses the view after one compare, instead of
/// marshaling the fields and the palette again. Any field set since takes a
/// new revision, so the view is rebuilt.
///
/// Owner: this object (the renderer's). The view, its palette and the
/// title's bytes stay at their addresses until a call with another
/// revision, or until this is released; renderers get them as `const`
/// inputs, valid during layout. The host reads node strings that point at
/// the title after the call, which is why the title is kept here too.
/// Thread: one thread at a time (the renderer's caller).
@safe package final class EnvironmentViews {
    private let view: UnsafeMutablePointer<hud_environment_t>
    private let palette: UnsafeMutablePointer<hud_palette_t>
    private let titles = TitleStorage()
    /// The revision `view` was marshaled from; 0 before the first call
    /// (revisions start at 1). Unchecked exclusivity: read and written only
    /// by `view(for:)` on the caller's thread, never while a reference to
    /// it is held elsewhere.
    @exclusivity(unchecked) private var revision: UInt64 = 0

    package init() {
        unsafe view = .allocate(capacity: 1)
        unsafe view.initialize(to: hud_environment_t())
        unsafe palette = .allocate(capacity: 1)
        unsafe palette.initialize(to: hud_palette_t())
    }

    deinit {
        unsafe view.deallocate()
        unsafe palette.deallocate()
    }

    /// The view of `environment` (this host's `struct_size`).
    @inline(__always)
    package func view(for environment: HudEnvironment) -> UnsafePointer<hud_environment_t> {
        if unsafe revision != environment.revision.value { marshal(environment) }
        return unsafe UnsafePointer(view)
    }

    /// The title's bytes, host-made (see `HostStrings`).
    package var titleRange: HostStrings.Range { titles.range }

    private func marshal(_ environment: HudEnvironment) {
        unsafe palette.pointee = EnvironmentMarshaler.palette(environment.complicationPalette)
        unsafe view.pointee = unsafe EnvironmentMarshaler.make(environment, palette: UnsafePointer(palette),
                                                 title: titles.pointer(for: environment.navigationTitle),
                                                 structSize: MemoryLayout<hud_environment_t>.size)
        unsafe revision = environment.revision.value
    }
}

/// Builds the ABI's environment view for one call, on the stack.
package enum EnvironmentMarshaler {
    /// With `titles`, the title pointer comes from that storage and stays
    /// valid after `body` returns (what the host needs to read nodes that
    /// point at it); without, it is valid only inside `body`.
    ///
    /// `structSize` is the `struct_size` the renderer sees: this host's
    /// `sizeof` unless a test speaks as an older host (e.g.
    /// `HUD_ENVIRONMENT_SIZE_1_0`); every field is filled either way, so a
    /// renderer that reads past `struct_size` is caught reading real values.
    package static func with<T>(_ environment: HudEnvironment, titles: TitleStorage? = nil,
                                structSize: Int = unsafe MemoryLayout<hud_environment_t>.size,
                                _ body: (UnsafePointer<hud_environment_t>) -> T) -> T {
        var palette = palette(environment.complicationPalette)
        return unsafe withUnsafePointer(to: &palette) { palettePointer in
            func call(_ title: UnsafePointer<CChar>?) -> T {
                unsafe withUnsafePointer(to: make(environment, palette: palettePointer, title: title, structSize: structSize), body)
            }
            if let titles {
                return unsafe call(titles.pointer(for: environment.navigationTitle))
            }
            if let title = environment.navigationTitle {
                return unsafe title.withCString { unsafe call($0) }
            }
            return call(nil)
        }
    }

    /// Every field of the view; `palette` and `title` are the caller's and
    /// must outlive the view's use.
    package static func make(_ environment: HudEnvironment, palette: UnsafePointer<hud_palette_t>,
                             title: UnsafePointer<CChar>?, structSize: Int) -> hud_environment_t {
        var env = unsafe hud_environment_t()
        unsafe env.struct_size = UInt32(structSize)
        unsafe env.layout_direction = environment.layoutDirection == .rightToLeft ? Int32(HUD_LAYOUT_DIRECTION_RTL) : Int32(HUD_LAYOUT_DIRECTION_LTR)
        unsafe env.screen_width = environment.screenSize.width
        unsafe env.screen_height = environment.screenSize.height
        unsafe env.safe_area = insets(environment.safeArea)
        unsafe env.scale = environment.scale
        unsafe env.text_scale = environment.textScale
        unsafe env.color_scheme = environment.chromeScheme == .light ? Int32(HUD_COLOR_SCHEME_LIGHT) : Int32(HUD_COLOR_SCHEME_DARK)
        unsafe env.appearance = environment.appearance == .system ? Int32(HUD_APPEARANCE_SYSTEM) : Int32(HUD_APPEARANCE_HUDSON)
        unsafe env.palette = unsafe palette
        unsafe env.navigation_bar = rect(environment.navigationBar)
        unsafe env.navigation_title = unsafe title
        unsafe env.accessibility = environment.accessibility.rawValue
        unsafe env.presentation = hud_presentation_t(environment.presentation.rawValue)
        unsafe env.reserved_lanes = insets(environment.reservedLanes)
        return unsafe env
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
    @inline(__always)
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

extension UnsafeMutableRawPointer {
    /// Sets `count` bytes from here to `byte` with `memset`: one call in
    /// every build (the generic `initializeMemory(as:repeating:count:)`
    /// goes byte by byte through the runtime in a debug build, which made
    /// clearing a layout's buffers most of a debug renderer host's time).
    @inline(__always)
    package func setBytes(to byte: UInt8, count: Int) {
        _ = unsafe memset(self, Int32(byte), count)
    }
}

extension UnsafeRawPointer {
    /// How many of the `count` bytes from here are not `byte`: one
    /// `memcmp` of the range with itself shifted by one when none differ
    /// (a guard band left intact, the usual case), counted otherwise.
    package func bytes(differingFrom byte: UInt8, count: Int) -> Int {
        guard count > 0 else { return 0 }
        if unsafe load(as: UInt8.self) == byte, unsafe memcmp(self, self + 1, count - 1) == 0 { return 0 }
        return unsafe UnsafeRawBufferPointer(start: self, count: count).reduce(0) { $0 + ($1 == byte ? 0 : 1) }
    }
}
