/* SPDX-License-Identifier: MIT */
/* missing_dep.c — the library needs_missing_lib.c links against. */
int hud_missing_dependency_value(void);
int hud_missing_dependency_value(void) { return 42; }
