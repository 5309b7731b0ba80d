/* SPDX-License-Identifier: MIT */
/*
 * half_closed_channel.c — a renderer whose first layout() shuts the reading
 * side of its renderer host's channel (descriptor 3) and returns normally:
 * the reply still reaches the host, but the host's next request meets a
 * peer that no longer reads (EPIPE; a SIGPIPE that kills a host writing
 * without MSG_NOSIGNAL). The same as a renderer host that exits between two
 * calls, made deterministic.
 */
#include "fixture_common.h"
#include <sys/socket.h>

FIXTURE_LAYOUT_FUNCTION(half_closed_layout) {
    FIXTURE_UNUSED_INPUTS;
    static int calls;
    if (calls++ == 0) (void)shutdown(3, SHUT_RD);
    return hud_layout_finish(layout);
}

static const hud_renderer_descriptor_t half_closed_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.half-closed", "Half closed", half_closed_layout),
};

FIXTURE_ENTRY_CUSTOM(half_closed_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t), HUD_STATUS_OK)
