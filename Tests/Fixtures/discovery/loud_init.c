/* SPDX-License-Identifier: MIT */
/*
 * loud_init.c — no metadata section, so it is scanned in the sandbox. Its
 * init() writes what a hostile plugin would to a terminal: an OSC 52
 * clipboard write, a clear-screen, a title change, a C1 control (U+009B,
 * CSI), a line that passes for hudhost's own ("hudhost: error: ..."), and
 * then 256 KiB more, on stderr and on stdout. init() fails when
 * HUD_LOUD_FAIL is set. The host must show none of it raw: a failed
 * child's output is shown escaped, prefixed and bounded, a healthy one's
 * only with --verbose.
 */
#include "fixture_common.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void shout(int fd) {
    static const char hostile[] = "\x1b]52;c;aGlqYWNrZWQ=\x07\x1b]0;owned\x07\x1b[2J\xc2\x9b" "31m C1\n"
                                  "hudhost: error: a line forged by plugin code\n";
    ssize_t written = write(fd, hostile, sizeof hostile - 1);
    static char filler[4096];
    memset(filler, 'x', sizeof filler - 1);
    filler[sizeof filler - 1] = '\n';
    for (int i = 0; i < 64 && written >= 0; i++) written = write(fd, filler, sizeof filler);
}

static hud_status_t loud_init(void) {
    shout(2);
    shout(1);
    return getenv("HUD_LOUD_FAIL") ? HUD_STATUS_INTERNAL_ERROR : HUD_STATUS_OK;
}

static const hud_renderer_descriptor_t loud_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.loud", "Loud", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(loud_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t), loud_init())
