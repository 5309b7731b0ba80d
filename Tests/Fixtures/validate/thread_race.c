/* SPDX-License-Identifier: MIT */
/*
 * thread_race.c — Declares HUD_CAPABILITY_THREAD_SAFE but builds each node in one static scratch node. Caught by: thread-safety.
 */
#define VB_ID "org.fixture.validate.race"
#define VB_NAME "Races"
#include "hud_renderer.h"
static hud_node_t vb_scratch;
#define VB_PUSH(layout, node) do { vb_scratch = *(node); for (volatile int vb_spin = 0; vb_spin < 20000; vb_spin++) {} hud_layout_push_node((layout), &vb_scratch); } while (0)
#include "validate_base.h"
