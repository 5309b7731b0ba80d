// SPDX-License-Identifier: MIT
/// A strict JSON parser over UTF-8 bytes, with limits against hostile input:
/// nesting depth, document size and string length. Errors carry the line
/// and column.
package struct JSONParser {
    package struct Limits: Sendable {
        package var maxDepth = 64
        package var maxBytes = 8 << 20
        package var maxStringBytes = 1 << 20
        package init() {}
    }

    package struct Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        package var line: Int
        package var column: Int
        package var reason: String
        package var description: String { "line \(line), column \(column): \(reason)" }
    }

    package static func parse(_ text: String, limits: Limits = Limits()) throws(Error) -> JSONValue {
        try parse(bytes: Array(text.utf8), limits: limits)
    }

    package static func parse(bytes: [UInt8], limits: Limits = Limits()) throws(Error) -> JSONValue {
        var parser = JSONParser(bytes: bytes, limits: limits)
        guard bytes.count <= limits.maxBytes else {
            throw Error(line: 1, column: 1, reason: "the document is \(bytes.count) bytes; at most \(limits.maxBytes) are accepted")
        }
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private let bytes: [UInt8]
    private let limits: Limits
    private var index = 0

    private init(bytes: [UInt8], limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    private func error(_ reason: String) -> Error {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return Error(line: line, column: column, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func parseValue(depth: Int) throws(Error) -> JSONValue {
        guard depth <= limits.maxDepth else { throw error("nesting deeper than \(limits.maxDepth) levels") }
        guard let byte = current else { throw error("unexpected end of input; expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character '\(Self.printable(byte))'; expected a value")
        }
    }

    private mutating func expectWord(_ word: String) throws(Error) {
        for expected in word.utf8 {
            guard current == expected else { throw error("invalid literal; expected '\(word)'") }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(Error) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        var keys = KeySet()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let key = try parseString()
            guard keys.insert(key, members: members) else { throw error("duplicate key \"\(key)\"") }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw error("expected ',' or '}' in object")
            }
        }
    }

    /// The keys of one object seen so far, for the duplicate-key check in
    /// linear time: a small object compares against its members (no
    /// allocation); from `hashedFrom` members on, a `Set` takes over, so an
    /// object with n keys costs O(n), not O(n²) (a 560 KB object of 40,000
    /// keys took minutes to reject in a debug build).
    private struct KeySet {
        static let hashedFrom = 16
        private var hashed: Set<String>?

        /// Adds `key`; false if the object already has it. `members` are
        /// the object's members so far, in order.
        mutating func insert(_ key: String, members: [(String, JSONValue)]) -> Bool {
            if hashed == nil {
                guard members.count >= Self.hashedFrom else { return !members.contains { $0.0 == key } }
                hashed = Set(members.lazy.map(\.0))
            }
            return hashed?.insert(key).inserted ?? false
        }
    }

    private mutating func parseArray(depth: Int) throws(Error) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            default: throw error("expected ',' or ']' in array")
            }
        }
    }

    private mutating func parseString() throws(Error) -> String {
        index += 1
        // The common case, a string without escapes: find its end and make
        // the String from that slice of the input in one step.
        var end = index
        var ascii = true
        while end < bytes.count, end - index <= limits.maxStringBytes {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                // ASCII needs no validation pass.
                let slice = bytes[index..<end]
                guard let string = ascii ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self) else { break }
                index = end + 1
                return string
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            ascii = ascii && byte < 0x80
            end += 1
        }
        // Escapes, control characters, invalid UTF-8, a very long or an
        // unterminated string: byte by byte, with the errors they deserve.
        var out: [UInt8] = []
        while true {
            guard let byte = current else { throw error("unterminated string") }
            guard out.count <= limits.maxStringBytes else { throw error("string longer than \(limits.maxStringBytes) bytes") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                guard let escape = current else { throw error("unterminated escape") }
                index += 1
                if let simple = Self.unescaped(escape) {
                    out.append(simple)
                    continue
                }
                switch escape {
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate \\u\(String(scalar, radix: 16))")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate \\u\(String(low, radix: 16))") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("unpaired surrogate \\u\(String(scalar, radix: 16))")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid code point") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw error("invalid escape '\\\(Self.printable(escape))'")
                }
            case 0x00..<0x20:
                throw error("control character U+\(String(byte, radix: 16)) in string; escape it")
            default:
                out.append(byte)
                index += 1
            }
        }
    }

    /// The byte a one-character escape (`\"`, `\\`, `\/`, `\b`, `\f`,
    /// `\n`, `\r`, `\t`) stands for, given the character after the
    /// backslash; nil for `u` and anything else.
    package static func unescaped(_ escape: UInt8) -> UInt8? {
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escape
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    private mutating func parseHex4() throws(Error) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(Error) -> Double {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { throw error("invalid number") }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let digit = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { throw error("invalid number: digits must follow '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { throw error("invalid number: exponent has no digits") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("number \(text) is out of range") }
        return value
    }

    private mutating func skipDigits() {
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
    }

    private static func printable(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }
}
