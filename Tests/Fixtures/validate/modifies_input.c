/* SPDX-License-Identifier: MIT */
/*
 * modifies_input.c — layout() increments complications->reserved. Caught by: output-inputs-unchanged.
 */
#define VB_ID "org.fixture.validate.modifies-input"
#define VB_NAME "Modifies its input"
#define VB_LAYOUT_PROLOGUE ((hud_complications_t *)complications)->reserved++;
#include "validate_base.h"
