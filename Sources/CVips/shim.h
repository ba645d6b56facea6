#ifndef VITRINE_CVIPS_SHIM_H
#define VITRINE_CVIPS_SHIM_H

// libvips, loaded at run time (dlopen) by the builds that re-encode images, and only by them: linking it would load
// its 103 shared libraries at every start of the binary, 34 ms each time on this machine (BENCHMARKS.md, "Figures
// behind the code"). No libvips header is needed: the few functions are declared here as they are in vips/*.h
// (8.x, stable since 8.0), and their options travel as vips option strings.

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

typedef struct _VipsImage VipsImage;

/// The functions of libvips (and of the GLib it loads) that the encoder calls, looked up in the loaded library.
typedef struct {
    int (*init)(const char *argv0);
    void (*cache_set_max)(int max);
    void (*concurrency_set)(int concurrency);
    VipsImage *(*image_new_from_buffer)(const void *buf, size_t len, const char *option_string, ...);
    int (*autorot)(VipsImage *in, VipsImage **out, ...);
    int (*icc_transform)(VipsImage *in, VipsImage **out, const char *output_profile, ...);
    int (*colourspace)(VipsImage *in, VipsImage **out, int space, ...);
    int (*image_get_interpretation)(const VipsImage *image);
    unsigned long (*image_get_typeof)(const VipsImage *image, const char *name);
    int (*image_get_width)(const VipsImage *image);
    int (*image_get_height)(const VipsImage *image);
    int (*image_write_to_buffer)(VipsImage *in, const char *suffix, void **buf, size_t *size, ...);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    void (*object_unref)(void *object);
    void (*free)(void *memory);
    unsigned (*log_set_handler)(
        const char *domain, int levels, void (*handler)(const char *, int, const char *, void *), void *data);
} VitrineVips;

/// Looks every function up in `library` (a handle from dlopen); 0 when one is missing, else 1.
static inline int vitrine_vips_bind(void *library, VitrineVips *api) {
#define VITRINE_VIPS_BIND(field, symbol)                                                                              \
    *(void **)(&api->field) = dlsym(library, symbol);                                                                 \
    if (api->field == NULL) return 0;
    VITRINE_VIPS_BIND(init, "vips_init")
    VITRINE_VIPS_BIND(cache_set_max, "vips_cache_set_max")
    VITRINE_VIPS_BIND(concurrency_set, "vips_concurrency_set")
    VITRINE_VIPS_BIND(image_new_from_buffer, "vips_image_new_from_buffer")
    VITRINE_VIPS_BIND(autorot, "vips_autorot")
    VITRINE_VIPS_BIND(icc_transform, "vips_icc_transform")
    VITRINE_VIPS_BIND(colourspace, "vips_colourspace")
    VITRINE_VIPS_BIND(image_get_interpretation, "vips_image_get_interpretation")
    VITRINE_VIPS_BIND(image_get_typeof, "vips_image_get_typeof")
    VITRINE_VIPS_BIND(image_get_width, "vips_image_get_width")
    VITRINE_VIPS_BIND(image_get_height, "vips_image_get_height")
    VITRINE_VIPS_BIND(image_write_to_buffer, "vips_image_write_to_buffer")
    VITRINE_VIPS_BIND(error_buffer, "vips_error_buffer")
    VITRINE_VIPS_BIND(error_clear, "vips_error_clear")
    VITRINE_VIPS_BIND(object_unref, "g_object_unref")
    VITRINE_VIPS_BIND(free, "g_free")
    VITRINE_VIPS_BIND(log_set_handler, "g_log_set_handler")
#undef VITRINE_VIPS_BIND
    return 1;
}

static inline void vitrine_vips_ignore_log(const char *domain, int level, const char *message, void *data) {
    (void)domain;
    (void)level;
    (void)message;
    (void)data;
}

/// Keeps libvips' warnings ("IHDR: CRC error") off stderr, which carries Vitrine's own sentences: a copy that cannot
/// be made fails with libvips' error instead, which the build reports. GLib's warning, message, info and debug
/// levels of the "VIPS" domain.
static inline void vitrine_vips_quiet(const VitrineVips *api) {
    api->log_set_handler("VIPS", (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7), vitrine_vips_ignore_log, NULL);
}

/// dlopen's flags for the library: its symbols resolved at once and kept to itself.
static inline int vitrine_vips_open_flags(void) { return RTLD_NOW | RTLD_LOCAL; }

/// Copies libvips' last error messages into `message` (cut to `capacity`) and clears them.
static inline void vitrine_vips_take_error(const VitrineVips *api, char *message, size_t capacity) {
    if (capacity == 0) return;
    const char *text = api->error_buffer();
    strncpy(message, text ? text : "", capacity - 1);
    message[capacity - 1] = 0;
    api->error_clear();
}

/// Decodes `length` bytes of an image, turns it upright (its EXIF orientation) and into sRGB (its embedded colour
/// profile, or from CMYK), and encodes it as `suffix` says (".heif[compression=av1,Q=50,…]", ".webp[Q=75,…]").
/// On success returns 1 with the encoded bytes in `*out` (freed with `api->free`) and the size the encoded image
/// has; else 0, with libvips' reason in `message`.
static inline int vitrine_vips_encode(
    const VitrineVips *api, const void *bytes, size_t length, const char *suffix, void **out, size_t *out_length,
    int *width, int *height, char *message, size_t capacity) {
    enum { INTERPRETATION_CMYK = 15, INTERPRETATION_SRGB = 22 };
    *out = NULL;
    *out_length = 0;
    VipsImage *image = api->image_new_from_buffer(bytes, length, "access=sequential,fail_on=error", NULL);
    if (image == NULL) {
        vitrine_vips_take_error(api, message, capacity);
        return 0;
    }
    VipsImage *upright = NULL;
    if (api->autorot(image, &upright, NULL) != 0) {
        api->object_unref(image);
        vitrine_vips_take_error(api, message, capacity);
        return 0;
    }
    api->object_unref(image);
    VipsImage *srgb = NULL;
    int converted = 0;
    if (api->image_get_typeof(upright, "icc-profile-data") != 0) {
        converted = api->icc_transform(upright, &srgb, "srgb", "embedded", 1, NULL) == 0;
    } else if (api->image_get_interpretation(upright) == INTERPRETATION_CMYK) {
        converted = api->colourspace(upright, &srgb, INTERPRETATION_SRGB, NULL) == 0;
    } else {
        srgb = upright;
        upright = NULL;
        converted = 1;
    }
    if (upright != NULL) api->object_unref(upright);
    if (!converted) {
        vitrine_vips_take_error(api, message, capacity);
        return 0;
    }
    *width = api->image_get_width(srgb);
    *height = api->image_get_height(srgb);
    int written = api->image_write_to_buffer(srgb, suffix, out, out_length, NULL);
    api->object_unref(srgb);
    if (written != 0) {
        if (*out != NULL) api->free(*out);
        *out = NULL;
        *out_length = 0;
        vitrine_vips_take_error(api, message, capacity);
        return 0;
    }
    return 1;
}

#endif
