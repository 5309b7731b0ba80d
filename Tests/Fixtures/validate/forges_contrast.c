/* SPDX-License-Identifier: MIT */
/*
 * forges_contrast.c — Slot icons drawn in the background colour (accent)
 * or a hairline colour (the rest), and init(), inside a `validate` child,
 * claims a11y-contrast passed on descriptor 3. Caught by: a11y-contrast,
 * judged by the host from its own layouts through a renderer host, with
 * the rule the child applies.
 */
#define VB_ID "org.fixture.validate.forges-contrast"
#define VB_NAME "Forges contrast"
#define FORGED_CHECK "a11y-contrast"
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#define VB_ICON_COLOR(palette, role) ((role) == HUD_ROLE_ACCENT ? (palette)->bg : (palette)->hairline_standard)
#include "validate_base.h"
