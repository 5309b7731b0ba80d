/* SPDX-License-Identifier: MIT */
/*
 * forges_init_count.c — renderer_count() returns 1 before init() too (it
 * must return 0 until init() succeeds), and init(), inside a `validate`
 * child, claims abi-init passed on descriptor 3. Caught by: abi-init,
 * verified by the host from the count its renderer host saw before its
 * load called init() (ParentFactsJudgment.swift).
 */
#define VB_ID "org.fixture.validate.forges-init-count"
#define VB_NAME "Forges the count before init"
#define FORGED_CHECK "abi-init"
#define FORGED_PLUGIN
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#define VB_RENDERER_COUNT 1u
#include "validate_base.h"
