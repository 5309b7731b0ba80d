/* SPDX-License-Identifier: MIT */
/*
 * fixture_common.h — boilerplate shared by the test fixture plugins.
 *
 * Each fixture is one small C file that defines its descriptors and layout
 * functions, then expands one FIXTURE_ENTRY* macro for the entry structure,
 * the reference-counted init()/deinit() and the exported entry symbol.
 * Broken fixtures break exactly one rule; everything they get from here is
 * correct unless they pass a different argument to FIXTURE_ENTRY_CUSTOM.
 */
#ifndef FIXTURE_COMMON_H
#define FIXTURE_COMMON_H

#include "hud_renderer.h"

/* get_extension for renderers without extensions: every id is unknown. */
static inline const void *fixture_no_extension(const hud_renderer_descriptor_t *self,
                                               const char *extension_id) {
    (void)self;
    (void)extension_id;
    return NULL;
}

/* The signature of a layout function named NAME, for fixtures whose point is
 * what its body does; FIXTURE_UNUSED_INPUTS silences the inputs it ignores. */
#define FIXTURE_LAYOUT_FUNCTION(NAME)                                                                       \
    static hud_status_t NAME(const hud_renderer_descriptor_t *self, const hud_complications_t *complications, \
                             const hud_environment_t *environment, const hud_interaction_t *interaction,     \
                             hud_layout_t *layout)
#define FIXTURE_UNUSED_INPUTS \
    (void)self;               \
    (void)complications;      \
    (void)environment;        \
    (void)interaction

/* A correct descriptor (all five positions, no capabilities) with the given
 * id, display name and layout function. */
#define FIXTURE_DESCRIPTOR(ID, NAME, LAYOUT)                                \
    {                                                                       \
        .struct_size = sizeof(hud_renderer_descriptor_t),                   \
        .capabilities = 0,                                                  \
        .id = (ID),                                                         \
        .name = (NAME),                                                     \
        .version = "1.0.0",                                                 \
        .vendor = "Hudson fixtures",                                        \
        .description = "A test fixture: " NAME ".",                         \
        .supported_positions = HUD_POSITION_ALL_BITS,                       \
        .layout = (LAYOUT),                                                 \
        .get_extension = fixture_no_extension,                              \
    }

/* The entry of a plugin serving the array DESCRIPTORS, with the given ABI
 * version, entry struct_size and init() result (a correct plugin passes
 * HUD_ABI_VERSION, sizeof(hud_entry_t) and HUD_STATUS_OK). init() and
 * deinit() are reference counted; renderer_count() is 0 until init(). */
#define FIXTURE_ENTRY_CUSTOM(DESCRIPTORS, ABI_VERSION, ENTRY_SIZE, INIT_STATUS) \
    static uint32_t fixture_refcount;                                           \
    static hud_status_t fixture_init(void) {                                    \
        hud_status_t status = (INIT_STATUS);                                    \
        if (status == HUD_STATUS_OK) fixture_refcount++;                        \
        return status;                                                          \
    }                                                                           \
    static void fixture_deinit(void) {                                          \
        if (fixture_refcount > 0) fixture_refcount--;                           \
    }                                                                           \
    static uint32_t fixture_renderer_count(void) {                              \
        if (fixture_refcount == 0) return 0;                                    \
        return (uint32_t)(sizeof(DESCRIPTORS) / sizeof((DESCRIPTORS)[0]));      \
    }                                                                           \
    static const hud_renderer_descriptor_t *fixture_renderer_at(uint32_t i) {   \
        return i < fixture_renderer_count() ? &(DESCRIPTORS)[i] : NULL;         \
    }                                                                           \
    static const hud_entry_t fixture_entry = {                                  \
        .abi_version = (ABI_VERSION),                                           \
        .struct_size = (ENTRY_SIZE),                                            \
        .init = fixture_init,                                                   \
        .deinit = fixture_deinit,                                               \
        .renderer_count = fixture_renderer_count,                               \
        .renderer_at = fixture_renderer_at,                                     \
    };                                                                          \
    HUD_EXPORT const hud_entry_t *HUD_ENTRY_SYMBOL(void) { return &fixture_entry; }

/* The entry of a correct plugin serving the array DESCRIPTORS. */
#define FIXTURE_ENTRY(DESCRIPTORS) \
    FIXTURE_ENTRY_CUSTOM(DESCRIPTORS, HUD_ABI_VERSION, sizeof(hud_entry_t), HUD_STATUS_OK)

/* A layout function that emits no nodes (for fixtures whose point is
 * elsewhere). */
static inline hud_status_t fixture_empty_layout(const hud_renderer_descriptor_t *self,
                                                const hud_complications_t *complications,
                                                const hud_environment_t *environment,
                                                const hud_interaction_t *interaction,
                                                hud_layout_t *layout) {
    (void)self;
    (void)complications;
    (void)environment;
    (void)interaction;
    return hud_layout_finish(layout);
}

/* A node with every field set to its "nothing" value: no position, no part,
 * no mode, not interactive, no strings. Fixtures start from this. */
static inline hud_node_t fixture_blank_node(hud_node_kind_t kind) {
    hud_node_t node = {0};
    node.kind = kind;
    node.position = HUD_POSITION_NONE;
    node.part = HUD_PART_NONE;
    node.mode_index = -1;
    return node;
}

#endif /* FIXTURE_COMMON_H */
