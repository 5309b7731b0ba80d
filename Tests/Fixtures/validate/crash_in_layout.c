/* SPDX-License-Identifier: MIT */
/*
 * crash_in_layout.c — layout() dereferences a NULL pointer (SIGSEGV). Caught by: layout-basic (crashed).
 */
#define VB_ID "org.fixture.validate.crash"
#define VB_NAME "Crashes in layout"
static int *volatile vb_nowhere;
#define VB_LAYOUT_PROLOGUE *vb_nowhere = 1;
#include "validate_base.h"
