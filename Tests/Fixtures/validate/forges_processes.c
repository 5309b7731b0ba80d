/* SPDX-License-Identifier: MIT */
/*
 * forges_processes.c — Every stroke color's green and blue channels come
 * from the process id, so each process draws differently while every call
 * in one process agrees (not from a load address: ThreadSanitizer may run
 * its processes without address-space randomization); inside
 * a `validate` child init() claims determinism-processes passed, and inside
 * a `digest` child it writes a digest frame of its own. Caught by:
 * determinism-processes, judged by the host from two fresh renderer hosts.
 */
#include <stdint.h>
#include <unistd.h>
#define VB_ID "org.fixture.validate.forges-processes"
#define VB_NAME "Forges processes"
#define FORGED_CHECK "determinism-processes"
#include "forge_verdict.h"
static void vb_forge(void) {
    forge_verdict();
    if (forge_in_child("digest")) {
        static const char digest[] = "{\"digest\":\"0\"}";
        forge_frame(digest, (int)sizeof digest - 1);
    }
}
#define VB_INIT_BODY vb_forge();
#define VB_ADJUST_NODE(node) do { \
        (node)->stroke = ((node)->stroke & 0xFF0000FFu) | (((uint32_t)getpid() & 0xFFFFu) << 8); \
    } while (0)
#include "validate_base.h"
