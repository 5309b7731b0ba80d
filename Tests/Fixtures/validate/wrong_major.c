/* SPDX-License-Identifier: MIT */
/*
 * wrong_major.c — Built for ABI 2.0. Caught by: abi-version.
 */
#define VB_ID "org.fixture.validate.wrong-major"
#define VB_NAME "Wrong major"
#define VB_ABI_VERSION HUD_ABI_MAKE_VERSION(2, 0)
#include "validate_base.h"
