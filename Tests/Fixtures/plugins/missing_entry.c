/* SPDX-License-Identifier: MIT */
/*
 * missing_entry.c — broken: a valid shared object that exports no
 * hud_renderer_get_entry. It exports a near miss instead (the kind of typo
 * a plugin author makes), so only the symbol name is wrong.
 * Expected: RegistryError.missingEntrySymbol.
 */
#include "hud_renderer.h"

HUD_EXPORT int hud_renderer_get_entry_typo(void);
HUD_EXPORT int hud_renderer_get_entry_typo(void) { return 0; }
