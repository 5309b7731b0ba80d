/* SPDX-License-Identifier: MIT */
/*
 * calls_action.c — layout() calls the center slot's action. Caught by: output-no-action-calls.
 */
#define VB_ID "org.fixture.validate.calls-action"
#define VB_NAME "Calls an action in layout"
#define VB_LAYOUT_PROLOGUE if (complications->slots[HUD_POSITION_CENTER] != NULL) complications->slots[HUD_POSITION_CENTER]->action();
#include "validate_base.h"
