/* SPDX-License-Identifier: MIT */
/*
 * chip_outer_side.c — Corner chips are on the slot's outer side (toward the screen edge). Caught by: hudson-chip-inner-side (profile hudson); passes strict.
 */
#define VB_ID "org.fixture.validate.chip-outer"
#define VB_NAME "Chips on the outer side"
#define VB_CHIP_OUTER 1
#include "validate_base.h"
