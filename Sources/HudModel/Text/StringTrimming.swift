// SPDX-License-Identifier: MIT
/// Small string helpers shared by the parsers of the package.
extension StringProtocol {
    package func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

/// Checks and escapes for text that came from a plugin.
package enum TextChecks {
    /// C0 controls, DEL and C1 controls: what a terminal interprets.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The UTF-8 offset of the first control character, or nil.
    package static func firstControlCharacter(in text: String) -> Int? {
        var offset = 0
        for scalar in text.unicodeScalars {
            if isControl(scalar) { return offset }
            offset += scalar.utf8.count
        }
        return nil
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
