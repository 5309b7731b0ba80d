/* SPDX-License-Identifier: MIT */
/*
 * forges_fuzz.c — A slot whose label is exactly "Go" (a label only the
 * fuzzer's random inputs use) gets a 30x30 hit region; init(), inside a
 * `validate` child, claims fuzz passed on descriptor 3. Caught by: fuzz,
 * judged by the host from the same seeded cases laid out through its own
 * renderer host.
 */
#include <string.h>
#define VB_ID "org.fixture.validate.forges-fuzz"
#define VB_NAME "Forges fuzz"
#define FORGED_CHECK "fuzz"
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#define VB_ADJUST_NODE(node) do { \
        if ((node)->kind == HUD_NODE_KIND_SLOT && (node)->accessibility_label != NULL && strcmp((node)->accessibility_label, "Go") == 0) { \
            (node)->hit.width = 30; \
            (node)->hit.height = 30; \
        } \
    } while (0)
#include "validate_base.h"
