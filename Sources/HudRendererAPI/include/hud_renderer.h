/* SPDX-License-Identifier: MIT */
/*
 * hud_renderer.h — the Hudson HUD renderer ABI, version 1.0.
 *
 * The one contract between a host (hudhost, HudRegistry) and every HUD
 * renderer, built-in or third-party. A renderer turns a page's five
 * complications plus an environment (device, palette, direction, ...) into a
 * flat list of layout nodes. It draws nothing and owns no gestures: the host
 * presents the nodes and runs the actions.
 *
 * Conventions used throughout (read these once):
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
 *             `struct_size`, set by whoever fills it in. A reader uses only
 *             the fields that struct_size covers and treats the rest as zero.
 *             Fields are only ever appended. See Docs/ABI.md.
 *
 *   Failures  Functions return hud_status_t. No function may abort, exit,
 *             longjmp out, throw a C++ exception across the boundary, or
 *             print to stdout (stdout belongs to the host).
 *
 * The header is C11 and C++ compatible and includes only standard headers.
 */
#ifndef HUD_RENDERER_H
#define HUD_RENDERER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Versions                                                                  */
/* ------------------------------------------------------------------------ */

/* The ABI version this header describes. Major must match between host and
 * plugin; a minor version only appends fields, constants and extensions. */
#define HUD_ABI_VERSION_MAJOR 1
#define HUD_ABI_VERSION_MINOR 0

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

#if defined(__GNUC__) || defined(__clang__)
#define HUD_EXPORT __attribute__((visibility("default")))
#else
#define HUD_EXPORT
#endif

/* The single symbol a plugin exports: a function with the signature
 * hud_get_entry_fn, named HUD_ENTRY_SYMBOL_NAME. It is a function rather
 * than a data symbol so that every C-ABI language (Swift, Rust, Zig) can
 * export it; see Docs/ABI.md, decision 1. */
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
    /* The stable dark palette on all chrome, whatever the device scheme. */
    HUD_APPEARANCE_HUDSON = 0,
    /* Follow the environment's color scheme. */
    HUD_APPEARANCE_SYSTEM = 1
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
} hud_mode_t;

/* The seed's Secondary: a smaller chip on the slot's outer side.
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

/* The seed's HudPhoneComplications: five positions, each optional.
 * [host-owned], valid during layout(). Renderers must not modify it. */
typedef struct hud_complications {
    uint32_t struct_size; /* sizeof(hud_complications_t) per the host */
    uint32_t reserved;    /* 0 */
    /* Indexed by hud_position_t; NULL = nothing published there. */
    const hud_slot_t *slots[HUD_POSITION_COUNT];
} hud_complications_t;

/* ------------------------------------------------------------------------ */
/* Inputs: the environment                                                   */
/* ------------------------------------------------------------------------ */

/* The palette the chrome must use, already resolved by the host for the
 * appearance and scheme (`.hudson` always passes the stable dark palette).
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
    const hud_palette_t *palette;  /* non-NULL, resolved for the scheme */
    /* The navigation bar the host draws, pt. Top slots that live in the
     * bar (the tray style's toolbar items) go inside it. */
    hud_rect_t navigation_bar;
    const char *navigation_title;  /* nullable, <= HUD_MAX_TITLE_BYTES */
    uint32_t accessibility;        /* HUD_ACCESSIBILITY_* bits */
    uint32_t reserved;             /* 0 */
} hud_environment_t;

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

/* One node of a layout. Nodes are written by the renderer into a
 * host-owned buffer with a stride (hud_layout_t.node_stride); use
 * hud_layout_push_node() and never index the buffer with sizeof(hud_node_t).
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
} hud_node_t;

/* The output of one layout() call.
 * The host fills struct_size, node_stride, nodes and capacity, and zeroes
 * everything else; the renderer fills count, content_insets and
 * hidden_positions. [host-owned], valid during layout(). */
typedef struct hud_layout {
    uint32_t struct_size;  /* [host] sizeof(hud_layout_t) per the host */
    uint32_t node_stride;  /* [host] bytes between nodes, >= the v1.0 size */
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

/* Appends one node, copying only the bytes both sides know about, and
 * counting it even when the buffer is full. Returns 1 if it was written.
 * The whole two-call idiom: push every node, then return
 * hud_layout_finish(layout). */
static inline int hud_layout_push_node(hud_layout_t *layout,
                                       const hud_node_t *node) {
    uint32_t index = layout->count++;
    if (index >= layout->capacity) return 0;
    size_t bytes = sizeof(hud_node_t) < (size_t)layout->node_stride
                       ? sizeof(hud_node_t)
                       : (size_t)layout->node_stride;
    unsigned char *dst =
        (unsigned char *)layout->nodes + (size_t)index * layout->node_stride;
    const unsigned char *src = (const unsigned char *)node;
    for (size_t i = 0; i < bytes; i++) dst[i] = src[i];
    return 1;
}

/* The status a layout() that used hud_layout_push_node() returns. */
static inline hud_status_t hud_layout_finish(const hud_layout_t *layout) {
    return layout->count > layout->capacity ? HUD_STATUS_BUFFER_TOO_SMALL
                                            : HUD_STATUS_OK;
}

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
};

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

/* The signature of HUD_ENTRY_SYMBOL. Returns the plugin's entry structure
 * (never NULL); the same pointer on every call. It must have no side
 * effects: hosts call it before deciding whether to use the plugin.
 * Thread: [thread-safe]. */
typedef const hud_entry_t *(*hud_get_entry_fn)(void);

/* The prototype a C plugin defines (declared here so that plugins build
 * cleanly with -Wmissing-prototypes):
 *
 *     HUD_EXPORT const hud_entry_t *HUD_ENTRY_SYMBOL(void) { return &entry; }
 */
HUD_EXPORT const hud_entry_t *HUD_ENTRY_SYMBOL(void);


/* ------------------------------------------------------------------------ */
/* Metadata readable without running plugin code                             */
/* ------------------------------------------------------------------------ */

/* A plugin describes each of its renderers a second time in an ELF section,
 * as plain bytes (no pointers: relocations are not applied on disk). The
 * host reads the section straight from the file, so `hudhost list` never
 * executes plugin code; when the plugin is loaded, the host checks that the
 * descriptors match these records. Optional: a plugin without the section
 * is scanned in a sandboxed child process instead.
 *
 * The section holds records back to back; zero bytes between records
 * (alignment padding) are skipped. Strings are NUL-terminated and
 * NUL-padded; a string that fills its array is invalid. */
#define HUD_METADATA_SECTION ".hud_renderers"
#define HUD_METADATA_MAGIC "HUDMETA1" /* 8 bytes, no NUL stored */

typedef struct hud_renderer_metadata {
    char magic[8];                /* HUD_METADATA_MAGIC */
    uint32_t record_size;         /* sizeof(hud_renderer_metadata_t) = 408 */
    uint32_t abi_version;         /* HUD_ABI_VERSION the plugin was built with */
    uint32_t supported_positions; /* as in the descriptor */
    uint32_t capabilities;        /* as in the descriptor */
    char id[72];                  /* as in the descriptor, <= HUD_MAX_ID_BYTES */
    char name[136];               /* <= HUD_MAX_NAME_BYTES */
    char version[40];             /* <= HUD_MAX_VERSION_BYTES */
    char vendor[136];             /* <= HUD_MAX_NAME_BYTES */
} hud_renderer_metadata_t;

#if defined(__GNUC__) || defined(__clang__)
#define HUD_METADATA_ATTRIBUTES \
    __attribute__((section(HUD_METADATA_SECTION), used, retain, aligned(8)))
#else
#define HUD_METADATA_ATTRIBUTES
#endif

/* Declares one renderer's metadata record. Use it once per descriptor, at
 * file scope, with the same literals as the descriptor:
 *
 *     HUD_RENDERER_METADATA(ring_meta, "org.example.ring", "Ring", "1.0.0",
 *                           "Example", HUD_POSITION_ALL_BITS, 0);
 *
 * A string longer than its array is a compile error. */
#define HUD_RENDERER_METADATA(ident, ID, NAME, VERSION, VENDOR, POSITIONS,    \
                              CAPABILITIES)                                   \
    static HUD_METADATA_ATTRIBUTES const hud_renderer_metadata_t ident = {    \
        {'H', 'U', 'D', 'M', 'E', 'T', 'A', '1'},                             \
        (uint32_t)sizeof(hud_renderer_metadata_t),                            \
        HUD_ABI_VERSION,                                                      \
        (POSITIONS),                                                          \
        (CAPABILITIES),                                                       \
        ID,                                                                   \
        NAME,                                                                 \
        VERSION,                                                              \
        VENDOR}

#ifdef __cplusplus
}
#endif

#endif /* HUD_RENDERER_H */
