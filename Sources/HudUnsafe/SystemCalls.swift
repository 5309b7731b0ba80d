package import HudModel
import Glibc

/// The host's libc layer, in the style of swift-system's syscall wrappers:
/// every raw libc call the safe targets need, each returning Swift values
/// (never a pointer), errors as `errno` text. Nothing here calls plugin code.
package enum SystemCalls {
    // MARK: - Time

    /// CLOCK_MONOTONIC in nanoseconds.
    package static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
