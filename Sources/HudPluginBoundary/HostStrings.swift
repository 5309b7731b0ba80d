// SPDX-License-Identifier: MIT
import Glibc
import HudRendererAPI

/// Byte ranges holding strings the host itself wrote for a layout call's
/// inputs (the complications snapshot's string arena and the navigation
/// title's storage), so the validator can accept a node string that points
/// into them without reading it again.
///
/// Why that is sound: every byte in a range belongs to a string the host
/// made from a Swift `String` (valid UTF-8) and checked when marshaling;
/// each string is NUL-terminated and the range ends on a NUL, so from any
/// byte in the range the C string ends inside the range, is no longer than
/// `longest`, and is a suffix of valid UTF-8. A suffix of valid UTF-8 is
/// itself valid exactly when it does not start on a continuation byte
/// (10xxxxxx). So a pointer `p` into a range is accepted for a field with
/// byte limit `limit` when `longest <= limit` and `*p` is not a
/// continuation byte; anything else (outside every range, in a range whose
/// longest string exceeds the limit, or starting mid-character) gets the
/// full bounded length and UTF-8 check. The ranges are immutable while
/// their owners (the snapshot, the renderer's title storage) are alive,
/// which the layout call guarantees; the ABI makes inputs `const`.
package struct HostStrings {
    /// One range: `count` bytes from `start` and the longest string in it.
    package struct Range {
        package let start: UInt
        package let count: UInt
        package let longest: Int

        package static let empty = Range(start: 0, count: 0, longest: 0)

        /// A range over `count` bytes at `start` whose strings are at most
        /// `longest` bytes (the caller wrote them: see `HostStrings`).
        package init(start: UnsafeRawPointer?, count: Int, longest: Int) {
            unsafe self.init(start: UInt(bitPattern: start), count: start == nil ? 0 : UInt(max(count, 0)), longest: longest)
        }

        private init(start: UInt, count: UInt, longest: Int) {
            self.start = start
            self.count = count
            self.longest = longest
        }

        /// True when `address` lies in `start ..< start + count` (one
        /// unsigned compare: addresses below `start` wrap to huge values).
        @inline(__always)
        package func contains(_ address: UInt) -> Bool { address &- start < count }
    }

    package var arena: Range
    package var title: Range

    /// Nothing is trusted: every string gets the full check.
    package static let none = HostStrings(arena: .empty, title: .empty)

    package init(arena: Range, title: Range) {
        self.arena = arena
        self.title = title
    }

    /// The ranges a field with byte limit `limit` may trust: those whose
    /// longest string fits.
    @inline(__always)
    package func trusted(limit: Int) -> Trusted {
        Trusted(arenaStart: arena.start, arenaCount: arena.longest <= limit ? arena.count : 0,
                titleStart: title.start, titleCount: title.longest <= limit ? title.count : 0)
    }

    /// True when the C string at `pointer` is host-made, no longer than
    /// `limit` bytes and valid UTF-8 without reading past its first byte.
    package func vouches(for pointer: UnsafePointer<CChar>, limit: Int) -> Bool {
        unsafe trusted(limit: limit).vouches(for: pointer)
    }

    /// The ranges one field's limit allows (an empty range for one whose
    /// longest string is too long), as four plain words.
    package struct Trusted {
        let arenaStart: UInt, arenaCount: UInt, titleStart: UInt, titleCount: UInt

        init(arenaStart: UInt, arenaCount: UInt, titleStart: UInt, titleCount: UInt) {
            self.arenaStart = arenaStart
            self.arenaCount = arenaCount
            self.titleStart = titleStart
            self.titleCount = titleCount
        }

        /// `vouches(for:)` for the arena alone (the common case, checked
        /// inline in the node loop; the title's range is checked after it).
        @inline(__always)
        package func arenaVouches(for pointer: UnsafePointer<CChar>) -> Bool {
            unsafe UInt(bitPattern: pointer) &- arenaStart < arenaCount && UInt8(bitPattern: pointer.pointee) & 0xC0 != 0x80
        }

        @inline(__always)
        package func vouches(for pointer: UnsafePointer<CChar>) -> Bool {
            let address = UInt(bitPattern: pointer)
            guard address &- arenaStart < arenaCount || address &- titleStart < titleCount else { return false }
            // Not a UTF-8 continuation byte (0x80...0xBF): a character boundary.
            return unsafe UInt8(bitPattern: pointer.pointee) & 0xC0 != 0x80
        }
    }
}
