/* SPDX-License-Identifier: MIT */
// libseccomp for Swift: seccomp_rule_add is variadic, which Swift cannot
// call, so the rules the sandbox needs are built here. Every symbol carries
// the hud_seccomp_ prefix. The host builds a child's filter with libseccomp
// and exports it as BPF (hud_seccomp_export); the sandboxed child installs
// that program with one system call (hud_seccomp_install_program), so no
// child maps libseccomp, probes the kernel or compiles rules.
#ifndef HUD_CSECCOMP_SHIM_H
#define HUD_CSECCOMP_SHIM_H
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <seccomp.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>

// A new filter whose unmatched calls get `fallback`, compiled as a binary
// tree of system call numbers (libseccomp >= 2.5): the kernel then runs
// a few comparisons per call instead of one per rule. A libseccomp that
// cannot optimise still builds the same filter, in rule order.
static inline scmp_filter_ctx hud_seccomp_new(uint32_t fallback) {
    scmp_filter_ctx ctx = seccomp_init(fallback);
    if (ctx != NULL) (void)seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
    return ctx;
}

// A filter that allows everything not ruled otherwise.
static inline scmp_filter_ctx hud_seccomp_allow_by_default(void) { return hud_seccomp_new(SCMP_ACT_ALLOW); }

// `name` fails with EPERM. Returns 0, or a negative errno (also for a name
// this architecture does not have, which callers may ignore).
static inline int hud_seccomp_deny(scmp_filter_ctx ctx, const char *name) {
    int number = seccomp_syscall_resolve_name(name);
    if (number == __NR_SCMP_ERROR) return -ENOENT;
    return seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), number, 0, NULL);
}

// `name` fails with EPERM unless its argument `index` equals `value`.
static inline int hud_seccomp_deny_unless_arg(scmp_filter_ctx ctx, const char *name, unsigned int index, scmp_datum_t value) {
    int number = seccomp_syscall_resolve_name(name);
    if (number == __NR_SCMP_ERROR) return -ENOENT;
    struct scmp_arg_cmp compare = {index, SCMP_CMP_NE, value, 0};
    return seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), number, 1, &compare);
}

// `name` fails with EPERM unless its argument `index` has one of the bits of
// `mask` set (clone without CLONE_THREAD: a new process, not a thread).
static inline int hud_seccomp_deny_unless_bits(scmp_filter_ctx ctx, const char *name, unsigned int index, scmp_datum_t mask) {
    int number = seccomp_syscall_resolve_name(name);
    if (number == __NR_SCMP_ERROR) return -ENOENT;
    struct scmp_arg_cmp compare = {index, SCMP_CMP_MASKED_EQ, mask, 0};
    return seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), number, 1, &compare);
}

// `name` fails with ENOSYS, as if the kernel lacked it (clone3, whose
// flags live in memory a filter cannot read: glibc then falls back to clone).
static inline int hud_seccomp_unsupported(scmp_filter_ctx ctx, const char *name) {
    int number = seccomp_syscall_resolve_name(name);
    if (number == __NR_SCMP_ERROR) return -ENOENT;
    return seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(ENOSYS), number, 0, NULL);
}

// A filter that answers ENOSYS to every system call not allowed by a rule.
static inline scmp_filter_ctx hud_seccomp_deny_by_default(void) { return hud_seccomp_new(SCMP_ACT_ERRNO(ENOSYS)); }

// Allows `name`: always (`index` < 0), or when argument `index` equals
// `value`, or (`masked`) when it has every bit of `value` set.
static inline int hud_seccomp_allow(scmp_filter_ctx ctx, const char *name, int index, scmp_datum_t value, int masked) {
    int number = seccomp_syscall_resolve_name(name);
    if (number == __NR_SCMP_ERROR) return -ENOENT;
    if (index < 0) return seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, number, 0, NULL);
    struct scmp_arg_cmp compare = {(unsigned int)index, masked ? SCMP_CMP_MASKED_EQ : SCMP_CMP_EQ, value, value};
    if (!masked) compare.datum_b = 0;
    return seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, number, 1, &compare);
}

// Writes the filter as a BPF program (struct sock_filter array, this
// machine's byte order) to `fd`. Returns 0 or a negative errno.
static inline int hud_seccomp_export(scmp_filter_ctx ctx, int fd) { return seccomp_export_bpf(ctx, fd); }

// Installs a BPF program of `length` bytes (a whole number of struct
// sock_filter, as hud_seccomp_export wrote it) on the calling thread, after
// PR_SET_NO_NEW_PRIVS (as seccomp_load does). Returns 0 or a negative errno.
static inline int hud_seccomp_install_program(const void *program, size_t length) {
    if (length == 0 || length % sizeof(struct sock_filter) != 0 || length / sizeof(struct sock_filter) > BPF_MAXINSNS) return -EINVAL;
    struct sock_fprog fprog = {(unsigned short)(length / sizeof(struct sock_filter)), (struct sock_filter *)(uintptr_t)program};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -errno;
    // prctl(PR_SET_SECCOMP) is seccomp(SECCOMP_SET_MODE_FILTER, 0, ...).
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) != 0) return -errno;
    return 0;
}
static inline void hud_seccomp_release(scmp_filter_ctx ctx) { seccomp_release(ctx); }

#endif
