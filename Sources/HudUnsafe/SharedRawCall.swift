// SPDX-License-Identifier: MIT
package import HudModel
import HudRendererAPI

// A raw layout call whose node buffer lives in the shared region, laid out
// by the parent: `guardBytes` bytes of the parent's guard pattern, then
// `capacity` nodes of `stride` bytes pre-filled by the parent, then
// `guardBytes` more of the pattern, starting at `SharedLayoutArea.rawOffset`.
// The renderer host child only points the renderer at that buffer and
// reports the status and header fields; the parent reads the guard zones
// and the node bytes itself after the reply (`validate`'s buffer checks,
// Docs/ISOLATION.md "The parent judges"). Nothing here reads what the
// renderer wrote.

extension SharedLayoutArea {
    /// Where a raw call's guarded buffer starts: the nodes and strings
    /// areas, unused by a raw call (it exports nothing).
    package static let rawOffset = nodesOffset
    package static let rawCapacity = size - nodesOffset
    /// This host's `hud_environment_t` size, the raw call's default `struct_size`.
    package static let hostEnvironmentSize = MemoryLayout<hud_environment_t>.size

    /// True when a raw call with these numbers fits the region and gives
    /// the renderer a buffer it may be given (a stride of at least the 1.0
    /// node, 8-byte aligned; a capacity of at most `HUD_MAX_NODES`).
    package static func rawCallFits(capacity: Int, stride: Int, guardBytes: Int) -> Bool {
        guard capacity >= 0, capacity <= Int(HUD_MAX_NODES), stride >= Int(HUD_NODE_SIZE_1_0), stride % 8 == 0,
              stride <= 4096, guardBytes >= 0, guardBytes % 16 == 0, guardBytes <= 1 << 20 else { return false }
        return 2 * guardBytes + capacity * stride <= rawCapacity
    }
}

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
              environmentSize == MemoryLayout<hud_environment_t>.size || environmentSize == Int(HUD_ENVIRONMENT_SIZE_1_0) else { return nil }
        var output = hud_layout_t()
        output.struct_size = UInt32(MemoryLayout<hud_layout_t>.size)
        output.node_stride = UInt32(stride)
        output.nodes = region.raw + SharedLayoutArea.rawOffset + guardBytes
        output.capacity = UInt32(capacity)
        var interactionView = InteractionMarshaler.make(interaction)
        let (status, violations) = EnvironmentMarshaler.with(environment, titles: titles, structSize: environmentSize) { env in
            PluginCalls.layout(descriptor, snapshot.view, env, &interactionView, &output)
        }
        let i = output.content_insets
        return SharedRawReply(status: status, count: output.count, violations: violations,
                              insets: HudInsets(top: i.top, left: i.left, bottom: i.bottom, right: i.right),
                              hiddenPositions: output.hidden_positions)
    }
}

extension SharedRegion {
    /// Sets `count` bytes at `offset` to `byte`; false when out of bounds.
    package func fill(_ byte: UInt8, at offset: Int, count: Int) -> Bool {
        guard count >= 0, offset >= 0, offset + count <= size else { return false }
        (raw + offset).initializeMemory(as: UInt8.self, repeating: byte, count: count)
        return true
    }
}
