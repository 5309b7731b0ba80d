/* SPDX-License-Identifier: MIT */
/*
 * hud_helpers.h — inline helpers and boilerplate macros for C renderers of
 * the Hudson HUD renderer ABI 1.1. Nothing here is part of the binary ABI:
 * every helper is written in terms of hud_abi.h and hud_metadata.h, so a
 * plugin in another language does the same by hand (PLUGIN_GUIDE.md, in
 * `hudhost sdk --doc-dir`).
 * Included by the umbrella "hud_renderer.h".
 *
 *   hud_layout_push_node, hud_layout_finish   the output's two-call idiom
 *   HUD_LAYOUT_HAS_NODE_FIELD                  whether the host's node
 *                                              stride covers a node field
 *   HUD_DECLARE_RENDERER(_WITH_ICON)           a descriptor and its metadata
 *                                              record from one declaration
 *   HUD_DEFINE_ENTRY, HUD_DEFINE_ENTRY_WITH_HOOKS
 *                                              the reference-counted entry
 *                                              and the exported symbol
 *   hud_refcount_*                             the counter those use
 *
 * A whole plugin, beside its layout function:
 *
 *     HUD_DECLARE_RENDERER(my_renderer, "org.example.my", "Mine", "1.0.0",
 *                          "Example Inc.", "What it looks like.",
 *                          HUD_POSITION_ALL_BITS, 0, my_layout, my_get_extension);
 *     static const hud_renderer_descriptor_t *const my_renderers[] = {&my_renderer};
 *     HUD_DEFINE_ENTRY(my_renderers);
 */
#ifndef HUD_HELPERS_H
#define HUD_HELPERS_H

#include "hud_abi.h"
#include "hud_metadata.h"

#if !(defined(__GNUC__) || defined(__clang__)) && !defined(__cplusplus) && \
    defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#define HUD_REFCOUNT_STDATOMIC 1
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* The node buffer                                                           */
/* ------------------------------------------------------------------------ */

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

/* True when the host's node buffer has room for `field` of hud_node_t in
 * every node: the stride covers it, so the host will see what is written
 * there. A 1.0 host's stride is HUD_NODE_SIZE_1_0, so a 1.1 field such as
 * glyph_size is then absent. hud_layout_push_node() already copies only
 * what the stride covers, so a renderer that pushes whole nodes may set
 * 1.1 fields unconditionally; ask this before writing into the buffer by
 * hand, or to adapt what a node shows when the host cannot take a field
 * (e.g. a 1.0 host draws every glyph at its default size):
 *
 *     node.glyph_size = 16;   // dropped by push_node on a 1.0 host
 *     if (!HUD_LAYOUT_HAS_NODE_FIELD(layout, glyph_size)) { ... }
 *
 * Evaluates `layout` once. */
#define HUD_LAYOUT_HAS_NODE_FIELD(layout, field)                         \
    ((size_t)(layout)->node_stride >=                                    \
     offsetof(hud_node_t, field) + sizeof(((const hud_node_t *)0)->field))

/* The status a layout() that used hud_layout_push_node() returns. */
static inline hud_status_t hud_layout_finish(const hud_layout_t *layout) {
    return layout->count > layout->capacity ? HUD_STATUS_BUFFER_TOO_SMALL
                                            : HUD_STATUS_OK;
}

/* ------------------------------------------------------------------------ */
/* One declaration per renderer                                              */
/* ------------------------------------------------------------------------ */

/* Declares the renderer `ident`: `static const hud_renderer_descriptor_t
 * ident` and its metadata record `ident##_metadata` in the .hud_renderers
 * section, both from these arguments, so the two cannot disagree (the host
 * refuses a renderer whose record and descriptor differ). Use it at file
 * scope, once per renderer, followed by a semicolon:
 *
 *     HUD_DECLARE_RENDERER(ring_renderer,
 *                          "org.example.ring",          id
 *                          "Ring",                      name
 *                          "1.0.0",                     version
 *                          "Example Inc.",              vendor
 *                          "A ring of slots.",          description
 *                          HUD_POSITION_ALL_BITS,       supported_positions
 *                          HUD_CAPABILITY_THREAD_SAFE,  capabilities
 *                          ring_layout,                 layout
 *                          ring_get_extension);         get_extension
 *
 * ID, NAME, VERSION, VENDOR and DESCRIPTION must be string literals; each
 * is checked at compile time to be non-empty and within its HUD_MAX_*_BYTES
 * limit. POSITIONS and CAPABILITIES are constant expressions, LAYOUT and
 * GET_EXTENSION functions (hud_layout_fn, hud_get_extension_fn; the latter
 * returns NULL for every id when the renderer has no extensions). The
 * descriptor's picker_icon (ABI 1.2) is NULL: the host's default icon.
 *
 * HUD_DECLARE_RENDERER_WITH_ICON takes one more argument, PICKER_ICON: the
 * icon name (a string literal, 1...HUD_MAX_ICON_BYTES bytes) a style picker
 * shows for this renderer (ABI 1.2). */
#define HUD_DECLARE_RENDERER(ident, ID, NAME, VERSION, VENDOR, DESCRIPTION,           \
                             POSITIONS, CAPABILITIES, LAYOUT, GET_EXTENSION)          \
    HUD_DECLARE_RENDERER_ICON_(ident, ID, NAME, VERSION, VENDOR, DESCRIPTION,         \
                               POSITIONS, CAPABILITIES, LAYOUT, GET_EXTENSION, NULL)

#define HUD_DECLARE_RENDERER_WITH_ICON(ident, ID, NAME, VERSION, VENDOR, DESCRIPTION, \
                                       POSITIONS, CAPABILITIES, LAYOUT, GET_EXTENSION, \
                                       PICKER_ICON)                                   \
    HUD_STATIC_ASSERT(sizeof(PICKER_ICON) > 1 && sizeof(PICKER_ICON) <= HUD_MAX_ICON_BYTES + 1, \
                      "picker icon: 1...HUD_MAX_ICON_BYTES bytes");                   \
    HUD_DECLARE_RENDERER_ICON_(ident, ID, NAME, VERSION, VENDOR, DESCRIPTION,         \
                               POSITIONS, CAPABILITIES, LAYOUT, GET_EXTENSION, PICKER_ICON)

/* The expansion of both (not for direct use). */
#define HUD_DECLARE_RENDERER_ICON_(ident, ID, NAME, VERSION, VENDOR, DESCRIPTION,     \
                                   POSITIONS, CAPABILITIES, LAYOUT, GET_EXTENSION,    \
                                   PICKER_ICON)                                       \
    HUD_STATIC_ASSERT(sizeof(ID) > 1 && sizeof(ID) <= HUD_MAX_ID_BYTES + 1,           \
                      "renderer id: 1...HUD_MAX_ID_BYTES bytes");                     \
    HUD_STATIC_ASSERT(sizeof(NAME) > 1 && sizeof(NAME) <= HUD_MAX_NAME_BYTES + 1,     \
                      "renderer name: 1...HUD_MAX_NAME_BYTES bytes");                 \
    HUD_STATIC_ASSERT(sizeof(VERSION) > 1 && sizeof(VERSION) <= HUD_MAX_VERSION_BYTES + 1, \
                      "renderer version: 1...HUD_MAX_VERSION_BYTES bytes");           \
    HUD_STATIC_ASSERT(sizeof(VENDOR) > 1 && sizeof(VENDOR) <= HUD_MAX_NAME_BYTES + 1, \
                      "renderer vendor: 1...HUD_MAX_NAME_BYTES bytes");               \
    HUD_STATIC_ASSERT(sizeof(DESCRIPTION) > 1 &&                                      \
                          sizeof(DESCRIPTION) <= HUD_MAX_DESCRIPTION_BYTES + 1,       \
                      "renderer description: 1...HUD_MAX_DESCRIPTION_BYTES bytes");   \
    HUD_RENDERER_METADATA(ident##_metadata, ID, NAME, VERSION, VENDOR, POSITIONS,     \
                          CAPABILITIES);                                              \
    static const hud_renderer_descriptor_t ident = {                                  \
        (uint32_t)sizeof(hud_renderer_descriptor_t), /* struct_size */                \
        (CAPABILITIES),                                                               \
        ID,                                                                           \
        NAME,                                                                         \
        VERSION,                                                                      \
        VENDOR,                                                                       \
        DESCRIPTION,                                                                  \
        (POSITIONS),                                                                  \
        0, /* reserved */                                                             \
        (LAYOUT),                                                                     \
        (GET_EXTENSION),                                                              \
        (PICKER_ICON)}

/* ------------------------------------------------------------------------ */
/* The reference-counted entry                                               */
/* ------------------------------------------------------------------------ */

/* A count of successful init() calls not yet matched by deinit(). Changed
 * only from init() and deinit() ([main-thread]); read from any thread
 * (renderer_count() is [thread-safe]), so it is atomic: GCC/Clang atomic
 * builtins, else C11 <stdatomic.h>. A static hud_refcount_t starts at 0. */
#if defined(__GNUC__) || defined(__clang__)
typedef uint32_t hud_refcount_t;
static inline uint32_t hud_refcount_get(hud_refcount_t *count) {
    return __atomic_load_n(count, __ATOMIC_ACQUIRE);
}
static inline void hud_refcount_acquire(hud_refcount_t *count) {
    __atomic_fetch_add(count, 1u, __ATOMIC_ACQ_REL);
}
/* Decrements unless already 0; returns the count before the call. */
static inline uint32_t hud_refcount_release(hud_refcount_t *count) {
    uint32_t before = __atomic_load_n(count, __ATOMIC_ACQUIRE);
    while (before > 0 && !__atomic_compare_exchange_n(count, &before, before - 1u, 1,
                                                      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    }
    return before;
}
#elif defined(HUD_REFCOUNT_STDATOMIC)
typedef atomic_uint_least32_t hud_refcount_t;
static inline uint32_t hud_refcount_get(hud_refcount_t *count) {
    return (uint32_t)atomic_load(count);
}
static inline void hud_refcount_acquire(hud_refcount_t *count) {
    atomic_fetch_add(count, 1u);
}
static inline uint32_t hud_refcount_release(hud_refcount_t *count) {
    uint_least32_t before = atomic_load(count);
    while (before > 0 && !atomic_compare_exchange_weak(count, &before, before - 1u)) {
    }
    return (uint32_t)before;
}
#else
/* No atomics: correct as long as renderer_count() is not called while
 * init() or deinit() runs (this host never does). */
typedef volatile uint32_t hud_refcount_t;
static inline uint32_t hud_refcount_get(hud_refcount_t *count) { return *count; }
static inline void hud_refcount_acquire(hud_refcount_t *count) { *count = *count + 1u; }
static inline uint32_t hud_refcount_release(hud_refcount_t *count) {
    uint32_t before = *count;
    if (before > 0) *count = before - 1u;
    return before;
}
#endif

/* The hooks HUD_DEFINE_ENTRY uses: no work on the first init() or the
 * last deinit(). */
static inline hud_status_t hud_entry_no_first_init(void) { return HUD_STATUS_OK; }
static inline void hud_entry_no_last_deinit(void) {}

/* Defines the plugin's entry and exports HUD_ENTRY_SYMBOL. RENDERERS is
 * an array (not a pointer) of 1...HUD_MAX_RENDERERS descriptor pointers,
 * e.g. `static const hud_renderer_descriptor_t *const mine[] = {&a, &b};`.
 * Use it once per plugin, at file scope, followed by a semicolon.
 *
 * The entry it defines keeps the contract of hud_entry_t: init() and
 * deinit() are reference counted (only the first init() and the last
 * deinit() call the hooks; an extra deinit() at zero is a no-op);
 * renderer_count() is 0 until init() succeeds and the array's length
 * after; renderer_at() returns NULL past the end; the entry is one static
 * constant with abi_version HUD_ABI_VERSION and struct_size
 * sizeof(hud_entry_t).
 *
 * With hooks: FIRST_INIT, a `hud_status_t (void)` function, runs on the
 * first init() (0 -> 1); if it returns anything but HUD_STATUS_OK, init()
 * returns that and the count stays 0. LAST_DEINIT, a `void (void)`
 * function, runs on the deinit() that brings the count back to 0. */
#define HUD_DEFINE_ENTRY_WITH_HOOKS(RENDERERS, FIRST_INIT, LAST_DEINIT)                     \
    static hud_refcount_t hud_entry_refcount_;                                               \
    static hud_status_t hud_entry_init_(void) {                                              \
        if (hud_refcount_get(&hud_entry_refcount_) == 0) {                                   \
            hud_status_t hud_first_status_ = (FIRST_INIT)();                                 \
            if (hud_first_status_ != HUD_STATUS_OK) return hud_first_status_;                \
        }                                                                                    \
        hud_refcount_acquire(&hud_entry_refcount_);                                          \
        return HUD_STATUS_OK;                                                                \
    }                                                                                        \
    static void hud_entry_deinit_(void) {                                                    \
        if (hud_refcount_release(&hud_entry_refcount_) == 1u) (LAST_DEINIT)();               \
    }                                                                                        \
    static uint32_t hud_entry_renderer_count_(void) {                                        \
        return hud_refcount_get(&hud_entry_refcount_) > 0                                    \
                   ? (uint32_t)(sizeof(RENDERERS) / sizeof((RENDERERS)[0]))                  \
                   : 0u;                                                                     \
    }                                                                                        \
    static const hud_renderer_descriptor_t *hud_entry_renderer_at_(uint32_t index) {         \
        return index < hud_entry_renderer_count_() ? (RENDERERS)[index] : NULL;              \
    }                                                                                        \
    static const hud_entry_t hud_entry_ = {                                                  \
        HUD_ABI_VERSION,                                                                     \
        (uint32_t)sizeof(hud_entry_t),                                                       \
        hud_entry_init_,                                                                     \
        hud_entry_deinit_,                                                                   \
        hud_entry_renderer_count_,                                                           \
        hud_entry_renderer_at_};                                                             \
    HUD_EXPORT const hud_entry_t *HUD_ENTRY_SYMBOL(void) { return &hud_entry_; }             \
    HUD_STATIC_ASSERT(sizeof(RENDERERS) / sizeof((RENDERERS)[0]) >= 1 &&                     \
                          sizeof(RENDERERS) / sizeof((RENDERERS)[0]) <= HUD_MAX_RENDERERS,   \
                      "a plugin serves 1...HUD_MAX_RENDERERS renderers")

/* HUD_DEFINE_ENTRY_WITH_HOOKS without hooks: the common case. */
#define HUD_DEFINE_ENTRY(RENDERERS) \
    HUD_DEFINE_ENTRY_WITH_HOOKS(RENDERERS, hud_entry_no_first_init, hud_entry_no_last_deinit)

#ifdef __cplusplus
}
#endif

#endif /* HUD_HELPERS_H */
