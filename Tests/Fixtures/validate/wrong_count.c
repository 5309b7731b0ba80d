/* SPDX-License-Identifier: MIT */
/*
 * wrong_count.c — With a short buffer it reports capacity + 1 instead of the count it needs. Caught by: output-needed-count.
 */
#define VB_ID "org.fixture.validate.wrong-count"
#define VB_NAME "Wrong count"
#define VB_FINISH(layout) ((layout)->count > (layout)->capacity ? ((layout)->count = (layout)->capacity + 1, HUD_STATUS_BUFFER_TOO_SMALL) : HUD_STATUS_OK)
#include "validate_base.h"
