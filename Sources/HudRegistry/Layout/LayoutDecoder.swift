import HudRendererAPI

/// Validates a layout a renderer wrote and decodes it into Swift values.
/// Nothing a renderer returns is used before it passes: counts, enums,
/// finite non-negative geometry, UTF-8 strings within their limits.
/// A failure names the node and the field.
struct LayoutDecoder {
    let info: RendererInfo
    let environment: HudEnvironment

    func decode(_ output: hud_layout_t, nodes: UnsafeMutableRawPointer, stride: Int) throws(RegistryError) -> HudLayout {
        let insets = try decodeInsets(output.content_insets)
        let hiddenBits = output.hidden_positions
        guard hiddenBits & ~UInt32(HUD_POSITION_ALL_BITS) == 0 else {
            throw fail(nil, "hidden_positions", "has unknown bits 0x\(String(hiddenBits & ~UInt32(HUD_POSITION_ALL_BITS), radix: 16))")
        }
        var decoded: [HudNode] = []
        decoded.reserveCapacity(Int(output.count))
        for index in 0..<Int(output.count) {
            let raw = (nodes + index * stride).assumingMemoryBound(to: hud_node_t.self).pointee
            decoded.append(try decodeNode(raw, index: index))
        }
        let hidden = Set(Position.allCases.filter { hiddenBits & (1 << UInt32($0.rawValue)) != 0 })
        return HudLayout(nodes: decoded, contentInsets: insets, hiddenPositions: hidden)
    }

    private func decodeNode(_ n: hud_node_t, index: Int) throws(RegistryError) -> HudNode {
        guard let kind = HudNode.Kind(rawValue: n.kind) else { throw fail(index, "kind", "is \(n.kind), not a HUD_NODE_KIND_* value") }
        let position: Position?
        if n.position == Int32(HUD_POSITION_NONE) {
            position = nil
        } else if let known = Position(rawValue: Int(n.position)) {
            position = known
        } else {
            throw fail(index, "position", "is \(n.position), not a HUD_POSITION_* value")
        }
        let part: HudNode.Part?
        if n.part == Int32(HUD_PART_NONE) {
            part = nil
        } else if let known = HudNode.Part(rawValue: n.part) {
            part = known
        } else {
            throw fail(index, "part", "is \(n.part), not a HUD_PART_* value")
        }
        guard n.mode_index >= -1, n.mode_index < Int32(HUD_MAX_MODES) else {
            throw fail(index, "mode_index", "is \(n.mode_index); it is -1 or an index below \(HUD_MAX_MODES)")
        }
        guard let shape = HudNode.Shape(rawValue: n.shape) else { throw fail(index, "shape", "is \(n.shape), not a HUD_SHAPE_* value") }
        guard let material = HudNode.Material(rawValue: n.material) else { throw fail(index, "material", "is \(n.material), not a HUD_MATERIAL_* value") }
        guard let placement = HudNode.Placement(rawValue: n.placement) else { throw fail(index, "placement", "is \(n.placement), not a HUD_PLACEMENT_* value") }
        let frame = try decodeRect(n.frame, index, "frame")
        let hit = try decodeRect(n.hit, index, "hit")
        let cornerRadius = try length(n.corner_radius, index, "corner_radius")
        let strokeWidth = try length(n.stroke_width, index, "stroke_width")
        let fontSize = try length(n.font_size, index, "font_size")
        let icon = try string(n.icon, index, "icon", Int(HUD_MAX_ICON_BYTES))
        let label = try string(n.label, index, "label", Int(HUD_MAX_LABEL_BYTES))
        let accessibilityLabel = try string(n.accessibility_label, index, "accessibility_label", Int(HUD_MAX_LABEL_BYTES))
        return HudNode(
            kind: kind, position: position, part: part, modeIndex: n.mode_index >= 0 ? Int(n.mode_index) : nil,
            frame: frame, hit: hit, shape: shape, material: material,
            cornerRadius: cornerRadius, strokeWidth: strokeWidth, fontSize: fontSize,
            fill: HudColor(rgba: n.fill), stroke: HudColor(rgba: n.stroke),
            iconColor: HudColor(rgba: n.icon_color), textColor: HudColor(rgba: n.text_color),
            placement: placement, z: Int(n.z),
            isPressed: n.flags & HUD_NODE_FLAG_PRESSED != 0,
            isInteractive: n.flags & HUD_NODE_FLAG_INTERACTIVE != 0,
            icon: icon, label: label, accessibilityLabel: accessibilityLabel
        )
    }

    /// The largest coordinate magnitude accepted (far beyond any screen, small
    /// enough that sums of a few coordinates stay exact and finite).
    static let maxCoordinate = 1e7

    private func decodeRect(_ r: hud_rect_t, _ index: Int, _ field: String) throws(RegistryError) -> HudRect {
        for (name, value) in [("x", r.x), ("y", r.y)] where !value.isFinite || abs(value) > Self.maxCoordinate {
            throw fail(index, "\(field).\(name)", "is \(value); coordinates must be finite and within ±\(Int(Self.maxCoordinate)) pt")
        }
        return HudRect(x: r.x, y: r.y, width: try length(r.width, index, "\(field).width"), height: try length(r.height, index, "\(field).height"))
    }

    private func length(_ value: Double, _ index: Int, _ field: String) throws(RegistryError) -> Double {
        guard value.isFinite, value >= 0, value <= Self.maxCoordinate else {
            throw fail(index, field, "is \(value); it must be finite, non-negative and at most \(Int(Self.maxCoordinate)) pt")
        }
        return value
    }

    private func decodeInsets(_ i: hud_insets_t) throws(RegistryError) -> HudInsets {
        HudInsets(top: try length(i.top, -1, "content_insets.top"), left: try length(i.left, -1, "content_insets.left"),
                  bottom: try length(i.bottom, -1, "content_insets.bottom"), right: try length(i.right, -1, "content_insets.right"))
    }

    private func string(_ pointer: UnsafePointer<CChar>?, _ index: Int, _ field: String, _ limit: Int) throws(RegistryError) -> String? {
        do {
            return try CStringReader.readOptional(pointer, limit: limit)
        } catch {
            throw fail(index, field, CStringReader.explain(error))
        }
    }

    private func fail(_ index: Int?, _ field: String, _ reason: String) -> RegistryError {
        .invalidLayout(id: info.id, origin: info.origin.description, node: index.flatMap { $0 >= 0 ? $0 : nil }, field: field, reason: reason)
    }
}
