/* SPDX-License-Identifier: MIT */
/*
 * tiny_hit_target.c — Slots have a 30x30 visual and hit region. Caught by: geometry-hit-size.
 */
#define VB_ID "org.fixture.validate.tiny-hit"
#define VB_NAME "Tiny hit targets"
#define VB_ADJUST_NODE(node) do { if ((node)->kind == HUD_NODE_KIND_SLOT) { (node)->frame.x += 9; (node)->frame.y += 9; (node)->frame.width = 30; (node)->frame.height = 30; (node)->hit = (node)->frame; } } while (0)
#include "validate_base.h"
