"""Draws every sample picture (or the ones named), writes its renditions and the C target when their bytes
changed, and prints what it wrote."""

import io
import os
import random
import sys

from PIL import Image

from .city import (
    city_01,
    city_02,
    city_03,
    city_04,
    city_05,
    city_06,
    city_07,
    city_08,
    city_09,
    city_10,
    city_11,
    city_12,
)
from .graffiti import (
    graffiti_01,
    graffiti_02,
    graffiti_03,
    graffiti_04,
    graffiti_05,
    graffiti_06,
    graffiti_07,
    graffiti_08,
)
from .renditions import SIZES, TALL_SIZES, encode_jpeg, rendition_size
from .c_target import HEADER, generate_c


TARGET_DIR = os.path.join("Sources", "CSampleImages")
IMAGE_DIR = os.path.join(TARGET_DIR, "images")


THEMES = [
    ("city", [city_01, city_02, city_03, city_04, city_05, city_06, city_07, city_08, city_09, city_10,
              city_11, city_12]),
    ("graffiti", [graffiti_01, graffiti_02, graffiti_03, graffiti_04, graffiti_05, graffiti_06, graffiti_07,
                  graffiti_08]),
]


def write_if_changed(path, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    if os.path.exists(path):
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    with open(path, "wb") as f:
        f.write(data)
    return True


def main(argv):
    only = set(argv[1:])  # optional: names like city-03 to redraw just those (for tinkering)
    if not os.path.isdir(os.path.join("Sources", "CSampleImages")):
        sys.exit("run this from the repository root (Sources/CSampleImages not found)")
    os.makedirs(IMAGE_DIR, exist_ok=True)
    os.makedirs(os.path.join(TARGET_DIR, "include"), exist_ok=True)
    entries = []
    totals = {s: 0 for s in SIZES}
    for t_index, (theme, painters) in enumerate(THEMES):
        for number, painter in enumerate(painters, start=1):
            name = "%s-%02d" % (theme, number)
            redraw = not only or name in only
            img = None
            if redraw:
                rng = random.Random(1000 * (t_index + 1) + number)
                img = painter(rng).convert("RGB")
                assert max(img.size) == 1280, (name, img.size)
            for longest in SIZES:
                fname = "%s-%d.jpg" % (name, longest)
                path = os.path.join(IMAGE_DIR, fname)
                if img is not None:
                    r = img if longest == 1280 else img.resize(rendition_size(img.size, longest), Image.LANCZOS)
                    assert longest not in TALL_SIZES or r.size[1] == longest, (name, longest, r.size)
                    data = encode_jpeg(r)
                    write_if_changed(path, data)
                    wh = r.size
                else:
                    with open(path, "rb") as f:
                        data = f.read()
                    with Image.open(io.BytesIO(data)) as im:
                        wh = im.size
                totals[longest] += len(data)
                entries.append(dict(theme=theme, number=number, longest=longest, width=wh[0], height=wh[1],
                                    file=fname, symbol="%s_%02d_%d" % (theme, number, longest)))
                print("%-24s %4dx%-4d %7d bytes" % (fname, wh[0], wh[1], len(data)))
    write_if_changed(os.path.join(TARGET_DIR, "include", "CSampleImages.h"), HEADER)
    write_if_changed(os.path.join(TARGET_DIR, "sample_images.c"), generate_c(entries))
    for s in SIZES:
        print("total %4d px: %8d bytes" % (s, totals[s]))
    print("total        : %8d bytes in %d files" % (sum(totals.values()), len(entries)))
