/* SPDX-License-Identifier: MIT */
/*
 * The hot paths' C helpers (HudUnsafe only): what Swift cannot say as
 * cheaply: the layout call's guard (below) and the registry cache
 * reader's scanning (the end of this file). Every symbol carries the
 * hud_hot_ prefix.
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

/*
 * Byte scanning for the registry cache reader (HudUnsafe's ByteScan; the
 * warm `hudhost list` reads the whole cache every run), over the bytes
 * [from, count) of `bytes`; `from` <= `count`.
 *
 * hud_hot_plain_run: the index of the first byte that is a quote, a
 * backslash or below 0x20 (`count` when none is): the run of a JSON
 * string that needs no decoding. Sixteen bytes a step (SSE2).
 */
size_t hud_hot_plain_run(const uint8_t *bytes, size_t count, size_t from);

/*
 * hud_hot_decimal: the ASCII decimal digits from `from`: their value in
 * *value and the index after the last in *end (`from` when there is no
 * digit). Returns 0, or 1 when the value does not fit 64 bits (then
 * neither output is written).
 */
int hud_hot_decimal(const uint8_t *bytes, size_t count, size_t from, uint64_t *value, size_t *end);

/*
 * hud_hot_occurrences: how many times the `token_count` bytes of `token`
 * (at least one) occur in the `count` bytes of `bytes`, without
 * overlapping, from one end to the other.
 */
size_t hud_hot_occurrences(const uint8_t *bytes, size_t count, const uint8_t *token, size_t token_count);

#endif
