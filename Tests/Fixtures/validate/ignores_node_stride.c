/* SPDX-License-Identifier: MIT */
/*
 * ignores_node_stride.c — layout() places node k at k * sizeof(hud_node_t)
 * whatever hud_layout_t.node_stride says (right for a host built with the
 * same header, wrong for a 1.0 host), and init(), inside a `validate`
 * child, claims abi-struct-sizes passed on descriptor 3 (a claim that
 * stands: its sizes are right). Caught by: abi-older-host-sizes (a warning
 * in standard@1.1, an error from 1.2), which only the host judges, from a
 * raw call at the ABI 1.0 node stride into a guarded buffer it lays out and
 * reads itself.
 */
#include <string.h>
#define VB_ID "org.fixture.validate.ignores-node-stride"
#define VB_NAME "Ignores the node stride"
#define FORGED_CHECK "abi-struct-sizes"
#define FORGED_PLUGIN
#include "forge_verdict.h"
#define VB_INIT_BODY forge_verdict();
#define VB_PUSH(layout, node) do { \
        uint32_t vb_index = (layout)->count++; \
        if (vb_index < (layout)->capacity) \
            memcpy((unsigned char *)(layout)->nodes + (size_t)vb_index * sizeof(hud_node_t), (node), sizeof(hud_node_t)); \
    } while (0)
#include "validate_base.h"
