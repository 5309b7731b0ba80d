/* SPDX-License-Identifier: MIT */
/*
 * forges_off_screen.c — bottom_off_screen.c's layout (the bottom half
 * pushed 120 pt down, through the home-indicator band, every number
 * finite), and init(), inside a `validate` child, claims geometry-finite
 * passed on descriptor 3. Caught by: geometry-finite, judged by the host
 * from its own layouts through a renderer host, with the rule the child
 * applies: not on screen, yet its dependents still run, so
 * geometry-safe-bands reports the rule actually broken.
 */
#define VB_ID "org.fixture.validate.forges-off-screen"
#define VB_NAME "Forges on screen"
#define FORGED_CHECK "geometry-finite"
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#include "bottom_off_screen.c"
