/* SPDX-License-Identifier: MIT */
/*
 * hud_raster_: SVG to PNG through librsvg and cairo (Debian's librsvg2-2),
 * opened with dlopen on the first call. Used by `hudhost render --format
 * png`; the SVG is the host's own (HudPresentation's SvgPresenter).
 */
#ifndef HUD_RASTER_H
#define HUD_RASTER_H

#include <stddef.h>

/* The largest width or height in pixels hud_raster_png draws. */
#define HUD_RASTER_MAX_PIXELS 16384

/* Draws the `svg_size` bytes of `svg` (a document whose viewport is
 * `width` x `height` points) into an RGBA image of ceil(width * scale) x
 * ceil(height * scale) pixels and encodes it as PNG. On success returns 0
 * with *png (malloc'd; the caller frees it with hud_raster_free) and
 * *png_size set. On failure returns -1 and writes a NUL-terminated reason
 * into `error` (`error_size` bytes). Same bytes in, same bytes out on one
 * machine (fonts come from its fontconfig). Thread: any, one call at a
 * time per process (librsvg and cairo are loaded once, under
 * pthread_once). */
int hud_raster_png(const char *svg, size_t svg_size, double width, double height, double scale,
                   unsigned char **png, size_t *png_size, char *error, size_t error_size);

/* Frees a PNG buffer from hud_raster_png. */
void hud_raster_free(unsigned char *png);

/* How two images differ: each one's size and, when the sizes are equal,
 * how many pixels differ and the box around them (min > max: none). */
typedef struct {
    int width, height;         /* the baseline's */
    int new_width, new_height; /* the new image's */
    long changed_pixels;
    int min_x, min_y, max_x, max_y;
} hud_raster_difference_t;

/* Decodes the PNGs `a` (the baseline) and `b` with cairo and counts the
 * pixels where any channel (premultiplied ARGB, 0...255) differs by more
 * than `tolerance`. With `diff_png` (not NULL) and images of one size,
 * also encodes a diff picture — changed pixels red, the rest a faint gray
 * baseline — into *diff_png (malloc'd; free it with hud_raster_free) and
 * *diff_size; *diff_png stays untouched otherwise. Returns 0 with
 * *difference set, or -1 with the reason in `error`. The bytes are read
 * during the call only. Thread: as hud_raster_png. */
int hud_raster_compare(const unsigned char *a, size_t a_size, const unsigned char *b, size_t b_size, int tolerance,
                       hud_raster_difference_t *difference, unsigned char **diff_png, size_t *diff_size, char *error,
                       size_t error_size);

#endif
