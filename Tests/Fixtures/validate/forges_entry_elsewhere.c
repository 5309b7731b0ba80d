/* SPDX-License-Identifier: MIT */
/*
 * forges_entry_elsewhere.c — a plugin file whose hud_renderer_get_entry
 * is its dependency's (entry_elsewhere_dep.c, linked with -l and an
 * $ORIGIN run path: a plugin must define its own entry), and a
 * constructor that, inside a `validate` child, claims abi-entry-symbol
 * passed on descriptor 3 (at dlopen, before the child reports that check).
 * Caught by: abi-entry-symbol, verified by the host from the file its
 * renderer host found the entry's code in before its load
 * (ParentFactsJudgment.swift). ValidateFixture builds the library first
 * (`ValidateFixture.dependencies`).
 */
#define FORGED_CHECK "abi-entry-symbol"
#define FORGED_PLUGIN
#include "forge_verdict.h"

__attribute__((constructor)) static void fixture_forge(void) { forge_verdict(); }
