/* SPDX-License-Identifier: MIT */
/*
 * hang_in_landscape.c — layout() never returns on a landscape screen and is
 * correct in portrait. Caught by: layout-basic passes (its case is
 * portrait); the first check with a landscape case is timed-out, naming it.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#define VB_ID "org.fixture.validate.hang-landscape"
#define VB_NAME "Hangs in landscape"
#define VB_LAYOUT_PROLOGUE                                                   \
    while (env->screen_width > env->screen_height) {                         \
        struct timespec vb_second = {1, 0};                                  \
        nanosleep(&vb_second, NULL);                                         \
    }
#include "validate_base.h"
