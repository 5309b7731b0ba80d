/* SPDX-License-Identifier: MIT */
/*
 * chip_inner_side.c — Corner chips are on the slot's inner side. Caught by: geometry-chip-side.
 */
#define VB_ID "org.fixture.validate.chip-inner"
#define VB_NAME "Chips on the inner side"
#define VB_CHIP_INNER 1
#include "validate_base.h"
