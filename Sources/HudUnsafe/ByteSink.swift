// SPDX-License-Identifier: MIT
import CHudHot
import Glibc
import HudModel

/// An append-only byte buffer for the long documents hudhost writes
/// piece by piece (`list --json`: thousands of renderer objects, each
/// laid out from bytes `JSONWriter` prepared once). Appending a piece is
/// one capacity check and one `memcpy`, where `Array.append(contentsOf:)`
/// costs about 120 instructions of generic bookkeeping a call; a JSON
/// string is one SIMD scan (`hud_hot_plain_run`, the same bytes
/// `JSONWriter` escapes) and one copy, and the rare string that needs an
/// escape is quoted by `JSONWriter` itself, so the bytes are always the
/// ones `JSONWriter` writes.
///
/// Pointers: `storage` is this value's own heap block (allocated in
/// `init`, replaced when it grows, freed in `deinit`); the caller's bytes
/// are borrowed for one call on the calling thread. Not copyable, so one
/// owner, one thread.
@safe package struct ByteSink: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    package private(set) var count = 0

    package init(capacity: Int) {
        self.capacity = max(capacity, 64)
        unsafe storage = .allocate(capacity: self.capacity)
    }

    deinit { unsafe storage.deallocate() }

    /// The bytes written since the last `take`, as an array; the sink goes
    /// on empty with the same capacity.
    package mutating func take() -> [UInt8] {
        let bytes = unsafe Array(UnsafeBufferPointer(start: storage, count: count))
        count = 0
        return bytes
    }

    package mutating func append(_ bytes: [UInt8]) {
        unsafe bytes.withUnsafeBufferPointer { unsafe append($0) }
    }

    /// `value` as `JSONWriter.string(_:)` writes it: a quoted string
    /// literal, or `null`.
    package mutating func appendJSONString(_ value: String?) {
        guard let value else { return append(JSONWriter.nullBytes) }
        let plain = unsafe value.utf8.span.withUnsafeBufferPointer { bytes -> Bool in
            guard unsafe bytes.count == 0 || hud_hot_plain_run(bytes.baseAddress!, bytes.count, 0) == bytes.count else { return false }
            reserve(bytes.count + 2)
            unsafe storage[count] = UInt8(ascii: "\"")
            if bytes.count > 0 { unsafe (storage + count + 1).initialize(from: bytes.baseAddress!, count: bytes.count) }
            unsafe storage[count + 1 + bytes.count] = UInt8(ascii: "\"")
            count += bytes.count + 2
            return true
        }
        if !plain { append(JSONWriter.quoted(value)) }
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count > 0 else { return }
        reserve(bytes.count)
        unsafe (storage + count).initialize(from: bytes.baseAddress!, count: bytes.count)
        count += bytes.count
    }

    /// Room for `more` bytes after `count` (doubling, so appends stay
    /// amortized constant).
    private mutating func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        var grown = capacity * 2
        while grown < count + more { grown *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        unsafe larger.initialize(from: storage, count: count)
        unsafe storage.deallocate()
        unsafe storage = unsafe larger
        capacity = grown
    }
}
