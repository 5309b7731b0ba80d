// SPDX-License-Identifier: MIT
import CHudHot
import Glibc

/// Byte scanning for readers of text the host wrote itself (the registry
/// cache, read whole by every warm `hudhost list`): safe entry points over
/// a `Span`, each checking its bounds once, with the loops in libc
/// (`memcmp`) or in C (`CHudHot`: sixteen bytes a step) instead of a
/// bounds check per byte.
///
/// Pointers: the only ones are the base addresses of the caller's `Span`s,
/// borrowed for one call on the calling thread; the C code reads within
/// the counts passed with them, writes only its out-parameters (locals
/// here) and keeps nothing.
package enum ByteScan {
    /// `input` holds `token`'s bytes at `index` (false past either end).
    package static func holds(_ input: Span<UInt8>, _ token: Span<UInt8>, at index: Int) -> Bool {
        guard index >= 0, index <= input.count, input.count - index >= token.count else { return false }
        guard !token.isEmpty else { return true }
        return unsafe input.withUnsafeBufferPointer { haystack in
            unsafe token.withUnsafeBufferPointer { needle in unsafe memcmp(haystack.baseAddress! + index, needle.baseAddress!, needle.count) == 0 }
        }
    }

    /// How many times `token` (not empty) occurs in `input` without
    /// overlapping (C: `memchr` for its first byte, then `memcmp`).
    package static func occurrences(of token: Span<UInt8>, in input: Span<UInt8>) -> Int {
        guard !token.isEmpty, token.count <= input.count else { return 0 }
        return unsafe input.withUnsafeBufferPointer { haystack in
            unsafe token.withUnsafeBufferPointer { unsafe hud_hot_occurrences(haystack.baseAddress!, haystack.count, $0.baseAddress!, $0.count) }
        }
    }

    /// Where the run of bytes from `start` that a JSON string can hold
    /// without decoding ends: at the first quote, backslash or byte below
    /// 0x20, or at the end.
    package static func plainRun(_ input: Span<UInt8>, from start: Int) -> Int {
        guard start >= 0, start < input.count else { return max(start, 0) }
        return unsafe input.withUnsafeBufferPointer { unsafe hud_hot_plain_run($0.baseAddress!, $0.count, start) }
    }

    /// The value of the ASCII decimal digits from `start` and the index
    /// after the last (`start` when there is none); nil when the value
    /// does not fit 64 bits.
    package static func decimal(_ input: Span<UInt8>, from start: Int) -> (value: UInt64, end: Int)? {
        guard start >= 0, start < input.count else { return (0, max(start, 0)) }
        var value: UInt64 = 0
        var end = start
        let overflow = unsafe input.withUnsafeBufferPointer { unsafe hud_hot_decimal($0.baseAddress!, $0.count, start, &value, &end) }
        return overflow == 0 ? (value, end) : nil
    }
}
