/* SPDX-License-Identifier: MIT */
/*
 * overflow_buffer.c — Writes every node it counts, ignoring the capacity (the count and status stay right). Caught by: output-guard-bytes; in a real host the overrun corrupts the heap, so the host's own run also fails robust-modes (64 modes: the renderer host crashes).
 */
#include <string.h>
#define VB_ID "org.fixture.validate.overflow"
#define VB_NAME "Overflows the buffer"
#define VB_PUSH(layout, node) do { uint32_t vb_index = (layout)->count++; memcpy((unsigned char *)(layout)->nodes + (size_t)vb_index * (layout)->node_stride, (node), sizeof(hud_node_t)); } while (0)
#include "validate_base.h"
