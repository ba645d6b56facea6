#ifndef VITRINE_SAMPLE_IMAGES_H
#define VITRINE_SAMPLE_IMAGES_H
#include <stddef.h>
/// One bundled sample image: a JPEG rendition of a synthetic picture.
typedef struct {
    const char *theme;          /* "city" or "graffiti" */
    int number;                 /* 1-based within the theme */
    int size;                   /* Pixabay's size name: 150, 640, 1280 (longest edge), 180, 340 (height), 960 (fits 960x720) */
    int width;
    int height;
    const unsigned char *bytes;
    size_t length;
} vitrine_sample_image;
size_t vitrine_sample_image_count(void);
const vitrine_sample_image *vitrine_sample_image_at(size_t index);
#endif
