/* SPDX-License-Identifier: MIT */
/*
 * forges_guard_bytes.c — With a buffer of fewer than 8 nodes it writes one
 * node past the end (the count and status stay right; the host's own
 * 64-node buffers are never overrun), and init(), inside a `validate`
 * child, claims output-guard-bytes passed on descriptor 3. Caught by:
 * output-guard-bytes, judged by the host from the guard zones it lays out
 * and reads in its renderer host's shared region.
 */
#include <string.h>
#define VB_ID "org.fixture.validate.forges-guard-bytes"
#define VB_NAME "Forges guard bytes"
#define FORGED_CHECK "output-guard-bytes"
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#define VB_PUSH(layout, node) do { \
        uint32_t vb_index = (layout)->count++; \
        if (vb_index < (layout)->capacity || (vb_index == (layout)->capacity && (layout)->capacity < 8)) \
            memcpy((unsigned char *)(layout)->nodes + (size_t)vb_index * (layout)->node_stride, (node), \
                   (layout)->node_stride < sizeof(hud_node_t) ? (layout)->node_stride : sizeof(hud_node_t)); \
    } while (0)
#include "validate_base.h"
