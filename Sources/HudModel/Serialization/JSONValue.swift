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

    /// Pretty-printed with two-space indentation and a trailing newline.
    package func serialized(pretty: Bool = true) -> String {
        var out = ""
        write(to: &out, indent: pretty ? 0 : nil)
        if pretty { out += "\n" }
        return out
    }

    /// Appends `self` pretty-printed as a value nested `depth` levels deep
    /// (what `serialized()` writes there), without a trailing newline: for
    /// a large document written piece by piece instead of as one tree.
    package func write(prettyAtDepth depth: Int, to out: inout String) {
        write(to: &out, indent: depth)
    }

    private func write(to out: inout String, indent: Int?) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += Self.format(n)
        case .string(let s): Self.quote(s, into: &out)
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                Self.newline(&out, indent.map { $0 + 1 })
                item.write(to: &out, indent: indent.map { $0 + 1 })
            }
            Self.newline(&out, indent)
            out += "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                Self.newline(&out, indent.map { $0 + 1 })
                Self.quote(key, into: &out)
                out += indent == nil ? ":" : ": "
                value.write(to: &out, indent: indent.map { $0 + 1 })
            }
            Self.newline(&out, indent)
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ indent: Int?) {
        guard let indent else { return }
        out += "\n"
        for _ in 0..<indent { out += "  " }
    }

    /// Integers print without a fraction; others in Swift's shortest
    /// round-trip form. Non-finite numbers (never produced by validated
    /// layouts) print as null to keep the output valid JSON.
    package static func format(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }

    /// Appends `s` as a JSON string literal. Runs of bytes that need no
    /// escape (everything but `"`, `\\` and C0 controls; UTF-8 multi-byte
    /// sequences never contain those bytes) are appended whole, so a string
    /// costs one scan of its bytes plus one append per escape, not an append
    /// per character.
    static func quote(_ s: String, into out: inout String) {
        out += "\""
        let utf8 = s.utf8
        var run = utf8.startIndex
        var index = run
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                // An ASCII byte: `run..<index` ends on a scalar boundary.
                out += s[run..<index]
                switch byte {
                case 0x22: out += "\\\""
                case 0x5C: out += "\\\\"
                case 0x0A: out += "\\n"
                case 0x0D: out += "\\r"
                case 0x09: out += "\\t"
                default: out += (byte < 0x10 ? "\\u000" : "\\u00") + String(byte, radix: 16)
                }
                run = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if run == utf8.startIndex {
            out += s  // nothing escaped: the whole String, not a Substring
        } else {
            out += s[run...]
        }
        out += "\""
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral {
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .number(Double(value)) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(floatLiteral value: Double) { self = .number(value) }
}
