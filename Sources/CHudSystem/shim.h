/* SPDX-License-Identifier: MIT */
// Small Linux shims the Glibc module does not expose to Swift.
// Every symbol carries the hud_system_ prefix.
#ifndef HUD_SYSTEM_SHIM_H
#define HUD_SYSTEM_SHIM_H
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <malloc.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <unistd.h>

// secure_getenv(3) semantics without _GNU_SOURCE: NULL when the process runs
// with elevated privileges (setuid, setgid, file capabilities: AT_SECURE).
static inline const char *hud_system_secure_getenv(const char *name) {
    return getauxval(AT_SECURE) ? NULL : getenv(name);
}

// True when the kernel marked this process as running elevated.
static inline int hud_system_is_elevated(void) { return getauxval(AT_SECURE) != 0; }

// The standard streams. Swift 6 rejects the glibc globals `stdout`/`stderr`
// as shared mutable state; these accessors only read the pointers, which
// never change after start-up.
static inline FILE *hud_system_stdout(void) { return stdout; }
static inline FILE *hud_system_stderr(void) { return stderr; }

// Bytes the process currently holds from malloc (arenas plus mmapped
// chunks), for the conformance suite's leak check (mallinfo2 is not
// exposed by the Glibc module).
static inline size_t hud_system_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

// --- Sandbox layers (the child applies them to itself before any plugin
// code runs). Constants are the kernel's stable ABI, spelled out because the
// distribution's headers may predate the features the kernel has.

// PR_SET_NO_NEW_PRIVS: no execve can ever gain privileges again.
static inline int hud_system_no_new_privs(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); }

// close_range(first, ~0U, 0): closes every descriptor from `first` up.
static inline int hud_system_close_from(unsigned int first) { return (int)syscall(SYS_close_range, first, ~0U, 0); }

// posix_spawn_file_actions_addclosefrom_np (glibc 2.34): closes every
// descriptor from `first` up in the child; spawn.h declares it only with
// _GNU_SOURCE.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int first);
static inline int hud_system_spawn_close_from(posix_spawn_file_actions_t *actions, int first) {
    return posix_spawn_file_actions_addclosefrom_np(actions, first);
}

// unshare(2) with CLONE_NEW* flags (sched.h hides them without _GNU_SOURCE).
#define HUD_CLONE_NEWIPC 0x08000000
#define HUD_CLONE_NEWUTS 0x04000000
#define HUD_CLONE_NEWUSER 0x10000000
#define HUD_CLONE_NEWNET 0x40000000
#define HUD_CLONE_NEWNS 0x00020000
static inline int hud_system_unshare(int flags) { return (int)syscall(SYS_unshare, flags); }

// In a new mount namespace: every mount private (MS_REC | MS_PRIVATE), so
// nothing propagates to or from the host's.
static inline int hud_system_private_mounts(void) {
    return (int)syscall(SYS_mount, "none", "/", (const char *)0, 16384UL | (1UL << 18), (const void *)0);
}

// Every mount of this (private) mount namespace read-only and nosuid
// (mount_setattr(2) with AT_RECURSIVE, Linux 5.12): nothing under them can
// change, modes, owners and timestamps included, whatever else holds.
// Device files stay usable (/dev/null is written through its driver).
// Returns 0 or -1 with errno.
struct hud_mount_attr { uint64_t attr_set, attr_clr, propagation, userns_fd; };
#define HUD_MOUNT_ATTR_RDONLY 0x00000001ULL
#define HUD_MOUNT_ATTR_NOSUID 0x00000002ULL
#define HUD_AT_RECURSIVE 0x8000
#define HUD_AT_FDCWD (-100)
static inline int hud_system_readonly_mounts(void) {
    struct hud_mount_attr attr = {HUD_MOUNT_ATTR_RDONLY | HUD_MOUNT_ATTR_NOSUID, 0, 0, 0};
    return (int)syscall(442 /* mount_setattr, the same number on every architecture */, HUD_AT_FDCWD, "/", HUD_AT_RECURSIVE, &attr, sizeof attr);
}

// `path` writable again inside the read-only view: bound onto itself (a
// mount of its own), then read-only cleared on that mount and those under it.
static inline int hud_system_writable_again(const char *path) {
    if (syscall(SYS_mount, path, path, (const char *)0, 4096UL /* MS_BIND */ | 16384UL /* MS_REC */, (const void *)0) != 0) return -1;
    struct hud_mount_attr attr = {0, HUD_MOUNT_ATTR_RDONLY, 0, 0};
    return (int)syscall(442, HUD_AT_FDCWD, path, HUD_AT_RECURSIVE, &attr, sizeof attr);
}

// A private tmpfs at `path` (MS_NOSUID | MS_NODEV | MS_NOEXEC, 16 MiB, mode
// 0700): the sandboxed child's scratch directory, gone when it exits.
static inline int hud_system_mount_scratch(const char *path) {
    return (int)syscall(SYS_mount, "tmpfs", path, "tmpfs", 2UL | 4UL | 8UL, "size=16m,mode=0700");
}

// Landlock (syscalls 444-446 on every architecture since Linux 5.13).
#define HUD_LANDLOCK_ACCESS_FS_WRITE_FILE (1ULL << 1)
#define HUD_LANDLOCK_ACCESS_FS_REMOVE_DIR (1ULL << 4)
#define HUD_LANDLOCK_ACCESS_FS_REMOVE_FILE (1ULL << 5)
#define HUD_LANDLOCK_ACCESS_FS_MAKE_CHAR (1ULL << 6)
#define HUD_LANDLOCK_ACCESS_FS_MAKE_DIR (1ULL << 7)
#define HUD_LANDLOCK_ACCESS_FS_MAKE_REG (1ULL << 8)
#define HUD_LANDLOCK_ACCESS_FS_MAKE_SOCK (1ULL << 9)
#define HUD_LANDLOCK_ACCESS_FS_MAKE_FIFO (1ULL << 10)
#define HUD_LANDLOCK_ACCESS_FS_MAKE_BLOCK (1ULL << 11)
#define HUD_LANDLOCK_ACCESS_FS_MAKE_SYM (1ULL << 12)
#define HUD_LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#define HUD_LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#define HUD_LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0)
#define HUD_LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#define HUD_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define HUD_LANDLOCK_SCOPE_SIGNAL (1ULL << 1)

struct hud_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

// The Landlock ABI version the kernel speaks (0 or less: none).
static inline int hud_system_landlock_abi(void) { return (int)syscall(444, (void *)0, (size_t)0, 1U); }

// A ruleset handling these accesses; `size` selects how many fields the kernel reads.
static inline int hud_system_landlock_create(uint64_t fs, uint64_t net, uint64_t scoped, size_t size) {
    struct hud_landlock_ruleset_attr attr = {fs, net, scoped};
    return (int)syscall(444, &attr, size, 0U);
}

// Allows `access` beneath the directory or file open as `fd`.
static inline int hud_system_landlock_allow_path(int ruleset, uint64_t access, int fd) {
    struct __attribute__((packed)) { uint64_t allowed_access; int32_t parent_fd; } attr = {access, fd};
    return (int)syscall(445, ruleset, 1 /* LANDLOCK_RULE_PATH_BENEATH */, &attr, 0U);
}

static inline int hud_system_landlock_restrict(int ruleset) { return (int)syscall(446, ruleset, 0U); }

// --- The out-of-process renderer host: one sealed memfd shared with the
// child, and a socketpair for wake-ups.
#include <sys/socket.h>

// memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING).
static inline int hud_system_memfd(const char *name) { return (int)syscall(SYS_memfd_create, name, 0x0001U | 0x0002U); }

// F_ADD_SEALS with F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL: the size is
// fixed for good, so neither side can truncate the file under the other's
// mapping (a SIGBUS in the host) or grow it.
static inline int hud_system_seal_size(int fd) { return (int)syscall(SYS_fcntl, fd, 1033 /* F_ADD_SEALS */, 0x0002 | 0x0004 | 0x0001); }

// The seals in force (F_GET_SEALS).
static inline int hud_system_seals(int fd) { return (int)syscall(SYS_fcntl, fd, 1034 /* F_GET_SEALS */); }

// socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC).
static inline int hud_system_socketpair(int fds[2]) { return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds); }

// pidfd_open(pid, 0): a descriptor that polls readable once the process has
// exited (Linux 5.3), so a parent can wait for a child with poll, no sleep.
static inline int hud_system_pidfd_open(int pid) { return (int)syscall(434 /* SYS_pidfd_open */, pid, 0U); }

// PR_SET_PDEATHSIG: this process gets `signal` when its parent thread exits.
static inline int hud_system_parent_death_signal(int signal) { return prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0); }

#endif
