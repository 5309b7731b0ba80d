/* SPDX-License-Identifier: MIT */
/*
 * forges_not_applicable.c — forges_skip.c, reporting geometry-hit-size as
 * not applicable. Caught by: geometry-hit-size, judged by the host.
 */
#define FORGE_NOT_APPLICABLE
#include "forges_skip.c"
