// SPDX-License-Identifier: MIT
import Foundation
import HudRendererAPI
import Testing
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport

/// The C ABI header, checked from both sides: it compiles cleanly as C11 and
/// C++17, its structures have the pinned LP64 layout (so an accidental
/// change fails here first), the C compiler and the Swift importer agree on
/// every size and offset, and `hud_layout_push_node` honours the buffer.
struct ABIHeaderTests {
    // MARK: - The header compiles as C and C++

    /// One source, valid as C11 and C++17, that asserts static facts of the
    /// header at compile time and exercises its inline helpers at run time.
    static let headerProbe = #"""
    #include "hud_renderer.h"
    #include <stdio.h>
    #include <string.h>

    #ifdef __cplusplus
    #define PROBE_STATIC_ASSERT(condition, message) static_assert(condition, message)
    #define PROBE_LANGUAGE "c++"
    #else
    #define PROBE_STATIC_ASSERT(condition, message) _Static_assert(condition, message)
    #define PROBE_LANGUAGE "c"
    #endif

    PROBE_STATIC_ASSERT(HUD_ABI_VERSION == 0x00010002u, "ABI version 1.2");
    PROBE_STATIC_ASSERT(HUD_ABI_VERSION_GET_MAJOR(HUD_ABI_MAKE_VERSION(3, 7)) == 3, "major");
    PROBE_STATIC_ASSERT(HUD_ABI_VERSION_GET_MINOR(HUD_ABI_MAKE_VERSION(3, 7)) == 7, "minor");
    PROBE_STATIC_ASSERT(HUD_RGBA(0x12, 0x34, 0x56, 0x78) == 0x12345678u, "rgba packing");
    PROBE_STATIC_ASSERT(HUD_POSITION_BIT(HUD_POSITION_CENTER) == 0x10u, "position bits");
    PROBE_STATIC_ASSERT(HUD_POSITION_ALL_BITS == 0x1Fu, "all position bits");
    PROBE_STATIC_ASSERT(HUD_POSITION_COUNT == 5, "five positions");
    PROBE_STATIC_ASSERT(sizeof(hud_status_t) == 4 && sizeof(hud_rgba_t) == 4, "32-bit scalars");
    PROBE_STATIC_ASSERT(sizeof(hud_node_t) % sizeof(void *) == 0, "node stride aligned");
    PROBE_STATIC_ASSERT(HUD_NODE_SIZE_1_0 == 168 && HUD_ENTRY_SIZE_1_0 == 40, "frozen sizes");
    PROBE_STATIC_ASSERT(HUD_NODE_SIZE_1_1 == 184 && HUD_ENVIRONMENT_SIZE_1_1 == 176 && HUD_ENVIRONMENT_SIZE_1_0 == 136, "1.1 sizes");
    PROBE_STATIC_ASSERT(HUD_MODE_BIT(0) == 1u && HUD_MODE_BIT(63) == 0x8000000000000000u, "mode bits");
    PROBE_STATIC_ASSERT(HUD_PRESENTATION_ALWAYS_VISIBLE == 0 && HUD_PRESENTATION_DECK_RESTING == 1 &&
                        HUD_PRESENTATION_DECK_EXPANDED == 2, "presentation values");
    PROBE_STATIC_ASSERT(HUD_RENDERER_DESCRIPTOR_SIZE_1_0 == 72 && HUD_RENDERER_METADATA_SIZE_1_0 == 408, "frozen sizes");

    /* The entry symbol has the declared signature. */
    static const hud_entry_t probe_entry = {HUD_ABI_VERSION, sizeof(hud_entry_t), 0, 0, 0, 0};
    static const hud_entry_t *probe_get_entry(void) { return &probe_entry; }

    /* One renderer declared with HUD_DECLARE_RENDERER, served by
     * HUD_DEFINE_ENTRY_WITH_HOOKS with hooks that count their calls. */
    static hud_status_t probe_layout(const hud_renderer_descriptor_t *self, const hud_complications_t *c,
                                     const hud_environment_t *e, const hud_interaction_t *i, hud_layout_t *l) {
        (void)self; (void)c; (void)e; (void)i;
        return hud_layout_finish(l);
    }
    static const void *probe_extension(const hud_renderer_descriptor_t *self, const char *id) {
        (void)self; (void)id;
        return NULL;
    }
    HUD_DECLARE_RENDERER(probe_renderer, "org.probe.renderer", "Probe", "2.1.0", "Probe vendor", "A probe.",
                         HUD_POSITION_BIT(HUD_POSITION_CENTER), HUD_CAPABILITY_THREAD_SAFE, probe_layout, probe_extension);
    static const hud_renderer_descriptor_t *const probe_renderers[] = {&probe_renderer};
    static int first_inits = 0, last_deinits = 0, fail_first_init = 0;
    static hud_status_t probe_first_init(void) {
        first_inits++;
        return fail_first_init ? HUD_STATUS_INTERNAL_ERROR : HUD_STATUS_OK;
    }
    static void probe_last_deinit(void) { last_deinits++; }
    HUD_DEFINE_ENTRY_WITH_HOOKS(probe_renderers, probe_first_init, probe_last_deinit);

    static int failures = 0;
    #define CHECK(condition)                                               \
        do {                                                               \
            if (!(condition)) {                                            \
                printf("FAIL line %d: %s\n", __LINE__, #condition);       \
                failures++;                                                \
            }                                                              \
        } while (0)

    int main(void) {
        CHECK(hud_abi_version_is_compatible(HUD_ABI_VERSION));
        CHECK(hud_abi_version_is_compatible(HUD_ABI_MAKE_VERSION(1, 9)));
        CHECK(!hud_abi_version_is_compatible(HUD_ABI_MAKE_VERSION(2, 0)));
        CHECK(!hud_abi_version_is_compatible(HUD_ABI_MAKE_VERSION(0, 1)));
        CHECK(strcmp(HUD_ENTRY_SYMBOL_NAME, "hud_renderer_get_entry") == 0);

        hud_get_entry_fn get_entry = probe_get_entry;
        CHECK(get_entry()->abi_version == HUD_ABI_VERSION);

        /* HUD_DECLARE_RENDERER: the record says what the descriptor says. */
        CHECK(probe_renderer.struct_size == sizeof(hud_renderer_descriptor_t));
        CHECK(strcmp(probe_renderer_metadata.id, probe_renderer.id) == 0);
        CHECK(strcmp(probe_renderer_metadata.name, probe_renderer.name) == 0);
        CHECK(strcmp(probe_renderer_metadata.version, probe_renderer.version) == 0);
        CHECK(strcmp(probe_renderer_metadata.vendor, probe_renderer.vendor) == 0);
        CHECK(probe_renderer_metadata.supported_positions == probe_renderer.supported_positions);
        CHECK(probe_renderer_metadata.capabilities == probe_renderer.capabilities);
        CHECK(probe_renderer_metadata.record_size == HUD_RENDERER_METADATA_SIZE_1_0);
        CHECK(memcmp(probe_renderer_metadata.magic, HUD_METADATA_MAGIC, 8) == 0);
        CHECK(probe_renderer.layout == probe_layout && probe_renderer.get_extension == probe_extension);

        /* HUD_DEFINE_ENTRY_WITH_HOOKS: the reference-counted entry. */
        const hud_entry_t *entry = HUD_ENTRY_SYMBOL();
        CHECK(entry == HUD_ENTRY_SYMBOL());
        CHECK(entry->abi_version == HUD_ABI_VERSION && entry->struct_size == sizeof(hud_entry_t));
        CHECK(entry->renderer_count() == 0 && entry->renderer_at(0) == NULL);
        fail_first_init = 1;
        CHECK(entry->init() == HUD_STATUS_INTERNAL_ERROR && entry->renderer_count() == 0);
        fail_first_init = 0;
        CHECK(entry->init() == HUD_STATUS_OK && entry->init() == HUD_STATUS_OK);
        CHECK(first_inits == 2); /* the failed one, then only the first success */
        CHECK(entry->renderer_count() == 1 && entry->renderer_at(0) == &probe_renderer);
        CHECK(entry->renderer_at(1) == NULL && entry->renderer_at(UINT32_MAX) == NULL);
        entry->deinit();
        CHECK(entry->renderer_count() == 1 && last_deinits == 0);
        entry->deinit();
        CHECK(entry->renderer_count() == 0 && entry->renderer_at(0) == NULL && last_deinits == 1);
        entry->deinit(); /* an extra deinit: a no-op */
        CHECK(last_deinits == 1 && entry->init() == HUD_STATUS_OK && entry->renderer_count() == 1);
        entry->deinit();

        /* HUD_STRUCT_HAS: a field is present only if struct_size covers all of it. */
        hud_environment_t env;
        memset(&env, 0, sizeof env);
        env.struct_size = (uint32_t)(offsetof(hud_environment_t, navigation_bar) + sizeof(hud_rect_t));
        CHECK(HUD_STRUCT_HAS(&env, hud_environment_t, navigation_bar));
        CHECK(!HUD_STRUCT_HAS(&env, hud_environment_t, navigation_title));
        env.struct_size = HUD_ENVIRONMENT_SIZE_1_0;
        CHECK(HUD_STRUCT_HAS(&env, hud_environment_t, reserved));
        CHECK(!HUD_STRUCT_HAS(&env, hud_environment_t, presentation));
        CHECK(!HUD_STRUCT_HAS(&env, hud_environment_t, reserved_lanes));
        env.struct_size = HUD_ENVIRONMENT_SIZE_1_1;
        CHECK(HUD_STRUCT_HAS(&env, hud_environment_t, presentation) && HUD_STRUCT_HAS(&env, hud_environment_t, reserved_lanes));
        hud_entry_t small;
        memset(&small, 0, sizeof small);
        small.struct_size = 32;
        CHECK(HUD_STRUCT_HAS(&small, hud_entry_t, renderer_count) && !HUD_STRUCT_HAS(&small, hud_entry_t, renderer_at));

        /* An empty buffer: push counts but writes nothing; finish asks for more. */
        hud_layout_t layout;
        memset(&layout, 0, sizeof layout);
        layout.struct_size = sizeof(hud_layout_t);
        /* HUD_LAYOUT_HAS_NODE_FIELD: a 1.0 stride has no 1.1 node field. */
        layout.node_stride = HUD_NODE_SIZE_1_0;
        CHECK(HUD_LAYOUT_HAS_NODE_FIELD(&layout, accessibility_label));
        CHECK(!HUD_LAYOUT_HAS_NODE_FIELD(&layout, glyph_size) && !HUD_LAYOUT_HAS_NODE_FIELD(&layout, accessibility_actions));
        layout.node_stride = HUD_NODE_SIZE_1_1 - 8;
        CHECK(HUD_LAYOUT_HAS_NODE_FIELD(&layout, glyph_size) && !HUD_LAYOUT_HAS_NODE_FIELD(&layout, accessibility_actions));
        layout.node_stride = sizeof(hud_node_t);
        CHECK(HUD_LAYOUT_HAS_NODE_FIELD(&layout, accessibility_actions));
        hud_node_t node;
        memset(&node, 0, sizeof node);
        CHECK(hud_layout_finish(&layout) == HUD_STATUS_OK);
        CHECK(hud_layout_push_node(&layout, &node) == 0);
        CHECK(layout.count == 1);
        CHECK(hud_layout_finish(&layout) == HUD_STATUS_BUFFER_TOO_SMALL);

        if (failures == 0) printf("header probe ok (%s)\n", PROBE_LANGUAGE);
        return failures == 0 ? 0 : 1;
    }
    """#

    /// The two languages the header promises to compile in.
    enum ProbeLanguage: String, CaseIterable, Sendable {
        case c = "c"
        case cxx = "c++"

        var compiler: String { self == .c ? "cc" : "c++" }
        var flags: [String] { self == .c ? ["-x", "c", "-std=c11"] : ["-x", "c++", "-std=c++17"] }
    }

    @Test(arguments: ProbeLanguage.allCases)
    func headerCompilesWarningFreeAndItsHelpersWork(in language: ProbeLanguage) throws {
        let directory = try FixturePlugins.makeScratchDirectory("probe-\(language.compiler)")
        let source = directory + "/probe.txt"
        let program = directory + "/probe"
        try Self.headerProbe.write(toFile: source, atomically: true, encoding: .utf8)
        try FixturePlugins.compileCommand(
            [language.compiler] + language.flags
                + ["-Wall", "-Wextra", "-Werror", "-pedantic", "-I", FixturePlugins.headerDirectory, "-o", program, source]
        )
        let run = try FixturePlugins.run([program])
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.stdout == "header probe ok (\(language.rawValue))\n", "\(run.transcript)")
    }

    // MARK: - Pinned layouts

    /// Every ABI structure with its size and the offset of every field, as
    /// pinned for LP64 (x86_64 and aarch64 Linux). Changing a number here is
    /// an ABI break: it needs a new major version, never a quiet edit.
    static let pinnedLayouts: [StructLayout] = [
        StructLayout(hud_rect_t.self, "hud_rect_t", size: 32, fields: [
            ("x", 0, MemoryLayout<hud_rect_t>.offset(of: \.x)),
            ("y", 8, MemoryLayout<hud_rect_t>.offset(of: \.y)),
            ("width", 16, MemoryLayout<hud_rect_t>.offset(of: \.width)),
            ("height", 24, MemoryLayout<hud_rect_t>.offset(of: \.height)),
        ]),
        StructLayout(hud_insets_t.self, "hud_insets_t", size: 32, fields: [
            ("top", 0, MemoryLayout<hud_insets_t>.offset(of: \.top)),
            ("left", 8, MemoryLayout<hud_insets_t>.offset(of: \.left)),
            ("bottom", 16, MemoryLayout<hud_insets_t>.offset(of: \.bottom)),
            ("right", 24, MemoryLayout<hud_insets_t>.offset(of: \.right)),
        ]),
        StructLayout(hud_mode_t.self, "hud_mode_t", size: 48, fields: [
            ("struct_size", 0, MemoryLayout<hud_mode_t>.offset(of: \.struct_size)),
            ("reserved", 4, MemoryLayout<hud_mode_t>.offset(of: \.reserved)),
            ("id", 8, MemoryLayout<hud_mode_t>.offset(of: \.id)),
            ("icon", 16, MemoryLayout<hud_mode_t>.offset(of: \.icon)),
            ("label", 24, MemoryLayout<hud_mode_t>.offset(of: \.label)),
            ("action", 32, MemoryLayout<hud_mode_t>.offset(of: \.action)),
            ("flags", 40, MemoryLayout<hud_mode_t>.offset(of: \.flags)),
            ("reserved_1_2", 44, MemoryLayout<hud_mode_t>.offset(of: \.reserved_1_2)),
        ]),
        StructLayout(hud_secondary_t.self, "hud_secondary_t", size: 32, fields: [
            ("struct_size", 0, MemoryLayout<hud_secondary_t>.offset(of: \.struct_size)),
            ("reserved", 4, MemoryLayout<hud_secondary_t>.offset(of: \.reserved)),
            ("icon", 8, MemoryLayout<hud_secondary_t>.offset(of: \.icon)),
            ("label", 16, MemoryLayout<hud_secondary_t>.offset(of: \.label)),
            ("action", 24, MemoryLayout<hud_secondary_t>.offset(of: \.action)),
        ]),
        StructLayout(hud_slot_t.self, "hud_slot_t", size: 56, fields: [
            ("struct_size", 0, MemoryLayout<hud_slot_t>.offset(of: \.struct_size)),
            ("role", 4, MemoryLayout<hud_slot_t>.offset(of: \.role)),
            ("icon", 8, MemoryLayout<hud_slot_t>.offset(of: \.icon)),
            ("label", 16, MemoryLayout<hud_slot_t>.offset(of: \.label)),
            ("secondary", 24, MemoryLayout<hud_slot_t>.offset(of: \.secondary)),
            ("modes", 32, MemoryLayout<hud_slot_t>.offset(of: \.modes)),
            ("mode_count", 40, MemoryLayout<hud_slot_t>.offset(of: \.mode_count)),
            ("reserved", 44, MemoryLayout<hud_slot_t>.offset(of: \.reserved)),
            ("action", 48, MemoryLayout<hud_slot_t>.offset(of: \.action)),
        ]),
        StructLayout(hud_complications_t.self, "hud_complications_t", size: 48, fields: [
            ("struct_size", 0, MemoryLayout<hud_complications_t>.offset(of: \.struct_size)),
            ("reserved", 4, MemoryLayout<hud_complications_t>.offset(of: \.reserved)),
            ("slots", 8, MemoryLayout<hud_complications_t>.offset(of: \.slots)),
        ]),
        StructLayout(hud_palette_t.self, "hud_palette_t", size: 64, fields: [
            ("struct_size", 0, MemoryLayout<hud_palette_t>.offset(of: \.struct_size)),
            ("reserved", 4, MemoryLayout<hud_palette_t>.offset(of: \.reserved)),
            ("bg", 8, MemoryLayout<hud_palette_t>.offset(of: \.bg)),
            ("surface", 12, MemoryLayout<hud_palette_t>.offset(of: \.surface)),
            ("chrome", 16, MemoryLayout<hud_palette_t>.offset(of: \.chrome)),
            ("ink", 20, MemoryLayout<hud_palette_t>.offset(of: \.ink)),
            ("muted", 24, MemoryLayout<hud_palette_t>.offset(of: \.muted)),
            ("dim", 28, MemoryLayout<hud_palette_t>.offset(of: \.dim)),
            ("border", 32, MemoryLayout<hud_palette_t>.offset(of: \.border)),
            ("accent", 36, MemoryLayout<hud_palette_t>.offset(of: \.accent)),
            ("status_ok", 40, MemoryLayout<hud_palette_t>.offset(of: \.status_ok)),
            ("status_warn", 44, MemoryLayout<hud_palette_t>.offset(of: \.status_warn)),
            ("status_error", 48, MemoryLayout<hud_palette_t>.offset(of: \.status_error)),
            ("status_info", 52, MemoryLayout<hud_palette_t>.offset(of: \.status_info)),
            ("hairline_subtle", 56, MemoryLayout<hud_palette_t>.offset(of: \.hairline_subtle)),
            ("hairline_standard", 60, MemoryLayout<hud_palette_t>.offset(of: \.hairline_standard)),
        ]),
        StructLayout(hud_environment_t.self, "hud_environment_t", size: 176, fields: [
            ("struct_size", 0, MemoryLayout<hud_environment_t>.offset(of: \.struct_size)),
            ("layout_direction", 4, MemoryLayout<hud_environment_t>.offset(of: \.layout_direction)),
            ("screen_width", 8, MemoryLayout<hud_environment_t>.offset(of: \.screen_width)),
            ("screen_height", 16, MemoryLayout<hud_environment_t>.offset(of: \.screen_height)),
            ("safe_area", 24, MemoryLayout<hud_environment_t>.offset(of: \.safe_area)),
            ("scale", 56, MemoryLayout<hud_environment_t>.offset(of: \.scale)),
            ("text_scale", 64, MemoryLayout<hud_environment_t>.offset(of: \.text_scale)),
            ("color_scheme", 72, MemoryLayout<hud_environment_t>.offset(of: \.color_scheme)),
            ("appearance", 76, MemoryLayout<hud_environment_t>.offset(of: \.appearance)),
            ("palette", 80, MemoryLayout<hud_environment_t>.offset(of: \.palette)),
            ("navigation_bar", 88, MemoryLayout<hud_environment_t>.offset(of: \.navigation_bar)),
            ("navigation_title", 120, MemoryLayout<hud_environment_t>.offset(of: \.navigation_title)),
            ("accessibility", 128, MemoryLayout<hud_environment_t>.offset(of: \.accessibility)),
            ("reserved", 132, MemoryLayout<hud_environment_t>.offset(of: \.reserved)),
            // ABI 1.1, appended at HUD_ENVIRONMENT_SIZE_1_0.
            ("presentation", 136, MemoryLayout<hud_environment_t>.offset(of: \.presentation)),
            ("reserved_1_1", 140, MemoryLayout<hud_environment_t>.offset(of: \.reserved_1_1)),
            ("reserved_lanes", 144, MemoryLayout<hud_environment_t>.offset(of: \.reserved_lanes)),
        ]),
        StructLayout(hud_interaction_t.self, "hud_interaction_t", size: 24, fields: [
            ("struct_size", 0, MemoryLayout<hud_interaction_t>.offset(of: \.struct_size)),
            ("pressed_position", 4, MemoryLayout<hud_interaction_t>.offset(of: \.pressed_position)),
            ("pressed_part", 8, MemoryLayout<hud_interaction_t>.offset(of: \.pressed_part)),
            ("pressed_mode_index", 12, MemoryLayout<hud_interaction_t>.offset(of: \.pressed_mode_index)),
            ("revealed_position", 16, MemoryLayout<hud_interaction_t>.offset(of: \.revealed_position)),
            ("reserved", 20, MemoryLayout<hud_interaction_t>.offset(of: \.reserved)),
        ]),
        StructLayout(hud_node_t.self, "hud_node_t", size: 184, fields: [
            ("kind", 0, MemoryLayout<hud_node_t>.offset(of: \.kind)),
            ("position", 4, MemoryLayout<hud_node_t>.offset(of: \.position)),
            ("part", 8, MemoryLayout<hud_node_t>.offset(of: \.part)),
            ("mode_index", 12, MemoryLayout<hud_node_t>.offset(of: \.mode_index)),
            ("frame", 16, MemoryLayout<hud_node_t>.offset(of: \.frame)),
            ("hit", 48, MemoryLayout<hud_node_t>.offset(of: \.hit)),
            ("shape", 80, MemoryLayout<hud_node_t>.offset(of: \.shape)),
            ("material", 84, MemoryLayout<hud_node_t>.offset(of: \.material)),
            ("corner_radius", 88, MemoryLayout<hud_node_t>.offset(of: \.corner_radius)),
            ("stroke_width", 96, MemoryLayout<hud_node_t>.offset(of: \.stroke_width)),
            ("font_size", 104, MemoryLayout<hud_node_t>.offset(of: \.font_size)),
            ("fill", 112, MemoryLayout<hud_node_t>.offset(of: \.fill)),
            ("stroke", 116, MemoryLayout<hud_node_t>.offset(of: \.stroke)),
            ("icon_color", 120, MemoryLayout<hud_node_t>.offset(of: \.icon_color)),
            ("text_color", 124, MemoryLayout<hud_node_t>.offset(of: \.text_color)),
            ("placement", 128, MemoryLayout<hud_node_t>.offset(of: \.placement)),
            ("z", 132, MemoryLayout<hud_node_t>.offset(of: \.z)),
            ("flags", 136, MemoryLayout<hud_node_t>.offset(of: \.flags)),
            ("reserved", 140, MemoryLayout<hud_node_t>.offset(of: \.reserved)),
            ("icon", 144, MemoryLayout<hud_node_t>.offset(of: \.icon)),
            ("label", 152, MemoryLayout<hud_node_t>.offset(of: \.label)),
            ("accessibility_label", 160, MemoryLayout<hud_node_t>.offset(of: \.accessibility_label)),
            // ABI 1.1, appended at HUD_NODE_SIZE_1_0.
            ("glyph_size", 168, MemoryLayout<hud_node_t>.offset(of: \.glyph_size)),
            ("accessibility_actions", 176, MemoryLayout<hud_node_t>.offset(of: \.accessibility_actions)),
        ]),
        StructLayout(hud_layout_t.self, "hud_layout_t", size: 64, fields: [
            ("struct_size", 0, MemoryLayout<hud_layout_t>.offset(of: \.struct_size)),
            ("node_stride", 4, MemoryLayout<hud_layout_t>.offset(of: \.node_stride)),
            ("nodes", 8, MemoryLayout<hud_layout_t>.offset(of: \.nodes)),
            ("capacity", 16, MemoryLayout<hud_layout_t>.offset(of: \.capacity)),
            ("count", 20, MemoryLayout<hud_layout_t>.offset(of: \.count)),
            ("content_insets", 24, MemoryLayout<hud_layout_t>.offset(of: \.content_insets)),
            ("hidden_positions", 56, MemoryLayout<hud_layout_t>.offset(of: \.hidden_positions)),
            ("reserved", 60, MemoryLayout<hud_layout_t>.offset(of: \.reserved)),
        ]),
        StructLayout(hud_renderer_descriptor_t.self, "hud_renderer_descriptor_t", size: 80, fields: [
            ("struct_size", 0, MemoryLayout<hud_renderer_descriptor_t>.offset(of: \.struct_size)),
            ("capabilities", 4, MemoryLayout<hud_renderer_descriptor_t>.offset(of: \.capabilities)),
            ("id", 8, MemoryLayout<hud_renderer_descriptor_t>.offset(of: \.id)),
            ("name", 16, MemoryLayout<hud_renderer_descriptor_t>.offset(of: \.name)),
            ("version", 24, MemoryLayout<hud_renderer_descriptor_t>.offset(of: \.version)),
            ("vendor", 32, MemoryLayout<hud_renderer_descriptor_t>.offset(of: \.vendor)),
            ("description", 40, MemoryLayout<hud_renderer_descriptor_t>.offset(of: \.description)),
            ("supported_positions", 48, MemoryLayout<hud_renderer_descriptor_t>.offset(of: \.supported_positions)),
            ("reserved", 52, MemoryLayout<hud_renderer_descriptor_t>.offset(of: \.reserved)),
            ("layout", 56, MemoryLayout<hud_renderer_descriptor_t>.offset(of: \.layout)),
            ("get_extension", 64, MemoryLayout<hud_renderer_descriptor_t>.offset(of: \.get_extension)),
            ("picker_icon", 72, MemoryLayout<hud_renderer_descriptor_t>.offset(of: \.picker_icon)),
        ]),
        StructLayout(hud_entry_t.self, "hud_entry_t", size: 40, fields: [
            ("abi_version", 0, MemoryLayout<hud_entry_t>.offset(of: \.abi_version)),
            ("struct_size", 4, MemoryLayout<hud_entry_t>.offset(of: \.struct_size)),
            ("init", 8, MemoryLayout<hud_entry_t>.offset(of: \.`init`)),
            ("deinit", 16, MemoryLayout<hud_entry_t>.offset(of: \.`deinit`)),
            ("renderer_count", 24, MemoryLayout<hud_entry_t>.offset(of: \.renderer_count)),
            ("renderer_at", 32, MemoryLayout<hud_entry_t>.offset(of: \.renderer_at)),
        ]),
        StructLayout(hud_renderer_metadata_t.self, "hud_renderer_metadata_t", size: 408, fields: [
            ("magic", 0, MemoryLayout<hud_renderer_metadata_t>.offset(of: \.magic)),
            ("record_size", 8, MemoryLayout<hud_renderer_metadata_t>.offset(of: \.record_size)),
            ("abi_version", 12, MemoryLayout<hud_renderer_metadata_t>.offset(of: \.abi_version)),
            ("supported_positions", 16, MemoryLayout<hud_renderer_metadata_t>.offset(of: \.supported_positions)),
            ("capabilities", 20, MemoryLayout<hud_renderer_metadata_t>.offset(of: \.capabilities)),
            ("id", 24, MemoryLayout<hud_renderer_metadata_t>.offset(of: \.id)),
            ("name", 96, MemoryLayout<hud_renderer_metadata_t>.offset(of: \.name)),
            ("version", 232, MemoryLayout<hud_renderer_metadata_t>.offset(of: \.version)),
            ("vendor", 272, MemoryLayout<hud_renderer_metadata_t>.offset(of: \.vendor)),
        ]),
    ]

    @Test(arguments: pinnedLayouts)
    func swiftSeesThePinnedLayout(_ layout: StructLayout) {
        #expect(layout.swiftSize == layout.pinnedSize, "size of \(layout.name)")
        // No tail padding: Swift's size (which excludes it) equals C's sizeof.
        #expect(layout.swiftStride == layout.pinnedSize, "stride of \(layout.name)")
        for field in layout.fields {
            #expect(field.swiftOffset == field.pinnedOffset, "offset of \(layout.name).\(field.name)")
        }
    }

    @Test(arguments: pinnedLayouts)
    func pinnedTableListsEveryFieldInDeclarationOrder(_ layout: StructLayout) {
        #expect(layout.fields.map(\.name) == layout.swiftFieldNames)
        #expect(layout.fields.map(\.pinnedOffset) == layout.fields.map(\.pinnedOffset).sorted())
    }

    @Test func allFourteenABIStructuresArePinned() {
        #expect(Set(Self.pinnedLayouts.map(\.name)) == [
            "hud_rect_t", "hud_insets_t", "hud_mode_t", "hud_secondary_t", "hud_slot_t", "hud_complications_t",
            "hud_palette_t", "hud_environment_t", "hud_interaction_t", "hud_node_t", "hud_layout_t",
            "hud_renderer_descriptor_t", "hud_entry_t", "hud_renderer_metadata_t",
        ])
    }

    // MARK: - C and Swift agree

    /// A C program that prints `name size alignment` and `name.field offset`
    /// lines for every structure and field in the pinned table (a field the
    /// table names but C lacks fails to compile).
    static var layoutProbe: String {
        var lines = ["#include <stddef.h>", "#include <stdio.h>", "#include \"hud_renderer.h\"", "int main(void) {"]
        for layout in pinnedLayouts {
            lines.append("    printf(\"\(layout.name) %zu %zu\\n\", sizeof(\(layout.name)), _Alignof(\(layout.name)));")
            for field in layout.fields {
                lines.append("    printf(\"\(layout.name).\(field.name) %zu\\n\", offsetof(\(layout.name), \(field.name)));")
            }
        }
        lines += ["    return 0;", "}", ""]
        return lines.joined(separator: "\n")
    }

    @Test func cCompilerAndSwiftImporterAgreeOnEverySizeAndOffset() throws {
        let directory = try FixturePlugins.makeScratchDirectory("layout-probe")
        let source = directory + "/layout_probe.c"
        let program = directory + "/layout_probe"
        try Self.layoutProbe.write(toFile: source, atomically: true, encoding: .utf8)
        try FixturePlugins.compileCommand(
            ["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", FixturePlugins.headerDirectory, "-o", program, source]
        )
        let run = try FixturePlugins.run([program])
        try #require(run.status == 0, "\(run.transcript)")

        var reported: [String: [Int]] = [:]
        for line in run.stdout.split(separator: "\n") {
            let words = line.split(separator: " ")
            reported[String(words[0])] = words.dropFirst().compactMap { Int($0) }
        }
        for layout in Self.pinnedLayouts {
            #expect(reported[layout.name] == [layout.swiftStride, layout.swiftAlignment], "sizeof/_Alignof of \(layout.name)")
            for field in layout.fields {
                #expect(reported["\(layout.name).\(field.name)"] == field.swiftOffset.map { [$0] }, "offsetof(\(layout.name), \(field.name))")
            }
        }
        let expectedLines = Self.pinnedLayouts.reduce(0) { $0 + 1 + $1.fields.count }
        #expect(reported.count == expectedLines)
    }

    // MARK: - hud_layout_push_node

    /// Calls hud_layout_push_node from C into buffers surrounded by guard
    /// bytes, with strides equal to, larger and smaller than sizeof(hud_node_t)
    /// and with an empty (NULL) buffer, and checks nothing outside the first
    /// `capacity` nodes' known bytes is touched while every push is counted.
    static let pushNodeProbe = #"""
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include "hud_renderer.h"

    #define GUARD 0xA5
    #define GUARD_BYTES 256

    static int failures = 0;
    #define CHECK(condition, ...)                                           \
        do {                                                                \
            if (!(condition)) {                                             \
                printf("FAIL line %d: %s: ", __LINE__, #condition);         \
                printf(__VA_ARGS__);                                        \
                printf("\n");                                               \
                failures++;                                                 \
            }                                                               \
        } while (0)

    /* Pushes `pushes` nodes into a buffer of `capacity` nodes of `stride`
     * bytes framed by guard bytes on both sides. */
    static void run_case(uint32_t capacity, uint32_t stride, uint32_t pushes) {
        size_t body = (size_t)capacity * stride;
        unsigned char *block = malloc(GUARD_BYTES + body + GUARD_BYTES);
        memset(block, GUARD, GUARD_BYTES + body + GUARD_BYTES);
        unsigned char *nodes = block + GUARD_BYTES;

        hud_layout_t layout;
        memset(&layout, 0, sizeof layout);
        layout.struct_size = sizeof(hud_layout_t);
        layout.node_stride = stride;
        layout.nodes = capacity == 0 ? NULL : nodes;
        layout.capacity = capacity;

        for (uint32_t i = 0; i < pushes; i++) {
            hud_node_t node;
            memset(&node, (int)(0x10 + i), sizeof node);
            int written = hud_layout_push_node(&layout, &node);
            CHECK(written == (i < capacity), "capacity %u stride %u push %u returned %d", capacity, stride, i, written);
        }
        CHECK(layout.count == pushes, "capacity %u stride %u: count %u after %u pushes", capacity, stride, layout.count, pushes);
        hud_status_t expected = pushes > capacity ? HUD_STATUS_BUFFER_TOO_SMALL : HUD_STATUS_OK;
        CHECK(hud_layout_finish(&layout) == expected, "capacity %u stride %u: finish", capacity, stride);

        size_t copied = sizeof(hud_node_t) < stride ? sizeof(hud_node_t) : stride;
        for (size_t b = 0; b < GUARD_BYTES; b++) {
            CHECK(block[b] == GUARD, "capacity %u stride %u: guard byte %zu before the buffer changed", capacity, stride, b);
            CHECK(nodes[body + b] == GUARD, "capacity %u stride %u: guard byte %zu after the buffer changed", capacity, stride, b);
        }
        for (uint32_t i = 0; i < capacity; i++) {
            for (size_t b = 0; b < stride; b++) {
                unsigned char want = (i < pushes && b < copied) ? (unsigned char)(0x10 + i) : GUARD;
                CHECK(nodes[(size_t)i * stride + b] == want, "capacity %u stride %u: node %u byte %zu", capacity, stride, i, b);
            }
        }
        free(block);
    }

    int main(void) {
        const uint32_t size = (uint32_t)sizeof(hud_node_t);
        run_case(0, size, 3);       /* empty buffer: count only */
        run_case(3, size, 3);       /* exactly full */
        run_case(3, size, 10);      /* overflow: first three written */
        run_case(4, size + 24, 9);  /* a newer host's larger stride */
        run_case(4, size - 8, 9);   /* an older host's smaller stride */
        run_case(64, size, 1);      /* plenty of room */
        if (failures == 0) printf("push probe ok\n");
        return failures == 0 ? 0 : 1;
    }
    """#

    @Test func pushNodeNeverWritesPastCapacityAndCountsEveryNode() throws {
        let directory = try FixturePlugins.makeScratchDirectory("push-probe")
        let source = directory + "/push_probe.c"
        let program = directory + "/push_probe"
        try Self.pushNodeProbe.write(toFile: source, atomically: true, encoding: .utf8)
        try FixturePlugins.compileCommand(
            ["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1", "-fsanitize=address,undefined",
             "-fno-sanitize-recover=all", "-I", FixturePlugins.headerDirectory, "-o", program, source]
        )
        let run = try FixturePlugins.run([program])
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.stdout == "push probe ok\n", "\(run.transcript)")
    }
}

/// One ABI structure's pinned layout next to what Swift's importer made of it.
struct StructLayout: Sendable, CustomTestStringConvertible {
    struct Field: Sendable {
        var name: String
        var pinnedOffset: Int
        var swiftOffset: Int?
    }

    var name: String
    var pinnedSize: Int
    var swiftSize: Int
    var swiftStride: Int
    var swiftAlignment: Int
    var fields: [Field]
    /// The stored properties Swift imported, in declaration order.
    var swiftFieldNames: [String]

    init<T>(_ type: T.Type, _ name: String, size: Int, fields: [(String, Int, Int?)]) {
        self.name = name
        self.pinnedSize = size
        self.swiftSize = MemoryLayout<T>.size
        self.swiftStride = MemoryLayout<T>.stride
        self.swiftAlignment = MemoryLayout<T>.alignment
        self.fields = fields.map { Field(name: $0.0, pinnedOffset: $0.1, swiftOffset: $0.2) }
        // A zero-filled value is a valid instance of every ABI struct (all
        // pointers are optional), so reflection can list its fields.
        let zero = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
        defer { zero.deallocate() }
        zero.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<T>.size)
        self.swiftFieldNames = Mirror(reflecting: zero.load(as: T.self)).children.compactMap(\.label)
    }

    var testDescription: String { name }
}
