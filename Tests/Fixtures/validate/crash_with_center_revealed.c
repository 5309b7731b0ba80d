/* SPDX-License-Identifier: MIT */
/*
 * crash_with_center_revealed.c — layout() dereferences a NULL pointer
 * (SIGSEGV) when the center slot's modes are revealed and is correct
 * otherwise. Caught by: the first check with such a case is crashed,
 * naming it.
 */
#define VB_ID "org.fixture.validate.crash-revealed"
#define VB_NAME "Crashes with the center revealed"
static int *volatile vb_nowhere;
#define VB_LAYOUT_PROLOGUE                                                   \
    if (ui->revealed_position == HUD_POSITION_CENTER) *vb_nowhere = 1;
#include "validate_base.h"
