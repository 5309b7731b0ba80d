/* SPDX-License-Identifier: MIT */
/*
 * missing_labels.c — Slots have no accessibility label. Caught by: a11y-labels.
 */
#define VB_ID "org.fixture.validate.no-labels"
#define VB_NAME "Missing labels"
#define VB_SLOT_LABEL(slot) ((void)(slot), (const char *)NULL)
#include "validate_base.h"
