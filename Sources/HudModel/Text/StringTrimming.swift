// SPDX-License-Identifier: MIT
/// Small string helpers shared by the parsers of the package.
extension StringProtocol {
    package func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// True when `target` (non-empty) occurs in this text, compared byte
    /// for byte in UTF-8 (`contains` of a string is `_StringProcessing`'s).
    package func includes(_ target: String) -> Bool {
        let bytes = Array(utf8), pattern = Array(target.utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return false }
        return (0...(bytes.count - pattern.count)).contains { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }

    /// This text with every occurrence of `target` (non-empty) replaced
    /// by `replacement`, left to right, compared byte for byte in UTF-8.
    /// (The standard library's `replacing(_:with:)` lives in
    /// `_StringProcessing`, which the sandbox helper's modules do not
    /// import: Package.swift, `lean`.)
    package func replacingEvery(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8), pattern = Array(target.utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return String(self) }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + pattern.count <= bytes.count, bytes[index..<index + pattern.count].elementsEqual(pattern) {
                result += replacement.utf8
                index += pattern.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}

/// Checks and escapes for text that came from a plugin.
package enum TextChecks {
    /// C0 controls, DEL and C1 controls: what a terminal interprets.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The UTF-8 offset of the first control character, or nil.
    ///
    /// One pass over the UTF-8 bytes, no scalar decoding: C0 controls are
    /// the bytes below 0x20, DEL is 0x7F, and the C1 controls U+0080…U+009F
    /// are exactly the sequences 0xC2 0x80…0x9F (a `String` is valid UTF-8,
    /// so no other byte sequence encodes them).
    package static func firstControlCharacter(in text: String) -> Int? {
        let span = text.utf8.span
        var offset = 0
        while offset < span.count {
            let byte = span[offset]
            if byte < 0x20 || byte == 0x7F { return offset }
            if byte == 0xC2, offset + 1 < span.count, span[offset + 1] <= 0x9F { return offset }
            offset += 1
        }
        return nil
    }

    /// Text a sandboxed child sent, which plugin code may have written: at
    /// most `limit` characters (then "…") and every control character
    /// escaped, so it is data wherever it is printed or cached.
    package static func fromChild(_ text: String, limit: Int = 2000) -> String {
        escapingControls(text.count > limit ? String(text.prefix(limit)) + "…" : text)
    }

    /// `text` with every control character written as `\u{XX}`, for
    /// terminal output.
    package static func escapingControls(_ text: String) -> String {
        guard firstControlCharacter(in: text) != nil else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) { result += "\\u{" + String(scalar.value, radix: 16) + "}" } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
