/* SPDX-License-Identifier: MIT */
/*
 * forges_refcount.c — deinit() releases everything at once (no reference
 * count: after init, init, deinit it has no renderers), and init(), inside
 * a `validate` child, claims abi-init-refcount passed on descriptor 3.
 * Caught by: abi-init-refcount, judged by the host from the raw statuses
 * and counts its renderer host reports for the ABI sequence the host
 * scripts (ParentFactsJudgment.swift).
 */
#define VB_ID "org.fixture.validate.forges-refcount"
#define VB_NAME "Forges reference counting"
#define FORGED_CHECK "abi-init-refcount"
#define FORGED_PLUGIN
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#define VB_DEINIT_BODY vb_refcount = 0;
#include "validate_base.h"
