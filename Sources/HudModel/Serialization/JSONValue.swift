// SPDX-License-Identifier: MIT
/// A JSON document with object keys kept in order, so output is stable and
/// reads well (`schemaVersion` first). Parsing is strict RFC 8259 with
/// limits, and errors say where (line:column) and why.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o):
            for (key, value) in o {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    // MARK: - Access

    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    package var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    package var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
    package var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    package var objectValue: [(String, JSONValue)]? { if case .object(let o) = self { o } else { nil } }

    /// The JSON type name, for error messages.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    // MARK: - Output

    /// Pretty-printed with two-space indentation and a trailing newline
    /// (laid out by `JSONWriter`).
    package func serialized(pretty: Bool = true) -> String {
        var writer = JSONWriter(pretty: pretty)
        writer.value(self)
        if pretty { writer.raw("\n") }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Integers print without a fraction; others in Swift's shortest
    /// round-trip form. Non-finite numbers (never produced by validated
    /// layouts) print as null to keep the output valid JSON.
    package static func format(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral {
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .number(Double(value)) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(floatLiteral value: Double) { self = .number(value) }
}
