/* SPDX-License-Identifier: MIT */
/*
 * noisy_init.c — a plugin that writes to standard output while it loads:
 * its constructor writes straight to file descriptor 1, and init() leaves
 * text without a newline in stdio's stdout buffer, where the host's own
 * output would be appended to it. No metadata section, so `hudhost list`
 * scans it in a sandboxed child. `list --json` and `render --json` must
 * still print exactly one valid JSON document on stdout.
 */
#include <stdio.h>
#include <unistd.h>

#include "fixture_common.h"

__attribute__((constructor)) static void noisy_constructor(void) {
    static const char noise[] = "noise from the constructor on fd 1\n";
    ssize_t written = write(1, noise, sizeof noise - 1);
    (void)written;
}

static hud_status_t noisy_init_status(void) {
    printf("{\"noise\": \"from init, no newline, left in the stdio buffer\"");
    return HUD_STATUS_OK;
}

static const hud_renderer_descriptor_t noisy_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.hostile.noisy", "Noisy", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(noisy_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t), noisy_init_status())
