/* SPDX-License-Identifier: MIT */
/*
 * forges_every_field.c — Writes each node field by field and never writes
 * glyph_size (an ABI 1.1 field its entry declares), so a node keeps the
 * buffer's initial bytes there (a 1.0 host's stride, which does not cover
 * glyph_size, gets whole nodes); init(), inside a `validate` child, claims
 * output-every-field passed on descriptor 3. Caught by: output-every-field,
 * judged by the host from nodes it reads in its renderer host's shared
 * region after filling the buffer with zeros, then with a poison it picks.
 */
#include <stddef.h>
#include <string.h>
#define VB_ID "org.fixture.validate.forges-every-field"
#define VB_NAME "Forges every field"
#define FORGED_CHECK "output-every-field"
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#define VB_PUSH(layout, node) do { \
        uint32_t vb_index = (layout)->count++; \
        if (vb_index < (layout)->capacity && (layout)->node_stride >= sizeof(hud_node_t)) { \
            unsigned char *vb_to = (unsigned char *)(layout)->nodes + (size_t)vb_index * (layout)->node_stride; \
            memcpy(vb_to, (node), offsetof(hud_node_t, glyph_size)); \
            memcpy(vb_to + offsetof(hud_node_t, glyph_size) + sizeof(double), (const unsigned char *)(node) + offsetof(hud_node_t, glyph_size) + sizeof(double), \
                   sizeof(hud_node_t) - offsetof(hud_node_t, glyph_size) - sizeof(double)); \
        } else if (vb_index < (layout)->capacity) { \
            memcpy((unsigned char *)(layout)->nodes + (size_t)vb_index * (layout)->node_stride, (node), (layout)->node_stride); \
        } \
    } while (0)
#include "validate_base.h"
