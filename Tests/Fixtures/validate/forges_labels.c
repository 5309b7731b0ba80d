/* SPDX-License-Identifier: MIT */
/*
 * forges_labels.c — Every slot goes without an accessibility label, and
 * init(), inside a `validate` child, claims a11y-labels passed on
 * descriptor 3. Caught by: a11y-labels, judged by the host from its own
 * layouts through a renderer host, with the rule the child applies.
 */
#define VB_ID "org.fixture.validate.forges-labels"
#define VB_NAME "Forges labels"
#define FORGED_CHECK "a11y-labels"
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#define VB_SLOT_LABEL(slot) ((void)(slot), (const char *)NULL)
#include "validate_base.h"
