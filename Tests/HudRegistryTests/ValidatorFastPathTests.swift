// SPDX-License-Identifier: MIT
import HudModel
import HudRendererAPI
import Testing
@testable import HudUnsafe

/// The validator's fast test of whole nodes (`hud_hot_first_unchecked_node`
/// in CHudHot) may only ever be stricter than the ordered checks: every
/// integer field is accepted exactly in its documented range, whatever the
/// fast test does with it, and when it hands a node to the ordered checks
/// the violation named is still the first in node and field order.
/// (`HostStringsTests` pins the doubles and the strings the same way.)
struct ValidatorFastPathTests {
    /// The validator's verdict on `nodes`, written at the host's stride.
    private static func verdict(_ nodes: [hud_node_t], minor: UInt16 = ABIVersion.host.minor,
                                modes: ModeCounts = .none) -> LayoutValidator.Violation? {
        let stride = MemoryLayout<hud_node_t>.stride
        let buffer = UnsafeMutablePointer<hud_node_t>.allocate(capacity: max(nodes.count, 1))
        defer { buffer.deallocate() }
        for (index, node) in nodes.enumerated() { (buffer + index).initialize(to: node) }
        var output = hud_layout_t()
        output.count = UInt32(nodes.count)
        let contract = NodeContract(abi: ABIVersion(major: ABIVersion.host.major, minor: minor), stride: stride, modes: modes)
        do {
            try LayoutValidator.validate(output, nodes: UnsafeRawPointer(buffer), stride: stride, contract: contract)
            return nil
        } catch {
            return error
        }
    }

    /// Around every range's ends, and the extremes (sign bit alone, all ones).
    static let integers: [Int32] = [
        .min, .min + 1, -65, -64, -63, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 62, 63, 64, 65, 0x4163_12D0, .max - 1, .max,
    ]

    @Test(arguments: integers)
    func everyIntegerFieldIsAcceptedExactlyInItsRange(_ value: Int32) {
        let fields: [(name: String, field: WritableKeyPath<hud_node_t, Int32>, range: ClosedRange<Int32>)] = [
            ("kind", \.kind, Int32(HUD_NODE_KIND_CONTAINER)...Int32(HUD_NODE_KIND_MODE_ITEM)),
            ("position", \.position, Int32(HUD_POSITION_NONE)...Int32(HUD_POSITION_CENTER)),
            ("part", \.part, Int32(HUD_PART_NONE)...Int32(HUD_PART_CONTAINER)),
            ("mode_index", \.mode_index, -1...Int32(HUD_MAX_MODES) - 1),
            ("shape", \.shape, Int32(HUD_SHAPE_RECTANGLE)...Int32(HUD_SHAPE_CAPSULE)),
            ("material", \.material, Int32(HUD_MATERIAL_NONE)...Int32(HUD_MATERIAL_REGULAR)),
            ("placement", \.placement, Int32(HUD_PLACEMENT_OVERLAY)...Int32(HUD_PLACEMENT_BOTTOM_INSET)),
        ]
        for (name, field, range) in fields {
            var node = hud_node_t()
            node[keyPath: field] = value
            let violation = Self.verdict([node])
            #expect((violation == nil) == range.contains(value), "\(name) = \(value)")
            if let violation { #expect(violation.field == name && violation.node == 0, "\(name) = \(value)") }
        }
    }

    /// Fields no rule reads stay unread by the fast test too.
    @Test func fieldsNoRuleReadsNeverFailANode() {
        var node = hud_node_t()
        node.z = .min
        node.flags = .max
        node.reserved = .max
        node.fill = .max
        node.text_color = .max
        #expect(Self.verdict([node]) == nil)
        // A 1.0 renderer's bytes where 1.1 put glyph_size and
        // accessibility_actions are whatever it left: never read.
        node.glyph_size = .nan
        node.accessibility_actions = .max
        #expect(Self.verdict([node], minor: 0) == nil)
        let violation = Self.verdict([node])
        #expect(violation?.field == "glyph_size")
    }

    /// A node the fast test passes to the ordered checks is judged in
    /// full there, and the scan goes on after it: the first problem in
    /// node order is the one named, even when a later node fails the fast
    /// test first.
    @Test func theFirstViolationInNodeOrderIsNamed() {
        var lengthNegativeZero = hud_node_t()
        lengthNegativeZero.frame.width = -0.0  // fails the fast test, passes the rule
        var badString = hud_node_t()
        let invalid: [UInt8] = [0xC3, 0x28, 0]
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: invalid.count)
        defer { bytes.deallocate() }
        bytes.initialize(from: invalid, count: invalid.count)
        badString.label = UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self)
        var badKind = hud_node_t()
        badKind.kind = 9
        var actions = hud_node_t()
        actions.kind = Int32(HUD_NODE_KIND_SLOT)
        actions.position = Int32(HUD_POSITION_CENTER)
        actions.accessibility_actions = 0b11  // within the slot's two modes: accepted

        let modes = ModeCounts([.center: 2])
        #expect(Self.verdict([hud_node_t(), lengthNegativeZero, actions, hud_node_t()], modes: modes) == nil)
        let first = Self.verdict([lengthNegativeZero, actions, badString, badKind], modes: modes)
        #expect(first?.node == 2 && first?.field == "label")
        let second = Self.verdict([hud_node_t(), badKind, badString])
        #expect(second?.node == 1 && second?.field == "kind")
        actions.accessibility_actions = 0b111  // a third mode the slot does not have
        let third = Self.verdict([lengthNegativeZero, hud_node_t(), actions, badKind], modes: modes)
        #expect(third?.node == 2 && third?.field == "accessibility_actions")
        actions.accessibility_actions = 0b1
        actions.kind = Int32(HUD_NODE_KIND_SECONDARY)  // named actions belong on slots only
        let fourth = Self.verdict([hud_node_t(), actions], modes: modes)
        #expect(fourth?.node == 1 && fourth?.field == "accessibility_actions")
        actions.kind = Int32(HUD_NODE_KIND_SLOT)
        actions.position = Int32(HUD_POSITION_TOP_LEFT)  // a position without modes
        #expect(Self.verdict([actions], modes: modes)?.field == "accessibility_actions")
        #expect(Self.verdict([actions], modes: ModeCounts([.topLeft: 64])) == nil)
        actions.accessibility_actions = .max  // all 64 modes
        #expect(Self.verdict([actions], modes: ModeCounts([.topLeft: 64])) == nil)
        #expect(Self.verdict([actions], modes: ModeCounts([.topLeft: 63]))?.field == "accessibility_actions")
    }
}
