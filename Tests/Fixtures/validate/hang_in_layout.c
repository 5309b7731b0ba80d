/* SPDX-License-Identifier: MIT */
/*
 * hang_in_layout.c — layout() never returns. Caught by: layout-basic (timed-out).
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#define VB_ID "org.fixture.validate.hang"
#define VB_NAME "Hangs in layout"
#define VB_LAYOUT_PROLOGUE for (;;) { struct timespec vb_second = {1, 0}; nanosleep(&vb_second, NULL); }
#include "validate_base.h"
