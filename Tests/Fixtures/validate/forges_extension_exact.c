/* SPDX-License-Identifier: MIT */
/*
 * forges_extension_exact.c — get_extension() matches its extension id
 * "org.fixture.validate.forges-extension-exact/1" as a prefix (strncmp),
 * so "…/1x" and "…/10" match too, and init(), inside a `validate` child,
 * claims abi-extension-exact passed on descriptor 3. Caught by:
 * abi-extension-exact, judged by the host from the NULL / non-NULL its
 * renderer host reports for the ids the host chose.
 */
#include <string.h>
#define VB_ID "org.fixture.validate.forges-extension-exact"
#define VB_NAME "Forges exact extension ids"
#define FORGED_CHECK "abi-extension-exact"
#include "forge_verdict.h"
#include "fixture_common.h"
#define VB_INIT_BODY forge_verdict();
static const int vb_extension = 1;
static const void *vb_prefix_extension(const hud_renderer_descriptor_t *self, const char *id) {
    static const char known[] = VB_ID "/1";
    (void)self;
    return id != NULL && strncmp(id, known, sizeof known - 1) == 0 ? &vb_extension : NULL;
}
#define VB_GET_EXTENSION vb_prefix_extension
#include "validate_base.h"
