/* SPDX-License-Identifier: MIT */
/*
 * forges_allocations.c — Leaks 4 KiB (written, never freed) in every
 * layout call; init(), inside a `validate` child, claims perf-allocations
 * passed on descriptor 3. Caught by: perf-allocations (a warning), judged
 * by the host from its renderer host's data size over many warm calls.
 */
#include <stdlib.h>
#include <string.h>
#define VB_ID "org.fixture.validate.forges-allocations"
#define VB_NAME "Forges allocations"
#define FORGED_CHECK "perf-allocations"
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
static void *volatile vb_leaked;
static void vb_leak(void) {
    void *block = malloc(4096);
    if (block != NULL) memset(block, 0x5A, 4096);
    vb_leaked = block;
}
#define VB_LAYOUT_PROLOGUE vb_leak();
#include "validate_base.h"
