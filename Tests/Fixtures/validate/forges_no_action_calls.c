/* SPDX-License-Identifier: MIT */
/*
 * forges_no_action_calls.c — layout() calls the center slot's action, and
 * init(), inside a `validate` child, claims output-no-action-calls passed
 * on descriptor 3. Caught by: output-no-action-calls, judged by the host
 * from its renderer host's exit status: during the host's prepared calls
 * an action ends that child at once (exit_group), which no plugin code
 * can take back.
 */
#define VB_ID "org.fixture.validate.forges-no-action-calls"
#define VB_NAME "Forges no action calls"
#define FORGED_CHECK "output-no-action-calls"
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#define VB_LAYOUT_PROLOGUE if (complications->slots[HUD_POSITION_CENTER] != NULL) complications->slots[HUD_POSITION_CENTER]->action();
#include "validate_base.h"
