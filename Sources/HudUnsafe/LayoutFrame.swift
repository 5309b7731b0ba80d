package import HudModel
import Glibc
package import HudRendererAPI

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
package struct LayoutFrame: RandomAccessCollection {
    /// The renderer's nodes; already validated.
    private let nodes: UnsafeRawPointer
    private let stride: Int
    /// Nodes in the layout, in emission order.
    package let count: Int
    /// Points the chrome takes from the content area (see `HudLayout`).
    package let contentInsets: HudInsets
    /// `HUD_POSITION_BIT` mask of positions deliberately not shown.
    private let hiddenBits: UInt32

    /// Wraps a layout that passed `LayoutValidator.validate`.
    package init(validated output: hud_layout_t, nodes: UnsafeRawPointer, stride: Int) {
        self.nodes = nodes
        self.stride = stride
        self.count = Int(output.count)
        let i = output.content_insets
        self.contentInsets = HudInsets(top: i.top, left: i.left, bottom: i.bottom, right: i.right)
        self.hiddenBits = output.hidden_positions
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    package subscript(index: Int) -> LayoutNodeView {
        precondition(index >= 0 && index < count, "LayoutFrame index \(index) out of range 0..<\(count)")
        return LayoutNodeView((nodes + index * stride).assumingMemoryBound(to: hud_node_t.self))
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
    package func hitTestIndex(x: Double, y: Double) -> Int? {
        var best: Int?
        var bestZ = Int32.min
        for index in 0..<count {
            let node = self[index]
            guard node.isInteractive, node.rawZ >= bestZ, node.hit.contains(x: x, y: y) else { continue }
            best = index
            bestZ = node.rawZ
        }
        return best
    }

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
package struct LayoutNodeView {
    private let node: UnsafePointer<hud_node_t>

    package init(_ node: UnsafePointer<hud_node_t>) { self.node = node }

    // The enum initializers cannot fail: the validator checked every value.
    package var kind: HudNode.Kind { HudNode.Kind(rawValue: node.pointee.kind)! }
    package var position: Position? {
        node.pointee.position == Int32(HUD_POSITION_NONE) ? nil : Position(rawValue: Int(node.pointee.position))!
    }
    package var part: HudNode.Part? {
        node.pointee.part == Int32(HUD_PART_NONE) ? nil : HudNode.Part(rawValue: node.pointee.part)!
    }
    package var modeIndex: Int? { node.pointee.mode_index >= 0 ? Int(node.pointee.mode_index) : nil }
    package var frame: HudRect { Self.rect(node.pointee.frame) }
    package var hit: HudRect { Self.rect(node.pointee.hit) }
    package var shape: HudNode.Shape { HudNode.Shape(rawValue: node.pointee.shape)! }
    package var material: HudNode.Material { HudNode.Material(rawValue: node.pointee.material)! }
    package var cornerRadius: Double { node.pointee.corner_radius }
    package var strokeWidth: Double { node.pointee.stroke_width }
    package var fontSize: Double { node.pointee.font_size }
    package var fill: HudColor { HudColor(rgba: node.pointee.fill) }
    package var stroke: HudColor { HudColor(rgba: node.pointee.stroke) }
    package var iconColor: HudColor { HudColor(rgba: node.pointee.icon_color) }
    package var textColor: HudColor { HudColor(rgba: node.pointee.text_color) }
    package var placement: HudNode.Placement { HudNode.Placement(rawValue: node.pointee.placement)! }
    package var z: Int { Int(node.pointee.z) }
    package var isPressed: Bool { node.pointee.flags & HUD_NODE_FLAG_PRESSED != 0 }
    package var isInteractive: Bool { node.pointee.flags & HUD_NODE_FLAG_INTERACTIVE != 0 }

    /// The icon name (allocates a `String`).
    package var icon: String? { Self.string(node.pointee.icon) }
    /// The visible text (allocates a `String` beyond 15 UTF-8 bytes).
    package var label: String? { Self.string(node.pointee.label) }
    /// The accessibility label (allocates a `String` beyond 15 UTF-8 bytes).
    package var accessibilityLabel: String? { Self.string(node.pointee.accessibility_label) }

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
            icon: icon, label: label, accessibilityLabel: accessibilityLabel
        )
    }

    package var rawZ: Int32 { node.pointee.z }

    private static func rect(_ r: hud_rect_t) -> HudRect { HudRect(x: r.x, y: r.y, width: r.width, height: r.height) }

    /// A validated node string (NUL-terminated, UTF-8, within its limit).
    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
    }
}
