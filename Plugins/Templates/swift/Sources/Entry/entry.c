/* SPDX-License-Identifier: MIT */
/*
 * entry.c — what the host reads about @NAME@ (@ID@) before and while it
 * loads the plugin: the descriptor, its metadata record in the
 * .hud_renderers ELF section, the reference-counted entry and the one
 * exported symbol, hud_renderer_get_entry.
 *
 * They are C because C has static, constant structures and ELF sections;
 * Swift globals are initialized lazily and cannot hold C string literals.
 * The layout itself is Swift (Sources/Layout), exported as @IDENT@_layout.
 */
#include <stdatomic.h>

#include "entry.h"

/* The descriptor and the metadata record are built from these, so the two
 * cannot disagree (the host refuses a renderer whose record differs). */
#define STARTER_ID "@ID@"
#define STARTER_NAME "@NAME@"
#define STARTER_VERSION "0.1.0"
#define STARTER_VENDOR "Example vendor" /* your name or organization */
#define STARTER_DESCRIPTION                                                        \
    "Corner slots in the safe area's corners, the center slot at the bottom "   \
    "middle, chips on the outer side, long-press modes in a card beside the slot."
/* The positions the layout draws (it reads them from the descriptor). A
 * slot published anywhere else is reported in hidden_positions instead. */
#define STARTER_POSITIONS HUD_POSITION_ALL_BITS
/* The layout reads only its arguments and keeps nothing. */
#define STARTER_CAPABILITIES HUD_CAPABILITY_THREAD_SAFE

static const void *starter_get_extension(const hud_renderer_descriptor_t *self,
                                         const char *extension_id) {
    (void)self;
    (void)extension_id;
    return NULL; /* no extensions */
}

static const hud_renderer_descriptor_t starter_descriptor = {
    .struct_size = sizeof(hud_renderer_descriptor_t),
    .capabilities = STARTER_CAPABILITIES,
    .id = STARTER_ID,
    .name = STARTER_NAME,
    .version = STARTER_VERSION,
    .vendor = STARTER_VENDOR,
    .description = STARTER_DESCRIPTION,
    .supported_positions = STARTER_POSITIONS,
    .layout = @IDENT@_layout,
    .get_extension = starter_get_extension,
};

/* The same facts as plain bytes in the .hud_renderers ELF section, so
 * `hudhost list` shows this plugin without running any of its code. */
HUD_RENDERER_METADATA(starter_metadata, STARTER_ID, STARTER_NAME, STARTER_VERSION, STARTER_VENDOR,
                      STARTER_POSITIONS, STARTER_CAPABILITIES);

/* Successful init() calls not yet matched by deinit(). init and deinit run
 * on the main thread only; renderer_count() may read it from any thread. */
static atomic_uint starter_init_count;

static hud_status_t starter_init(void) {
    atomic_fetch_add(&starter_init_count, 1u);
    return HUD_STATUS_OK;
}

static void starter_deinit(void) {
    if (atomic_load(&starter_init_count) > 0) atomic_fetch_sub(&starter_init_count, 1u);
}

static uint32_t starter_renderer_count(void) {
    return atomic_load(&starter_init_count) > 0 ? 1 : 0;
}

static const hud_renderer_descriptor_t *starter_renderer_at(uint32_t index) {
    return index < starter_renderer_count() ? &starter_descriptor : NULL;
}

static const hud_entry_t starter_entry = {
    .abi_version = HUD_ABI_VERSION,
    .struct_size = sizeof(hud_entry_t),
    .init = starter_init,
    .deinit = starter_deinit,
    .renderer_count = starter_renderer_count,
    .renderer_at = starter_renderer_at,
};

HUD_EXPORT const hud_entry_t *HUD_ENTRY_SYMBOL(void) { return &starter_entry; }
