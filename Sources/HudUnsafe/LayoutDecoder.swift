package import HudModel
import Glibc
package import HudRendererAPI

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

    package func decode(_ output: hud_layout_t, nodes: UnsafeMutableRawPointer, stride: Int) throws(RegistryError) -> HudLayout {
        do {
            try LayoutValidator.validate(output, nodes: UnsafeRawPointer(nodes), stride: stride)
        } catch {
            throw error.registryError(info)
        }
        return LayoutFrame(validated: output, nodes: UnsafeRawPointer(nodes), stride: stride).decoded()
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
            }
        }

        func registryError(_ info: RendererInfo) -> RegistryError {
            .invalidLayout(id: info.id, origin: info.origin.description, node: node, field: field, reason: reason)
        }
    }

    /// Checks the header and the first `output.count` nodes of `nodes`.
    /// The caller has already checked `count` against the buffer's capacity.
    package static func validate(_ output: hud_layout_t, nodes: UnsafeRawPointer, stride: Int) throws(Violation) {
        let insets = output.content_insets
        try length(insets.top, nil, "content_insets.top")
        try length(insets.left, nil, "content_insets.left")
        try length(insets.bottom, nil, "content_insets.bottom")
        try length(insets.right, nil, "content_insets.right")
        let unknownBits = output.hidden_positions & ~UInt32(HUD_POSITION_ALL_BITS)
        guard unknownBits == 0 else {
            throw Violation(node: nil, field: "hidden_positions", problem: .unknownHiddenBits(unknownBits))
        }
        for index in 0..<Int(output.count) {
            let node = (nodes + index * stride).assumingMemoryBound(to: hud_node_t.self)
            // Fast path: one branch-light pass over the scalar fields; only a
            // node that fails it goes through the ordered checks that name
            // the first bad field. (The fast path is never more lenient:
            // whatever it accepts, the ordered checks accept too.)
            if !scalarsAreValid(node) { try scalars(node, index: index) }
            try string(node.pointee.icon, index, "icon", limit: Int(HUD_MAX_ICON_BYTES))
            try string(node.pointee.label, index, "label", limit: Int(HUD_MAX_LABEL_BYTES))
            try string(node.pointee.accessibility_label, index, "accessibility_label", limit: Int(HUD_MAX_LABEL_BYTES))
        }
    }

    /// Every enum, index and geometry field of a node within its range, read
    /// in place (NaN fails every comparison, so it is rejected too).
    @inline(__always)
    private static func scalarsAreValid(_ node: UnsafePointer<hud_node_t>) -> Bool {
        // Fields are read through the pointer one by one (no copy of the
        // 168-byte node); `&` on Bool does not short-circuit, so this is a
        // straight line of compares.
        let m = maxCoordinate
        @inline(__always) func within(_ value: Int32, _ low: Int32, _ high: Int32) -> Bool {
            UInt32(bitPattern: value &- low) <= UInt32(bitPattern: high &- low)
        }
        @inline(__always) func length(_ value: Double) -> Bool { value >= 0 && value <= m }
        @inline(__always) func coordinate(_ value: Double) -> Bool { abs(value) <= m }
        let enums = within(node.pointee.kind, Int32(HUD_NODE_KIND_CONTAINER), Int32(HUD_NODE_KIND_MODE_ITEM))
            & within(node.pointee.position, Int32(HUD_POSITION_NONE), Int32(HUD_POSITION_CENTER))
            & within(node.pointee.part, Int32(HUD_PART_NONE), Int32(HUD_PART_CONTAINER))
            & within(node.pointee.mode_index, -1, Int32(HUD_MAX_MODES) - 1)
            & within(node.pointee.shape, Int32(HUD_SHAPE_RECTANGLE), Int32(HUD_SHAPE_CAPSULE))
            & within(node.pointee.material, Int32(HUD_MATERIAL_NONE), Int32(HUD_MATERIAL_REGULAR))
            & within(node.pointee.placement, Int32(HUD_PLACEMENT_OVERLAY), Int32(HUD_PLACEMENT_BOTTOM_INSET))
        let frame = coordinate(node.pointee.frame.x) & coordinate(node.pointee.frame.y)
            & length(node.pointee.frame.width) & length(node.pointee.frame.height)
        let hit = coordinate(node.pointee.hit.x) & coordinate(node.pointee.hit.y)
            & length(node.pointee.hit.width) & length(node.pointee.hit.height)
        let style = length(node.pointee.corner_radius) & length(node.pointee.stroke_width) & length(node.pointee.font_size)
        return enums & frame & hit & style
    }

    /// The ordered, naming checks of a node's scalar fields.
    private static func scalars(_ pointer: UnsafePointer<hud_node_t>, index: Int) throws(Violation) {
        let n = pointer.pointee
        guard HudNode.Kind(rawValue: n.kind) != nil else {
            throw Violation(node: index, field: "kind", problem: .notAnEnumValue(n.kind, family: "HUD_NODE_KIND_*"))
        }
        guard n.position == Int32(HUD_POSITION_NONE) || Position(rawValue: Int(n.position)) != nil else {
            throw Violation(node: index, field: "position", problem: .notAnEnumValue(n.position, family: "HUD_POSITION_*"))
        }
        guard n.part == Int32(HUD_PART_NONE) || HudNode.Part(rawValue: n.part) != nil else {
            throw Violation(node: index, field: "part", problem: .notAnEnumValue(n.part, family: "HUD_PART_*"))
        }
        guard n.mode_index >= -1, n.mode_index < Int32(HUD_MAX_MODES) else {
            throw Violation(node: index, field: "mode_index", problem: .modeIndex(n.mode_index))
        }
        guard HudNode.Shape(rawValue: n.shape) != nil else {
            throw Violation(node: index, field: "shape", problem: .notAnEnumValue(n.shape, family: "HUD_SHAPE_*"))
        }
        guard HudNode.Material(rawValue: n.material) != nil else {
            throw Violation(node: index, field: "material", problem: .notAnEnumValue(n.material, family: "HUD_MATERIAL_*"))
        }
        guard HudNode.Placement(rawValue: n.placement) != nil else {
            throw Violation(node: index, field: "placement", problem: .notAnEnumValue(n.placement, family: "HUD_PLACEMENT_*"))
        }
        try coordinate(n.frame.x, index, "frame.x")
        try coordinate(n.frame.y, index, "frame.y")
        try length(n.frame.width, index, "frame.width")
        try length(n.frame.height, index, "frame.height")
        try coordinate(n.hit.x, index, "hit.x")
        try coordinate(n.hit.y, index, "hit.y")
        try length(n.hit.width, index, "hit.width")
        try length(n.hit.height, index, "hit.height")
        try length(n.corner_radius, index, "corner_radius")
        try length(n.stroke_width, index, "stroke_width")
        try length(n.font_size, index, "font_size")
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
    private static func string(_ pointer: UnsafePointer<CChar>?, _ index: Int, _ field: String, limit: Int) throws(Violation) {
        guard let pointer else { return }
        let length = strnlen(pointer, limit + 1)
        guard length <= limit else { throw Violation(node: index, field: field, problem: .string(.tooLong(limit: limit))) }
        guard UTF8Validation.isValid(UnsafeRawPointer(pointer), count: length) else {
            throw Violation(node: index, field: field, problem: .string(.invalidUTF8))
        }
    }
}

/// Well-formed UTF-8 (Unicode 15, table 3-7: no overlong forms, no
/// surrogates, nothing above U+10FFFF) checked over raw bytes without
/// making a `String`; ASCII runs are skipped eight bytes at a time. The same
/// rule `String(validating:as: UTF8.self)` applies.
package enum UTF8Validation {
    package static func isValid(_ start: UnsafeRawPointer, count: Int) -> Bool {
        isASCII(start, count: count) || isValidMultibyte(start, count: count)
    }

    /// True when no byte has its high bit set: eight bytes per load, the
    /// last load overlapping the previous one instead of a byte loop (every
    /// load stays inside the `count` bytes).
    @inline(__always)
    package static func isASCII(_ start: UnsafeRawPointer, count: Int) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        if count >= 8 {
            var bits: UInt64 = 0
            var i = 0
            while i + 8 < count {
                bits |= start.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i += 8
            }
            bits |= start.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            return bits & high == 0
        }
        var bits: UInt8 = 0
        for i in 0..<count { bits |= start.load(fromByteOffset: i, as: UInt8.self) }
        return bits & 0x80 == 0
    }

    private static func isValidMultibyte(_ start: UnsafeRawPointer, count: Int) -> Bool {
        let bytes = start.assumingMemoryBound(to: UInt8.self)
        var i = 0
        while i < count {
            // ASCII runs, eight bytes at a time.
            while i + 8 <= count, start.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
            }
            guard i < count else { return true }
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let width: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF  // bounds for the second byte
            switch lead {
            case 0xC2...0xDF: width = 2
            case 0xE0: width = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: width = 3
            case 0xED: width = 3; high = 0x9F
            case 0xF0: width = 4; low = 0x90
            case 0xF1...0xF3: width = 4
            case 0xF4: width = 4; high = 0x8F
            default: return false
            }
            guard i + width <= count else { return false }
            let second = bytes[i + 1]
            guard second >= low, second <= high else { return false }
            var k = 2
            while k < width {
                guard bytes[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += width
        }
        return true
    }
}

extension Bool {
    /// Non-short-circuiting AND, so the validator's fast path is a straight
    /// line of compares rather than a branch per field.
    @inline(__always)
    fileprivate static func & (lhs: Bool, rhs: Bool) -> Bool {
        (UInt8(lhs ? 1 : 0) & UInt8(rhs ? 1 : 0)) != 0
    }
}
