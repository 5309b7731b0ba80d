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

// A filter that answers ENOSYS to every system call not allowed by a rule.
static inline scmp_filter_ctx hud_seccomp_deny_by_default(void) { return hud_seccomp_new(SCMP_ACT_ERRNO(ENOSYS)); }

// One rule: `name` gets `action` (SCMP_ACT_ALLOW, or an errno action from
// hud_seccomp_errno) when every one of its `count` (at most 6) argument
// comparisons holds: argument `indexes[i]`, compared by `ops[i]` (an
// enum scmp_compare value: SCMP_CMP_NE 1, SCMP_CMP_EQ 4,
// SCMP_CMP_MASKED_EQ 7) with `values[i]` (for SCMP_CMP_MASKED_EQ: the
// argument masked with `masks[i]` equals `values[i]`). libseccomp joins
// several rules for one call with "or". Returns 0 or a negative errno
// (-ENOENT for a name this architecture lacks).
static inline int hud_seccomp_rule(scmp_filter_ctx ctx, uint32_t action, const char *name, unsigned int count,
                                   const uint32_t *indexes, const uint32_t *ops, const uint64_t *masks, const uint64_t *values) {
    int number = seccomp_syscall_resolve_name(name);
    if (number == __NR_SCMP_ERROR) return -ENOENT;
    if (count > 6) return -EINVAL;
    struct scmp_arg_cmp compares[6];
    for (unsigned int i = 0; i < count; i++) {
        compares[i].arg = indexes[i];
        compares[i].op = (enum scmp_compare)ops[i];
        if (ops[i] == SCMP_CMP_MASKED_EQ) {
            compares[i].datum_a = masks[i];
            compares[i].datum_b = values[i];
        } else {
            compares[i].datum_a = values[i];
            compares[i].datum_b = 0;
        }
    }
    return seccomp_rule_add_array(ctx, action, number, count, compares);
}

// The actions hud_seccomp_rule takes.
static inline uint32_t hud_seccomp_allow_action(void) { return SCMP_ACT_ALLOW; }
static inline uint32_t hud_seccomp_errno(int code) { return SCMP_ACT_ERRNO((uint32_t)code); }

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
