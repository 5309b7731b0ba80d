/* SPDX-License-Identifier: MIT */
// The lazy librsvg/cairo loader and hud_raster_png (raster.h). The only
// dlopen/dlsym of librsvg, cairo and GLib in the project. The handles are
// never closed: the process may draw again.
#define _GNU_SOURCE
#include "raster.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The few types of librsvg, cairo and GLib the calls below use, declared
// here (no -dev packages at build time): opaque handles, and the two plain
// structures the calls read or write, as their headers define them.
typedef struct hud_raster_opaque_handle RsvgHandle;
typedef struct hud_raster_opaque_cairo cairo_t;
typedef struct hud_raster_opaque_surface cairo_surface_t;
typedef struct { double x, y, width, height; } RsvgRectangle;
typedef struct { uint32_t domain; int code; char *message; } GError;
typedef int (*cairo_write_func_t)(void *closure, const unsigned char *data, unsigned int length);
typedef int (*cairo_read_func_t)(void *closure, unsigned char *data, unsigned int length);
enum { CAIRO_FORMAT_ARGB32 = 0, CAIRO_STATUS_SUCCESS = 0, CAIRO_STATUS_READ_ERROR = 10, CAIRO_STATUS_WRITE_ERROR = 11 };

// Resolved once inside pthread_once, read only after it.
static struct {
    RsvgHandle *(*handle_new_from_data)(const unsigned char *, size_t, GError **);
    int (*render_document)(RsvgHandle *, cairo_t *, const RsvgRectangle *, GError **);
    void (*object_unref)(void *);
    void (*error_free)(GError *);
    cairo_surface_t *(*image_surface_create)(int, int, int);
    int (*surface_status)(cairo_surface_t *);
    void (*surface_destroy)(cairo_surface_t *);
    int (*surface_write_to_png_stream)(cairo_surface_t *, cairo_write_func_t, void *);
    cairo_t *(*create)(cairo_surface_t *);
    int (*status)(cairo_t *);
    void (*scale)(cairo_t *, double, double);
    void (*destroy)(cairo_t *);
    const char *(*status_to_string)(int);
    cairo_surface_t *(*image_surface_create_from_png_stream)(cairo_read_func_t, void *);
    void (*surface_flush)(cairo_surface_t *);
    void (*surface_mark_dirty)(cairo_surface_t *);
    unsigned char *(*image_surface_get_data)(cairo_surface_t *);
    int (*image_surface_get_format)(cairo_surface_t *);
    int (*image_surface_get_width)(cairo_surface_t *);
    int (*image_surface_get_height)(cairo_surface_t *);
    int (*image_surface_get_stride)(cairo_surface_t *);
} hud_raster;

static pthread_once_t hud_raster_once = PTHREAD_ONCE_INIT;
static int hud_raster_loaded;        // 1 after a successful load
static char hud_raster_reason[512];  // why the load failed, NUL-terminated

static void *hud_raster_open(const char *library) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(hud_raster_reason, sizeof hud_raster_reason, "%s", reason != NULL ? reason : library);
    }
    return handle;
}

// dlsym into a function pointer through the POSIX-sanctioned cast; on a
// missing symbol the reason is kept and the load gives up.
#define HUD_RASTER_RESOLVE(handle, field, symbol)                                          \
    do {                                                                                   \
        *(void **)(&hud_raster.field) = dlsym(handle, symbol);                             \
        if (hud_raster.field == NULL) {                                                    \
            snprintf(hud_raster_reason, sizeof hud_raster_reason, "%s has no %s", #handle, \
                     symbol);                                                              \
            return;                                                                        \
        }                                                                                  \
    } while (0)

static void hud_raster_load_once(void) {
    void *rsvg = hud_raster_open("librsvg-2.so.2");
    if (rsvg == NULL) return;
    void *cairo = hud_raster_open("libcairo.so.2");
    if (cairo == NULL) return;
    void *gobject = hud_raster_open("libgobject-2.0.so.0");
    if (gobject == NULL) return;
    void *glib = hud_raster_open("libglib-2.0.so.0");
    if (glib == NULL) return;
    HUD_RASTER_RESOLVE(rsvg, handle_new_from_data, "rsvg_handle_new_from_data");
    HUD_RASTER_RESOLVE(rsvg, render_document, "rsvg_handle_render_document");  // librsvg >= 2.46
    HUD_RASTER_RESOLVE(gobject, object_unref, "g_object_unref");
    HUD_RASTER_RESOLVE(glib, error_free, "g_error_free");
    HUD_RASTER_RESOLVE(cairo, image_surface_create, "cairo_image_surface_create");
    HUD_RASTER_RESOLVE(cairo, surface_status, "cairo_surface_status");
    HUD_RASTER_RESOLVE(cairo, surface_destroy, "cairo_surface_destroy");
    HUD_RASTER_RESOLVE(cairo, surface_write_to_png_stream, "cairo_surface_write_to_png_stream");
    HUD_RASTER_RESOLVE(cairo, create, "cairo_create");
    HUD_RASTER_RESOLVE(cairo, status, "cairo_status");
    HUD_RASTER_RESOLVE(cairo, scale, "cairo_scale");
    HUD_RASTER_RESOLVE(cairo, destroy, "cairo_destroy");
    HUD_RASTER_RESOLVE(cairo, status_to_string, "cairo_status_to_string");
    HUD_RASTER_RESOLVE(cairo, image_surface_create_from_png_stream, "cairo_image_surface_create_from_png_stream");
    HUD_RASTER_RESOLVE(cairo, surface_flush, "cairo_surface_flush");
    HUD_RASTER_RESOLVE(cairo, surface_mark_dirty, "cairo_surface_mark_dirty");
    HUD_RASTER_RESOLVE(cairo, image_surface_get_data, "cairo_image_surface_get_data");
    HUD_RASTER_RESOLVE(cairo, image_surface_get_format, "cairo_image_surface_get_format");
    HUD_RASTER_RESOLVE(cairo, image_surface_get_width, "cairo_image_surface_get_width");
    HUD_RASTER_RESOLVE(cairo, image_surface_get_height, "cairo_image_surface_get_height");
    HUD_RASTER_RESOLVE(cairo, image_surface_get_stride, "cairo_image_surface_get_stride");
    hud_raster_loaded = 1;
}

// The PNG as cairo writes it, grown by doubling.
typedef struct {
    unsigned char *bytes;
    size_t size;
    size_t capacity;
} hud_raster_buffer_t;

static int hud_raster_write(void *closure, const unsigned char *data, unsigned int length) {
    hud_raster_buffer_t *buffer = closure;
    if (buffer->size + length > buffer->capacity) {
        size_t capacity = buffer->capacity != 0 ? buffer->capacity : 65536;
        while (capacity < buffer->size + length) capacity *= 2;
        unsigned char *grown = realloc(buffer->bytes, capacity);
        if (grown == NULL) return CAIRO_STATUS_WRITE_ERROR;
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->size, data, length);
    buffer->size += length;
    return CAIRO_STATUS_SUCCESS;
}

int hud_raster_png(const char *svg, size_t svg_size, double width, double height, double scale,
                   unsigned char **png, size_t *png_size, char *error, size_t error_size) {
    pthread_once(&hud_raster_once, hud_raster_load_once);
    if (!hud_raster_loaded) {
        snprintf(error, error_size, "librsvg and cairo could not be loaded (%s)", hud_raster_reason);
        return -1;
    }
    double pixels_wide = ceil(width * scale), pixels_high = ceil(height * scale);
    if (!(pixels_wide >= 1 && pixels_high >= 1 && pixels_wide <= HUD_RASTER_MAX_PIXELS && pixels_high <= HUD_RASTER_MAX_PIXELS)) {
        snprintf(error, error_size, "an image of %.0f x %.0f pixels is outside 1...%d per side", pixels_wide, pixels_high,
                 HUD_RASTER_MAX_PIXELS);
        return -1;
    }
    GError *failure = NULL;
    RsvgHandle *document = hud_raster.handle_new_from_data((const unsigned char *)svg, svg_size, &failure);
    if (document == NULL) {
        snprintf(error, error_size, "librsvg could not read the SVG (%s)", failure != NULL ? failure->message : "no reason given");
        if (failure != NULL) hud_raster.error_free(failure);
        return -1;
    }
    int result = -1;
    cairo_surface_t *surface = hud_raster.image_surface_create(CAIRO_FORMAT_ARGB32, (int)pixels_wide, (int)pixels_high);
    cairo_t *context = NULL;
    hud_raster_buffer_t buffer = {0};
    if (hud_raster.surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        snprintf(error, error_size, "cairo: %s", hud_raster.status_to_string(hud_raster.surface_status(surface)));
        goto done;
    }
    context = hud_raster.create(surface);
    hud_raster.scale(context, scale, scale);
    RsvgRectangle viewport = {0, 0, width, height};
    if (!hud_raster.render_document(document, context, &viewport, &failure)) {
        snprintf(error, error_size, "librsvg could not draw the SVG (%s)", failure != NULL ? failure->message : "no reason given");
        if (failure != NULL) hud_raster.error_free(failure);
        goto done;
    }
    if (hud_raster.status(context) != CAIRO_STATUS_SUCCESS) {
        snprintf(error, error_size, "cairo: %s", hud_raster.status_to_string(hud_raster.status(context)));
        goto done;
    }
    int written = hud_raster.surface_write_to_png_stream(surface, hud_raster_write, &buffer);
    if (written != CAIRO_STATUS_SUCCESS) {
        snprintf(error, error_size, "cairo could not encode the PNG: %s", hud_raster.status_to_string(written));
        free(buffer.bytes);
        goto done;
    }
    *png = buffer.bytes;
    *png_size = buffer.size;
    result = 0;
done:
    if (context != NULL) hud_raster.destroy(context);
    hud_raster.surface_destroy(surface);
    hud_raster.object_unref(document);
    return result;
}

void hud_raster_free(unsigned char *png) { free(png); }

// A PNG in memory as cairo reads it: the bytes not yet handed over.
typedef struct {
    const unsigned char *bytes;
    size_t left;
} hud_raster_source_t;

static int hud_raster_read(void *closure, unsigned char *data, unsigned int length) {
    hud_raster_source_t *source = closure;
    if (length > source->left) return CAIRO_STATUS_READ_ERROR;
    memcpy(data, source->bytes, length);
    source->bytes += length;
    source->left -= length;
    return CAIRO_STATUS_SUCCESS;
}

// The PNG decoded as a 32-bit image, or NULL with the reason in `error`.
static cairo_surface_t *hud_raster_decode(const unsigned char *png, size_t size, const char *which, char *error, size_t error_size) {
    hud_raster_source_t source = {png, size};
    cairo_surface_t *surface = hud_raster.image_surface_create_from_png_stream(hud_raster_read, &source);
    int status = hud_raster.surface_status(surface);
    if (status != CAIRO_STATUS_SUCCESS) {
        snprintf(error, error_size, "the %s image is not a PNG cairo can read (%s)", which, hud_raster.status_to_string(status));
        hud_raster.surface_destroy(surface);
        return NULL;
    }
    hud_raster.surface_flush(surface);
    int format = hud_raster.image_surface_get_format(surface);
    if (format != CAIRO_FORMAT_ARGB32 && format != 1 /* CAIRO_FORMAT_RGB24 */) {
        snprintf(error, error_size, "the %s image decodes to cairo format %d, not 32-bit RGB", which, format);
        hud_raster.surface_destroy(surface);
        return NULL;
    }
    return surface;
}

int hud_raster_compare(const unsigned char *a, size_t a_size, const unsigned char *b, size_t b_size, int tolerance,
                       hud_raster_difference_t *difference, unsigned char **diff_png, size_t *diff_size, char *error,
                       size_t error_size) {
    pthread_once(&hud_raster_once, hud_raster_load_once);
    if (!hud_raster_loaded) {
        snprintf(error, error_size, "cairo could not be loaded (%s)", hud_raster_reason);
        return -1;
    }
    cairo_surface_t *first = hud_raster_decode(a, a_size, "baseline", error, error_size);
    if (first == NULL) return -1;
    cairo_surface_t *second = hud_raster_decode(b, b_size, "new", error, error_size);
    if (second == NULL) {
        hud_raster.surface_destroy(first);
        return -1;
    }
    int width = hud_raster.image_surface_get_width(first), height = hud_raster.image_surface_get_height(first);
    *difference = (hud_raster_difference_t){width, height, hud_raster.image_surface_get_width(second),
                                            hud_raster.image_surface_get_height(second), 0, width, height, -1, -1};
    int result = 0;
    cairo_surface_t *marked = NULL;
    if (difference->width == difference->new_width && difference->height == difference->new_height) {
        const unsigned char *rows_a = hud_raster.image_surface_get_data(first), *rows_b = hud_raster.image_surface_get_data(second);
        int stride_a = hud_raster.image_surface_get_stride(first), stride_b = hud_raster.image_surface_get_stride(second);
        unsigned char *rows_d = NULL;
        int stride_d = 0;
        if (diff_png != NULL) {
            marked = hud_raster.image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
            if (hud_raster.surface_status(marked) == CAIRO_STATUS_SUCCESS) {
                hud_raster.surface_flush(marked);
                rows_d = hud_raster.image_surface_get_data(marked);
                stride_d = hud_raster.image_surface_get_stride(marked);
            }
        }
        for (int y = 0; y < height; y++) {
            const unsigned char *row_a = rows_a + (size_t)y * (size_t)stride_a, *row_b = rows_b + (size_t)y * (size_t)stride_b;
            for (int x = 0; x < width; x++) {
                int changed = 0;
                for (int channel = 0; channel < 4; channel++) {
                    int delta = (int)row_a[4 * x + channel] - (int)row_b[4 * x + channel];
                    if (delta > tolerance || delta < -tolerance) changed = 1;
                }
                if (rows_d != NULL) {
                    // The diff picture: a changed pixel opaque red, the rest
                    // the baseline's gray level at a quarter of its opacity.
                    unsigned char *pixel = rows_d + (size_t)y * (size_t)stride_d + 4 * (size_t)x;
                    if (changed) {
                        pixel[0] = 0, pixel[1] = 0, pixel[2] = 255, pixel[3] = 255;  // B, G, R, A (little-endian ARGB32)
                    } else {
                        unsigned char gray = (unsigned char)((row_a[4 * x] + row_a[4 * x + 1] + row_a[4 * x + 2]) / 12);
                        pixel[0] = gray, pixel[1] = gray, pixel[2] = gray, pixel[3] = (unsigned char)(row_a[4 * x + 3] / 4);
                    }
                }
                if (!changed) continue;
                difference->changed_pixels++;
                if (x < difference->min_x) difference->min_x = x;
                if (y < difference->min_y) difference->min_y = y;
                if (x > difference->max_x) difference->max_x = x;
                if (y > difference->max_y) difference->max_y = y;
            }
        }
    }
    if (diff_png != NULL && marked != NULL && hud_raster.surface_status(marked) == CAIRO_STATUS_SUCCESS) {
        hud_raster_buffer_t buffer = {0};
        hud_raster.surface_mark_dirty(marked);
        int written = hud_raster.surface_write_to_png_stream(marked, hud_raster_write, &buffer);
        if (written != CAIRO_STATUS_SUCCESS) {
            snprintf(error, error_size, "cairo could not encode the diff PNG: %s", hud_raster.status_to_string(written));
            free(buffer.bytes);
            result = -1;
        } else {
            *diff_png = buffer.bytes;
            *diff_size = buffer.size;
        }
    }
    if (marked != NULL) hud_raster.surface_destroy(marked);
    hud_raster.surface_destroy(first);
    hud_raster.surface_destroy(second);
    return result;
}
