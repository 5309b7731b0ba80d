// SPDX-License-Identifier: MIT
import CHudSystem
import CSeccomp
import Glibc

// The libc layer (SystemCalls.swift): the sandbox layers a child applies
// to itself, and inotify for the preview's live reload.

// MARK: - Sandbox layers (a child applies them to itself, in this order,
// before any plugin code runs; each is inherited by everything it starts)

extension SystemCalls {
    /// `PR_SET_NO_NEW_PRIVS`: no later `execve` can gain privileges
    /// (setuid bits, file capabilities); required for unprivileged Landlock
    /// and seccomp.
    package static func setNoNewPrivileges() -> Result<Void, SystemError> {
        hud_system_no_new_privs() == 0 ? .success(()) : .failure(.current)
    }

    /// `close_range(first, ~0U, 0)`: every descriptor from `first` up.
    package static func closeDescriptors(from first: Int32) -> Result<Void, SystemError> {
        hud_system_close_from(UInt32(first)) == 0 ? .success(()) : .failure(.current)
    }

    /// New user, network, IPC and UTS namespaces for this process. The user
    /// namespace maps only this process's own uid and gid to themselves (no
    /// privilege is gained); the network namespace has no interface but a
    /// downed loopback, so no connection leaves it.
    /// Returns the private scratch directory (a tmpfs mounted at
    /// `scratch` in the new mount namespace), or nil if it could not be
    /// mounted (the namespaces still hold).
    package static func enterNamespaces(scratch: String) -> Result<String?, SystemError> {
        let uid = geteuid(), gid = getegid()
        let flags = HUD_CLONE_NEWUSER | HUD_CLONE_NEWNET | HUD_CLONE_NEWIPC | HUD_CLONE_NEWUTS | HUD_CLONE_NEWNS
        guard hud_system_unshare(Int32(flags)) == 0 else { return .failure(.current) }
        for (file, text) in [("/proc/self/setgroups", "deny"), ("/proc/self/uid_map", "\(uid) \(uid) 1"), ("/proc/self/gid_map", "\(gid) \(gid) 1")] {
            let fd = unsafe open(file, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return .failure(.current) }
            let written = writeAll(fd, text)
            let error = SystemError.current
            close(fd)
            guard written else { return .failure(error) }
        }
        guard hud_system_private_mounts() == 0 else { return .failure(.current) }
        return unsafe .success(hud_system_mount_scratch(scratch) == 0 ? scratch : nil)
    }

    /// In this process's own mount namespace (`enterNamespaces`): every
    /// mount read-only and nosuid, but `writable` (each made a mount of its
    /// own). Fails on kernels before 5.12 (no `mount_setattr`).
    package static func makeMountsReadOnly(except writable: [String]) -> Result<Void, SystemError> {
        guard hud_system_readonly_mounts() == 0 else { return .failure(.current) }
        for path in writable where unsafe hud_system_writable_again(path) != 0 {
            return .failure(.current)
        }
        return .success(())
    }

    /// The Landlock ABI version the kernel speaks (0: none).
    package static func landlockABI() -> Int { max(0, Int(hud_system_landlock_abi())) }

    /// What a Landlock restriction covered, by ABI feature.
    package struct LandlockCoverage: Sendable, Hashable {
        package var abi: Int
        package var filesystemWrites: Bool
        /// Reads (and execution) only beneath the readable paths.
        package var reads: Bool
        package var tcp: Bool
        package var scopes: Bool
    }

    /// Restricts this process (and everything it starts) with Landlock: no
    /// file may be created, written, truncated, renamed or removed anywhere
    /// except `writable` (opened for the rule now; a missing one is skipped);
    /// with ABI ≥ 4 no TCP bind or connect; with ABI ≥ 6 no signal to, and no
    /// abstract socket of, a process outside the sandbox. With `readable`,
    /// nothing may be read or executed either except beneath those paths
    /// (and the writable ones); with nil, reads stay open.
    /// Beneath each `scratch` directory everything is allowed (create,
    /// write, remove, list).
    package static func restrictWithLandlock(writable: [String], readable: [String]?, scratch: [String] = []) -> Result<LandlockCoverage, SystemError> {
        let abi = landlockABI()
        guard abi >= 1 else { return .failure(SystemError(code: ENOSYS)) }
        let execute: UInt64 = 1 << 0, readFile: UInt64 = 1 << 2, readDirectory: UInt64 = 1 << 3
        var fs = HUD_LANDLOCK_ACCESS_FS_WRITE_FILE | HUD_LANDLOCK_ACCESS_FS_REMOVE_DIR | HUD_LANDLOCK_ACCESS_FS_REMOVE_FILE
            | HUD_LANDLOCK_ACCESS_FS_MAKE_CHAR | HUD_LANDLOCK_ACCESS_FS_MAKE_DIR | HUD_LANDLOCK_ACCESS_FS_MAKE_REG
            | HUD_LANDLOCK_ACCESS_FS_MAKE_SOCK | HUD_LANDLOCK_ACCESS_FS_MAKE_FIFO | HUD_LANDLOCK_ACCESS_FS_MAKE_BLOCK
            | HUD_LANDLOCK_ACCESS_FS_MAKE_SYM
        if abi >= 2 { fs |= HUD_LANDLOCK_ACCESS_FS_REFER }
        if abi >= 3 { fs |= HUD_LANDLOCK_ACCESS_FS_TRUNCATE }
        if readable != nil { fs |= execute | readFile | readDirectory }
        let net: UInt64 = abi >= 4 ? HUD_LANDLOCK_ACCESS_NET_BIND_TCP | HUD_LANDLOCK_ACCESS_NET_CONNECT_TCP : 0
        let scoped: UInt64 = abi >= 6 ? HUD_LANDLOCK_SCOPE_SIGNAL | HUD_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET : 0
        let size = abi >= 6 ? 24 : abi >= 4 ? 16 : 8
        let ruleset = hud_system_landlock_create(UInt64(fs), net, scoped, size)
        guard ruleset >= 0 else { return .failure(.current) }
        defer { close(ruleset) }
        let fileWrites = HUD_LANDLOCK_ACCESS_FS_WRITE_FILE | (abi >= 3 ? HUD_LANDLOCK_ACCESS_FS_TRUNCATE : 0)
        let reads = readable != nil ? execute | readFile : 0
        /// Allows `access` on `path` (a file) or beneath it (a directory:
        /// plus listing it); a path that does not exist is skipped.
        func allow(_ path: String, _ access: UInt64) -> Bool {
            let fd = unsafe open(path, 0o10000000 | O_CLOEXEC)  // O_PATH (hidden without _GNU_SOURCE)
            guard fd >= 0 else { return true }
            defer { close(fd) }
            var info = stat()
            let isDirectory = unsafe fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
            let rights = isDirectory && access & readFile != 0 ? access | readDirectory : access
            return hud_system_landlock_allow_path(ruleset, rights, fd) == 0
        }
        for path in writable {
            guard allow(path, UInt64(fileWrites) | reads) else { return .failure(.current) }
        }
        for path in readable ?? [] {
            guard allow(path, reads) else { return .failure(.current) }
        }
        for path in scratch {
            guard allow(path, UInt64(fs) & ~(abi >= 2 ? HUD_LANDLOCK_ACCESS_FS_REFER : 0)) else { return .failure(.current) }
        }
        guard hud_system_landlock_restrict(ruleset) == 0 else { return .failure(.current) }
        return .success(LandlockCoverage(abi: abi, filesystemWrites: true, reads: readable != nil, tcp: net != 0, scopes: scoped != 0))
    }

    /// Writes a seccomp filter (built with libseccomp) as a BPF program to
    /// `fd`, for `installFilterProgram` in a child. Without
    /// `allowByDefault` (an allow-list) every call no rule matches fails
    /// with ENOSYS, with it (a deny-list) it passes; `allowed` rules pass, `denied`
    /// ones fail with EPERM (a clearer answer for what is forbidden on
    /// purpose). Rules naming a call this architecture lacks are skipped.
    package static func exportSyscallFilter(allowed: [SyscallRule], denied: [SyscallRule], allowByDefault: Bool,
                                            to fd: Int32) -> Result<Void, SystemError> {
        guard let filter = unsafe allowByDefault ? hud_seccomp_allow_by_default() : hud_seccomp_deny_by_default() else {
            return .failure(SystemError(code: ENOMEM))
        }
        defer { unsafe hud_seccomp_release(filter) }
        for (rules, action) in [(allowed, hud_seccomp_allow_action()), (denied, hud_seccomp_errno(EPERM))] {
            for rule in rules {
                let conditions = rule.conditions
                let status = unsafe hud_seccomp_rule(filter, action, rule.name, UInt32(conditions.count), conditions.map(\.argument),
                                              conditions.map(\.comparison.rawValue), conditions.map(\.mask), conditions.map(\.value))
                guard status == 0 || status == -ENOENT else { return .failure(SystemError(code: -status)) }
            }
        }
        return unsafe exportFilter(filter, to: fd)
    }

    /// Writes `filter` as BPF to `fd`, a pipe to a child that may already
    /// be gone (killed, or dead before it read): EPIPE then, never SIGPIPE.
    private static func exportFilter(_ filter: UnsafeMutableRawPointer, to fd: Int32) -> Result<Void, SystemError> {
        let code = withBrokenPipeContained { unsafe -hud_seccomp_export(filter, fd) }
        return code == 0 ? .success(()) : .failure(SystemError(code: code))
    }

    /// Installs a BPF program that `exportAllowList` or
    /// `exportSyscallFilter` wrote (this thread, for good; sets
    /// `PR_SET_NO_NEW_PRIVS` first, as libseccomp does).
    package static func installFilterProgram(_ program: [UInt8]) -> Result<Void, SystemError> {
        let status = unsafe program.withUnsafeBytes { unsafe hud_seccomp_install_program($0.baseAddress, $0.count) }
        return status == 0 ? .success(()) : .failure(SystemError(code: -status))
    }

    /// Everything `fd` holds up to its end of file, at most `limit` bytes
    /// (blocking reads); nil when it is not open, fails, or holds more.
    package static func readToEnd(_ fd: Int32, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        while true {
            switch read(fd, maximum: 16 << 10) {
            case .bytes(let chunk):
                bytes += chunk
                if bytes.count > limit { return nil }
            case .endOfFile: return bytes
            case .wouldBlock, .failed: return nil
            }
        }
    }

    package static var processID: Int32 { getpid() }
}

/// One rule of a seccomp filter: a system call, by name, and the
/// conditions on its arguments that must all hold for the rule to apply
/// (none: always).
package struct SyscallRule: Sendable {
    package var name: String
    package var conditions: [SyscallCondition]

    package init(_ name: String, _ conditions: [SyscallCondition] = []) {
        self.name = name
        self.conditions = conditions
    }
}

/// A condition on one argument of a system call (a 64-bit register value).
package struct SyscallCondition: Sendable {
    /// libseccomp's `enum scmp_compare`.
    package enum Comparison: UInt32, Sendable { case notEqual = 1, equal = 4, maskedEqual = 7 }
    package var argument: UInt32
    package var comparison: Comparison
    package var mask: UInt64
    package var value: UInt64

    /// Argument `argument` is `value`.
    package static func equals(_ argument: UInt32, _ value: UInt64) -> Self { Self(argument: argument, comparison: .equal, mask: 0, value: value) }
    /// Argument `argument` is not `value`.
    package static func differs(_ argument: UInt32, _ value: UInt64) -> Self { Self(argument: argument, comparison: .notEqual, mask: 0, value: value) }
    /// Argument `argument` has none of the bits of `bits`.
    package static func lacks(_ argument: UInt32, _ bits: UInt64) -> Self { Self(argument: argument, comparison: .maskedEqual, mask: bits, value: 0) }
    /// Argument `argument` has every bit of `bits`.
    package static func has(_ argument: UInt32, _ bits: UInt64) -> Self { Self(argument: argument, comparison: .maskedEqual, mask: bits, value: bits) }
}


// MARK: - inotify (hudhost preview's live reload)

/// One inotify event: the watch it came from, what happened, and the
/// entry's name within a watched directory ("" for the directory itself).
package struct FileChangeEvent: Sendable, Hashable {
    package var watch: Int32
    package var mask: UInt32
    package var name: String
}

extension SystemCalls {
    /// Events that mean "a file in this directory now has new contents":
    /// written and closed, moved in (an atomic replace), created, deleted.
    package static let fileReplacedMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ATTRIB)

    /// A non-blocking, close-on-exec inotify descriptor.
    package static func makeFileWatcher() -> Result<Int32, SystemError> {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        return fd >= 0 ? .success(fd) : .failure(.current)
    }

    /// Watches `path` (a directory) for `mask`; returns the watch number.
    package static func watch(_ fd: Int32, path: String, mask: UInt32) -> Result<Int32, SystemError> {
        let watch = unsafe inotify_add_watch(fd, path, mask)
        return watch >= 0 ? .success(watch) : .failure(.current)
    }

    /// Every event waiting on the inotify descriptor `fd` (none when it
    /// would block). The kernel's records are decoded here: a fixed header
    /// (`struct inotify_event`) then `len` bytes of NUL-padded name.
    package static func readFileChanges(_ fd: Int32) -> [FileChangeEvent] {
        var events: [FileChangeEvent] = []
        let headerSize = MemoryLayout<inotify_event>.size
        while case .bytes(let bytes) = read(fd, maximum: 64 * 1024) {
            var offset = 0
            while offset + headerSize <= bytes.count {
                let header = unsafe bytes.withUnsafeBytes { raw in unsafe raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let nameStart = offset + headerSize
                let nameEnd = min(bytes.count, nameStart + Int(header.len))
                let nameBytes = bytes[nameStart..<nameEnd].prefix { $0 != 0 }
                events.append(FileChangeEvent(watch: header.wd, mask: header.mask, name: String(decoding: nameBytes, as: UTF8.self)))
                offset = nameEnd
            }
        }
        return events
    }
}
