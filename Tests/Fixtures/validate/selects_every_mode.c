/* SPDX-License-Identifier: MIT */
/*
 * selects_every_mode.c — Marks every mode item HUD_NODE_FLAG_SELECTED, not
 * only the current mode's. Caught by: output-current-mode (ABI 1.2).
 */
#define VB_ID "org.fixture.validate.selects-every-mode"
#define VB_NAME "Selects every mode"
#define VB_ADJUST_NODE(node) do { if ((node)->kind == HUD_NODE_KIND_MODE_ITEM) (node)->flags |= HUD_NODE_FLAG_SELECTED; } while (0)
#include "validate_base.h"
