/* SPDX-License-Identifier: MIT */
/*
 * missing_entry.c — Exports no hud_renderer_get_entry. Caught by: abi-entry-symbol.
 */
#define VB_ID "org.fixture.validate.no-entry"
#define VB_NAME "Missing entry"
#define VB_NO_ENTRY 1
#include "validate_base.h"
