/* SPDX-License-Identifier: MIT */
/* FROZEN — part of the outside-plugin corpus (Docs/COMPATIBILITY.md). The
 * outer-chip ring written by an author who refuses a node stride smaller
 * than sizeof(hud_node_t), as many C authors will: right against the SDK it
 * was built with and every newer host, wrong for a host with an older node. Built against 1.0 it
 * works everywhere; rebuilt against 1.1 it refuses a 1.0 host's stride,
 * which abi-older-host-sizes reports as a warning in standard@1.1 (an
 * error from 1.2) and never in the 1.0 profiles. */
#define OUTSIDE_ID "org.outside.ring-sizeof"
#define OUTSIDE_NAME "Ring (stride is sizeof)"
#define OUTSIDE_STRIDE_IS_SIZEOF 1
#include "ring_outer.c"
