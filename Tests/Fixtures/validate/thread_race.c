/* SPDX-License-Identifier: MIT */
/*
 * thread_race.c — Declares HUD_CAPABILITY_THREAD_SAFE but passes each node's
 * frame through one static scratch rect, so concurrent calls swap frames.
 * Caught by: thread-safety. Only plain doubles race (the node's strings stay
 * the call's own): a torn pointer would crash the renderer host, and the
 * check is for wrong results, not for a crash (which validate also reports).
 */
#define VB_ID "org.fixture.validate.race"
#define VB_NAME "Races"
#include "hud_renderer.h"
static hud_rect_t vb_scratch;
#define VB_PUSH(layout, node) do { vb_scratch = (node)->frame; for (volatile int vb_spin = 0; vb_spin < 20000; vb_spin++) {} (node)->frame = vb_scratch; hud_layout_push_node((layout), (node)); } while (0)
#include "validate_base.h"
