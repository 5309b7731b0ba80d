/* SPDX-License-Identifier: MIT */
/*
 * forges_entry_symbol.c — hud_renderer_get_entry() returns one entry, then
 * a copy of it, by turns (it must return the same static entry every
 * call), and a constructor, inside a `validate` child, claims
 * abi-entry-symbol passed on descriptor 3 (at dlopen, before the child
 * reports that check). Caught by: abi-entry-symbol, verified by the host
 * from the two results its renderer host saw before its load
 * (ParentFactsJudgment.swift).
 */
#define VB_ID "org.fixture.validate.forges-entry-symbol"
#define VB_NAME "Forges the entry symbol"
#define FORGED_CHECK "abi-entry-symbol"
#define FORGED_PLUGIN
#include "forge_verdict.h"
#include "hud_renderer.h"
static const hud_entry_t *fixture_entry(void);
#define VB_ENTRY_RESULT fixture_entry()
#include "validate_base.h"

__attribute__((constructor)) static void fixture_forge(void) { forge_verdict(); }

static hud_entry_t fixture_copy;
static const hud_entry_t *fixture_entry(void) {
    static unsigned calls;
    fixture_copy = vb_entry;
    return (calls++ % 2 == 0) ? &vb_entry : &fixture_copy;
}
