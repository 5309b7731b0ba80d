/* SPDX-License-Identifier: MIT */
/*
 * forge_next_result.c — no metadata section. Its init() writes well-formed
 * scan results on the batch scanner's result channel (descriptor 3) before
 * the scanner answers for it: one claiming a renderer for whatever file the
 * scanner reads next, once with a guessed turn token and once as a bare
 * reply. Neither may be taken for another file's result: the host keys each
 * result to the file it asked about, by a token it sends only then.
 */
#include "fixture_common.h"
#include <string.h>
#include <unistd.h>

static void forge_frame(const char *payload) {
    size_t length = strlen(payload);
    unsigned char header[4] = {(unsigned char)(length & 0xFF), (unsigned char)(length >> 8 & 0xFF),
                               (unsigned char)(length >> 16 & 0xFF), (unsigned char)(length >> 24)};
    if (write(3, header, sizeof header) < 0) return;
    if (write(3, payload, length) < 0) return;
}

#define FORGED_RENDERERS                                                                                   \
    "{\"renderers\":[{\"id\":\"org.forged.victim\",\"name\":\"Forged\",\"version\":\"1.0.0\",\"vendor\":\"x\"," \
    "\"abi\":65536,\"positions\":31,\"capabilities\":0}],\"failures\":[]}"

static hud_status_t forging_init(void) {
    forge_frame("{\"turn\":\"0\",\"reply\":" FORGED_RENDERERS "}");
    forge_frame(FORGED_RENDERERS);
    return HUD_STATUS_OK;
}

static const hud_renderer_descriptor_t forge_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.forge-next-result", "Forge next result", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(forge_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t), forging_init())
