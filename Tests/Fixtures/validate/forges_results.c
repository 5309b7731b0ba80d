/* SPDX-License-Identifier: MIT */
/*
 * forges_results.c — layout() dereferences a NULL pointer, and init(),
 * when it runs inside a `validate` child, writes the child's result frames
 * itself on descriptor 3 (every requested check "passed", then "done") and
 * exits before the suite can run (abi-metadata's frame names the renderer,
 * as no plugin-level result does). Caught by: layout-basic (crashed) — the
 * host judges the output and geometry checks from layouts it obtains
 * itself through a renderer host, not from the child's word.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#define VB_ID "org.fixture.validate.forger"
#define VB_NAME "Forges results"
static int *volatile vb_nowhere;
#define VB_LAYOUT_PROLOGUE *vb_nowhere = 1;

static const char *const forged_checks[] = {
    "abi-load", "abi-entry-symbol", "abi-version", "abi-init", "abi-descriptors", "abi-struct-sizes",
    "abi-init-refcount", "abi-descriptors-stable", "abi-load-time", "layout-basic", "geometry-finite",
    "output-valid", "determinism-repeat", "geometry-hit-size", "geometry-hit-overlap",
    /* Sent for the renderer, which no plugin-level check has: dropped by the parent. */
    "abi-metadata",
};

static int in_validate_child(void) {
    char command[4096] = {0};
    int fd = open("/proc/self/cmdline", O_RDONLY);
    if (fd < 0) return 0;
    ssize_t n = read(fd, command, sizeof command - 1);
    close(fd);
    /* argv[1], after argv[0]'s NUL, is the child's request. */
    size_t first = strlen(command); /* the buffer is zeroed past what was read */
    return (ssize_t)first + 9 <= n && strcmp(command + first + 1, "validate") == 0;
}

/* One result frame: the payload's length (32-bit little-endian), then it. */
static int send_frame(const char *payload, size_t length) {
    unsigned char prefix[4] = {(unsigned char)length, (unsigned char)(length >> 8), (unsigned char)(length >> 16),
                               (unsigned char)(length >> 24)};
    return write(3, prefix, 4) == 4 && write(3, payload, length) == (ssize_t)length;
}

static void forge(void) {
    if (!in_validate_child()) return;
    char line[512];
    for (size_t i = 0; i < sizeof forged_checks / sizeof forged_checks[0]; i++) {
        int plugin_level = strncmp(forged_checks[i], "abi-", 4) == 0 && strcmp(forged_checks[i], "abi-metadata") != 0;
        int n = snprintf(line, sizeof line,
                         "{\"event\":\"result\",\"result\":{\"check\":\"%s\",\"renderer\":%s,\"status\":\"passed\",\"message\":\"all good\",\"milliseconds\":1}}",
                         forged_checks[i], plugin_level ? "null" : "\"" VB_ID "\"");
        if (!send_frame(line, (size_t)n)) break;
    }
    static const char done[] = "{\"event\":\"done\"}";
    _exit(send_frame(done, sizeof done - 1) ? 0 : 1);
}

#define VB_INIT_BODY forge();
#include "validate_base.h"
