// SPDX-License-Identifier: MIT
import HudRegistry

/// A structural comparison of two layouts as `render --format json` and
/// `snapshot` write them (`LayoutJSON.layout`): nodes are matched by kind,
/// position, part and mode index (the n-th such node with the n-th), then
/// compared field by field. Geometry — frames, hit regions, insets, corner
/// radius, stroke width, font and glyph sizes — is equal within
/// `geometryTolerance` points; every other field must be identical.
enum LayoutDiff {
    /// Points two geometric values may differ by and still be equal.
    static let geometryTolerance = 0.5

    /// One difference: `slot bottomRight: frame.x 326 → 318`.
    struct Change: Sendable, Equatable, CustomStringConvertible {
        /// The node (`slot bottomRight`, `modeItem center#2`), or `layout`
        /// for the layout's own fields.
        var node: String
        /// The field's path (`frame.x`), empty for a node added or removed.
        var field: String
        /// The values, nil where there is none (a node added or removed).
        var before: String?
        var after: String?

        var description: String {
            if field.isEmpty { return before == nil ? "\(node): added" : "\(node): removed" }
            return "\(node): \(field) \(before ?? "none") → \(after ?? "none")"
        }

        var json: JSONValue {
            .object([("node", .string(node)), ("field", .string(field)), ("before", before.map(JSONValue.string) ?? .null),
                     ("after", after.map(JSONValue.string) ?? .null)])
        }
    }

    /// What changed from `baseline` to `new`, in node order.
    static func changes(baseline: JSONValue, new: JSONValue) -> [Change] {
        var changes = compare(node: "layout", fields(of: baseline, skipping: ["nodes"]), fields(of: new, skipping: ["nodes"]))
        let before = keyed(nodes(of: baseline)), after = keyed(nodes(of: new))
        let afterByKey = Dictionary(after.map { ($0.key, $0.fields) }, uniquingKeysWith: { first, _ in first })
        let beforeKeys = Set(before.map(\.key))
        for (key, fields) in before {
            guard let newFields = afterByKey[key] else {
                changes.append(Change(node: key, field: "", before: "present", after: nil))
                continue
            }
            changes += compare(node: key, fields, newFields)
        }
        for (key, _) in after where !beforeKeys.contains(key) {
            changes.append(Change(node: key, field: "", before: nil, after: "present"))
        }
        return changes
    }

    /// Each node's frame by the name `changes` gives it, in points.
    static func frames(of layout: JSONValue) -> [String: (x: Double, y: Double, width: Double, height: Double)] {
        var frames: [String: (x: Double, y: Double, width: Double, height: Double)] = [:]
        for (key, fields) in keyed(nodes(of: layout)) {
            let values = Dictionary(fields, uniquingKeysWith: { first, _ in first })
            if case .number(let x)? = values["frame.x"], case .number(let y)? = values["frame.y"],
               case .number(let width)? = values["frame.width"], case .number(let height)? = values["frame.height"] {
                frames[key] = (x, y, width, height)
            }
        }
        return frames
    }

    private static func nodes(of layout: JSONValue) -> [JSONValue] {
        if case .array(let nodes)? = layout["nodes"] { return nodes }
        return []
    }

    /// Each node with its name (`slot bottomRight`, `secondary topLeft 2`).
    private static func keyed(_ nodes: [JSONValue]) -> [(key: String, fields: [(String, JSONValue)])] {
        var seen: [String: Int] = [:]
        return nodes.map { node in
            var name = text(node["kind"]) ?? "node"
            if let position = text(node["position"]) { name += " " + position }
            if let part = text(node["part"]), part != text(node["kind"]) { name += " " + part }
            if case .number(let index)? = node["modeIndex"] { name += "#" + JSONValue.format(index) }
            seen[name, default: 0] += 1
            if let count = seen[name], count > 1 { name += " (\(count))" }
            return (name, fields(of: node, skipping: []))
        }
    }

    private static func text(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    /// The leaves of an object as `path: value`, nested objects flattened
    /// with dots (`frame.x`).
    private static func fields(of value: JSONValue, skipping: Set<String>, prefix: String = "") -> [(String, JSONValue)] {
        guard case .object(let members) = value else { return [(prefix, value)] }
        return members.filter { !skipping.contains($0.0) }.flatMap { name, member -> [(String, JSONValue)] in
            if case .object = member { return fields(of: member, skipping: [], prefix: prefix + name + ".") }
            return [(prefix + name, member)]
        }
    }

    private static func compare(node: String, _ before: [(String, JSONValue)], _ after: [(String, JSONValue)]) -> [Change] {
        let newValues = Dictionary(after, uniquingKeysWith: { first, _ in first })
        var changes: [Change] = []
        for (field, old) in before {
            let new = newValues[field]
            if let new, equal(field, old, new) { continue }
            changes.append(Change(node: node, field: field, before: show(old), after: new.map(show)))
        }
        let oldFields = Set(before.map(\.0))
        for (field, new) in after where !oldFields.contains(field) {
            changes.append(Change(node: node, field: field, before: nil, after: show(new)))
        }
        return changes
    }

    private static let geometricFields: Set<String> = ["cornerRadius", "strokeWidth", "fontSize", "glyphSize"]

    private static func isGeometric(_ field: String) -> Bool {
        geometricFields.contains(field) || ["frame.", "hit.", "contentInsets.", "deck.reservedLanes."].contains { field.hasPrefix($0) }
    }

    private static func equal(_ field: String, _ a: JSONValue, _ b: JSONValue) -> Bool {
        if case .number(let x) = a, case .number(let y) = b, isGeometric(field) { return abs(x - y) <= geometryTolerance }
        return a == b
    }

    private static func show(_ value: JSONValue) -> String {
        switch value {
        // To a hundredth of a point: what a person reads in a report.
        case .number(let number): JSONValue.format((number * 100).rounded() / 100)
        case .string(let text): text
        default: value.serialized(pretty: false)
        }
    }
}
