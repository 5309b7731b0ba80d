/* SPDX-License-Identifier: MIT */
#include "hud_hot.h"

/* The action-during-layout guard's per-thread counters (hud_hot.h). */
_Thread_local hud_hot_layout_guard_t hud_hot_guard_state;
