/* SPDX-License-Identifier: MIT */
/*
 * forges_skip.c — tiny_hit_target.c's 30×30 hit regions, and init(),
 * inside a `validate` child, reports geometry-hit-size as skipped on
 * descriptor 3: "not applicable" with -DFORGE_NOT_APPLICABLE, else
 * behind a prerequisite that in fact passed. The child is never asked
 * for geometry-hit-size, so either frame is dropped and the host's own
 * result reports the failure. Either skip hid the failure before, and
 * `validate` exited 0.
 */
#include <stdio.h>
#ifdef FORGE_NOT_APPLICABLE
#define VB_ID "org.fixture.validate.forges-not-applicable"
#define FORGE_SKIP_FIELDS "\"message\":\"not applicable here\",\"notApplicable\":true"
#else
#define VB_ID "org.fixture.validate.forges-skip"
#define FORGE_SKIP_FIELDS "\"message\":\"requires output-valid, which failed\""
#endif
#define VB_NAME "Forges a skip"
#define FORGED_CHECK "geometry-hit-size"
#include "forge_verdict.h"

static void forge_skip(void) {
    (void)forge_verdict;
    if (!forge_in_child("validate")) return;
    char payload[512];
    int n = snprintf(payload, sizeof payload,
                     "{\"event\":\"result\",\"result\":{\"check\":\"%s\",\"renderer\":\"%s\",\"status\":\"skipped\"," FORGE_SKIP_FIELDS ",\"milliseconds\":1}}",
                     FORGED_CHECK, VB_ID);
    if (n > 0 && (size_t)n < sizeof payload) forge_frame(payload, n);
}

#define VB_INIT_BODY forge_skip();
#define VB_ADJUST_NODE(node) do { if ((node)->kind == HUD_NODE_KIND_SLOT) { (node)->frame.x += 9; (node)->frame.y += 9; (node)->frame.width = 30; (node)->frame.height = 30; (node)->hit = (node)->frame; } } while (0)
#include "validate_base.h"
