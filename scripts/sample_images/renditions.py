"""The JPEG renditions of a picture: the sizes Pixabay names them by, how large each is, and how they are
encoded."""

import io


SIZES = (150, 180, 340, 640, 960, 1280)
# The sizes that are a rendition's height, and the one that fits a box; the others are the longest edge.
TALL_SIZES = (180, 340)
BOXED_SIZES = {960: (960, 720)}
JPEG_OPTIONS = dict(quality=78, optimize=True, progressive=True)


def rendition_size(size, name):
    w, h = size
    if name in TALL_SIZES:
        f = name / h
    elif name in BOXED_SIZES:
        box_w, box_h = BOXED_SIZES[name]
        f = min(box_w / w, box_h / h)
    else:
        f = name / max(w, h)
    return max(1, int(w * f + 0.5)), max(1, int(h * f + 0.5))


def encode_jpeg(img):
    buf = io.BytesIO()
    img.convert("RGB").save(buf, "JPEG", **JPEG_OPTIONS)
    return buf.getvalue()
