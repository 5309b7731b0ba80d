/* SPDX-License-Identifier: MIT */
/*
 * forges_thread_safety.c — Declares HUD_CAPABILITY_THREAD_SAFE but copies
 * every node through one static scratch node (as thread_race.c); init(),
 * inside a `validate` child, claims thread-safety passed on descriptor 3.
 * Caught by: thread-safety, judged by the host from concurrent calls its
 * renderer host makes into separate slots of the shared region, each slot
 * decoded by the host and compared with the serial layout.
 */
#define VB_ID "org.fixture.validate.forges-thread-safety"
#define VB_NAME "Forges thread safety"
#define FORGED_CHECK "thread-safety"
#include "hud_renderer.h"
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
static hud_node_t vb_shared_node;
#define VB_PUSH(layout, node) do { \
        vb_shared_node = *(node); \
        for (volatile int vb_delay = 0; vb_delay < 20000; vb_delay++) {} \
        hud_layout_push_node((layout), &vb_shared_node); \
    } while (0)
#include "validate_base.h"
