// SPDX-License-Identifier: MIT
import Glibc
import Synchronization
import HudSystem

/// A task limit for one sandboxed child of a root hudhost: a control group
/// of its own in the cgroup v1 `pids` hierarchy with `pids.max` set, which
/// the child joins before any plugin code runs. The kernel does not apply
/// `RLIMIT_NPROC` to root, so without it a root hudhost's renderer host
/// could start tasks until the machine runs out; an unprivileged hudhost's
/// children are limited by `RLIMIT_NPROC` inside their user namespace
/// (`SandboxLayers`) and need no group.
///
/// The parent makes the group before the spawn (`make`), names it to the
/// child in `environmentName`, and removes it once the child is reaped
/// (`remove`). Groups a killed hudhost left behind are removed by the next
/// one that makes a group (`hud-PID-N`, PID no longer running). The
/// hierarchy is found, and swept, once per process.
///
/// Thread: [thread-safe]; each group is made and removed by the thread
/// that spawns and reaps its child.
package struct TaskGroup: Sendable {
    /// The group's directory.
    package let path: String

    /// The variable that tells the child which group to join; empty when
    /// there is none.
    package static let environmentName = "HUD_SANDBOX_TASK_GROUP"

    private static let sequence = Atomic<Int>(0)

    /// Where this process makes its groups: its own group's directory in
    /// the `pids` hierarchy, found once, with what killed hudhosts left
    /// there removed (`sweep`); nil when not root or there is none.
    private static let base: String? = {
        guard geteuid() == 0, let base = ownPidsDirectory() else { return nil }
        sweep(base)
        return base
    }()

    /// A new group for one child, limited to `limit` tasks; nil when this
    /// process is not root (no group is needed) or no `pids` hierarchy
    /// can be written here (`SandboxLayers` then reports no task limit).
    package static func make(limit: Int) -> TaskGroup? {
        guard let base else { return nil }
        let number = sequence.add(1, ordering: .relaxed).newValue
        let path = "\(base)/hud-\(SystemCalls.processID)-\(number)"
        guard case .success = SystemCalls.makeDirectory(path, mode: 0o700) else { return nil }
        guard case .success = SystemCalls.writeFile(path + "/pids.max", Array("\(limit)\n".utf8)) else {
            _ = SystemCalls.removeDirectory(path)
            return nil
        }
        return TaskGroup(path: path)
    }

    /// Removes the group (its child has been reaped: it is empty).
    package func remove() {
        _ = SystemCalls.removeDirectory(path)
    }

    /// The child's side: joins the group named in the environment, before
    /// its namespaces and every other layer. True when it joined.
    package static func joinFromEnvironment() -> Bool {
        guard let path = SystemCalls.secureEnvironment(environmentName), path.hasPrefix("/") else { return false }
        if case .success = SystemCalls.writeFile(path + "/cgroup.procs", Array("\(SystemCalls.processID)\n".utf8)) { return true }
        return false
    }

    /// This process's group in the `pids` hierarchy, as a directory: the
    /// hierarchy's mount point (`/proc/self/mounts`) joined with this
    /// process's path in it (`/proc/self/cgroup`).
    package static func ownPidsDirectory() -> String? {
        guard case .success(let mounts) = SystemCalls.readFile("/proc/self/mounts", limit: 1 << 20),
              case .success(let groups) = SystemCalls.readFile("/proc/self/cgroup", limit: 1 << 16) else { return nil }
        let mountPoint = String(decoding: mounts, as: UTF8.self).split(separator: "\n").lazy.compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count >= 4, fields[2] == "cgroup", fields[3].split(separator: ",").contains("pids") else { return nil }
            return String(fields[1])
        }.first
        let own = String(decoding: groups, as: UTF8.self).split(separator: "\n").lazy.compactMap { line -> String? in
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[1].split(separator: ",").contains("pids") else { return nil }
            return String(fields[2])
        }.first
        guard let mountPoint, let own, !mountPoint.includes(" ") else { return nil }
        return own == "/" ? mountPoint : mountPoint + own
    }

    /// Removes groups a hudhost that no longer runs left in `base` (once
    /// per process); a group with tasks in it cannot be removed (the
    /// kernel refuses).
    private static func sweep(_ base: String) {
        guard case .success(let entries) = SystemCalls.directoryEntries(base) else { return }
        for entry in entries where entry.isDirectory && entry.name.hasPrefix("hud-") {
            let fields = entry.name.split(separator: "-")
            guard fields.count == 3, let owner = Int32(fields[1]), owner != SystemCalls.processID,
                  kill(owner, 0) != 0, errno == ESRCH else { continue }
            _ = SystemCalls.removeDirectory(base + "/" + entry.name)
        }
    }
}
