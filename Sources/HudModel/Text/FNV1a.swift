// SPDX-License-Identifier: MIT
/// 64-bit FNV-1a: a fast, stable, non-cryptographic hash for cache file
/// names, layout digests and seeds. Not for anything an attacker chooses.
package struct FNV1a: Sendable, Hashable {
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    package mutating func add(bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
    }

    /// The hash of `text`'s UTF-8 bytes.
    package static func hash(_ text: String) -> UInt64 {
        var hash = FNV1a()
        hash.add(bytes: text.utf8)
        return hash.value
    }

    /// `value` as 16 lowercase hex digits.
    package var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
