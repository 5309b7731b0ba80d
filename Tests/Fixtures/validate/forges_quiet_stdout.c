/* SPDX-License-Identifier: MIT */
/*
 * forges_quiet_stdout.c — Prints a line to stdout in init(), and inside a
 * `validate` child claims abi-quiet-stdout passed on descriptor 3. Caught
 * by: abi-quiet-stdout, judged by the host from the child's stdout it
 * captured; the child is never asked for that check, so its frame is dropped.
 */
#define VB_ID "org.fixture.validate.forges-quiet-stdout"
#define VB_NAME "Forges quiet stdout"
#define FORGED_CHECK "abi-quiet-stdout"
#define FORGED_PLUGIN_CHECK
#include "forge_verdict.h"
static void vb_chatter(void) {
    forge_verdict();
    fputs("hello from init\n", stdout);
    fflush(stdout);
}
#define VB_INIT_BODY vb_chatter();
#include "validate_base.h"
