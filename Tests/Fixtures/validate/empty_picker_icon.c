/* SPDX-License-Identifier: MIT */
/*
 * empty_picker_icon.c — The descriptor's picker_icon (ABI 1.2) is an empty
 * string. Caught by: abi-descriptors (the host refuses the descriptor).
 */
#define VB_ID "org.fixture.validate.empty-picker-icon"
#define VB_NAME "Empty picker icon"
#define VB_PICKER_ICON ""
#include "validate_base.h"
