/* SPDX-License-Identifier: MIT */
/*
 * raw_symbol_labels.c — Unlabeled slots are announced by their raw symbol
 * name ("list.bullet"). Caught by: a11y-labels (a warning for a plugin).
 */
#define VB_ID "org.fixture.validate.raw-symbol-labels"
#define VB_NAME "Raw symbol labels"
#define VB_SLOT_LABEL(slot) ((slot)->label != NULL && (slot)->label[0] != '\0' ? (slot)->label : (slot)->icon)
#include "validate_base.h"
