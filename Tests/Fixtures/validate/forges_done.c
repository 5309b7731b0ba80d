/* SPDX-License-Identifier: MIT */
/*
 * forges_done.c — init(), inside a `validate` child, writes the runner's
 * "done" frame on descriptor 3 and exits with status 0 before any check
 * after abi-version has reported. Caught by: abi-init (crashed: a done
 * before every check had reported is plugin code's); before, every other
 * check was skipped and `validate` exited 0.
 */
#include <unistd.h>
#define VB_ID "org.fixture.validate.forges-done"
#define VB_NAME "Forges done"
#define FORGED_CHECK "abi-init" /* forge_verdict.h needs one; only the done frame is forged */
#include "forge_verdict.h"

static void forge_done(void) {
    (void)forge_verdict;
    if (!forge_in_child("validate")) return;
    static const char done[] = "{\"event\":\"done\"}";
    forge_frame(done, (int)sizeof done - 1);
    _exit(0);
}

#define VB_INIT_BODY forge_done();
#include "validate_base.h"
