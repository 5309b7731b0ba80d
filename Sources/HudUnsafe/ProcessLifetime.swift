// SPDX-License-Identifier: MIT
import Synchronization

/// Values a command is done with just before the process exits: freeing
/// them would only cost time (a warm `hudhost list` of 10,000 plugins holds
/// tens of thousands of strings, arrays and records, ~6 % of its run spent
/// releasing them one by one), and `hudhost` ends with `_exit`, which hands
/// all memory back at once. They stay referenced from here, so a leak
/// checker reports them as reachable, not lost.
package enum ProcessLifetime {
    private static let lock = Mutex(())
    /// `nonisolated(unsafe)`: only touched under `lock`.
    nonisolated(unsafe) private static var kept: [Any] = []

    /// Keeps `value` alive until the process exits. Only for a process
    /// that is about to end: nothing kept is ever freed.
    package static func keepUntilExit(_ value: Any) {
        lock.withLock { _ in kept.append(value) }
    }
}
