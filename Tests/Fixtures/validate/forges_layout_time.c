/* SPDX-License-Identifier: MIT */
/*
 * forges_layout_time.c — In a renderer host (`hudsandbox serve`), where a
 * real host runs it, spins for 4 ms in every layout with the center's
 * modes revealed (one of the two inputs perf-layout-time times, so the
 * median is over budget); in a `validate` child it is fast, and init()
 * claims perf-layout-time passed on descriptor 3. Caught by:
 * perf-layout-time (a warning), judged by the host from its own timing of
 * round trips.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#define VB_ID "org.fixture.validate.forges-layout-time"
#define VB_NAME "Forges layout time"
#define FORGED_CHECK "perf-layout-time"
#include "forge_verdict.h"
static int vb_served;
#define VB_INIT_BODY forge_verdict(); vb_served = forge_in_child("serve");
static void vb_spin(void) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < 4000000L);
}
#define VB_LAYOUT_PROLOGUE if (vb_served && ui->revealed_position == HUD_POSITION_CENTER) vb_spin();
#include "validate_base.h"
