/* SPDX-License-Identifier: MIT */
/*
 * hud_metadata.h — the renderer metadata record of the Hudson HUD renderer
 * ABI 1.x (unchanged in 1.1 and 1.2): what a host can read about a plugin without running any of its
 * code. Included by the umbrella "hud_renderer.h". A renderer declared with
 * HUD_DECLARE_RENDERER (hud_helpers.h) gets its record from the same
 * arguments as its descriptor; HUD_RENDERER_METADATA is the record alone.
 */
#ifndef HUD_METADATA_H
#define HUD_METADATA_H

#include "hud_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Metadata readable without running plugin code                             */
/* ------------------------------------------------------------------------ */

/* A plugin describes each of its renderers a second time in an ELF section,
 * as plain bytes (no pointers: relocations are not applied on disk). The
 * host reads the section straight from the file, so `hudhost list` never
 * executes plugin code; when the plugin is loaded, the host checks that the
 * descriptors match these records (id, name, version, vendor, positions,
 * capabilities, ABI version; a difference is `metadata-mismatch` and the
 * renderer is not registered). Optional: a plugin without the section is
 * scanned in a sandboxed child process instead.
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
/* sizeof(hud_renderer_metadata_t) in ABI 1.0, frozen: the least record_size
 * a reader accepts (the record has no pointers: the same on every platform). */
#define HUD_RENDERER_METADATA_SIZE_1_0 408u

HUD_STATIC_ASSERT(sizeof(hud_renderer_metadata_t) == HUD_RENDERER_METADATA_SIZE_1_0,
                  "hud_renderer_metadata_t: ABI 1.0 size");

/* The attributes that put a record in the section and keep it there:
 * section, used (the compiler keeps an unreferenced static), retain (the
 * linker keeps it under --gc-sections) and 8-byte alignment. Only ELF has
 * such a section; elsewhere, and on compilers without the attributes, a
 * record is an ordinary constant and the host scans the plugin instead. */
#if defined(__ELF__) && HUD_HAS_ATTRIBUTE(section) && HUD_HAS_ATTRIBUTE(used)
#if HUD_HAS_ATTRIBUTE(retain)
#define HUD_METADATA_RETAIN __attribute__((retain))
#else
#define HUD_METADATA_RETAIN
#endif
#if HUD_HAS_ATTRIBUTE(aligned)
#define HUD_METADATA_ALIGN __attribute__((aligned(8)))
#else
#define HUD_METADATA_ALIGN
#endif
#define HUD_METADATA_ATTRIBUTES \
    __attribute__((section(HUD_METADATA_SECTION), used)) HUD_METADATA_RETAIN HUD_METADATA_ALIGN
#elif HUD_HAS_ATTRIBUTE(unused)
#define HUD_METADATA_ATTRIBUTES __attribute__((unused))
#else
#define HUD_METADATA_ATTRIBUTES
#endif

/* Declares one renderer's metadata record, `static const
 * hud_renderer_metadata_t ident`, at file scope:
 *
 *     HUD_RENDERER_METADATA(ring_meta, "org.example.ring", "Ring", "1.0.0",
 *                           "Example", HUD_POSITION_ALL_BITS, 0);
 *
 * The strings must be literals; one longer than its array is a compile
 * error. Prefer HUD_DECLARE_RENDERER (hud_helpers.h), which takes these
 * arguments once for both the record and the descriptor: written twice by
 * hand, they drift apart, and the host refuses a renderer whose record and
 * descriptor differ. */
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

#endif /* HUD_METADATA_H */
