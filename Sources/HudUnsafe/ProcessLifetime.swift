// SPDX-License-Identifier: MIT
import CHudSystem

/// Values a command is done with just before the process exits: freeing
/// them would only cost time (a warm `hudhost list` of 10,000 plugins holds
/// tens of thousands of strings, arrays and records, ~6 % of its run spent
/// releasing them one by one), and `hudhost` ends with `_exit`, which hands
/// all memory back at once. They stay referenced from here, so a leak
/// checker reports them as reachable, not lost.
package enum ProcessLifetime {
    /// ThreadLock, not Mutex: TSan sees it when threads contend.
    private static let kept = ThreadLock<[Any]>([])

    /// Keeps `value` alive until the process exits. Only for a process
    /// that is about to end: nothing kept is ever freed.
    package static func keepUntilExit(_ value: Any) {
        kept.withLock { $0.append(value) }
    }
}

extension ProcessLifetime {
    /// Tunes glibc's allocator for a command that allocates a few MiB and
    /// exits. Call before any thread starts. One arena for every thread
    /// (`M_ARENA_MAX` 1): a second thread's own arena grows one page per
    /// `mprotect` (a warm `hudhost list` of 1,000 plugins made 75 of those
    /// calls while its cache-reading thread built the records), whereas the
    /// main arena grows by `brk` with a pad; and a 4 MiB pad (`M_TOP_PAD`),
    /// so the heap grows in a few steps instead of dozens. Measured in
    /// BENCHMARKS.md "Round 6": 941 -> 823 page faults, 84 -> 8 `mprotect`
    /// calls. A long-running command (`preview`) only shares one arena
    /// among its few threads.
    package static func tuneAllocatorForShortCommands() {
        _ = mallopt(M_ARENA_MAX, 1)
        _ = mallopt(M_TOP_PAD, 4 << 20)
    }
}
