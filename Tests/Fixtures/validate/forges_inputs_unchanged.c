/* SPDX-License-Identifier: MIT */
/*
 * forges_inputs_unchanged.c — layout() increments complications->reserved,
 * and init(), inside a `validate` child, claims output-inputs-unchanged
 * passed on descriptor 3. Caught by: output-inputs-unchanged, judged by the
 * host from the bytes of the call's C inputs, which its renderer host
 * builds in the shared region and the host copies before the call and
 * compares after.
 */
#define VB_ID "org.fixture.validate.forges-inputs-unchanged"
#define VB_NAME "Forges unchanged inputs"
#define FORGED_CHECK "output-inputs-unchanged"
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#define VB_LAYOUT_PROLOGUE ((hud_complications_t *)complications)->reserved++;
#include "validate_base.h"
