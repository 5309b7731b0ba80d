// SPDX-License-Identifier: MIT
package import HudModel
import HudRendererAPI
package import HudPluginBoundary
import BuiltinRenderers
import Glibc
import HudSystem

/// Every raw operation the conformance suite performs on plugin memory and
/// through plugin pointers, in one file: the entry function, init/deinit,
/// descriptor reads, extension lookups with odd ids, and layout calls into
/// guarded buffers with input checksums. Calls go through `PluginCalls`
/// (so the action-during-layout guard is always armed); this file adds what
/// only a validator needs below the package API.
///
/// Nothing here is thread-safe except `layout`, which owns all its memory
/// per call (the thread-safety check calls it from several threads).
/// A plugin file opened for validation (`dlopen`, never closed).
package struct RawLibrary {
    private let library: DynamicLibrary

    package static func open(path: String) throws(RegistryError) -> RawLibrary {
        RawLibrary(library: try DynamicLibrary.open(path: path))
    }

    /// True when `symbol` is defined in the plugin or a library it names
    /// (`DT_NEEDED`, transitively): `dlsym` on the plugin's own handle
    /// searches exactly that scope, not what the host happens to have loaded.
    package func scopeDefines(_ symbol: String) -> Bool { unsafe (try? library.address(of: symbol)) != nil }

    /// Where `symbol` is in this process (`dlsym(RTLD_DEFAULT)`), as a
    /// number (to find the file it is in), if anything defines it.
    package static func processAddress(of symbol: String) -> UInt? {
        unsafe DynamicLibrary.processSymbol(symbol).map { UInt(bitPattern: $0) }
    }

    /// The exported entry function (`dlsym` of `HUD_ENTRY_SYMBOL_NAME`).
    package func entryFunction() throws(RegistryError) -> RawEntryFunction {
        unsafe RawEntryFunction(pointer: try library.address(of: HUD_ENTRY_SYMBOL_NAME))
    }
}

/// A plugin's `hud_renderer_get_entry`, callable again (the suite checks it
/// returns the same entry every time).
@safe package struct RawEntryFunction {
    fileprivate let pointer: UnsafeMutableRawPointer

    /// Where the function's code is, as a number (to find the file it is in).
    package var address: UInt { unsafe UInt(bitPattern: pointer) }

    package func call() -> RawEntry? { unsafe PluginCalls.entry(at: pointer).map(RawEntry.init) }
}

/// A plugin's entry structure (plugin-owned, static). Equal when it is the
/// same structure (same address).
@safe package struct RawEntry: Equatable {
    fileprivate let pointer: UnsafePointer<hud_entry_t>

    /// The built-ins linked into this host.
    package static var builtin: RawEntry { unsafe RawEntry(pointer: hudRendererGetEntry()) }

    /// The header fields, read without trusting anything else.
    package var abiVersion: ABIVersion { unsafe ABIVersion(packed: pointer.pointee.abi_version) }
    package var structSize: Int { unsafe Int(pointer.pointee.struct_size) }

    /// `init()`, or nil when the pointer is NULL.
    package func initialize() -> Int32? { unsafe PluginCalls.initialize(pointer) }
    package func deinitialize() { unsafe PluginCalls.deinitialize(pointer) }
    package func rendererCount() -> UInt32? { unsafe PluginCalls.rendererCount(pointer) }
    package func descriptor(at index: UInt32) -> RawDescriptor? { unsafe PluginCalls.renderer(pointer, at: index).map(RawDescriptor.init) }

    /// The host's own loader over this entry (handshake, init, validation).
    package func loader(origin: RendererInfo.Origin) -> EntryLoader { unsafe EntryLoader(entry: pointer, origin: origin) }

    /// Where the structure is, as a number (never turned back into a pointer).
    package var address: UInt64 { unsafe UInt64(UInt(bitPattern: pointer)) }

    package static func == (a: RawEntry, b: RawEntry) -> Bool { unsafe a.pointer == b.pointer }
}

/// One renderer descriptor (plugin-owned, static). Equal when it is the
/// same structure (same address).
@safe package struct RawDescriptor: Equatable {
    fileprivate let pointer: UnsafePointer<hud_renderer_descriptor_t>

    package var structSize: Int { unsafe Int(pointer.pointee.struct_size) }
    package var capabilities: UInt32 { unsafe pointer.pointee.capabilities }
    /// Where the descriptor is, as a number (a pointer identity the
    /// renderer host reports; never turned back into a pointer).
    package var address: UInt64 { unsafe UInt64(UInt(bitPattern: pointer)) }

    package static func == (a: RawDescriptor, b: RawDescriptor) -> Bool { unsafe a.pointer == b.pointer }

    /// The id, if it is a valid bounded UTF-8 string.
    package var id: String? { unsafe try? CStringReader.read(pointer.pointee.id, limit: Int(HUD_MAX_ID_BYTES)) }

    /// The descriptor's bytes (its struct_size of them, at most this
    /// header's size: an older plugin's descriptor is shorter) plus the
    /// bytes of the strings it points to: equal fingerprints mean equal
    /// contents.
    package var fingerprint: [UInt8] {
        let size = unsafe min(Int(pointer.pointee.struct_size), MemoryLayout<hud_renderer_descriptor_t>.size)
        var bytes = unsafe Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: size))
        let d = unsafe pointer
        for unsafe string in unsafe [d.pointee.id, d.pointee.name, d.pointee.version, d.pointee.vendor, d.pointee.description] {
            guard let string = unsafe string else { bytes.append(0xFF); continue }
            let length = unsafe strnlen(string, Int(HUD_MAX_DESCRIPTION_BYTES) + 1)
            unsafe bytes += UnsafeRawBufferPointer(start: string, count: length)
            bytes.append(0)
        }
        return bytes
    }

    /// A 64-bit FNV-1a of `fingerprint`: what the renderer host reports
    /// (the whole fingerprint of 256 descriptors would not fit a frame).
    package var digest: UInt64 {
        fingerprint.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// Whether `get_extension(self, id)` returns non-NULL. `id` is passed as
    /// raw bytes (NUL appended), so ids with odd bytes can be tried.
    package func hasExtension(idBytes: [UInt8]) -> Bool {
        guard let lookup = unsafe pointer.pointee.get_extension else { return false }
        let terminated = idBytes.map { CChar(bitPattern: $0) } + [0]
        return unsafe terminated.withUnsafeBufferPointer { unsafe lookup(pointer, $0.baseAddress) != nil }
    }
}

package enum RawPluginHarness {
    // MARK: - Layout

    /// Bytes of guard zone on each side of the node buffer.
    package static let guardBytes = 8192
    package static let guardPattern: UInt8 = 0xA5
    package static let poisonPattern: UInt8 = 0xCD
    package static let nodeStride = unsafe MemoryLayout<hud_node_t>.stride

    /// What one raw layout call did.
    package struct Call {
        package var status: Int32
        package var count: UInt32
        package var capacity: Int
        /// The node stride the call was given (`nodeStride` unless it spoke as a 1.0 host).
        package var stride: Int
        /// The bytes of the nodes written (min(count, capacity) × stride).
        package var nodeBytes: [UInt8]
        fileprivate var rawInsets: hud_insets_t
        /// Points the chrome takes from the content area, as reported.
        package var contentInsets: HudInsets { HudInsets(top: rawInsets.top, left: rawInsets.left, bottom: rawInsets.bottom, right: rawInsets.right) }
        package var hiddenPositions: UInt32
        /// Guard bytes changed before and after the buffer.
        package var guardDamageBefore: Int
        package var guardDamageAfter: Int
        /// Inputs whose checksum changed across the call.
        package var changedInputs: [String]
        package var actionCalls: Int
        package var nanoseconds: UInt64
        /// The host's validation and decoding, when the status was OK and
        /// the count fit the buffer.
        package var decoded: Result<HudLayout, RegistryError>?

        package var layout: HudLayout? { if case .success(let layout)? = decoded { layout } else { nil } }

        /// Byte-identical comparison key: status, header fields, node bytes.
        package var outputBytes: [UInt8] {
            var bytes = unsafe withUnsafeBytes(of: status) { unsafe Array($0) } + withUnsafeBytes(of: count) { unsafe Array($0) }
            unsafe bytes += withUnsafeBytes(of: rawInsets) { unsafe Array($0) } + withUnsafeBytes(of: hiddenPositions) { unsafe Array($0) }
            return bytes + nodeBytes
        }
    }

    /// Calls `descriptor`'s layout once with a fresh, guarded buffer of
    /// `capacity` nodes filled with `fill` (the host zeroes it; the
    /// every-field check poisons it), checksumming every input before and
    /// after.
    ///
    /// `host` is the ABI the call speaks as: this host's by default; an
    /// older minor (1.0) gives the renderer that minor's environment
    /// `struct_size` and node stride (`HUD_ENVIRONMENT_SIZE_1_0`,
    /// `HUD_NODE_SIZE_1_0`), with every field of this host's environment
    /// still filled in, to prove a renderer built against a later header
    /// reads and writes only what the sizes cover.
    package static func layout(_ descriptor: RawDescriptor, info: RendererInfo,
                       snapshot: CComplications, environment: HudEnvironment, interaction: HudInteraction,
                       capacity: Int, fill: UInt8 = 0, checksum: Bool = true, host: ABIVersion = .host) -> Call {
        let speaksMinor1 = host.minor >= 1
        let stride = speaksMinor1 ? nodeStride : Int(HUD_NODE_SIZE_1_0)
        let environmentSize = unsafe speaksMinor1 ? MemoryLayout<hud_environment_t>.size : Int(HUD_ENVIRONMENT_SIZE_1_0)
        let bodyBytes = capacity * stride
        let total = guardBytes * 2 + bodyBytes
        let raw = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 16)
        defer { unsafe raw.deallocate() }
        unsafe raw.setBytes(to: guardPattern, count: guardBytes)
        unsafe (raw + guardBytes).setBytes(to: fill, count: bodyBytes)
        unsafe (raw + guardBytes + bodyBytes).setBytes(to: guardPattern, count: guardBytes)
        let nodes = unsafe raw + guardBytes

        var output = unsafe hud_layout_t()
        unsafe output.struct_size = unsafe UInt32(MemoryLayout<hud_layout_t>.size)
        unsafe output.node_stride = UInt32(stride)
        unsafe output.nodes = unsafe nodes
        unsafe output.capacity = UInt32(capacity)

        var changed: [String] = []
        var status: Int32 = 0
        var violations = 0
        var elapsed: UInt64 = 0
        // The title must outlive the call: nodes may point at it, and they
        // are read (decoded) below.
        let titles = TitleStorage()
        unsafe EnvironmentMarshaler.with(environment, titles: titles, structSize: environmentSize) { env in
            var interactionView = InteractionMarshaler.make(interaction)
            unsafe withUnsafePointer(to: &interactionView) { interactionPointer in
                let before = unsafe checksum ? InputDigest(snapshot.view, env, interactionPointer) : nil
                let start = SystemCalls.monotonicNanoseconds()
                (status, violations) = unsafe PluginCalls.layout(descriptor.pointer, snapshot.view, env, interactionPointer, &output)
                elapsed = SystemCalls.monotonicNanoseconds() &- start
                if let before {
                    changed = unsafe before.changes(comparedWith: InputDigest(snapshot.view, env, interactionPointer))
                }
            }
        }

        let written = unsafe min(Int(output.count), capacity)
        let nodeBytes = unsafe Array(UnsafeRawBufferPointer(start: nodes, count: written * stride))
        let damageBefore = unsafe UnsafeRawPointer(raw).bytes(differingFrom: guardPattern, count: guardBytes)
        let damageAfter = unsafe UnsafeRawPointer(nodes + bodyBytes).bytes(differingFrom: guardPattern, count: guardBytes)
        var decoded: Result<HudLayout, RegistryError>?
        if status == Int32(HUD_STATUS_OK), unsafe Int(output.count) <= capacity {
            decoded = withExtendedLifetime(titles) {
                Result { () throws(RegistryError) in
                    unsafe try LayoutDecoder(info: info, environment: environment).decode(output, nodes: nodes, stride: stride, modes: snapshot.modeCounts)
                }
            }
        }
        return unsafe Call(status: status, count: output.count, capacity: capacity, stride: stride, nodeBytes: nodeBytes,
                    rawInsets: output.content_insets, hiddenPositions: output.hidden_positions,
                    guardDamageBefore: damageBefore, guardDamageAfter: damageAfter, changedInputs: changed,
                    actionCalls: violations, nanoseconds: elapsed, decoded: decoded)
    }

    /// The raw doubles and fields of written nodes that must be finite and
    /// non-negative, checked before the decoder sees them (so a NaN is
    /// reported as a geometry problem with the node and field named).
    package static func nonFiniteFields(in call: Call) -> [String] {
        var problems: [String] = []
        let count = call.nodeBytes.count / call.stride
        unsafe call.nodeBytes.withUnsafeBytes { buffer in
            for index in 0..<count {
                // The stride's bytes over a zeroed node: fields it does not cover read as zero.
                var node = unsafe hud_node_t()
                unsafe withUnsafeMutableBytes(of: &node) { target in
                    unsafe target.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[(index * call.stride)..<(index * call.stride + min(call.stride, nodeStride))]))
                }
                let values: [(String, Double, Bool)] = unsafe [
                    ("frame.x", node.frame.x, false), ("frame.y", node.frame.y, false),
                    ("frame.width", node.frame.width, true), ("frame.height", node.frame.height, true),
                    ("hit.x", node.hit.x, false), ("hit.y", node.hit.y, false),
                    ("hit.width", node.hit.width, true), ("hit.height", node.hit.height, true),
                    ("corner_radius", node.corner_radius, true), ("stroke_width", node.stroke_width, true),
                    ("font_size", node.font_size, true), ("glyph_size", node.glyph_size, true),
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
}

/// FNV-1a digests of everything a layout call can reach through its input
/// pointers: the complications (slots, secondaries, modes, every string),
/// the environment (palette, title) and the interaction.
struct InputDigest: Equatable {
    package var complications: UInt64
    package var environment: UInt64
    package var interaction: UInt64

    package init(_ complications: UnsafePointer<hud_complications_t>, _ environment: UnsafePointer<hud_environment_t>,
         _ interaction: UnsafePointer<hud_interaction_t>) {
        var hash = FNV1a()
        unsafe hash.add(complications)
        let slots = unsafe withUnsafeBytes(of: complications.pointee.slots) { unsafe Array($0.bindMemory(to: UnsafePointer<hud_slot_t>?.self)) }
        for unsafe case let slot? in unsafe slots {
            unsafe hash.add(slot)
            unsafe hash.add(string: slot.pointee.icon)
            unsafe hash.add(string: slot.pointee.label)
            if let secondary = unsafe slot.pointee.secondary {
                unsafe hash.add(secondary)
                unsafe hash.add(string: secondary.pointee.icon)
                unsafe hash.add(string: secondary.pointee.label)
            }
            if let modes = unsafe slot.pointee.modes {
                for index in unsafe 0..<Int(min(slot.pointee.mode_count, UInt32(HUD_MAX_MODES))) {
                    unsafe hash.add(pointerBits: modes[index])
                    guard let mode = unsafe modes[index] else { continue }
                    unsafe hash.add(mode)
                    unsafe hash.add(string: mode.pointee.id)
                    unsafe hash.add(string: mode.pointee.icon)
                    unsafe hash.add(string: mode.pointee.label)
                }
            }
        }
        self.complications = hash.value
        var env = FNV1a()
        unsafe env.add(environment)
        if let palette = unsafe environment.pointee.palette { unsafe env.add(palette) }
        unsafe env.add(string: environment.pointee.navigation_title)
        self.environment = env.value
        var ui = FNV1a()
        unsafe ui.add(interaction)
        self.interaction = ui.value
    }

    package func changes(comparedWith other: InputDigest) -> [String] {
        var changed: [String] = []
        if complications != other.complications { changed.append("complications") }
        if environment != other.environment { changed.append("environment") }
        if interaction != other.interaction { changed.append("interaction") }
        return changed
    }
}

/// FNV-1a over raw memory, for the input digests.
extension FNV1a {
    mutating func add<T>(_ pointer: UnsafePointer<T>) {
        unsafe add(bytes: UnsafeRawBufferPointer(start: pointer, count: MemoryLayout<T>.size))
    }

    mutating func add(pointerBits pointer: UnsafeRawPointer?) {
        unsafe withUnsafeBytes(of: UInt(bitPattern: pointer)) { unsafe add(bytes: $0) }
    }

    mutating func add(string: UnsafePointer<CChar>?) {
        guard let string = unsafe string else { add(bytes: [0xFF]); return }
        unsafe add(bytes: UnsafeRawBufferPointer(start: string, count: strnlen(string, 1 << 16) + 1))
    }
}

extension RawPluginHarness.Call {
    /// A call holding only `outputBytes`-relevant fields, to name a difference.
    package static func placeholder(_ bytes: [UInt8]) -> RawPluginHarness.Call {
        var call = RawPluginHarness.Call(status: 0, count: 0, capacity: 0, stride: RawPluginHarness.nodeStride, nodeBytes: [], rawInsets: hud_insets_t(), hiddenPositions: 0,
                                         guardDamageBefore: 0, guardDamageAfter: 0, changedInputs: [], actionCalls: 0, nanoseconds: 0, decoded: nil)
        let header = MemoryLayout<Int32>.size + MemoryLayout<UInt32>.size + MemoryLayout<hud_insets_t>.size + MemoryLayout<UInt32>.size
        guard bytes.count >= header else { return call }
        unsafe bytes.withUnsafeBytes { raw in
            call.status = unsafe raw.loadUnaligned(as: Int32.self)
            call.count = unsafe raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        }
        call.nodeBytes = Array(bytes[header...])
        return call
    }
}

/// hud_node_t's fields by offset, for naming unwritten bytes.
package enum NodeFields {
    package static let all: [(name: String, offset: Int)] = {
        let list: [(String, PartialKeyPath<hud_node_t>)] = unsafe [
            ("kind", \.kind), ("position", \.position), ("part", \.part), ("mode_index", \.mode_index),
            ("frame", \.frame), ("hit", \.hit), ("shape", \.shape), ("material", \.material),
            ("corner_radius", \.corner_radius), ("stroke_width", \.stroke_width), ("font_size", \.font_size),
            ("fill", \.fill), ("stroke", \.stroke), ("icon_color", \.icon_color), ("text_color", \.text_color),
            ("placement", \.placement), ("z", \.z), ("flags", \.flags), ("reserved", \.reserved),
            ("icon", \.icon), ("label", \.label), ("accessibility_label", \.accessibility_label),
            ("glyph_size", \.glyph_size), ("accessibility_actions", \.accessibility_actions),
        ]
        return unsafe list.compactMap { name, path in unsafe MemoryLayout<hud_node_t>.offset(of: path).map { (name, $0) } }.sorted { $0.1 < $1.1 }
    }()

    /// The bytes of each node a renderer built for `abi` knows and must
    /// write: `HUD_NODE_SIZE_1_0` for a 1.0 renderer (`hud_layout_push_node`
    /// copies no more; the host never reads the rest), the whole stride for
    /// a later one.
    package static func knownBytes(abi: ABIVersion, stride: Int) -> Int {
        abi.minor >= 1 ? stride : min(stride, Int(HUD_NODE_SIZE_1_0))
    }
}

// MARK: - Benchmark hooks (hudbench only; nothing here is used by the host)

/// Package-only entry points for `hudbench`: the C inputs the registry
/// builds for a layout call (so the benchmark can call a renderer's layout
/// pointer directly, without the registry, on identical inputs), and raw
/// action thunks. Nothing here is public API; nothing here is used by the
/// host itself.
package enum BenchmarkHooks {
    /// Runs `body` with exactly the C inputs `RendererRegistry.layout` passes
    /// to a renderer: the snapshot's marshaled view, the environment and the
    /// interaction. The pointers are valid only inside `body`.
    package static func withLayoutInputs<R>(
        snapshot: CComplications, environment: HudEnvironment, interaction: HudInteraction,
        _ body: (LayoutInputs) -> R
    ) -> R {
        var interactionView = InteractionMarshaler.make(interaction)
        return unsafe EnvironmentMarshaler.with(environment) { env in
            unsafe withUnsafePointer(to: &interactionView) {
                unsafe body(LayoutInputs(complications: UnsafePointer(snapshot.view), environment: env, interaction: $0))
            }
        }
    }

    /// The process's malloc counters (allocations, bytes) from the
    /// benchmark's LD_PRELOAD counter library, or nil when it is not loaded.
    package static func mallocCounts() -> (allocations: UInt64, bytes: UInt64)? {
        guard let symbol = unsafe DynamicLibrary.processSymbol("hudbench_malloc_counts") else { return nil }
        typealias Counts = @convention(c) (UnsafeMutablePointer<UInt64>?, UnsafeMutablePointer<UInt64>?, UnsafeMutablePointer<UInt64>?) -> Void
        let counts = unsafe unsafeBitCast(symbol, to: Counts.self)
        var allocations: UInt64 = 0, bytes: UInt64 = 0
        unsafe counts(&allocations, nil, &bytes)
        return (allocations, bytes)
    }

    /// Makes one action thunk (a libffi closure), as publishing does per action.
    package static func makeThunk(_ action: @escaping () -> Void) throws(RegistryError) -> BenchmarkThunk {
        BenchmarkThunk(try ActionThunk(action))
    }
}

/// The three input pointers of one layout call, valid only inside the
/// `withLayoutInputs` body that received them (do not store).
@safe package struct LayoutInputs {
    let complications: UnsafePointer<hud_complications_t>
    let environment: UnsafePointer<hud_environment_t>
    let interaction: UnsafePointer<hud_interaction_t>
}

/// Keeps the optimizer from deleting benchmark work whose result is
/// otherwise unused: not inlined, and it writes a global.
/// `nonisolated(unsafe)`: hudbench runs every scenario on its main thread
/// only, so nothing touches it concurrently.
nonisolated(unsafe) package var benchmarkSink = 0
@inline(never)
package func consume(_ value: Int) { unsafe benchmarkSink &+= value }

/// Actions fired through the benchmark's thunks and reference function.
/// `nonisolated(unsafe)`: as `benchmarkSink`, single-threaded by design.
nonisolated(unsafe) package var benchmarkActionsFired = 0

/// What the benchmark's actions do: count one.
@inline(never)
package func noteBenchmarkAction() { unsafe benchmarkActionsFired &+= 1 }

/// A plain C function pointer, read from a global each call so the
/// optimizer cannot inline the call it stands for (`thunk.call.reference`).
/// `nonisolated(unsafe)`: written only here, read on hudbench's thread.
nonisolated(unsafe) private var referenceFunction: @convention(c) () -> Void = { unsafe benchmarkActionsFired &+= 1 }

/// `referenceFunction`, hidden from the optimizer.
@_optimize(none)
package func opaqueReferenceFunction() -> @convention(c) () -> Void { unsafe referenceFunction }


/// One action thunk, for measuring create, call and retire on their own.
package struct BenchmarkThunk {
    private let thunk: ActionThunk

    fileprivate init(_ thunk: ActionThunk) { self.thunk = thunk }

    /// Calls it through the C pointer plugins receive.
    package func callThroughPointer() { thunk.callThroughPointer() }

    /// Ends its life as a snapshot release does (into the quarantine).
    package func retire() { thunk.retire() }
}

/// A renderer's layout function reached without the registry: the built-ins
/// through their linked entry (`hudRendererGetEntry()`), plugins through
/// their own `dlopen` + `dlsym` (the same, already loaded, image). All raw
/// calls of the benchmark into renderer code live here.
@safe package struct DirectRenderer {
    let descriptor: UnsafePointer<hud_renderer_descriptor_t>
    let layout: hud_layout_fn

    /// Finds the descriptor of `info.id` in the entry its origin names.
    package init?(_ info: RendererInfo) {
        let entry: UnsafePointer<hud_entry_t>
        switch info.origin {
        case .builtin:
            unsafe entry = unsafe hudRendererGetEntry()
        case .file(let path):
            // RTLD_NODELETE like the registry; the image is already loaded, so
            // this only takes another reference.
            guard let library = try? DynamicLibrary.open(path: path),
                  let symbol = unsafe try? library.address(of: HUD_ENTRY_SYMBOL_NAME),
                  let found = unsafe PluginCalls.entry(at: symbol) else { return nil }
            unsafe entry = unsafe found
        }
        // Reference-counted: the registry's init already happened; one more
        // is harmless and keeps renderer_count() non-zero for us.
        guard let initialize = unsafe entry.pointee.`init`, initialize() == Int32(HUD_STATUS_OK),
              let count = unsafe entry.pointee.renderer_count, let at = unsafe entry.pointee.renderer_at else { return nil }
        for index in 0..<count() {
            guard let descriptor = unsafe at(index), let id = unsafe descriptor.pointee.id,
                  unsafe String(cString: id) == info.id, let layout = unsafe descriptor.pointee.layout else { continue }
            unsafe self.descriptor = unsafe descriptor
            unsafe self.layout = unsafe layout
            return
        }
        return nil
    }
}

/// A host-owned node buffer and layout header for direct calls: what a
/// minimal hand-written caller does per frame (reset the header, call).
/// The buffer is zeroed once; every node the renderers write is written
/// whole by `hud_layout_push_node`, so the direct baseline skips re-zeroing.
@safe package final class DirectCall {
    let renderer: DirectRenderer
    private let nodes: UnsafeMutableRawPointer
    private let capacity = 64
    private var output = unsafe hud_layout_t()

    package init(_ renderer: DirectRenderer) {
        self.renderer = renderer
        let bytes = unsafe capacity * MemoryLayout<hud_node_t>.stride
        unsafe nodes = unsafe .allocate(byteCount: bytes, alignment: MemoryLayout<hud_node_t>.alignment)
        unsafe nodes.setBytes(to: 0, count: bytes)
    }

    deinit { unsafe nodes.deallocate() }

    /// One layout call on prepared C inputs; returns the node count (or -1).
    @inline(__always)
    package func callAsFunction(_ inputs: LayoutInputs) -> Int {
        unsafe output = unsafe hud_layout_t()
        unsafe output.struct_size = unsafe UInt32(MemoryLayout<hud_layout_t>.size)
        unsafe output.node_stride = unsafe UInt32(MemoryLayout<hud_node_t>.stride)
        unsafe output.nodes = unsafe nodes
        unsafe output.capacity = UInt32(capacity)
        let status = unsafe renderer.layout(renderer.descriptor, inputs.complications, inputs.environment, inputs.interaction, &output)
        return unsafe status == Int32(HUD_STATUS_OK) ? Int(output.count) : -1
    }
}
