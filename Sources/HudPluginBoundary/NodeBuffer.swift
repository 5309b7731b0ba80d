// SPDX-License-Identifier: MIT
package import HudModel
package import HudRendererAPI
import Glibc

// The host-owned node buffer a renderer writes its layout into, the layout
// call itself (two-call idiom, action-during-layout guard), the in-place
// validation of every node, and the zero-copy read view of a validated
// buffer. Node strings point into the renderer's inputs or its static
// storage; they are read (bounded, checked) only while both are alive.

/// One registered renderer: its descriptor (plugin-owned, valid for the
/// life of the process since libraries are never closed) and a reusable,
/// host-owned node buffer.
///
/// Not thread-safe: one `PluginRenderer` serves one thread at a time (the
/// shell's). The buffer is reused across calls, so a steady-state layout
/// allocates nothing for the call itself.
@safe package final class PluginRenderer {
    package let info: RendererInfo
    private let descriptor: UnsafePointer<hud_renderer_descriptor_t>
    /// The node buffer, regrown in place (a `let`: the per-call path reads
    /// it without retaining it).
    private let buffer: LayoutBuffer
    /// The environment's view, kept while the environment is unchanged;
    /// also keeps the title's C string alive while nodes that point at it
    /// are read.
    private let environments = EnvironmentViews()
    /// True while a frame from `buffer` is being read (re-entrancy guard).
    /// Unchecked exclusivity: only `withFrame` touches it, on one thread.
    @exclusivity(unchecked) fileprivate var frameInUse = false

    package init(info: RendererInfo, descriptor: UnsafePointer<hud_renderer_descriptor_t>) {
        self.info = info
        unsafe self.descriptor = unsafe descriptor
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
        if unsafe frameInUse {
            return unsafe try PluginRenderer(info: info, descriptor: descriptor).withFrame(snapshot, environment: environment, interaction: interaction, body)
        }
        let frame = try openFrame(snapshot, environment, interaction)
        defer { unsafe frameInUse = false }
        return body(frame)
    }

    /// The call and the in-place validation (not generic, so it is
    /// optimized whatever the caller's `R`). On return the frame is open:
    /// `frameInUse` is set until the caller is done reading and clears it;
    /// on a throw it stays clear. (Nothing can lay out on this renderer
    /// during the call itself: the renderer cannot call the host back, and
    /// actions are refused while it runs.)
    fileprivate func openFrame(_ snapshot: CComplications, _ environment: HudEnvironment,
                               _ interaction: HudInteraction) throws(RegistryError) -> LayoutFrame {
        var output = unsafe hud_layout_t()
        let raw = unsafe inlinedRawCall(snapshot, environment, interaction, &output)
        // The common case in one test; anything else is judged and named by
        // `RawLayoutResult.check`, the one place for that.
        if unsafe raw.violations != 0 || raw.status != Int32(HUD_STATUS_OK) || Int(output.count) > buffer.capacity {
            unsafe try judge(raw, count: output.count)
        }
        let contract = NodeContract(abi: info.abiVersion, stride: buffer.stride, modes: snapshot.modeCounts)
        let nodes = unsafe UnsafeRawPointer(buffer.nodes)
        do {
            unsafe try LayoutValidator.validate(output, nodes: nodes, stride: buffer.stride, contract: contract,
                                         trusting: HostStrings(arena: snapshot.stringArena, title: environments.titleRange))
        } catch {
            throw refusal(error)
        }
        unsafe frameInUse = true
        return unsafe LayoutFrame(validated: output, nodes: nodes, stride: buffer.stride, contract: contract)
    }

    // The two ways out of `openFrame` with an error, kept out of line so
    // that the descriptor (`info`) is read only when something is wrong.
    @inline(never)
    private func judge(_ raw: (status: Int32, violations: Int), count: UInt32) throws(RegistryError) {
        unsafe try RawLayoutResult(status: raw.status, count: count, capacity: UInt32(buffer.capacity), violations: raw.violations).check(info)
    }

    @inline(never)
    private func refusal(_ violation: LayoutValidator.Violation) -> RegistryError {
        violation.registryError(info)
    }

    private func call(_ snapshot: CComplications, _ environment: HudEnvironment, _ interaction: HudInteraction,
                      _ output: inout hud_layout_t) throws(RegistryError) -> Int32 {
        let raw = unsafe rawCall(snapshot, environment, interaction, &output)
        unsafe try RawLayoutResult(status: raw.status, count: output.count, capacity: UInt32(buffer.capacity),
                            violations: raw.violations).check(info)
        return raw.status
    }

    /// The layout call with nothing judged: the two-call idiom (one regrow
    /// of the buffer when the renderer asks for at most `ABILimits.maxNodes`
    /// nodes), the action guard armed. `output` and `currentBuffer` hold what
    /// the renderer wrote. The out-of-process renderer host calls this and
    /// ships the raw result to the parent, which judges it with
    /// `RawLayoutResult.check` exactly as `call` does here.
    package func rawCall(_ snapshot: CComplications, _ environment: HudEnvironment, _ interaction: HudInteraction,
                         _ output: inout hud_layout_t) -> (status: Int32, violations: Int) {
        unsafe inlinedRawCall(snapshot, environment, interaction, &output)
    }

    /// `rawCall`, inlined into `openFrame` (one call frame less per layout).
    @inline(__always)
    private func inlinedRawCall(_ snapshot: CComplications, _ environment: HudEnvironment, _ interaction: HudInteraction,
                                _ output: inout hud_layout_t) -> (status: Int32, violations: Int) {
        var interactionView = InteractionMarshaler.make(interaction)
        let env = unsafe environments.view(for: environment)
        var attempts = 0
        while true {
            attempts += 1
            unsafe buffer.prepare(&output)
            let (status, violations) = unsafe PluginCalls.layout(descriptor, snapshot.view, env, &interactionView, &output)
            unsafe buffer.noteWritten(status: status, count: output.count)
            let needed = unsafe output.count
            if violations == 0, status == Int32(HUD_STATUS_BUFFER_TOO_SMALL), attempts < 2,
               unsafe needed > buffer.capacity, needed <= UInt32(ABILimits.maxNodes) {
                buffer.regrow(capacity: Int(needed))
                continue
            }
            return (status, violations)
        }
    }

    /// The buffer the last `rawCall` wrote into.
    package var currentBuffer: LayoutBuffer { buffer }
}

extension PluginRenderer {
    /// A reference to a renderer that does not retain it, for a holder that
    /// keeps the renderer alive by other means for as long as it uses this
    /// (the registry's memo of the previous call's renderer: the registry
    /// holds every renderer it registered and never removes one). Calling
    /// through it saves the retain/release pair a stored strong reference
    /// costs every frame.
    @safe package struct Unretained {
        private let reference: Unmanaged<PluginRenderer>

        /// `renderer` must outlive every use of this value.
        package init(_ renderer: PluginRenderer) {
            unsafe reference = unsafe .passUnretained(renderer)
        }

        /// `PluginRenderer.withFrame` on the renderer.
        @inline(__always)
        package func withFrame<R>(_ snapshot: CComplications, environment: HudEnvironment, interaction: HudInteraction,
                                  _ body: (LayoutFrame) -> R) throws(RegistryError) -> R {
            // A nested layout (from inside `body`): the renderer's own path
            // handles it (and retains it, off the frame loop).
            if unsafe reference._withUnsafeGuaranteedRef({ unsafe $0.frameInUse }) {
                return unsafe try reference.takeUnretainedValue().withFrame(snapshot, environment: environment, interaction: interaction, body)
            }
            // The error leaves through `failure`: `_withUnsafeGuaranteedRef`
            // rethrows untyped.
            var failure: RegistryError?
            let opened: LayoutFrame? = unsafe reference._withUnsafeGuaranteedRef { renderer in
                do throws(RegistryError) {
                    return try renderer.openFrame(snapshot, environment, interaction)
                } catch {
                    failure = error
                    return nil
                }
            }
            guard let frame = opened else { throw failure! }
            defer { unsafe reference._withUnsafeGuaranteedRef { unsafe $0.frameInUse = false } }
            return body(frame)
        }
    }
}

/// What a layout call returned, before anything it wrote is read: the
/// status, the node count, the capacity it was given and the actions it
/// tried to call. `check` is the one place these are judged, for renderers
/// in this process and in a renderer host alike.
package struct RawLayoutResult: Sendable {
    package var status: Int32
    package var count: UInt32
    package var capacity: UInt32
    package var violations: Int

    package init(status: Int32, count: UInt32, capacity: UInt32, violations: Int) {
        self.status = status
        self.count = count
        self.capacity = capacity
        self.violations = violations
    }

    /// Throws the contract violation, if any; on return `count` nodes
    /// (at most `capacity`) are there to validate.
    package func check(_ info: RendererInfo) throws(RegistryError) {
        guard violations == 0 else {
            throw .actionCalledDuringLayout(id: info.id, origin: info.origin.description, count: violations)
        }
        if status == Int32(HUD_STATUS_BUFFER_TOO_SMALL) {
            throw .layoutTooLarge(id: info.id, origin: info.origin.description, requested: count)
        }
        guard status == Int32(HUD_STATUS_OK) else {
            throw .layoutFailed(id: info.id, origin: info.origin.description, status: status)
        }
        if count > capacity {
            throw .invalidLayout(id: info.id, origin: info.origin.description, node: nil, field: "count",
                                 reason: "is \(count) but the buffer holds \(capacity) nodes and the status was OK; return HUD_STATUS_BUFFER_TOO_SMALL when the buffer is short")
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
@safe package final class LayoutBuffer {
    // Unchecked exclusivity on the vars: they are plain words read and
    // written by the one thread driving the buffer, never through a
    // reference held across a call that could change them.
    @exclusivity(unchecked) package private(set) var capacity: Int
    package let stride: Int
    @exclusivity(unchecked) package private(set) var nodes: UnsafeMutableRawPointer
    /// Leading nodes that may hold bytes from the previous call.
    @exclusivity(unchecked) private var dirtyNodes: Int

    package init(capacity: Int) {
        unsafe self.capacity = capacity
        self.stride = unsafe MemoryLayout<hud_node_t>.stride
        unsafe self.nodes = unsafe .allocate(byteCount: max(1, capacity * stride), alignment: MemoryLayout<hud_node_t>.alignment)
        unsafe self.dirtyNodes = capacity
    }

    deinit { unsafe nodes.deallocate() }

    /// Replaces the nodes with `capacity` zeroed ones (no frame may be
    /// reading the old ones).
    package func regrow(capacity: Int) {
        unsafe nodes.deallocate()
        unsafe self.capacity = capacity
        unsafe nodes = unsafe .allocate(byteCount: max(1, capacity * stride), alignment: MemoryLayout<hud_node_t>.alignment)
        unsafe dirtyNodes = capacity
    }

    /// Zeroes the nodes the previous call may have written and fills the
    /// host's half of the layout header.
    package func prepare(_ output: inout hud_layout_t) {
        if unsafe dirtyNodes > 0 {
            unsafe nodes.setBytes(to: 0, count: dirtyNodes * stride)
            unsafe dirtyNodes = 0
        }
        unsafe output = unsafe hud_layout_t()
        unsafe output.struct_size = unsafe UInt32(MemoryLayout<hud_layout_t>.size)
        unsafe output.node_stride = UInt32(stride)
        unsafe output.nodes = unsafe nodes
        unsafe output.capacity = unsafe UInt32(capacity)
    }

    /// Validates the first `output.count` nodes in place and hands `body`
    /// a frame over them, keeping this buffer alive while it reads (the one
    /// path from written nodes to a `LayoutFrame`, in-process and remote).
    /// `strings` names the host-made input strings whose bytes need no
    /// second reading (`HostStrings`; none by default).
    package func withValidatedFrame<R>(_ output: hud_layout_t, info: RendererInfo, modes: ModeCounts,
                                       trusting strings: HostStrings = .none,
                                       _ body: (LayoutFrame) -> R) throws(RegistryError) -> R {
        let frame = unsafe try validatedFrame(output, info: info, modes: modes, trusting: strings)
        // `self` (the buffer the frame reads) stays alive until `body` returns.
        defer { withExtendedLifetime(self) {} }
        return body(frame)
    }

    /// `withValidatedFrame` without the closure: the frame reads this
    /// buffer, so it is valid while the caller keeps the buffer alive and
    /// unchanged (until the next `prepare` or `regrow`).
    package func validatedFrame(_ output: hud_layout_t, info: RendererInfo, modes: ModeCounts,
                                trusting strings: HostStrings = .none) throws(RegistryError) -> LayoutFrame {
        let contract = NodeContract(abi: info.abiVersion, stride: stride, modes: modes)
        do {
            unsafe try LayoutValidator.validate(output, nodes: UnsafeRawPointer(nodes), stride: stride, contract: contract, trusting: strings)
        } catch {
            throw error.registryError(info)
        }
        return unsafe LayoutFrame(validated: output, nodes: UnsafeRawPointer(nodes), stride: stride, contract: contract)
    }

    /// Records how much of the buffer a call may have written.
    package func noteWritten(status: Int32, count: UInt32) {
        let succeeded = status == Int32(HUD_STATUS_OK) || status == Int32(HUD_STATUS_BUFFER_TOO_SMALL)
        unsafe dirtyNodes = unsafe succeeded ? min(Int(count), capacity) : capacity
    }
}

/// Validates a layout a renderer wrote and decodes it into Swift values.
/// Nothing a renderer returns is used before it passes: counts, enums,
/// finite non-negative geometry, UTF-8 strings within their limits.
/// A failure names the node and the field.
///
/// Two steps: `LayoutValidator` checks the nodes in place (no heap
/// allocation on success: the per-frame path), then `LayoutFrame.decoded()`
/// copies a validated frame into a `HudLayout` (allocates: arrays, strings).
package struct LayoutDecoder {
    package let info: RendererInfo
    package let environment: HudEnvironment

    package init(info: RendererInfo, environment: HudEnvironment) {
        self.info = info
        self.environment = environment
    }

    package func decode(_ output: hud_layout_t, nodes: UnsafeMutableRawPointer, stride: Int, modes: ModeCounts) throws(RegistryError) -> HudLayout {
        let contract = NodeContract(abi: info.abiVersion, stride: stride, modes: modes)
        do {
            unsafe try LayoutValidator.validate(output, nodes: UnsafeRawPointer(nodes), stride: stride, contract: contract)
        } catch {
            throw error.registryError(info)
        }
        return unsafe LayoutFrame(validated: output, nodes: UnsafeRawPointer(nodes), stride: stride, contract: contract).decoded()
    }
}

/// The in-place check of one layout: every rule the decoder enforces, read
/// straight from the renderer's node buffer, with no heap allocation unless
/// it fails. Checks run in a fixed order (insets, hidden bits, then per node
/// the fields in declaration order), so the first problem is the one named.
package enum LayoutValidator {
    /// The largest coordinate magnitude accepted (far beyond any screen, small
    /// enough that sums of a few coordinates stay exact and finite).
    package static let maxCoordinate = 1e7

    /// What is wrong, kept as plain values (field names are string literals)
    /// so that building and throwing it allocates nothing; the message is
    /// only formatted when the violation becomes a `RegistryError`.
    package struct Violation: Error {
        /// The node index, or nil for the layout header.
        var node: Int?
        var field: String
        var problem: Problem

        enum Problem {
            case unknownHiddenBits(UInt32)
            case notAnEnumValue(Int32, family: String)
            case modeIndex(Int32)
            case coordinate(Double)
            case length(Double)
            case string(CStringReader.Failure)
            case actionsOnNonSlot(UInt64)
            case actionsBeyondModes(UInt64, modeCount: Int)
        }

        var reason: String {
            switch problem {
            case .unknownHiddenBits(let bits): "has unknown bits 0x\(String(bits, radix: 16))"
            case .notAnEnumValue(let value, let family): "is \(value), not a \(family) value"
            case .modeIndex(let value): "is \(value); it is -1 or an index below \(HUD_MAX_MODES)"
            case .coordinate(let value):
                "is \(value); coordinates must be finite and within ±\(Int(LayoutValidator.maxCoordinate)) pt"
            case .length(let value):
                "is \(value); it must be finite, non-negative and at most \(Int(LayoutValidator.maxCoordinate)) pt"
            case .string(let failure): CStringReader.explain(failure)
            case .actionsOnNonSlot(let bits):
                "is 0x\(String(bits, radix: 16)) on a node that is not a slot; named accessibility actions belong on slot nodes (HUD_NODE_KIND_SLOT), write 0 elsewhere"
            case .actionsBeyondModes(let bits, let modeCount):
                "is 0x\(String(bits, radix: 16)) but the slot at this position has \(modeCount) mode\(modeCount == 1 ? "" : "s"); set only bits below mode_count (HUD_MODE_BIT(i), i < \(modeCount)), or 0 for all of them"
            }
        }

        func registryError(_ info: RendererInfo) -> RegistryError {
            .invalidLayout(id: info.id, origin: info.origin.description, node: node, field: field, reason: reason)
        }
    }

    /// Checks the header and the first `output.count` nodes of `nodes`, in
    /// header, node and field order, so the first problem found is the one
    /// named. The caller has already checked `count` against the buffer's
    /// capacity. A string pointing into `strings` (host-made input bytes)
    /// is accepted without being read again when `HostStrings` vouches for
    /// it; every other string gets the full check.
    package static func validate(_ output: hud_layout_t, nodes: UnsafeRawPointer, stride: Int, contract: NodeContract,
                                 trusting strings: HostStrings = .none) throws(Violation) {
        let insets = unsafe output.content_insets
        try length(insets.top, nil, "content_insets.top")
        try length(insets.left, nil, "content_insets.left")
        try length(insets.bottom, nil, "content_insets.bottom")
        try length(insets.right, nil, "content_insets.right")
        let unknownBits = unsafe output.hidden_positions & ~UInt32(HUD_POSITION_ALL_BITS)
        guard unknownBits == 0 else {
            throw Violation(node: nil, field: "hidden_positions", problem: .unknownHiddenBits(unknownBits))
        }
        let iconTrust = strings.trusted(limit: Int(HUD_MAX_ICON_BYTES))
        let labelTrust = strings.trusted(limit: Int(HUD_MAX_LABEL_BYTES))
        let minor1 = contract.readsMinor1Fields
        for index in unsafe 0..<Int(output.count) {
            unsafe try node((nodes + index * stride).assumingMemoryBound(to: hud_node_t.self), index: index,
                     minor1: minor1, contract: contract, iconTrust, labelTrust)
        }
    }

    /// Every check of one node, in field order.
    private static func node(_ node: UnsafePointer<hud_node_t>, index: Int, minor1: Bool,
                             contract: NodeContract, _ iconTrust: HostStrings.Trusted,
                             _ labelTrust: HostStrings.Trusted) throws(Violation) {
        unsafe try scalars(node, index: index)
        if minor1 { unsafe try length(node.pointee.glyph_size, index, "glyph_size") }
        if minor1, unsafe node.pointee.accessibility_actions != 0 {
            unsafe try accessibilityActions(node, index: index, contract: contract)
        }
        unsafe try string(node.pointee.icon, index, "icon", limit: Int(HUD_MAX_ICON_BYTES), iconTrust)
        unsafe try string(node.pointee.label, index, "label", limit: Int(HUD_MAX_LABEL_BYTES), labelTrust)
        unsafe try string(node.pointee.accessibility_label, index, "accessibility_label", limit: Int(HUD_MAX_LABEL_BYTES), labelTrust)
    }

    /// The ordered, naming checks of a node's scalar fields.
    private static func scalars(_ pointer: UnsafePointer<hud_node_t>, index: Int) throws(Violation) {
        let n = unsafe pointer.pointee
        guard unsafe HudNode.Kind(rawValue: n.kind) != nil else {
            throw unsafe Violation(node: index, field: "kind", problem: .notAnEnumValue(n.kind, family: "HUD_NODE_KIND_*"))
        }
        guard unsafe n.position == Int32(HUD_POSITION_NONE) || Position(rawValue: Int(n.position)) != nil else {
            throw unsafe Violation(node: index, field: "position", problem: .notAnEnumValue(n.position, family: "HUD_POSITION_*"))
        }
        guard unsafe n.part == Int32(HUD_PART_NONE) || HudNode.Part(rawValue: n.part) != nil else {
            throw unsafe Violation(node: index, field: "part", problem: .notAnEnumValue(n.part, family: "HUD_PART_*"))
        }
        guard unsafe n.mode_index >= -1, unsafe n.mode_index < Int32(HUD_MAX_MODES) else {
            throw unsafe Violation(node: index, field: "mode_index", problem: .modeIndex(n.mode_index))
        }
        guard unsafe HudNode.Shape(rawValue: n.shape) != nil else {
            throw unsafe Violation(node: index, field: "shape", problem: .notAnEnumValue(n.shape, family: "HUD_SHAPE_*"))
        }
        guard unsafe HudNode.Material(rawValue: n.material) != nil else {
            throw unsafe Violation(node: index, field: "material", problem: .notAnEnumValue(n.material, family: "HUD_MATERIAL_*"))
        }
        guard unsafe HudNode.Placement(rawValue: n.placement) != nil else {
            throw unsafe Violation(node: index, field: "placement", problem: .notAnEnumValue(n.placement, family: "HUD_PLACEMENT_*"))
        }
        unsafe try coordinate(n.frame.x, index, "frame.x")
        unsafe try coordinate(n.frame.y, index, "frame.y")
        unsafe try length(n.frame.width, index, "frame.width")
        unsafe try length(n.frame.height, index, "frame.height")
        unsafe try coordinate(n.hit.x, index, "hit.x")
        unsafe try coordinate(n.hit.y, index, "hit.y")
        unsafe try length(n.hit.width, index, "hit.width")
        unsafe try length(n.hit.height, index, "hit.height")
        unsafe try length(n.corner_radius, index, "corner_radius")
        unsafe try length(n.stroke_width, index, "stroke_width")
        unsafe try length(n.font_size, index, "font_size")
    }

    /// The fields ABI 1.1 appended, for a renderer that declared minor ≥ 1
    /// and a stride that covers them: `glyph_size` a length (checked with
    /// the scalars, and named after them), `accessibility_actions` (checked
    /// here when non-zero) only on slot nodes and only below the slot's
    /// mode count.
    private static func accessibilityActions(_ node: UnsafePointer<hud_node_t>, index: Int, contract: NodeContract) throws(Violation) {
        let actions = unsafe node.pointee.accessibility_actions
        guard unsafe node.pointee.kind == Int32(HUD_NODE_KIND_SLOT) else {
            throw Violation(node: index, field: "accessibility_actions", problem: .actionsOnNonSlot(actions))
        }
        let modeCount = unsafe contract.modes.count(at: node.pointee.position)
        guard actions & ~ModeCounts.allModes(modeCount) == 0 else {
            throw Violation(node: index, field: "accessibility_actions", problem: .actionsBeyondModes(actions, modeCount: modeCount))
        }
    }

    @inline(__always)
    private static func coordinate(_ value: Double, _ index: Int, _ field: String) throws(Violation) {
        guard value.isFinite, abs(value) <= maxCoordinate else {
            throw Violation(node: index, field: field, problem: .coordinate(value))
        }
    }

    @inline(__always)
    private static func length(_ value: Double, _ index: Int?, _ field: String) throws(Violation) {
        guard value.isFinite, value >= 0, value <= maxCoordinate else {
            throw Violation(node: index, field: field, problem: .length(value))
        }
    }

    /// A nullable node string: NUL within `limit + 1` bytes, valid UTF-8.
    /// Host-made bytes `trusted` (the ranges `limit` allows) vouches for
    /// are not read again.
    @inline(__always)
    private static func string(_ pointer: UnsafePointer<CChar>?, _ index: Int, _ field: String, limit: Int,
                               _ trusted: HostStrings.Trusted) throws(Violation) {
        guard let pointer = unsafe pointer else { return }
        // Inline only the common case, a string in the snapshot's arena;
        // the title's range and the full check are out of line.
        guard unsafe !trusted.arenaVouches(for: pointer) else { return }
        unsafe try otherString(pointer, index, field, limit: limit, trusted)
    }

    /// A string outside the arena: in the title's range, or fully checked.
    @inline(never)
    private static func otherString(_ pointer: UnsafePointer<CChar>, _ index: Int, _ field: String, limit: Int,
                                    _ trusted: HostStrings.Trusted) throws(Violation) {
        guard unsafe !trusted.vouches(for: pointer) else { return }
        unsafe try fullString(pointer, index, field, limit: limit)
    }

    /// The full check of a string the host did not make.
    private static func fullString(_ pointer: UnsafePointer<CChar>, _ index: Int, _ field: String, limit: Int) throws(Violation) {
        let length = unsafe strnlen(pointer, limit + 1)
        guard length <= limit else { throw Violation(node: index, field: field, problem: .string(.tooLong(limit: limit))) }
        // Well-formed UTF-8 as the standard library checks it (Unicode's
        // table 3-7: no overlong forms, no surrogates, nothing above
        // U+10FFFF), read in place: no `String` is made.
        let bytes = unsafe UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: length)
        guard (try? unsafe UTF8Span(validating: bytes.span)) != nil else {
            throw Violation(node: index, field: field, problem: .string(.invalidUTF8))
        }
    }
}

/// A validated layout, read in place from the registry's reused node
/// buffer: the per-frame view. Getting one (`RendererRegistry.withLayout`)
/// allocates nothing on the heap in steady state; reading its scalar fields,
/// iterating it and hit testing allocate nothing either. Only the `String`
/// accessors (`icon`, `label`, `accessibilityLabel`), `hiddenPositions` and
/// `decoded()` make Swift values, and they say so.
///
/// Lifetime: a frame (and every `LayoutNodeView` taken from it) is valid
/// only inside the `withLayout` closure that received it: the next layout
/// call reuses the buffer, and node strings point into the renderer's inputs
/// or static storage. Do not store it; call `decoded()` to keep a layout.
@safe package struct LayoutFrame: RandomAccessCollection {
    /// The renderer's nodes; already validated.
    private let nodes: UnsafeRawPointer
    private let stride: Int
    /// Nodes in the layout, in emission order.
    package let count: Int
    /// Points the chrome takes from the content area (see `HudLayout`).
    package let contentInsets: HudInsets
    /// `HUD_POSITION_BIT` mask of positions deliberately not shown.
    private let hiddenBits: UInt32
    /// Which node fields to read, and the slots' mode counts (defaults).
    private let contract: NodeContract

    /// Wraps a layout that passed `LayoutValidator.validate` under `contract`.
    package init(validated output: hud_layout_t, nodes: UnsafeRawPointer, stride: Int, contract: NodeContract) {
        unsafe self.nodes = unsafe nodes
        self.stride = stride
        self.contract = contract
        self.count = unsafe Int(output.count)
        let i = unsafe output.content_insets
        self.contentInsets = HudInsets(top: i.top, left: i.left, bottom: i.bottom, right: i.right)
        self.hiddenBits = unsafe output.hidden_positions
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    package subscript(index: Int) -> LayoutNodeView {
        precondition(index >= 0 && index < count, "LayoutFrame index \(index) out of range 0..<\(count)")
        return unsafe LayoutNodeView((nodes + index * stride).assumingMemoryBound(to: hud_node_t.self), contract: contract)
    }

    /// True when the renderer reported `position` as published but not shown.
    package func isHidden(_ position: Position) -> Bool {
        hiddenBits & position.bit != 0
    }

    /// Positions that had a slot but were deliberately not shown (allocates a set).
    package var hiddenPositions: Set<Position> {
        Set(Position.allCases.filter(isHidden))
    }

    /// The index of the topmost interactive node whose hit region contains
    /// the point: highest z, and among equal z the last emitted (the same
    /// rule as `HudLayout.hitTest`). One linear pass, no allocation.
    package func hitTestIndex(x: Double, y: Double) -> Int? { topmostHitIndex(x: x, y: y) }

    /// The pressable target under the point, if any (no allocation).
    package func hitTest(x: Double, y: Double) -> HudInteraction.Target? {
        hitTestIndex(x: x, y: y).flatMap { self[$0].target }
    }

    /// Copies the frame into a `HudLayout` that outlives the call (allocates).
    package func decoded() -> HudLayout {
        var decoded: [HudNode] = []
        decoded.reserveCapacity(count)
        for node in self { decoded.append(node.decoded()) }
        return HudLayout(nodes: decoded, contentInsets: contentInsets, hiddenPositions: hiddenPositions)
    }
}

/// One validated node of a `LayoutFrame`, read in place. Same fields as
/// `HudNode`; valid only while its frame is.
@safe package struct LayoutNodeView: HitTestable {
    private let node: UnsafePointer<hud_node_t>
    private let contract: NodeContract

    package init(_ node: UnsafePointer<hud_node_t>, contract: NodeContract) {
        unsafe self.node = unsafe node
        self.contract = contract
    }

    // The enum initializers cannot fail: the validator checked every value.
    package var kind: HudNode.Kind { unsafe HudNode.Kind(rawValue: node.pointee.kind)! }
    package var position: Position? {
        unsafe node.pointee.position == Int32(HUD_POSITION_NONE) ? nil : Position(rawValue: Int(node.pointee.position))!
    }
    package var part: HudNode.Part? {
        unsafe node.pointee.part == Int32(HUD_PART_NONE) ? nil : HudNode.Part(rawValue: node.pointee.part)!
    }
    package var modeIndex: Int? { unsafe node.pointee.mode_index >= 0 ? Int(node.pointee.mode_index) : nil }
    package var frame: HudRect { unsafe Self.rect(node.pointee.frame) }
    package var hit: HudRect { unsafe Self.rect(node.pointee.hit) }
    package var shape: HudNode.Shape { unsafe HudNode.Shape(rawValue: node.pointee.shape)! }
    package var material: HudNode.Material { unsafe HudNode.Material(rawValue: node.pointee.material)! }
    package var cornerRadius: Double { unsafe node.pointee.corner_radius }
    package var strokeWidth: Double { unsafe node.pointee.stroke_width }
    package var fontSize: Double { unsafe node.pointee.font_size }
    package var fill: HudColor { unsafe HudColor(rgba: node.pointee.fill) }
    package var stroke: HudColor { unsafe HudColor(rgba: node.pointee.stroke) }
    package var iconColor: HudColor { unsafe HudColor(rgba: node.pointee.icon_color) }
    package var textColor: HudColor { unsafe HudColor(rgba: node.pointee.text_color) }
    package var placement: HudNode.Placement { unsafe HudNode.Placement(rawValue: node.pointee.placement)! }
    package var z: Int { unsafe Int(node.pointee.z) }
    package var isPressed: Bool { unsafe node.pointee.flags & HUD_NODE_FLAG_PRESSED != 0 }
    package var isInteractive: Bool { unsafe node.pointee.flags & HUD_NODE_FLAG_INTERACTIVE != 0 }
    /// A mode item the renderer drew as its slot's current mode (read only
    /// from a renderer built for ABI 1.2 or later, and only on mode items).
    package var isSelected: Bool {
        unsafe contract.readsMinor2Flags && node.pointee.kind == Int32(HUD_NODE_KIND_MODE_ITEM) && node.pointee.flags & HUD_NODE_FLAG_SELECTED != 0
    }
    /// The icon's glyph size in pt; 0 when the renderer did not say (a 1.0
    /// renderer, or a stride without the field).
    package var glyphSize: Double { unsafe contract.readsMinor1Fields ? node.pointee.glyph_size : 0 }
    /// The `accessibility_actions` mask as the host applies it: the stated
    /// bits, or every mode of the slot when the renderer stated none (0, or
    /// a 1.0 renderer). Zero for nodes that are not slots.
    package var accessibilityActionBits: UInt64 {
        guard unsafe node.pointee.kind == Int32(HUD_NODE_KIND_SLOT) else { return 0 }
        let stated = unsafe contract.readsMinor1Fields ? node.pointee.accessibility_actions : 0
        return unsafe stated != 0 ? stated : ModeCounts.allModes(contract.modes.count(at: node.pointee.position))
    }
    /// The mode indices offered as named accessibility actions, ascending
    /// (allocates an array; empty for nodes that are not slots).
    package var accessibilityActions: [Int] {
        var bits = accessibilityActionBits
        var indices: [Int] = []
        while bits != 0 {
            indices.append(bits.trailingZeroBitCount)
            bits &= bits &- 1
        }
        return indices
    }

    /// The icon name (allocates a `String`).
    package var icon: String? { unsafe Self.string(node.pointee.icon) }
    /// The visible text (allocates a `String` beyond 15 UTF-8 bytes).
    package var label: String? { unsafe Self.string(node.pointee.label) }
    /// The accessibility label (allocates a `String` beyond 15 UTF-8 bytes).
    package var accessibilityLabel: String? { unsafe Self.string(node.pointee.accessibility_label) }

    /// The pressable target this node stands for, if it is interactive.
    package var target: HudInteraction.Target? {
        guard isInteractive, let position else { return nil }
        switch kind {
        case .slot: return .slot(position)
        case .secondary: return .secondary(position)
        case .modeItem: return modeIndex.map { .mode(position, index: $0) }
        case .container: return nil
        }
    }

    /// A `HudNode` copy (allocates its strings).
    package func decoded() -> HudNode {
        HudNode(
            kind: kind, position: position, part: part, modeIndex: modeIndex,
            frame: frame, hit: hit, shape: shape, material: material,
            cornerRadius: cornerRadius, strokeWidth: strokeWidth, fontSize: fontSize,
            fill: fill, stroke: stroke, iconColor: iconColor, textColor: textColor,
            placement: placement, z: z, isPressed: isPressed, isInteractive: isInteractive,
            icon: icon, label: label, accessibilityLabel: accessibilityLabel,
            glyphSize: glyphSize, accessibilityActions: accessibilityActions, isSelected: isSelected
        )
    }


    private static func rect(_ r: hud_rect_t) -> HudRect { HudRect(x: r.x, y: r.y, width: r.width, height: r.height) }

    /// A validated node string (NUL-terminated, UTF-8, within its limit).
    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer = unsafe pointer else { return nil }
        return unsafe String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
    }
}

/// How many long-press modes each position's slot has in the published
/// complications (0 where no slot is published): what the validator checks
/// `accessibility_actions` against and what a slot offers by default.
/// One byte per position (at most `HUD_MAX_MODES`, 64), so it is a plain
/// value the per-frame path copies without allocating.
package struct ModeCounts: Sendable, Hashable {
    private var packed: UInt64

    /// No modes anywhere.
    package static let none = ModeCounts(packed: 0)

    private init(packed: UInt64) { self.packed = packed }

    /// `counts[position]` modes at each position (values are capped at 64).
    package init(_ counts: [Position: Int]) {
        var packed: UInt64 = 0
        for (position, count) in counts {
            packed |= UInt64(min(max(count, 0), ABILimits.maxModes)) << UInt64(position.rawValue * 8)
        }
        self.packed = packed
    }

    /// The count at a raw `hud_position_t`; 0 for `HUD_POSITION_NONE` or
    /// anything outside the five positions.
    package func count(at position: Int32) -> Int {
        guard position >= 0, position < Int32(HUD_POSITION_COUNT) else { return 0 }
        return Int((packed >> UInt64(position * 8)) & 0xFF)
    }

    /// The mask of modes `0..<count` (every bit for 64 or more).
    package static func allModes(_ count: Int) -> UInt64 {
        count >= 64 ? ~0 : (UInt64(1) << UInt64(max(count, 0))) &- 1
    }
}

/// What the host reads from the nodes of one layout: the 1.1 fields only
/// when the renderer's entry declared ABI minor ≥ 1 *and* the stride the
/// nodes were written at covers them (a 1.0 plugin's bytes there are
/// whatever it left, and are never read), plus the slots' mode counts the
/// 1.1 fields are checked against and defaulted from.
package struct NodeContract: Sendable, Hashable {
    package var readsMinor1Fields: Bool
    /// The renderer knows the 1.2 node flag `HUD_NODE_FLAG_SELECTED`.
    package var readsMinor2Flags: Bool
    package var modes: ModeCounts

    package init(abi: ABIVersion, stride: Int, modes: ModeCounts) {
        readsMinor1Fields = abi.minor >= 1 && stride >= Int(HUD_NODE_SIZE_1_1)
        readsMinor2Flags = abi.minor >= 2
        self.modes = modes
    }
}
