/* SPDX-License-Identifier: MIT */
/*
 * The hot path's C helper (HudPluginBoundary only): what Swift cannot say as
 * cheaply, the layout call's guard. Every symbol carries the hud_hot_
 * prefix.
 */
#ifndef HUD_HOT_H
#define HUD_HOT_H

#include <stddef.h>
#include <stdint.h>

#include "hud_renderer.h"

/*
 * The action-during-layout guard's per-thread counters: how many layout
 * calls are on this thread's stack, and how many actions were attempted
 * under them. A C11 _Thread_local (zero in every new thread, nothing to
 * free at thread exit), so arming and disarming the guard is a
 * thread-pointer-relative access instead of pthread_getspecific behind a
 * lazily made key.
 */
typedef struct hud_hot_layout_guard {
    intptr_t depth;
    intptr_t violations;
} hud_hot_layout_guard_t;

/* Defined in hot.c. Initial-exec: the address is one offset from the
 * thread pointer, no __tls_get_addr call (the target is linked into
 * executables, or a library loaded with them; 16 bytes of static TLS). */
extern _Thread_local hud_hot_layout_guard_t hud_hot_guard_state __attribute__((tls_model("initial-exec")));

/* This thread's counters. */
static inline hud_hot_layout_guard_t *hud_hot_layout_guard(void) { return &hud_hot_guard_state; }

#endif
