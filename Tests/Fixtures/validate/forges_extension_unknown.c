/* SPDX-License-Identifier: MIT */
/*
 * forges_extension_unknown.c — get_extension("") returns non-NULL, and
 * init(), inside a `validate` child, claims abi-extension-unknown passed on
 * descriptor 3. Caught by: abi-extension-unknown, judged by the host from
 * the NULL / non-NULL its renderer host reports for the ids the host chose.
 */
#define VB_ID "org.fixture.validate.forges-extension-unknown"
#define VB_NAME "Forges unknown extension ids"
#define FORGED_CHECK "abi-extension-unknown"
#include "forge_verdict.h"
#include "fixture_common.h"
#define VB_INIT_BODY forge_verdict();
static const int vb_extension = 1;
static const void *vb_empty_extension(const hud_renderer_descriptor_t *self, const char *id) {
    (void)self;
    return id != NULL && id[0] == '\0' ? &vb_extension : NULL;
}
#define VB_GET_EXTENSION vb_empty_extension
#include "validate_base.h"
