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

#endif
