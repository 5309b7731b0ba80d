// SPDX-License-Identifier: MIT
package import HudModel
import HudRendererAPI
package import HudPluginBoundary
import Glibc

// A raw layout call whose node buffer lives in the shared region, laid out
// by the parent: `guardBytes` bytes of the parent's guard pattern, then
// `capacity` nodes of `stride` bytes pre-filled by the parent, then
// `guardBytes` more of the pattern, starting at `SharedLayoutArea.rawOffset`.
// The renderer host child only points the renderer at that buffer and
// reports the status and header fields; the parent reads the guard zones
// and the node bytes itself after the reply (`validate`'s buffer checks,
// Docs/ISOLATION.md "The parent judges"). Nothing here reads what the
// renderer wrote.

/// What the renderer returned from a raw call (its header fields only).
package struct SharedRawReply: Sendable {
    package var status: Int32
    package var count: UInt32
    package var violations: Int
    package var insets: HudInsets
    package var hiddenPositions: UInt32
}

extension DirectRenderer {
    /// The renderer host child's side of a raw call: one layout into the
    /// parent's guarded buffer in `region` (no growing, nothing exported).
    /// `environmentSize` is the `struct_size` the renderer sees (the 1.0
    /// size when the parent speaks as a 1.0 host). Nil when the numbers do
    /// not fit (`SharedLayoutArea.rawCallFits`). `titles` is kept by the
    /// caller across calls, so a node pointing at the title points at the
    /// same address in two calls with the same inputs.
    package func rawCall(_ snapshot: CComplications, environment: HudEnvironment, interaction: HudInteraction,
                         environmentSize: Int, capacity: Int, stride: Int, guardBytes: Int,
                         titles: TitleStorage, in region: SharedRegion) -> SharedRawReply? {
        guard SharedLayoutArea.rawCallFits(capacity: capacity, stride: stride, guardBytes: guardBytes),
              unsafe environmentSize == MemoryLayout<hud_environment_t>.size || environmentSize == Int(HUD_ENVIRONMENT_SIZE_1_0) else { return nil }
        var output = unsafe hud_layout_t()
        unsafe output.struct_size = unsafe UInt32(MemoryLayout<hud_layout_t>.size)
        unsafe output.node_stride = UInt32(stride)
        unsafe output.nodes = unsafe region.raw + SharedLayoutArea.rawOffset + guardBytes
        unsafe output.capacity = UInt32(capacity)
        var interactionView = InteractionMarshaler.make(interaction)
        let (status, violations) = unsafe EnvironmentMarshaler.with(environment, titles: titles, structSize: environmentSize) { env in
            unsafe PluginCalls.layout(descriptor, snapshot.view, env, &interactionView, &output)
        }
        let i = unsafe output.content_insets
        return unsafe SharedRawReply(status: status, count: output.count, violations: violations,
                              insets: HudInsets(top: i.top, left: i.left, bottom: i.bottom, right: i.right),
                              hiddenPositions: output.hidden_positions)
    }
}

extension DirectRenderer {
    /// [any thread, one call per slot at a time] The renderer host child's
    /// side of one call of a concurrent run (`validate`'s thread-safety
    /// check): one layout into concurrent slot `slot` of `capacity` nodes
    /// at this host's node stride (no growing). `titles` belongs to the
    /// calling thread. The slot's strings are exported after every thread
    /// has finished (`LayoutExport.exportSlot`).
    package func slotCall(_ snapshot: CComplications, environment: HudEnvironment, interaction: HudInteraction,
                          slot: Int, capacity: Int, titles: TitleStorage, in region: SharedRegion) -> SharedRawReply {
        let nodes = unsafe region.raw + SharedLayoutArea.concurrentSlot(slot, capacity: capacity).nodes
        unsafe nodes.setBytes(to: 0, count: capacity * SharedLayoutArea.nodeStride)
        var output = unsafe hud_layout_t()
        unsafe output.struct_size = unsafe UInt32(MemoryLayout<hud_layout_t>.size)
        unsafe output.node_stride = UInt32(SharedLayoutArea.nodeStride)
        unsafe output.nodes = unsafe nodes
        unsafe output.capacity = UInt32(capacity)
        var interactionView = InteractionMarshaler.make(interaction)
        let (status, violations) = unsafe EnvironmentMarshaler.with(environment, titles: titles, structSize: MemoryLayout<hud_environment_t>.size) { env in
            unsafe PluginCalls.layout(descriptor, snapshot.view, env, &interactionView, &output)
        }
        let i = unsafe output.content_insets
        return unsafe SharedRawReply(status: status, count: output.count, violations: violations,
                              insets: HudInsets(top: i.top, left: i.left, bottom: i.bottom, right: i.right),
                              hiddenPositions: output.hidden_positions)
    }
}

// A prepared call (`ValidationFrame.preparedLayout`): the child builds the
// call's C inputs — the complications with every slot, chip, mode and
// string, the environment with its palette and title, the interaction —
// inside the shared region (`preparedInputsOffset`), says how many bytes
// they take, and calls the renderer only when the parent, having copied
// those bytes, says so. The parent compares them after the reply itself
// (`output-inputs-unchanged`). The pointers in there are the child's
// addresses; the parent compares bytes and never follows them. During the
// call an action through any of the child's thunks ends the child at once
// (`ActionThunk.withFatalCalls`), which the parent sees as its exit status.

/// The C inputs of one prepared call, built in the shared region (child
/// side). Owner: the region; valid until the next prepared call or layout
/// rewrites that area. Thread: the child's serving thread.
@safe package struct PreparedInputs {
    let complications: UnsafePointer<hud_complications_t>
    let environment: UnsafePointer<hud_environment_t>
    let interaction: UnsafePointer<hud_interaction_t>
    /// Bytes used from `SharedLayoutArea.preparedInputsOffset`.
    package let bytes: Int
}

/// A bump allocator over the prepared-inputs area; nil once it is full.
@safe private struct RegionArena {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    var used = 0

    mutating func place<T>(_ value: T) -> UnsafeMutablePointer<T>? {
        unsafe place(count: 1, of: T.self).map { pointer in
            unsafe pointer.initialize(to: value)
            return unsafe pointer
        }
    }

    mutating func place<T>(count: Int, of type: T.Type) -> UnsafeMutablePointer<T>? {
        let alignment = MemoryLayout<T>.alignment
        let start = (used + alignment - 1) & ~(alignment - 1)
        guard count >= 0, start + count * MemoryLayout<T>.stride <= capacity else { return nil }
        used = start + count * MemoryLayout<T>.stride
        return unsafe (base + start).bindMemory(to: T.self, capacity: max(count, 1))
    }

    /// A copy of a host-made string (NULL stays NULL); nil when full.
    mutating func string(_ value: UnsafePointer<CChar>?) -> UnsafePointer<CChar>?? {
        guard let value = unsafe value else { return unsafe .some(nil) }
        let length = unsafe strlen(value)
        guard let copy = unsafe place(count: length + 1, of: CChar.self) else { return nil }
        unsafe copy.update(from: value, count: length + 1)
        return unsafe .some(UnsafePointer(copy))
    }
}

extension DirectRenderer {
    /// The child's side of a prepared call, first step: `snapshot`'s view,
    /// `environment` (at `environmentSize`) and `interaction` copied into
    /// the region's prepared-inputs area, every pointer pointing inside it.
    /// The action pointers stay the snapshot's thunks. Nil when they do not
    /// fit or the environment size is not one this host speaks.
    package static func prepareInputs(_ snapshot: CComplications, environment: HudEnvironment, interaction: HudInteraction,
                                      environmentSize: Int, titles: TitleStorage, in region: SharedRegion) -> PreparedInputs? {
        guard unsafe environmentSize == MemoryLayout<hud_environment_t>.size || environmentSize == Int(HUD_ENVIRONMENT_SIZE_1_0) else { return nil }
        let base = unsafe region.raw + SharedLayoutArea.preparedInputsOffset
        unsafe base.setBytes(to: 0, count: SharedLayoutArea.preparedInputsCapacity)
        var arena = unsafe RegionArena(base: base, capacity: SharedLayoutArea.preparedInputsCapacity)
        var view = unsafe snapshot.view.pointee
        let positions = Int(HUD_POSITION_COUNT)
        var slots = unsafe [UnsafePointer<hud_slot_t>?](repeating: nil, count: positions)
        unsafe withUnsafePointer(to: &view.slots) { tuple in
            unsafe tuple.withMemoryRebound(to: UnsafePointer<hud_slot_t>?.self, capacity: positions) { for i in 0..<positions { unsafe slots[i] = unsafe $0[i] } }
        }
        var copied = unsafe [UnsafePointer<hud_slot_t>?](repeating: nil, count: positions)
        for unsafe (position, original) in unsafe slots.enumerated() {
            guard let original = unsafe original else { continue }
            var slot = unsafe original.pointee
            guard let icon = unsafe arena.string(slot.icon), let label = unsafe arena.string(slot.label) else { return nil }
            unsafe (slot.icon, slot.label) = unsafe (icon, label)
            if let secondary = unsafe slot.secondary {
                var chip = unsafe secondary.pointee
                guard let chipIcon = unsafe arena.string(chip.icon), let chipLabel = unsafe arena.string(chip.label) else { return nil }
                unsafe (chip.icon, chip.label) = unsafe (chipIcon, chipLabel)
                guard let placed = unsafe arena.place(chip) else { return nil }
                unsafe slot.secondary = unsafe UnsafePointer(placed)
            }
            if let modes = unsafe slot.modes, unsafe slot.mode_count > 0 {
                let count = unsafe Int(slot.mode_count)
                guard let array = unsafe arena.place(count: count, of: UnsafePointer<hud_mode_t>?.self) else { return nil }
                for index in 0..<count {
                    unsafe array[index] = nil
                    guard let original = unsafe modes[index] else { continue }
                    var mode = unsafe original.pointee
                    guard let id = unsafe arena.string(mode.id), let icon = unsafe arena.string(mode.icon), let label = unsafe arena.string(mode.label) else { return nil }
                    unsafe (mode.id, mode.icon, mode.label) = unsafe (id, icon, label)
                    guard let placed = unsafe arena.place(mode) else { return nil }
                    unsafe array[index] = unsafe UnsafePointer(placed)
                }
                unsafe slot.modes = unsafe UnsafePointer(array)
            }
            guard let placed = unsafe arena.place(slot) else { return nil }
            unsafe copied[position] = unsafe UnsafePointer(placed)
        }
        unsafe withUnsafeMutablePointer(to: &view.slots) { tuple in
            unsafe tuple.withMemoryRebound(to: UnsafePointer<hud_slot_t>?.self, capacity: positions) { for i in 0..<positions { unsafe $0[i] = unsafe copied[i] } }
        }
        guard let complications = unsafe arena.place(view) else { return nil }
        let placedEnvironment: UnsafeMutablePointer<hud_environment_t>? = unsafe EnvironmentMarshaler.with(
            environment, titles: titles, structSize: environmentSize) { made in
            var env = unsafe made.pointee
            guard let palette = unsafe env.palette.flatMap({ unsafe arena.place($0.pointee) }), let title = unsafe arena.string(env.navigation_title) else { return nil }
            unsafe env.palette = unsafe UnsafePointer(palette)
            unsafe env.navigation_title = unsafe title
            return unsafe arena.place(env)
        }
        guard let placedEnvironment = unsafe placedEnvironment, let placedInteraction = unsafe arena.place(InteractionMarshaler.make(interaction)) else { return nil }
        return unsafe PreparedInputs(complications: UnsafePointer(complications), environment: UnsafePointer(placedEnvironment),
                              interaction: UnsafePointer(placedInteraction), bytes: arena.used)
    }

    /// The second step: one layout on `inputs` into the parent's guarded
    /// buffer (as `rawCall`), with every action call fatal: the process
    /// ends at once with `trapExitStatus`.
    package func callPrepared(_ inputs: PreparedInputs, capacity: Int, stride: Int, guardBytes: Int, trapExitStatus: Int32,
                              in region: SharedRegion) -> SharedRawReply? {
        guard SharedLayoutArea.rawCallFits(capacity: capacity, stride: stride, guardBytes: guardBytes) else { return nil }
        var output = unsafe hud_layout_t()
        unsafe output.struct_size = unsafe UInt32(MemoryLayout<hud_layout_t>.size)
        unsafe output.node_stride = UInt32(stride)
        unsafe output.nodes = unsafe region.raw + SharedLayoutArea.rawOffset + guardBytes
        unsafe output.capacity = UInt32(capacity)
        let (status, violations) = ActionThunk.withFatalCalls(exitStatus: trapExitStatus) {
            unsafe PluginCalls.layout(descriptor, inputs.complications, inputs.environment, inputs.interaction, &output)
        }
        let i = unsafe output.content_insets
        return unsafe SharedRawReply(status: status, count: output.count, violations: violations,
                              insets: HudInsets(top: i.top, left: i.left, bottom: i.bottom, right: i.right),
                              hiddenPositions: output.hidden_positions)
    }
}
