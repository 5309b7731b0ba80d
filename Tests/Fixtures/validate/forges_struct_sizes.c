/* SPDX-License-Identifier: MIT */
/*
 * forges_struct_sizes.c — the descriptor's struct_size is 8 bytes more than
 * sizeof(hud_renderer_descriptor_t) of the ABI minor it claims, and
 * init(), inside a `validate` child, claims abi-struct-sizes passed on
 * descriptor 3. Caught by: abi-struct-sizes, judged by the host from the
 * struct_size its renderer host reports for renderer_at(0).
 */
#define VB_ID "org.fixture.validate.forges-struct-sizes"
#define VB_NAME "Forges struct sizes"
#define FORGED_CHECK "abi-struct-sizes"
#define FORGED_PLUGIN
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#define VB_DESCRIPTOR_SIZE (sizeof(hud_renderer_descriptor_t) + 8)
#include "validate_base.h"
