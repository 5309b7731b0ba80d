/* SPDX-License-Identifier: MIT */
/*
 * entry.c — what the host reads about @NAME@ (@ID@) before and while it
 * loads the plugin: the descriptor, its metadata record in the
 * .hud_renderers ELF section, the reference-counted entry and the one
 * exported symbol, hud_renderer_get_entry. The SDK's HUD_DECLARE_RENDERER
 * and HUD_DEFINE_ENTRY write all of it.
 *
 * They are C because C has static, constant structures and ELF sections;
 * Swift globals are initialized lazily and cannot hold C string literals.
 * The layout itself is Swift (Sources/Layout), exported as @IDENT@_layout.
 */
#include "entry.h"

static const void *starter_get_extension(const hud_renderer_descriptor_t *self,
                                         const char *extension_id) {
    (void)self;
    (void)extension_id;
    return NULL; /* no extensions */
}

/* The descriptor `starter_renderer` and its metadata record (which lets
 * `hudhost list` show this plugin without running any of its code), from
 * this one declaration: the host refuses a renderer whose record and
 * descriptor disagree, and here they cannot. Each string is checked at
 * compile time against its limit. */
HUD_DECLARE_RENDERER_WITH_ICON(starter_renderer,
                     "@ID@",                    /* id */
                     "@NAME@",                  /* name */
                     "0.1.0",                   /* version */
                     "Example vendor",          /* vendor: your name or organization */
                     "Corner slots in the safe area's corners, the center slot at the bottom "
                     "middle, chips on the inner side, long-press modes in a card beside the "
                     "slot.",                   /* description */
                     /* supported_positions: the layout reads them from the
                      * descriptor and reports a slot published anywhere
                      * else in hidden_positions. */
                     HUD_POSITION_ALL_BITS,
                     /* The layout reads only its arguments and keeps nothing. */
                     HUD_CAPABILITY_THREAD_SAFE,
                     @IDENT@_layout,
                     starter_get_extension,
                     "paintpalette");           /* picker_icon: what a style picker shows */

/* The entry: init()/deinit() reference counted, renderer_count() 0 until
 * init(), renderer_at() NULL past the end, and the exported
 * hud_renderer_get_entry(). */
static const hud_renderer_descriptor_t *const starter_renderers[] = {&starter_renderer};
HUD_DEFINE_ENTRY(starter_renderers);
