/* SPDX-License-Identifier: MIT */
/*
 * chatty_channel.c — no metadata section. Its init() abuses the sandbox's
 * result channel (descriptor 3), as HUD_CHATTY says:
 *   long      2 MiB of 'x' (read as a frame length far over the cap), then
 *             it waits: a protocol error;
 *   newlines  an empty frame (a zero length) every 100 ms, forever:
 *             well-formed traffic that must not count as progress, so the
 *             child still times out.
 */
#define _GNU_SOURCE
#include "fixture_common.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static hud_status_t chatty_init(void) {
    const char *mode = getenv("HUD_CHATTY");
    if (mode && strcmp(mode, "long") == 0) {
        static char block[65536];
        memset(block, 'x', sizeof block);
        for (int i = 0; i < 32; i++) {
            if (write(3, block, sizeof block) < 0) break;
        }
        sleep(30);
    } else if (mode && strcmp(mode, "newlines") == 0) {
        for (;;) {
            static const char empty_frame[4] = {0, 0, 0, 0};
            if (write(3, empty_frame, sizeof empty_frame) < 0) break;
            usleep(100 * 1000);
        }
    }
    return HUD_STATUS_OK;
}

static const hud_renderer_descriptor_t chatty_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.chatty-channel", "Chatty channel", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(chatty_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t), chatty_init())
