// SPDX-License-Identifier: MIT
/// Writes JSON text straight into UTF-8 bytes, one member or element at a
/// time, with no `JSONValue` tree in between: for documents with thousands
/// of records (`hudhost list --json`, the registry cache). The one place
/// JSON text is laid out: `JSONValue.serialized()` writes through it too,
/// so a document written member by member and the same document built as
/// a tree are the same bytes.
///
/// Layout (pretty): two-space indentation, `"key": value`, each member and
/// element on its own line, `{}` / `[]` for empty containers, no trailing
/// newline (`serialized()` adds it). Compact: no whitespace at all.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    package let pretty: Bool
    /// How many containers are open.
    private var depth = 0
    /// No member or element has been written in the innermost open container.
    private var empty = true

    /// A writer of one document, with room for `capacity` bytes.
    package init(pretty: Bool, reservingCapacity capacity: Int = 0) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    /// Hands the bytes written so far to `sink` and goes on with an empty
    /// buffer of the same capacity: a long document streamed out in pieces
    /// (call it between members or elements, where every byte before is
    /// whole UTF-8). The layout does not depend on what was handed out.
    package mutating func flush(to sink: ([UInt8]) -> Void) {
        sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    // MARK: - Containers

    package mutating func beginObject() { open(UInt8(ascii: "{")) }
    package mutating func endObject() { close(UInt8(ascii: "}")) }
    package mutating func beginArray() { open(UInt8(ascii: "[")) }
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts the next member of the open object: its key, then the value
    /// written next.
    package mutating func key(_ key: String) {
        separate()
        quote(key)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
    }

    /// Starts the next element of the open array (the value written next).
    package mutating func element() { separate() }

    // MARK: - Values

    /// A member of the open object: its key and a string (or null).
    package mutating func member(_ name: String, _ value: String?) {
        key(name)
        string(value)
    }

    package mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    package mutating func member(_ name: String, integer value: Int) {
        key(name)
        integer(value)
    }

    package mutating func member(_ name: String, integer value: UInt32) {
        key(name)
        integer(value)
    }

    package mutating func string(_ value: String) { quote(value) }
    package mutating func string(_ value: String?) { if let value { quote(value) } else { null() } }
    package mutating func bool(_ value: Bool) { bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes) }
    package mutating func null() { bytes.append(contentsOf: Self.nullBytes) }
    // As arrays: appending one is a copy, appending a literal `String`'s
    // UTF-8 view goes through the string (twice the instructions).
    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let nullBytes = Array("null".utf8)

    package mutating func number(_ value: Double) { raw(JSONValue.format(value)) }

    /// An integer in decimal, without a detour through `Double` or `String`.
    /// (Concrete types, not a generic: called across modules, a generic
    /// would go through witness tables for every digit.)
    package mutating func integer(_ value: UInt64) {
        // Most significant digit first: the largest power of ten not above
        // the value (at most 10^19, which fits in 64 bits).
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor &*= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    package mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        integer(value.magnitude)
    }

    package mutating func integer(_ value: Int) { integer(Int64(value)) }
    package mutating func integer(_ value: UInt32) { integer(UInt64(value)) }

    /// `text` as it is: a literal the caller knows to be valid JSON.
    package mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// A whole value given as a tree (small parts of a large document).
    package mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): number(n)
        case .string(let s): quote(s)
        case .array(let items):
            beginArray()
            for item in items {
                element()
                self.value(item)
            }
            endArray()
        case .object(let members):
            beginObject()
            for (name, member) in members {
                key(name)
                self.value(member)
            }
            endObject()
        }
    }

    // MARK: - Layout

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        depth += 1
        empty = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if !empty { newline() }
        bytes.append(bracket)
        // The container just closed was itself a member or element of its
        // parent, so the parent is not empty.
        empty = false
    }

    private mutating func separate() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        newline()
    }

    private mutating func newline() {
        guard pretty else { return }
        let width = 1 + 2 * depth
        if width <= Self.newlineAndSpaces.count {
            bytes.append(contentsOf: Self.newlineAndSpaces[..<width])
        } else {
            bytes.append(0x0A)
            bytes.append(contentsOf: repeatElement(0x20, count: width - 1))
        }
    }

    /// A newline and the indentation of up to 15 levels, sliced per line.
    private static let newlineAndSpaces: [UInt8] = [0x0A] + Array(repeating: 0x20, count: 30)

    /// Appends `s` as a JSON string literal. The common case, nothing to
    /// escape (no `"`, `\\` or C0 control; UTF-8 multi-byte sequences never
    /// contain those bytes), is one pass that checks and copies each byte.
    private mutating func quote(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        let span = s.utf8.span
        var plain = 0
        bytes.append(addingCapacity: span.count + 1) { out in
            while plain < span.count {
                let byte = span[plain]
                if byte < 0x20 || byte == 0x22 || byte == 0x5C { return }
                out.append(byte)
                plain += 1
            }
            out.append(UInt8(ascii: "\""))
        }
        if plain < span.count {
            quote(span, from: plain)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// The rest of `quote`, from the first byte that needs an escape.
    private mutating func quote(_ span: Span<UInt8>, from first: Int) {
        for index in first..<span.count {
            let byte = span[index]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else {
                bytes.append(byte)
                continue
            }
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case 0x22, 0x5C: bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            default:
                // \u00XX, lowercase hex (a control byte is below 0x20).
                bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), UInt8(ascii: "0") + (byte >> 4)])
                let low = byte & 0xF
                bytes.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10)
            }
        }
    }
}
