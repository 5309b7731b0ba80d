package import HudRegistry
package import HudUnsafe
import HudPresentation
import CHudSystem
import Glibc
import HudRendererAPI

/// Every raw operation the conformance suite performs on plugin memory and
/// through plugin pointers, in one file: the entry function, init/deinit,
/// descriptor reads, extension lookups with odd ids, and layout calls into
/// guarded buffers with input checksums. Calls go through `PluginCalls`
/// (so the action-during-layout guard is always armed); this file adds what
/// only a validator needs below the package API.
///
/// Nothing here is thread-safe except `layout`, which owns all its memory
/// per call (the thread-safety check calls it from several threads).
enum RawPluginHarness {
    // MARK: - Entry and lifecycle

    static func callEntry(at address: UnsafeMutableRawPointer) -> UnsafePointer<hud_entry_t>? {
        PluginCalls.entry(at: address)
    }

    static func initialize(_ entry: UnsafePointer<hud_entry_t>) -> Int32? { PluginCalls.initialize(entry) }

    static func deinitialize(_ entry: UnsafePointer<hud_entry_t>) { PluginCalls.deinitialize(entry) }

    static func rendererCount(_ entry: UnsafePointer<hud_entry_t>) -> UInt32? { PluginCalls.rendererCount(entry) }

    static func descriptor(_ entry: UnsafePointer<hud_entry_t>, at index: UInt32) -> UnsafePointer<hud_renderer_descriptor_t>? {
        PluginCalls.renderer(entry, at: index)
    }

    /// The entry's header fields, read without trusting anything else.
    static func entryHeader(_ entry: UnsafePointer<hud_entry_t>) -> (abiVersion: UInt32, structSize: UInt32) {
        (entry.pointee.abi_version, entry.pointee.struct_size)
    }

    static func descriptorSize(_ descriptor: UnsafePointer<hud_renderer_descriptor_t>) -> Int {
        Int(descriptor.pointee.struct_size)
    }

    /// The descriptor's bytes (as far as ABI 1.0 goes) plus the bytes of the
    /// strings it points to: equal fingerprints mean equal contents.
    static func fingerprint(_ descriptor: UnsafePointer<hud_renderer_descriptor_t>) -> [UInt8] {
        var bytes = withUnsafeBytes(of: descriptor.pointee) { Array($0) }
        let d = descriptor.pointee
        for string in [d.id, d.name, d.version, d.vendor, d.description] {
            guard let string else { bytes.append(0xFF); continue }
            let length = strnlen(string, Int(HUD_MAX_DESCRIPTION_BYTES) + 1)
            bytes += UnsafeRawBufferPointer(start: string, count: length)
            bytes.append(0)
        }
        return bytes
    }

    static func capabilities(_ descriptor: UnsafePointer<hud_renderer_descriptor_t>) -> UInt32 { descriptor.pointee.capabilities }

    /// Whether `get_extension(self, id)` returns non-NULL. `id` is passed as
    /// raw bytes (NUL appended), so ids with odd bytes can be tried.
    static func hasExtension(_ descriptor: UnsafePointer<hud_renderer_descriptor_t>, idBytes: [UInt8]) -> Bool {
        guard let lookup = descriptor.pointee.get_extension else { return false }
        let terminated = idBytes.map { CChar(bitPattern: $0) } + [0]
        return terminated.withUnsafeBufferPointer { lookup(descriptor, $0.baseAddress) != nil }
    }

    // MARK: - Layout

    /// Bytes of guard zone on each side of the node buffer.
    static let guardBytes = 8192
    static let guardPattern: UInt8 = 0xA5
    static let poisonPattern: UInt8 = 0xCD
    static let nodeStride = MemoryLayout<hud_node_t>.stride

    /// What one raw layout call did.
    struct Call {
        var status: Int32
        var count: UInt32
        var capacity: Int
        /// The bytes of the nodes written (min(count, capacity) × stride).
        var nodeBytes: [UInt8]
        var contentInsets: hud_insets_t
        var hiddenPositions: UInt32
        /// Guard bytes changed before and after the buffer.
        var guardDamageBefore: Int
        var guardDamageAfter: Int
        /// Inputs whose checksum changed across the call.
        var changedInputs: [String]
        var actionCalls: Int
        var nanoseconds: UInt64
        /// The host's validation and decoding, when the status was OK and
        /// the count fit the buffer.
        var decoded: Result<HudLayout, RegistryError>?

        var layout: HudLayout? { if case .success(let layout)? = decoded { layout } else { nil } }

        /// Byte-identical comparison key: status, header fields, node bytes.
        var outputBytes: [UInt8] {
            var bytes = withUnsafeBytes(of: status) { Array($0) } + withUnsafeBytes(of: count) { Array($0) }
            bytes += withUnsafeBytes(of: contentInsets) { Array($0) } + withUnsafeBytes(of: hiddenPositions) { Array($0) }
            return bytes + nodeBytes
        }
    }

    /// Calls `descriptor`'s layout once with a fresh, guarded buffer of
    /// `capacity` nodes filled with `fill` (the host zeroes it; the
    /// every-field check poisons it), checksumming every input before and
    /// after.
    static func layout(_ descriptor: UnsafePointer<hud_renderer_descriptor_t>, info: RendererInfo,
                       snapshot: ComplicationsSnapshot, environment: HudEnvironment, interaction: HudInteraction,
                       capacity: Int, fill: UInt8 = 0, checksum: Bool = true) -> Call {
        let bodyBytes = capacity * nodeStride
        let total = guardBytes * 2 + bodyBytes
        let raw = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 16)
        defer { raw.deallocate() }
        raw.initializeMemory(as: UInt8.self, repeating: guardPattern, count: guardBytes)
        (raw + guardBytes).initializeMemory(as: UInt8.self, repeating: fill, count: bodyBytes)
        (raw + guardBytes + bodyBytes).initializeMemory(as: UInt8.self, repeating: guardPattern, count: guardBytes)
        let nodes = raw + guardBytes

        var output = hud_layout_t()
        output.struct_size = UInt32(MemoryLayout<hud_layout_t>.size)
        output.node_stride = UInt32(nodeStride)
        output.nodes = nodes
        output.capacity = UInt32(capacity)

        var changed: [String] = []
        var status: Int32 = 0
        var violations = 0
        var elapsed: UInt64 = 0
        // The title must outlive the call: nodes may point at it, and they
        // are read (decoded) below.
        let titles = TitleStorage()
        EnvironmentMarshaler.with(environment, titles: titles) { env in
            var interactionView = InteractionMarshaler.make(interaction)
            withUnsafePointer(to: &interactionView) { interactionPointer in
                let before = checksum ? InputDigest(snapshot.storage.view, env, interactionPointer) : nil
                let start = monotonicNanoseconds()
                (status, violations) = PluginCalls.layout(descriptor, snapshot.storage.view, env, interactionPointer, &output)
                elapsed = monotonicNanoseconds() &- start
                if let before {
                    changed = before.changes(comparedWith: InputDigest(snapshot.storage.view, env, interactionPointer))
                }
            }
        }

        let written = min(Int(output.count), capacity)
        let nodeBytes = Array(UnsafeRawBufferPointer(start: nodes, count: written * nodeStride))
        let damageBefore = UnsafeRawBufferPointer(start: raw, count: guardBytes).reduce(0) { $0 + ($1 == guardPattern ? 0 : 1) }
        let damageAfter = UnsafeRawBufferPointer(start: nodes + bodyBytes, count: guardBytes).reduce(0) { $0 + ($1 == guardPattern ? 0 : 1) }
        var decoded: Result<HudLayout, RegistryError>?
        if status == Int32(HUD_STATUS_OK), Int(output.count) <= capacity {
            decoded = withExtendedLifetime(titles) {
                Result { () throws(RegistryError) in
                    try LayoutDecoder(info: info, environment: environment).decode(output, nodes: nodes, stride: nodeStride)
                }
            }
        }
        return Call(status: status, count: output.count, capacity: capacity, nodeBytes: nodeBytes,
                    contentInsets: output.content_insets, hiddenPositions: output.hidden_positions,
                    guardDamageBefore: damageBefore, guardDamageAfter: damageAfter, changedInputs: changed,
                    actionCalls: violations, nanoseconds: elapsed, decoded: decoded)
    }

    /// The raw doubles and fields of written nodes that must be finite and
    /// non-negative, checked before the decoder sees them (so a NaN is
    /// reported as a geometry problem with the node and field named).
    static func nonFiniteFields(in call: Call) -> [String] {
        var problems: [String] = []
        let count = call.nodeBytes.count / nodeStride
        call.nodeBytes.withUnsafeBytes { buffer in
            for index in 0..<count {
                let node = buffer.loadUnaligned(fromByteOffset: index * nodeStride, as: hud_node_t.self)
                let values: [(String, Double, Bool)] = [
                    ("frame.x", node.frame.x, false), ("frame.y", node.frame.y, false),
                    ("frame.width", node.frame.width, true), ("frame.height", node.frame.height, true),
                    ("hit.x", node.hit.x, false), ("hit.y", node.hit.y, false),
                    ("hit.width", node.hit.width, true), ("hit.height", node.hit.height, true),
                    ("corner_radius", node.corner_radius, true), ("stroke_width", node.stroke_width, true),
                    ("font_size", node.font_size, true),
                ]
                for (field, value, isLength) in values where !value.isFinite || (isLength && value < 0) {
                    problems.append("node \(index): \(field) is \(value)")
                }
            }
        }
        let insets = call.contentInsets
        for (field, value) in [("top", insets.top), ("left", insets.left), ("bottom", insets.bottom), ("right", insets.right)]
        where !value.isFinite || value < 0 {
            problems.append("content_insets.\(field) is \(value)")
        }
        return problems
    }

    // MARK: - Time

    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Bytes currently allocated from malloc by the whole process.
    static func heapInUse() -> Int { Int(hud_system_heap_in_use()) }
}

/// FNV-1a digests of everything a layout call can reach through its input
/// pointers: the complications (slots, secondaries, modes, every string),
/// the environment (palette, title) and the interaction.
struct InputDigest: Equatable {
    var complications: UInt64
    var environment: UInt64
    var interaction: UInt64

    init(_ complications: UnsafePointer<hud_complications_t>, _ environment: UnsafePointer<hud_environment_t>,
         _ interaction: UnsafePointer<hud_interaction_t>) {
        var hash = FNV()
        hash.add(complications)
        let slots = withUnsafeBytes(of: complications.pointee.slots) { Array($0.bindMemory(to: UnsafePointer<hud_slot_t>?.self)) }
        for case let slot? in slots {
            hash.add(slot)
            hash.add(string: slot.pointee.icon)
            hash.add(string: slot.pointee.label)
            if let secondary = slot.pointee.secondary {
                hash.add(secondary)
                hash.add(string: secondary.pointee.icon)
                hash.add(string: secondary.pointee.label)
            }
            if let modes = slot.pointee.modes {
                for index in 0..<Int(min(slot.pointee.mode_count, UInt32(HUD_MAX_MODES))) {
                    hash.add(pointerBits: modes[index])
                    guard let mode = modes[index] else { continue }
                    hash.add(mode)
                    hash.add(string: mode.pointee.id)
                    hash.add(string: mode.pointee.icon)
                    hash.add(string: mode.pointee.label)
                }
            }
        }
        self.complications = hash.value
        var env = FNV()
        env.add(environment)
        if let palette = environment.pointee.palette { env.add(palette) }
        env.add(string: environment.pointee.navigation_title)
        self.environment = env.value
        var ui = FNV()
        ui.add(interaction)
        self.interaction = ui.value
    }

    func changes(comparedWith other: InputDigest) -> [String] {
        var changed: [String] = []
        if complications != other.complications { changed.append("complications") }
        if environment != other.environment { changed.append("environment") }
        if interaction != other.interaction { changed.append("interaction") }
        return changed
    }
}

/// 64-bit FNV-1a.
struct FNV {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add<T>(_ pointer: UnsafePointer<T>) {
        add(bytes: UnsafeRawBufferPointer(start: pointer, count: MemoryLayout<T>.size))
    }

    mutating func add(bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
    }

    mutating func add(bytes: [UInt8]) {
        bytes.withUnsafeBytes { add(bytes: $0) }
    }

    mutating func add(pointerBits pointer: UnsafeRawPointer?) {
        withUnsafeBytes(of: UInt(bitPattern: pointer)) { add(bytes: $0) }
    }

    mutating func add(string: UnsafePointer<CChar>?) {
        guard let string else { add(bytes: [0xFF]); return }
        add(bytes: UnsafeRawBufferPointer(start: string, count: strnlen(string, 1 << 16) + 1))
    }
}
