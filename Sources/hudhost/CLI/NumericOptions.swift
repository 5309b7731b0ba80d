// SPDX-License-Identifier: MIT
/// Numeric option values, range-checked before any work: a value outside
/// its range is a usage error (exit 2) naming the option, the value and
/// the range, never an overflow later (`--timeout 1e308` once crashed
/// converting to nanoseconds).
extension Arguments {
    /// A number of seconds greater than 0 and at most `maximum` (finite;
    /// `nan`, `inf` and hexadecimal spellings are refused).
    func seconds(_ option: Option, atLeast minimum: Double? = nil, atMost maximum: Double) throws(UsageError) -> Double? {
        let range = minimum.map { "seconds from \(Self.format($0)) to \(Self.format(maximum))" } ?? "seconds greater than 0 and at most \(Self.format(maximum))"
        return try value(option, accepted: range) { text in
            guard Self.isDecimal(text), let seconds = Double(text), seconds.isFinite, seconds <= maximum else { return nil }
            if let minimum { return seconds >= minimum ? seconds : nil }
            return seconds > 0 ? seconds : nil
        }
    }

    /// A whole number in `range`; `what` names it in the message ("a count", "megabytes").
    func integer(_ option: Option, in range: ClosedRange<Int>, what: String) throws(UsageError) -> Int? {
        try value(option, accepted: "\(what): a whole number from \(range.lowerBound) to \(range.upperBound)") { text in
            Int(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// Digits with an optional sign, fraction and exponent: what a user
    /// writes for seconds (Swift's `Double` also takes `nan`, `inf`, `0x1p3`).
    private static func isDecimal(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { "0123456789.eE+-".unicodeScalars.contains($0) }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
