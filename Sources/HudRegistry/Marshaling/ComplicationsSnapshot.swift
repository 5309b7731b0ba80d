// SPDX-License-Identifier: MIT
package import HudPluginBoundary
import Synchronization

/// One published `HudPhoneComplications`, marshaled once into the C view
/// plugins receive (strings, slots, modes, one libffi action thunk per
/// closure) and handed unchanged to every layout until the next publish.
///
/// The snapshot owns all of that memory; releasing it frees the C view and
/// retires its thunks (a late call through one is caught and counted, never
/// run). The C view itself lives in the internal `HudPluginBoundary` target; this
/// type is its safe, public face.
public final class ComplicationsSnapshot {
    package let storage: CComplications
    /// Unique per snapshot in this process: a renderer host re-reads the
    /// complications only when the generation it holds differs.
    package let generation: UInt64
    /// The content as bytes for a renderer host (`HudWire`), made on first use.
    package private(set) lazy var wire: [UInt8] = content.wireEncoded()
    private let content: HudPhoneComplications

    private static let generations = Atomic<UInt64>(0)

    /// Marshals `complications`; throws `.invalidComplications` for a value
    /// the ABI cannot carry (a string over its limit, a NUL, too many modes).
    public init(_ complications: HudPhoneComplications) throws(RegistryError) {
        storage = try CComplications(complications)
        content = complications
        generation = Self.generations.add(1, ordering: .relaxed).newValue
    }

    /// Which positions hold a slot.
    public var occupiedPositions: Set<Position> { storage.occupiedPositions }
    /// Per position, the slot's mode ids (to resolve `mode:<id>` targets).
    public var modeIDs: [Position: [String]] { storage.modeIDs }
    /// The number of action thunks this snapshot owns.
    public var thunkCount: Int { storage.thunkCount }

    /// Runs the action bound to `target` through its C thunk (the same
    /// pointer a plugin sees). Returns false if there is no such action.
    @discardableResult
    public func invoke(_ target: HudInteraction.Target) -> Bool { storage.invoke(target) }

    /// True when `target` has an action in this snapshot.
    public func hasAction(_ target: HudInteraction.Target) -> Bool { storage.hasAction(target) }

    /// Rebinds every thunk to the closures of `complications`, which must
    /// have the same content (`hasSameContent(as:)`) as the set this
    /// snapshot was made from: no thunk is created or freed, plugins keep
    /// the pointers they hold.
    public func rebind(to complications: HudPhoneComplications) { storage.rebind(to: complications) }
}
