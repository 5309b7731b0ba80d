/* SPDX-License-Identifier: MIT */
/*
 * forges_descriptors_stable.c — renderer_at() returns its descriptor for
 * every index once initialized, past the end too, and init(), inside a
 * `validate` child, claims abi-descriptors-stable passed on descriptor 3.
 * Caught by: abi-descriptors-stable, judged by the host from the pointers
 * its renderer host reports for renderer_at(count), (count + 1) and
 * (UINT32_MAX).
 */
#define VB_ID "org.fixture.validate.forges-descriptors-stable"
#define VB_NAME "Forges stable descriptors"
#define FORGED_CHECK "abi-descriptors-stable"
#define FORGED_PLUGIN
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#define VB_RENDERER_AT(i) ((void)(i), vb_renderer_count() > 0 ? &vb_descriptors[0] : NULL)
#include "validate_base.h"
