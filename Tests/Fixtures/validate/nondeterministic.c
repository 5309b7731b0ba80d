/* SPDX-License-Identifier: MIT */
/*
 * nondeterministic.c — Every other call shifts every node 0.25 pt right (a call counter). Caught by: determinism-repeat.
 */
#define VB_ID "org.fixture.validate.nondeterministic"
#define VB_NAME "Non-deterministic"
static unsigned vb_calls;
#define VB_LAYOUT_PROLOGUE vb_calls++;
#define VB_ADJUST_NODE(node) do { if (vb_calls & 1u) { (node)->frame.x += 0.25; if ((node)->flags & HUD_NODE_FLAG_INTERACTIVE) (node)->hit.x += 0.25; } } while (0)
#include "validate_base.h"
