/* SPDX-License-Identifier: MIT */
/*
 * hud_abi.h — the core of the Hudson HUD renderer ABI, version 1.2: versions,
 * status codes, limits, value types, the inputs (complications, environment,
 * interaction), the output (nodes, layout), the descriptor and the entry,
 * with the frozen 1.0, 1.1 and 1.2 size of every structure and the
 * field-presence rule. 1.1 appended glyph_size and accessibility_actions to
 * hud_node_t and presentation and reserved_lanes to hud_environment_t
 * (ABI.md, "Changes from 1.0 to 1.1"); 1.2 appended flags to
 * hud_mode_t (HUD_MODE_FLAG_CURRENT), picker_icon to
 * hud_renderer_descriptor_t and added HUD_NODE_FLAG_SELECTED ("Changes
 * from 1.1 to 1.2").
 *
 * The documents named here (ABI.md, …) are in the SDK's document
 * directory (`hudhost sdk --doc-dir`; Docs/ in a checkout).
 *
 * Part of the SDK include directory (<prefix>/include/hud/); plugins
 * usually include the umbrella "hud_renderer.h", which conventions and
 * contracts below assume you have read once:
 *
 *   Threads   Every function carries a tag.
 *             [main-thread]  called by the host from one thread at a time,
 *                            the thread that called init();
 *             [thread-safe]  may be called from any thread, concurrently.
 *             layout() is [main-thread] unless the descriptor sets
 *             HUD_CAPABILITY_THREAD_SAFE, which makes it [thread-safe].
 *
 *   Owners    Every pointer says who owns it and how long it is valid.
 *             [host-owned]     allocated and freed by the host;
 *             [plugin-owned]   allocated and freed by the plugin.
 *             Nothing is ever freed by the side that did not allocate it.
 *
 *   Strings   UTF-8, NUL-terminated. Each has a maximum length in bytes,
 *             excluding the NUL (HUD_MAX_*_BYTES below). Nullable strings
 *             say so; every other string pointer is non-NULL.
 *
 *   Units     Lengths are points (pt), origin at the top-left corner of the
 *             screen, y growing downwards. Colors are hud_rgba_t.
 *
 *   Sizes     Every structure that may grow in a minor version starts with
 *             `struct_size`, set by whoever fills it in to its own sizeof.
 *             A field is present only if struct_size covers it
 *             (HUD_STRUCT_HAS); a reader treats an absent field as zero.
 *             Fields are only ever appended; each structure's 1.0 size is
 *             frozen as HUD_*_SIZE_1_0. See ABI.md.
 *
 *   Failures  Functions return hud_status_t. No function may abort, exit,
 *             longjmp out, throw a C++ exception (or unwind a Rust panic)
 *             across the boundary, or print to stdout (stdout belongs to
 *             the host).
 *
 * C11 and C++ compatible; includes only standard headers.
 */
#ifndef HUD_ABI_H
#define HUD_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A compile-time assertion at file scope, in C11 and in C++11. */
#ifdef __cplusplus
#define HUD_STATIC_ASSERT(condition, message) static_assert(condition, message)
#else
#define HUD_STATIC_ASSERT(condition, message) _Static_assert(condition, message)
#endif

/* ------------------------------------------------------------------------ */
/* Versions                                                                  */
/* ------------------------------------------------------------------------ */

/* The ABI version this header describes. Major must match between host and
 * plugin; a minor version only appends fields, constants and extensions. */
#define HUD_ABI_VERSION_MAJOR 1
#define HUD_ABI_VERSION_MINOR 2

/* Packs a version: major in the high 16 bits, minor in the low 16. */
#define HUD_ABI_MAKE_VERSION(major, minor) \
    ((uint32_t)(((uint32_t)(major) << 16) | ((uint32_t)(minor) & 0xFFFFu)))
#define HUD_ABI_VERSION_GET_MAJOR(version) ((uint32_t)(version) >> 16)
#define HUD_ABI_VERSION_GET_MINOR(version) ((uint32_t)(version) & 0xFFFFu)

#define HUD_ABI_VERSION \
    HUD_ABI_MAKE_VERSION(HUD_ABI_VERSION_MAJOR, HUD_ABI_VERSION_MINOR)

/* True when a plugin built against `plugin_version` can be used by a host
 * built against this header: the majors match. A plugin with a newer minor
 * works too; the host simply ignores the fields it does not know. */
static inline int hud_abi_version_is_compatible(uint32_t plugin_version) {
    return HUD_ABI_VERSION_GET_MAJOR(plugin_version) == HUD_ABI_VERSION_MAJOR;
}

/* ------------------------------------------------------------------------ */
/* Visibility and the entry symbol                                           */
/* ------------------------------------------------------------------------ */

/* HUD_HAS_ATTRIBUTE(name): 1 when the compiler takes
 * __attribute__((name)), 0 on compilers without __has_attribute. Every
 * attribute in these headers goes through it, so they compile with any
 * C11 or C++11 compiler (the attributes then simply do nothing). */
#ifdef __has_attribute
#define HUD_HAS_ATTRIBUTE(name) __has_attribute(name)
#else
#define HUD_HAS_ATTRIBUTE(name) 0
#endif

/* Makes the entry symbol visible even when built with -fvisibility=hidden. */
#if HUD_HAS_ATTRIBUTE(visibility)
#define HUD_EXPORT __attribute__((visibility("default")))
#else
#define HUD_EXPORT
#endif

/* The single symbol a plugin exports: a function with the signature
 * hud_get_entry_fn, named HUD_ENTRY_SYMBOL_NAME. It is a function rather
 * than a data symbol so that every C-ABI language (Swift, Rust, Zig) can
 * export it; see ABI.md, decision 1. */
#define HUD_ENTRY_SYMBOL hud_renderer_get_entry
#define HUD_ENTRY_SYMBOL_NAME "hud_renderer_get_entry"

/* ------------------------------------------------------------------------ */
/* Status codes                                                              */
/* ------------------------------------------------------------------------ */

typedef int32_t hud_status_t;

enum {
    HUD_STATUS_OK = 0,
    /* layout(): the node buffer was too small; layout->count holds the
     * number of nodes needed. The host grows the buffer and calls again. */
    HUD_STATUS_BUFFER_TOO_SMALL = 1,
    /* An input violated this header (e.g. struct_size too small). */
    HUD_STATUS_INVALID_ARGUMENT = -1,
    /* The renderer cannot serve this request (e.g. an unsupported
     * environment); the host reports it and draws nothing. */
    HUD_STATUS_UNSUPPORTED = -2,
    /* The plugin failed internally (e.g. out of memory). */
    HUD_STATUS_INTERNAL_ERROR = -3,
    /* A call that needs init() came before it (or after the last deinit). */
    HUD_STATUS_NOT_INITIALIZED = -4
};

/* ------------------------------------------------------------------------ */
/* Limits (bytes exclude the terminating NUL)                                */
/* ------------------------------------------------------------------------ */

#define HUD_MAX_ID_BYTES 64            /* renderer id, mode id */
#define HUD_MAX_NAME_BYTES 128         /* display name, vendor */
#define HUD_MAX_VERSION_BYTES 32       /* renderer version string */
#define HUD_MAX_DESCRIPTION_BYTES 1024 /* renderer description */
#define HUD_MAX_ICON_BYTES 128         /* SF Symbol-style icon name */
#define HUD_MAX_LABEL_BYTES 4096       /* slot/mode/chip label, a11y label */
#define HUD_MAX_TITLE_BYTES 4096       /* navigation title */
#define HUD_MAX_EXTENSION_ID_BYTES 128 /* extension id */
#define HUD_MAX_MODES 64               /* long-press modes per slot */
#define HUD_MAX_RENDERERS 256          /* renderers per plugin */
#define HUD_MAX_NODES 4096             /* nodes per layout */

/* ------------------------------------------------------------------------ */
/* Small value types                                                         */
/* ------------------------------------------------------------------------ */

/* sRGB color, not premultiplied: 0xRRGGBBAA (alpha 0xFF is opaque). */
typedef uint32_t hud_rgba_t;

#define HUD_RGBA(r, g, b, a)                                             \
    ((hud_rgba_t)((((uint32_t)(r) & 0xFFu) << 24) |                      \
                  (((uint32_t)(g) & 0xFFu) << 16) |                      \
                  (((uint32_t)(b) & 0xFFu) << 8) | ((uint32_t)(a) & 0xFFu)))

/* A rectangle in points. width and height are >= 0. */
typedef struct hud_rect {
    double x;      /* pt, left edge */
    double y;      /* pt, top edge */
    double width;  /* pt */
    double height; /* pt */
} hud_rect_t;

/* Insets in points, by physical edge (not leading/trailing). */
typedef struct hud_insets {
    double top;    /* pt */
    double left;   /* pt */
    double bottom; /* pt */
    double right;  /* pt */
} hud_insets_t;

/* The five positions: a closed set. Never extended within major 1. */
typedef int32_t hud_position_t;
enum {
    HUD_POSITION_NONE = -1, /* not tied to a position (e.g. the tray) */
    HUD_POSITION_TOP_LEFT = 0,  /* the leading top corner: top-right in RTL */
    HUD_POSITION_TOP_RIGHT = 1, /* the trailing top corner */
    HUD_POSITION_BOTTOM_LEFT = 2,  /* leading bottom corner */
    HUD_POSITION_BOTTOM_RIGHT = 3, /* trailing bottom corner */
    HUD_POSITION_CENTER = 4,       /* does not move in RTL */
    HUD_POSITION_COUNT = 5
};

/* Position sets as bit masks: bit (1u << position). */
#define HUD_POSITION_BIT(position) (1u << (uint32_t)(position))
#define HUD_POSITION_ALL_BITS 0x1Fu

/* The slot's role drives its colors. */
typedef int32_t hud_role_t;
enum {
    HUD_ROLE_STANDARD = 0,
    HUD_ROLE_ACCENT = 1,
    HUD_ROLE_DESTRUCTIVE = 2
};

typedef int32_t hud_layout_direction_t;
enum {
    HUD_LAYOUT_DIRECTION_LTR = 0,
    HUD_LAYOUT_DIRECTION_RTL = 1
};

typedef int32_t hud_color_scheme_t;
enum {
    HUD_COLOR_SCHEME_DARK = 0,
    HUD_COLOR_SCHEME_LIGHT = 1
};

/* The seed's HudPhoneAppShellAppearance. */
typedef int32_t hud_appearance_t;
enum {
    /* The dark scheme on all system chrome, whatever the device scheme. */
    HUD_APPEARANCE_HUDSON = 0,
    /* System chrome follows the device's color scheme; the complications
     * keep the stable dark palette either way. */
    HUD_APPEARANCE_SYSTEM = 1
};

/* Where the shell's control deck stands (hud_environment_t.presentation,
 * ABI 1.1). Informative: the host owns the deck's state and its lanes; a
 * renderer adapts to it (or ignores it) and never changes it. */
typedef int32_t hud_presentation_t;
enum {
    /* The complications are always shown (the seed's shell). What a 1.0
     * host means, and what an absent field reads as. */
    HUD_PRESENTATION_ALWAYS_VISIBLE = 0,
    /* Summoned on demand, collapsed: the shell shows only its pivot
     * button, in a bottom lane it reserves (reserved_lanes.bottom). */
    HUD_PRESENTATION_DECK_RESTING = 1,
    /* Summoned on demand, expanded: the shell's own top lane
     * (reserved_lanes.top) hosts the top corners and its close button;
     * the renderer lays out the bottom slots and the center. */
    HUD_PRESENTATION_DECK_EXPANDED = 2
};

/* Accessibility flags (hud_environment_t.accessibility). */
#define HUD_ACCESSIBILITY_REDUCE_MOTION 0x1u
#define HUD_ACCESSIBILITY_REDUCE_TRANSPARENCY 0x2u
#define HUD_ACCESSIBILITY_INCREASE_CONTRAST 0x4u

/* An action: the C mirror of a Swift `() -> Void`.
 * Owner: the host. Valid while the complications that carry it are
 * published; the host retires it afterwards (a call through a retired
 * action is caught and counted by the host, but is a plugin bug).
 * Thread: [main-thread]. A renderer must NEVER call an action from inside
 * layout(); the host detects that and reports a contract violation. */
typedef void (*hud_action_fn)(void);

/* ------------------------------------------------------------------------ */
/* Inputs: the complications                                                 */
/* ------------------------------------------------------------------------ */

/* The seed's Mode: an alternative action offered on long press.
 * All pointers [host-owned], valid for the duration of the layout() call
 * that received them (in practice: until the set is republished). */
typedef struct hud_mode {
    uint32_t struct_size; /* sizeof(hud_mode_t) as the host knows it */
    uint32_t reserved;    /* 0 */
    const char *id;       /* unique within the slot, <= HUD_MAX_ID_BYTES */
    const char *icon;     /* <= HUD_MAX_ICON_BYTES */
    const char *label;    /* <= HUD_MAX_LABEL_BYTES */
    hud_action_fn action; /* non-NULL */

    /* ---- ABI 1.2: present only when struct_size covers them (read behind
     * HUD_STRUCT_HAS(mode, hud_mode_t, flags)); set by the host. ---- */
    uint32_t flags;        /* HUD_MODE_FLAG_* */
    uint32_t reserved_1_2; /* 0 */
} hud_mode_t;
/* sizeof(hud_mode_t) in ABI 1.0 (LP64), frozen: the least struct_size a reader accepts. */
#define HUD_MODE_SIZE_1_0 40u
/* sizeof(hud_mode_t) in ABI 1.2 (LP64), frozen: the least struct_size that covers flags. */
#define HUD_MODE_SIZE_1_2 48u

/* Mode flags (ABI 1.2). */
/* The mode the slot is in now (the style in use, in the demo's style
 * picker): at most one mode of a slot. A renderer that draws a picker marks
 * that mode's item with HUD_NODE_FLAG_SELECTED. Absent (a 1.0 or 1.1 host):
 * no mode is marked current. */
#define HUD_MODE_FLAG_CURRENT 0x1u

/* The seed's Secondary: a smaller chip on the slot's inner side (toward the screen's centre).
 * All pointers [host-owned], valid during layout(). */
typedef struct hud_secondary {
    uint32_t struct_size; /* sizeof(hud_secondary_t) as the host knows it */
    uint32_t reserved;    /* 0 */
    const char *icon;     /* <= HUD_MAX_ICON_BYTES */
    const char *label;    /* nullable, <= HUD_MAX_LABEL_BYTES */
    /* Nullable. NULL: the chip is decoration (a badge) and is not
     * interactive. Non-NULL: the chip is a control with its own hit region. */
    hud_action_fn action;
} hud_secondary_t;
/* sizeof(hud_secondary_t) in ABI 1.0 (LP64), frozen: the least struct_size a reader accepts. */
#define HUD_SECONDARY_SIZE_1_0 32u

/* The seed's Slot. All pointers [host-owned], valid during layout(). */
typedef struct hud_slot {
    uint32_t struct_size;             /* sizeof(hud_slot_t) per the host */
    hud_role_t role;                  /* HUD_ROLE_* */
    const char *icon;                 /* <= HUD_MAX_ICON_BYTES */
    const char *label;                /* nullable, <= HUD_MAX_LABEL_BYTES */
    const hud_secondary_t *secondary; /* nullable */
    /* mode_count pointers to modes (an array of pointers, so each mode
     * carries its own struct_size). NULL when mode_count is 0. */
    const hud_mode_t *const *modes;
    uint32_t mode_count;  /* <= HUD_MAX_MODES */
    uint32_t reserved;    /* 0 */
    hud_action_fn action; /* tap handler, non-NULL */
} hud_slot_t;
/* sizeof(hud_slot_t) in ABI 1.0 (LP64), frozen: the least struct_size a reader accepts. */
#define HUD_SLOT_SIZE_1_0 56u

/* The seed's HudPhoneComplications: five positions, each optional.
 * [host-owned], valid during layout(). Renderers must not modify it. */
typedef struct hud_complications {
    uint32_t struct_size; /* sizeof(hud_complications_t) per the host */
    uint32_t reserved;    /* 0 */
    /* Indexed by hud_position_t; NULL = nothing published there. */
    const hud_slot_t *slots[HUD_POSITION_COUNT];
} hud_complications_t;
/* sizeof(hud_complications_t) in ABI 1.0 (LP64), frozen: the least struct_size a reader accepts. */
#define HUD_COMPLICATIONS_SIZE_1_0 48u

/* ------------------------------------------------------------------------ */
/* Inputs: the environment                                                   */
/* ------------------------------------------------------------------------ */

/* The palette the complications must use: Hudson's stable dark palette
 * under every appearance and scheme (or a custom one the host chose).
 * Token names and meanings follow HudPalette. [host-owned], valid during
 * layout(). */
typedef struct hud_palette {
    uint32_t struct_size; /* sizeof(hud_palette_t) per the host */
    uint32_t reserved;    /* 0 */
    hud_rgba_t bg;                /* shell background */
    hud_rgba_t surface;           /* standard slot fill, chip fill */
    hud_rgba_t chrome;            /* solid pane chrome */
    hud_rgba_t ink;               /* primary text and icon */
    hud_rgba_t muted;             /* secondary chip icon */
    hud_rgba_t dim;               /* tertiary text */
    hud_rgba_t border;            /* hairline structure */
    hud_rgba_t accent;            /* accent slot fill */
    hud_rgba_t status_ok;
    hud_rgba_t status_warn;
    hud_rgba_t status_error;      /* destructive slot fill */
    hud_rgba_t status_info;       /* focus ring */
    hud_rgba_t hairline_subtle;   /* chip stroke */
    hud_rgba_t hairline_standard; /* standard slot stroke */
} hud_palette_t;
/* sizeof(hud_palette_t) in ABI 1.0 (LP64), frozen: the least struct_size a reader accepts. */
#define HUD_PALETTE_SIZE_1_0 64u

/* Everything about the screen and the user a renderer may depend on.
 * [host-owned], valid during layout(). */
typedef struct hud_environment {
    uint32_t struct_size;          /* sizeof(hud_environment_t) per host */
    hud_layout_direction_t layout_direction; /* HUD_LAYOUT_DIRECTION_* */
    double screen_width;           /* pt, > 0 */
    double screen_height;          /* pt, > 0 */
    hud_insets_t safe_area;        /* pt, >= 0, by physical edge */
    double scale;                  /* pixels per point, > 0 */
    double text_scale;             /* Dynamic Type factor, 1.0 = Large */
    hud_color_scheme_t color_scheme; /* effective scheme of the chrome */
    hud_appearance_t appearance;   /* HUD_APPEARANCE_* */
    const hud_palette_t *palette;  /* non-NULL, the complications' colors */
    /* The navigation bar the host draws, pt. Top slots that live in the
     * bar (the tray style's toolbar items) go inside it. */
    hud_rect_t navigation_bar;
    const char *navigation_title;  /* nullable, <= HUD_MAX_TITLE_BYTES */
    uint32_t accessibility;        /* HUD_ACCESSIBILITY_* bits */
    uint32_t reserved;             /* 0 */

    /* ---- ABI 1.1: read only behind HUD_STRUCT_HAS (zero when absent) ---- */

    /* [host] HUD_PRESENTATION_*: the control deck's state. 0 (ALWAYS_VISIBLE)
     * from a 1.0 host. Informative; see hud_presentation_t. */
    hud_presentation_t presentation;
    uint32_t reserved_1_1;         /* 0 */
    /* [host] pt the shell reserves for its own lanes, by physical edge,
     * measured inward from the safe area (top: from the navigation bar's
     * bottom edge, like hud_layout_t.content_insets), >= 0 and finite: the
     * deck's bottom lane while resting (pivot 56 + 8), its top lane while
     * expanded (at least 60). All zero under ALWAYS_VISIBLE and from a 1.0
     * host. The shell keeps content out of these lanes itself, so a
     * renderer does not add them to its content_insets; it keeps its own
     * nodes out of them. Under DECK_EXPANDED the host draws the top corners
     * in its top lane and drops any top-corner node a renderer emits (a
     * renderer may simply skip them). */
    hud_insets_t reserved_lanes;
} hud_environment_t;
/* sizeof(hud_environment_t) in ABI 1.0 (LP64), frozen: the least struct_size a reader accepts. */
#define HUD_ENVIRONMENT_SIZE_1_0 136u
/* sizeof(hud_environment_t) in ABI 1.1 (LP64), frozen: covers presentation and reserved_lanes. */
#define HUD_ENVIRONMENT_SIZE_1_1 176u

/* ------------------------------------------------------------------------ */
/* Inputs: the interaction state (owned by the host)                         */
/* ------------------------------------------------------------------------ */

/* The parts of a position a node can stand for. */
typedef int32_t hud_part_t;
enum {
    HUD_PART_NONE = -1,
    HUD_PART_SLOT = 0,      /* the slot button */
    HUD_PART_SECONDARY = 1, /* its secondary chip */
    HUD_PART_MODE = 2,      /* one long-press mode item (see mode_index) */
    HUD_PART_CONTAINER = 3  /* a container: tray, mode picker */
};

/* What the user is doing right now. The renderer reflects it (pressed
 * feedback, the revealed mode picker) but never changes it.
 * [host-owned], valid during layout(). */
typedef struct hud_interaction {
    uint32_t struct_size;
    hud_position_t pressed_position; /* HUD_POSITION_NONE if nothing */
    hud_part_t pressed_part;         /* HUD_PART_NONE if nothing */
    int32_t pressed_mode_index;      /* -1 unless pressed_part is MODE */
    /* The position whose long-press modes are revealed, or
     * HUD_POSITION_NONE. The host only reveals a slot that has modes. */
    hud_position_t revealed_position;
    uint32_t reserved;               /* 0 */
} hud_interaction_t;
/* sizeof(hud_interaction_t) in ABI 1.0 (LP64), frozen: the least struct_size a reader accepts. */
#define HUD_INTERACTION_SIZE_1_0 24u

/* ------------------------------------------------------------------------ */
/* Output: layout nodes                                                      */
/* ------------------------------------------------------------------------ */

typedef int32_t hud_node_kind_t;
enum {
    HUD_NODE_KIND_CONTAINER = 0, /* tray bar, mode picker card */
    HUD_NODE_KIND_SLOT = 1,      /* a slot button */
    HUD_NODE_KIND_SECONDARY = 2, /* a secondary chip */
    HUD_NODE_KIND_MODE_ITEM = 3  /* one long-press mode in the picker */
};

typedef int32_t hud_shape_t;
enum {
    HUD_SHAPE_RECTANGLE = 0,
    HUD_SHAPE_ROUNDED_RECTANGLE = 1, /* uses corner_radius */
    HUD_SHAPE_CIRCLE = 2,            /* inscribed in the frame */
    HUD_SHAPE_CAPSULE = 3
};

typedef int32_t hud_material_t;
enum {
    HUD_MATERIAL_NONE = 0,    /* no background of its own */
    HUD_MATERIAL_SOLID = 1,   /* fill color as given */
    HUD_MATERIAL_GLASS = 2,   /* translucent, blurs what is behind */
    HUD_MATERIAL_REGULAR = 3  /* a thicker translucent card (the picker) */
};

/* Where the host hosts the node. */
typedef int32_t hud_placement_t;
enum {
    HUD_PLACEMENT_OVERLAY = 0,        /* floats above content */
    HUD_PLACEMENT_NAVIGATION_BAR = 1, /* a toolbar item in the nav bar */
    HUD_PLACEMENT_BOTTOM_INSET = 2    /* in the bottom safe-area inset */
};

/* Node flags. */
#define HUD_NODE_FLAG_PRESSED 0x1u     /* drawn in its pressed state */
#define HUD_NODE_FLAG_INTERACTIVE 0x2u /* has an action; `hit` is its target */
/* ABI 1.2, mode items only: drawn as the current choice. Set exactly on the
 * item of the mode flagged HUD_MODE_FLAG_CURRENT (which only a 1.2 host
 * sends, so the flag is never sent to an older host). A host reads it only
 * from a plugin whose entry declares ABI minor >= 2, and only on mode items. */
#define HUD_NODE_FLAG_SELECTED 0x4u

/* One node of a layout. Nodes are written by the renderer into a
 * host-owned buffer with a stride (hud_layout_t.node_stride); use
 * hud_layout_push_node() (hud_helpers.h) and never index the buffer with
 * sizeof(hud_node_t).
 *
 * String pointers (icon, label, accessibility_label) must point either into
 * the inputs of this layout() call or to storage with static lifetime; the
 * host copies them before it returns from its own call. */
typedef struct hud_node {
    hud_node_kind_t kind;     /* HUD_NODE_KIND_* */
    hud_position_t position;  /* the position it stands for, or NONE */
    hud_part_t part;          /* HUD_PART_* */
    int32_t mode_index;       /* index into the slot's modes, else -1 */
    hud_rect_t frame;         /* pt, the visual's bounds, on screen */
    /* pt. The touch target: for interactive nodes >= 44x44 and containing
     * the frame; all zero for nodes that are not interactive. */
    hud_rect_t hit;
    hud_shape_t shape;        /* HUD_SHAPE_* */
    hud_material_t material;  /* HUD_MATERIAL_* */
    double corner_radius;     /* pt, >= 0; used by ROUNDED_RECTANGLE */
    double stroke_width;      /* pt, >= 0; 0 = no stroke */
    double font_size;         /* pt of the label text, >= 0; 0 = no text */
    hud_rgba_t fill;          /* background fill */
    hud_rgba_t stroke;        /* outline */
    hud_rgba_t icon_color;    /* icon glyph */
    hud_rgba_t text_color;    /* label text */
    hud_placement_t placement; /* HUD_PLACEMENT_* */
    int32_t z;                /* paint order, higher on top; hit testing
                                 takes the topmost z first */
    uint32_t flags;           /* HUD_NODE_FLAG_* */
    uint32_t reserved;        /* 0 */
    const char *icon;         /* nullable: icon name to draw */
    const char *label;        /* nullable: visible text */
    const char *accessibility_label; /* nullable for containers; non-empty
                                        for interactive nodes */

    /* ---- ABI 1.1: present only when layout->node_stride covers them ----
     * Written by the renderer, only through hud_layout_push_node() (which
     * copies what the host's stride covers) or behind
     * HUD_LAYOUT_HAS_NODE_FIELD (hud_helpers.h). A host reads them only
     * from a plugin whose entry declares ABI minor >= 1; zero means what a
     * 1.0 renderer gets. Read by the host on its own thread after layout()
     * returns; plain values, no lifetime. */

    /* pt, finite, >= 0: the size of the node's icon glyph (the symbol's
     * point size, as SF Symbols' font size). 0 = the host's default for
     * the node's kind. */
    double glyph_size;
    /* Slot nodes only (0 on every other kind): bit i set offers the slot's
     * long-press mode i (i < the slot's mode_count, < HUD_MAX_MODES) as a
     * named accessibility action on the slot, named by the mode's label;
     * a screen reader lists them in ascending index. 0 = every mode of the
     * slot, in order (the host's default, and what a 1.0 renderer gets):
     * there is no way to hide all of them, so assistive technology always
     * reaches each mode. Bits at or above mode_count are an error. */
    uint64_t accessibility_actions;
} hud_node_t;
/* sizeof(hud_node_t) in ABI 1.0 (LP64), frozen: the least struct_size a reader accepts. */
#define HUD_NODE_SIZE_1_0 168u
/* sizeof(hud_node_t) in ABI 1.1 (LP64), frozen: the least node_stride that
 * covers glyph_size and accessibility_actions. */
#define HUD_NODE_SIZE_1_1 184u

/* The accessibility_actions bit of mode `index` (0...HUD_MAX_MODES - 1). */
#define HUD_MODE_BIT(index) ((uint64_t)1u << (uint32_t)(index))

/* The output of one layout() call.
 * The host fills struct_size, node_stride, nodes and capacity, and zeroes
 * everything else; the renderer fills count, content_insets and
 * hidden_positions. [host-owned], valid during layout(). */
typedef struct hud_layout {
    uint32_t struct_size;  /* [host] sizeof(hud_layout_t) per the host */
    /* [host] bytes between nodes, >= HUD_NODE_SIZE_1_0: the host's
     * sizeof(hud_node_t) (HUD_NODE_SIZE_1_1 from a 1.1 host). A node field
     * is seen by the host only if the stride covers it. */
    uint32_t node_stride;
    /* [host-owned] capacity * node_stride bytes, zeroed by the host. The
     * renderer writes at most `capacity` nodes and never past the end. */
    void *nodes;
    uint32_t capacity;     /* [host] nodes the buffer holds, <= HUD_MAX_NODES */
    /* [renderer] nodes in the layout. May exceed capacity: then only the
     * first `capacity` were written, layout() returns
     * HUD_STATUS_BUFFER_TOO_SMALL and the host calls again with at least
     * `count` nodes of room. */
    uint32_t count;
    /* [renderer] pt the chrome takes from the content area, which lies
     * below the navigation bar: top inward from the bar's bottom edge (the
     * safe area's top if navigation_bar is empty), left, bottom and right
     * inward from the safe-area edges (the tray's bottom inset). */
    hud_insets_t content_insets;
    /* [renderer] positions that have a slot but were deliberately not
     * shown (HUD_POSITION_BIT mask; `.minimal` hides four). */
    uint32_t hidden_positions;
    uint32_t reserved;     /* 0 */
} hud_layout_t;
/* sizeof(hud_layout_t) in ABI 1.0 (LP64), frozen: the least struct_size a reader accepts. */
#define HUD_LAYOUT_SIZE_1_0 64u

/* ------------------------------------------------------------------------ */
/* The renderer descriptor                                                   */
/* ------------------------------------------------------------------------ */

/* Capability flags (hud_renderer_descriptor_t.capabilities). */
/* layout() may be called from several threads at once. */
#define HUD_CAPABILITY_THREAD_SAFE 0x1u
/* The renderer's RTL layout is NOT the mirror image of its LTR layout
 * (the conformance suite then skips the mirror check). */
#define HUD_CAPABILITY_RTL_NOT_MIRRORED 0x2u

typedef struct hud_renderer_descriptor hud_renderer_descriptor_t;

/* Lays out `complications` for `environment` and `interaction` into
 * `layout`. Pure: the same inputs give byte-identical nodes, and nothing is
 * remembered between calls.
 * Thread: [main-thread], or [thread-safe] with HUD_CAPABILITY_THREAD_SAFE.
 * Returns HUD_STATUS_OK, HUD_STATUS_BUFFER_TOO_SMALL (count = nodes
 * needed), or a negative status. Must not modify any input, write past
 * `capacity` nodes, call an action, block, or keep any input pointer. */
typedef hud_status_t (*hud_layout_fn)(
    const hud_renderer_descriptor_t *self,
    const hud_complications_t *complications,
    const hud_environment_t *environment,
    const hud_interaction_t *interaction,
    hud_layout_t *layout);

/* Looks up an extension by a versioned id such as "org.example.foo/1".
 * Returns a pointer to the extension's structure ([plugin-owned], static
 * lifetime) or NULL if the id is unknown. The id must match exactly.
 * Thread: [thread-safe]. */
typedef const void *(*hud_get_extension_fn)(
    const hud_renderer_descriptor_t *self, const char *extension_id);

/* One renderer (one render style). [plugin-owned]; valid from init() until
 * the matching last deinit(), and constant in between. */
struct hud_renderer_descriptor {
    uint32_t struct_size; /* sizeof(hud_renderer_descriptor_t) per plugin */
    uint32_t capabilities; /* HUD_CAPABILITY_* bits */
    /* Reverse-DNS, lowercase: [a-z0-9.-], starting with a letter or digit,
     * at least one '.', no empty label, <= HUD_MAX_ID_BYTES.
     * Example: "com.hudson.tray". Unique across every loaded plugin. */
    const char *id;
    const char *name;        /* display name, <= HUD_MAX_NAME_BYTES */
    const char *version;     /* e.g. "1.2.0", <= HUD_MAX_VERSION_BYTES */
    const char *vendor;      /* <= HUD_MAX_NAME_BYTES */
    const char *description; /* <= HUD_MAX_DESCRIPTION_BYTES */
    /* Positions the renderer can show (HUD_POSITION_BIT mask). A slot
     * published at another position is reported in hidden_positions. */
    uint32_t supported_positions;
    uint32_t reserved;       /* 0 */
    hud_layout_fn layout;    /* non-NULL */
    hud_get_extension_fn get_extension; /* non-NULL */

    /* ---- ABI 1.2: read by the host only when struct_size covers it ---- */
    /* Nullable: the icon name (SF Symbol, <= HUD_MAX_ICON_BYTES, the same
     * rules as a slot's icon) a style picker shows for this renderer. NULL
     * or absent: the host's default (a paintbrush). */
    const char *picker_icon;
};
/* sizeof(hud_renderer_descriptor_t) in ABI 1.0 (LP64), frozen: the least struct_size a reader accepts. */
#define HUD_RENDERER_DESCRIPTOR_SIZE_1_0 72u
/* sizeof(hud_renderer_descriptor_t) in ABI 1.2 (LP64), frozen: the least
 * struct_size that covers picker_icon. */
#define HUD_RENDERER_DESCRIPTOR_SIZE_1_2 80u

/* ------------------------------------------------------------------------ */
/* The entry structure                                                       */
/* ------------------------------------------------------------------------ */

/* What HUD_ENTRY_SYMBOL returns. [plugin-owned], static lifetime, constant. */
typedef struct hud_entry {
    uint32_t abi_version; /* HUD_ABI_VERSION the plugin was built with */
    uint32_t struct_size; /* sizeof(hud_entry_t) per the plugin */

    /* Prepares the plugin. Reference counted: every successful init() is
     * matched by one deinit(); only the first init() does work. Returns
     * HUD_STATUS_OK or a negative status (the plugin is then not used and
     * deinit() is not called for this init()).
     * Thread: [main-thread]. */
    hud_status_t (*init)(void);

    /* Releases what init() prepared once the count drops to zero. Extra
     * calls (count already zero) are harmless no-ops.
     * Thread: [main-thread]. */
    void (*deinit)(void);

    /* The number of renderers, <= HUD_MAX_RENDERERS; 0 before init().
     * Thread: [thread-safe]. */
    uint32_t (*renderer_count)(void);

    /* The descriptor at `index`, or NULL if index >= renderer_count().
     * The pointer stays valid and its contents constant until the last
     * deinit(). Thread: [thread-safe]. */
    const hud_renderer_descriptor_t *(*renderer_at)(uint32_t index);
} hud_entry_t;
/* sizeof(hud_entry_t) in ABI 1.0 (LP64), frozen: the least struct_size a reader accepts. */
#define HUD_ENTRY_SIZE_1_0 40u

/* The signature of HUD_ENTRY_SYMBOL. Returns the plugin's entry structure
 * (never NULL); the same pointer on every call. It must have no side
 * effects: hosts call it before deciding whether to use the plugin.
 * Thread: [thread-safe]. */
typedef const hud_entry_t *(*hud_get_entry_fn)(void);

/* The prototype a C plugin defines (declared here so that plugins build
 * cleanly with -Wmissing-prototypes); HUD_DEFINE_ENTRY (hud_helpers.h)
 * defines it for you:
 *
 *     HUD_EXPORT const hud_entry_t *HUD_ENTRY_SYMBOL(void) { return &entry; }
 */
HUD_EXPORT const hud_entry_t *HUD_ENTRY_SYMBOL(void);

/* ------------------------------------------------------------------------ */
/* Sizes and field presence                                                  */
/* ------------------------------------------------------------------------ */

/* The presence rule. Whoever fills a size-prefixed structure sets
 * struct_size to its own sizeof; a reader built against another minor sees
 * a larger or smaller structure than its own. A field is present only if
 * struct_size covers all of it:
 *
 *     offsetof(type, field) + sizeof(field) <= struct_size
 *
 * An absent field reads as zero, which every minor version defines as the
 * 1.0 behaviour. A struct_size below the frozen 1.0 size (HUD_*_SIZE_1_0)
 * is an error. So a reader compares struct_size with the 1.0 size, never
 * with sizeof(the structure in this header): a plugin rebuilt against a
 * newer 1.x header must still accept an older host's smaller structures,
 * and must check a field appended after 1.0 with HUD_STRUCT_HAS before it
 * reads it:
 *
 *     if (env->struct_size < HUD_ENVIRONMENT_SIZE_1_0)
 *         return HUD_STATUS_INVALID_ARGUMENT;
 *     hud_presentation_t presentation =
 *         HUD_STRUCT_HAS(env, hud_environment_t, presentation)
 *             ? env->presentation : HUD_PRESENTATION_ALWAYS_VISIBLE;
 *
 * True when the structure `ptr` points to (of type `type`, with a
 * struct_size member) has `field`. Evaluates `ptr` once. */
#define HUD_STRUCT_HAS(ptr, type, field)                                  \
    ((size_t)(ptr)->struct_size >=                                        \
     offsetof(type, field) + sizeof(((const type *)0)->field))

/* The 1.0, 1.1 and 1.2 sizes above are the ABI's layout on its platforms:
 * 64-bit pointers, 8-byte doubles (x86_64 and aarch64 Linux, LP64). A build
 * where they differ is not speaking this ABI. Structures a minor did not
 * grow keep their earlier size (no HUD_*_SIZE_1_1 or _1_2 for them). */
#if UINTPTR_MAX == UINT64_MAX
HUD_STATIC_ASSERT(sizeof(hud_mode_t) == HUD_MODE_SIZE_1_2, "hud_mode_t: ABI 1.2 size");
HUD_STATIC_ASSERT(offsetof(hud_mode_t, flags) == HUD_MODE_SIZE_1_0, "hud_mode_t: 1.2 fields appended after the 1.0 ones");
HUD_STATIC_ASSERT(sizeof(hud_secondary_t) == HUD_SECONDARY_SIZE_1_0, "hud_secondary_t: ABI 1.0 size");
HUD_STATIC_ASSERT(sizeof(hud_slot_t) == HUD_SLOT_SIZE_1_0, "hud_slot_t: ABI 1.0 size");
HUD_STATIC_ASSERT(sizeof(hud_complications_t) == HUD_COMPLICATIONS_SIZE_1_0, "hud_complications_t: ABI 1.0 size");
HUD_STATIC_ASSERT(sizeof(hud_palette_t) == HUD_PALETTE_SIZE_1_0, "hud_palette_t: ABI 1.0 size");
HUD_STATIC_ASSERT(sizeof(hud_environment_t) == HUD_ENVIRONMENT_SIZE_1_1, "hud_environment_t: ABI 1.1 size");
HUD_STATIC_ASSERT(offsetof(hud_environment_t, presentation) == HUD_ENVIRONMENT_SIZE_1_0,
                  "hud_environment_t: 1.1 fields appended after the 1.0 ones");
HUD_STATIC_ASSERT(sizeof(hud_interaction_t) == HUD_INTERACTION_SIZE_1_0, "hud_interaction_t: ABI 1.0 size");
HUD_STATIC_ASSERT(sizeof(hud_node_t) == HUD_NODE_SIZE_1_1, "hud_node_t: ABI 1.1 size");
HUD_STATIC_ASSERT(offsetof(hud_node_t, glyph_size) == HUD_NODE_SIZE_1_0,
                  "hud_node_t: 1.1 fields appended after the 1.0 ones");
HUD_STATIC_ASSERT(sizeof(hud_layout_t) == HUD_LAYOUT_SIZE_1_0, "hud_layout_t: ABI 1.0 size");
HUD_STATIC_ASSERT(sizeof(hud_renderer_descriptor_t) == HUD_RENDERER_DESCRIPTOR_SIZE_1_2,
                  "hud_renderer_descriptor_t: ABI 1.2 size");
HUD_STATIC_ASSERT(offsetof(hud_renderer_descriptor_t, picker_icon) == HUD_RENDERER_DESCRIPTOR_SIZE_1_0,
                  "hud_renderer_descriptor_t: 1.2 fields appended after the 1.0 ones");
HUD_STATIC_ASSERT(sizeof(hud_entry_t) == HUD_ENTRY_SIZE_1_0, "hud_entry_t: ABI 1.0 size");
#endif

#ifdef __cplusplus
}
#endif

#endif /* HUD_ABI_H */
