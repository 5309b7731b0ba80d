/* SPDX-License-Identifier: MIT */
/*
 * generated_plugin.c — one source for N distinct plugins in hudbench's
 * discovery scenarios (ids org.hudbench.generated-0000 ...) and
 * Scripts/bench-peers.sh (org.hudbench.generated-00000 ...): compiled once
 * with -DHUDGEN_INDEX=0000 (or 00000) as a template, whose id and name
 * digits the harness replaces per copy (same length; compiling each with its
 * own -DHUDGEN_INDEX gives the same plugin, only much more slowly).
 *
 * A small, correct renderer: one 48 pt circle per published slot. When the
 * header provides HUD_RENDERER_METADATA (issue 6: metadata readable without
 * dlopen), the plugin also carries its ELF metadata record, so the same
 * files measure the metadata-only scan once it exists.
 *
 * -DHUDGEN_BARE leaves the metadata record out.
 *
 * Build: cc -std=c11 -O1 -shared -fPIC -I Sources/HudRendererAPI/include/hud \
 *           -DHUDGEN_INDEX=0042 generated_plugin.c -o gen-0042.so
 */
#include "hud_renderer.h"

#ifndef HUDGEN_INDEX
#error "compile with -DHUDGEN_INDEX=<4 digits>"
#endif
#define HUDGEN_STRING2(x) #x
#define HUDGEN_STRING(x) HUDGEN_STRING2(x)
#define HUDGEN_ID "org.hudbench.generated-" HUDGEN_STRING(HUDGEN_INDEX)
#define HUDGEN_NAME "Generated " HUDGEN_STRING(HUDGEN_INDEX)

static hud_status_t gen_layout(const hud_renderer_descriptor_t *self, const hud_complications_t *complications,
                               const hud_environment_t *environment, const hud_interaction_t *interaction,
                               hud_layout_t *layout) {
    (void)self;
    (void)interaction;
    if (complications->struct_size < sizeof(hud_complications_t) ||
        environment->struct_size < sizeof(hud_environment_t)) {
        return HUD_STATUS_INVALID_ARGUMENT;
    }
    for (hud_position_t position = 0; position < HUD_POSITION_COUNT; position++) {
        const hud_slot_t *slot = complications->slots[position];
        if (slot == NULL) continue;
        hud_node_t node = {0};
        node.kind = HUD_NODE_KIND_SLOT;
        node.position = position;
        node.part = HUD_PART_SLOT;
        node.mode_index = -1;
        node.frame.x = environment->safe_area.left + 8 + 56.0 * position;
        node.frame.y = environment->screen_height - environment->safe_area.bottom - 56;
        node.frame.width = 48;
        node.frame.height = 48;
        node.hit = node.frame;
        node.shape = HUD_SHAPE_CIRCLE;
        node.material = HUD_MATERIAL_SOLID;
        node.fill = environment->palette->surface;
        node.icon_color = environment->palette->ink;
        node.flags = HUD_NODE_FLAG_INTERACTIVE;
        node.icon = slot->icon;
        node.label = slot->label;
        node.accessibility_label = slot->label != NULL ? slot->label : slot->icon;
        hud_layout_push_node(layout, &node);
    }
    return hud_layout_finish(layout);
}

static const void *gen_extension(const hud_renderer_descriptor_t *self, const char *id) {
    (void)self;
    (void)id;
    return NULL;
}

static const hud_renderer_descriptor_t gen_descriptor = {
    .struct_size = sizeof(hud_renderer_descriptor_t),
    .capabilities = HUD_CAPABILITY_THREAD_SAFE,
    .id = HUDGEN_ID,
    .name = HUDGEN_NAME,
    .version = "1.0.0",
    .vendor = "hudbench",
    .description = "A generated plugin for hudbench's discovery scenarios.",
    .supported_positions = HUD_POSITION_ALL_BITS,
    .layout = gen_layout,
    .get_extension = gen_extension,
};

/* -DHUDGEN_BARE: no metadata section, so listing it means a sandboxed scan
 * (hudbench's and Scripts/bench-peers.sh's "without metadata" rows). */
#if defined(HUD_RENDERER_METADATA) && !defined(HUDGEN_BARE)
HUD_RENDERER_METADATA(gen_metadata, HUDGEN_ID, HUDGEN_NAME, "1.0.0", "hudbench", HUD_POSITION_ALL_BITS,
                      HUD_CAPABILITY_THREAD_SAFE);
#endif

static unsigned gen_refcount;
static hud_status_t gen_init(void) {
    gen_refcount++;
    return HUD_STATUS_OK;
}
static void gen_deinit(void) {
    if (gen_refcount > 0) gen_refcount--;
}
static uint32_t gen_count(void) { return gen_refcount > 0 ? 1 : 0; }
static const hud_renderer_descriptor_t *gen_at(uint32_t index) { return index < gen_count() ? &gen_descriptor : NULL; }

static const hud_entry_t gen_entry = {
    .abi_version = HUD_ABI_VERSION,
    .struct_size = sizeof(hud_entry_t),
    .init = gen_init,
    .deinit = gen_deinit,
    .renderer_count = gen_count,
    .renderer_at = gen_at,
};

HUD_EXPORT const hud_entry_t *HUD_ENTRY_SYMBOL(void) { return &gen_entry; }
