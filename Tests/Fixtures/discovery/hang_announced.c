/* SPDX-License-Identifier: MIT */
/*
 * hang_announced.c — no metadata section; init() writes its process id to
 * the FIFO named by HUD_HANG_FIFO (a test skips the Landlock layer so it
 * can), then sleeps for ever without using CPU. When the hudhost that
 * started the scan is killed, this process must die with it.
 */
#include "fixture_common.h"
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static hud_status_t announced_init(void) {
    const char *fifo = getenv("HUD_HANG_FIFO");
    if (fifo) {
        int fd = open(fifo, O_WRONLY);
        if (fd >= 0) {
            char line[32];
            int length = snprintf(line, sizeof line, "%d\n", (int)getpid());
            ssize_t written = write(fd, line, (size_t)length);
            (void)written;
            close(fd);
        }
    }
    for (;;) (void)poll(NULL, 0, -1);
    return HUD_STATUS_OK;
}

static const hud_renderer_descriptor_t announced_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.hang-announced", "Hang announced", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(announced_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t), announced_init())
