/* SPDX-License-Identifier: MIT */
/*
 * forges_robust_modes.c — layout() returns HUD_STATUS_INTERNAL_ERROR when
 * a slot carries HUD_MAX_MODES modes (a valid input), and init(), inside a
 * `validate` child, claims robust-modes passed on descriptor 3. Caught by:
 * robust-modes, judged by the host from its own layouts through a
 * renderer host, with the rule the child applies.
 */
#define VB_ID "org.fixture.validate.forges-robust-modes"
#define VB_NAME "Forges robust modes"
#define FORGED_CHECK "robust-modes"
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#define VB_LAYOUT_PROLOGUE \
    for (int vb_position = 0; vb_position < HUD_POSITION_COUNT; vb_position++) \
        if (complications->slots[vb_position] != NULL && complications->slots[vb_position]->mode_count == HUD_MAX_MODES) \
            return HUD_STATUS_INTERNAL_ERROR;
#include "validate_base.h"
