/* SPDX-License-Identifier: MIT */
/*
 * forges_needed_count.c — With a short buffer it reports capacity + 1
 * instead of the count it needs (as wrong_count.c), and init(), inside a
 * `validate` child, claims output-needed-count passed on descriptor 3.
 * Caught by: output-needed-count, judged by the host from short and exact
 * buffers it lays out in its renderer host's shared region.
 */
#define VB_ID "org.fixture.validate.forges-needed-count"
#define VB_NAME "Forges needed count"
#define FORGED_CHECK "output-needed-count"
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#define VB_FINISH(layout) ((layout)->count > (layout)->capacity ? ((layout)->count = (layout)->capacity + 1, HUD_STATUS_BUFFER_TOO_SMALL) : HUD_STATUS_OK)
#include "validate_base.h"
