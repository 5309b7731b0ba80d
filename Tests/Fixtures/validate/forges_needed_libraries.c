/* SPDX-License-Identifier: MIT */
/*
 * forges_needed_libraries.c — undeclared_libm.c's sin() without -lm, and
 * init(), inside a `validate` child, claims abi-needed-libraries passed on
 * descriptor 3. Caught by: abi-needed-libraries, judged by the host from
 * the file's undefined symbols, which it reads itself, looked up in the
 * plugin's link scope by its renderer host.
 */
#include <math.h>
#define VB_ID "org.fixture.validate.forges-needed-libraries"
#define VB_NAME "Forges needed libraries"
#define FORGED_CHECK "abi-needed-libraries"
#define FORGED_PLUGIN
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
static volatile double vb_angle = 0;
#define VB_LAYOUT_PROLOGUE if (sin(vb_angle) != 0) return HUD_STATUS_INTERNAL_ERROR;
#include "validate_base.h"
