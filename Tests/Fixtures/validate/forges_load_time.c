/* SPDX-License-Identifier: MIT */
/*
 * forges_load_time.c — the first init() of a process sleeps 400 ms (over
 * the 250 ms load-time budget), and init(), inside a `validate` child,
 * claims abi-load-time passed on descriptor 3. Caught by: abi-load-time (a
 * warning), judged by the host from the start of its renderer host it
 * observed itself.
 */
#define _POSIX_C_SOURCE 199309L
#include <time.h>
#define VB_ID "org.fixture.validate.forges-load-time"
#define VB_NAME "Forges the load time"
#define FORGED_CHECK "abi-load-time"
#define FORGED_PLUGIN
#include "forge_verdict.h"
static int vb_slept;
static void vb_slow_init(void) {
    forge_verdict();
    if (vb_slept) return;
    vb_slept = 1;
    struct timespec pause = {0, 400 * 1000 * 1000};
    nanosleep(&pause, NULL);
}
#define VB_INIT_BODY vb_slow_init();
#include "validate_base.h"
