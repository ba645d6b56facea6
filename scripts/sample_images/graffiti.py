"""The eight pictures of the graffiti walls theme, each drawn from the seeded random generator it is given."""

import math

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from .drawing import LANDSCAPE, PORTRAIT, catmull_rom, gradient_h, gradient_v, radial_mask, shade, thick_stroke
from .graffiti_parts import (
    brick_wall,
    concrete_wall,
    drip,
    finish_wall,
    ground,
    piece,
    sparkle,
    splat,
    spray_blob,
    tag,
    word_strokes,
)


def graffiti_01(rng):
    """Classic red brick wall with a yellow-orange piece, purple 3D shadow and drips."""
    size = LANDSCAPE
    col, sh = brick_wall(size, rng)
    for _ in range(5):
        tag(col, rng, rng.uniform(0, 1100), rng.uniform(40, 700), rng.uniform(30, 60),
            rng.choice([(20, 20, 24), (240, 240, 240), (40, 60, 160)]), width=4)
    spray_blob(col, rng, 640, 420, 330, (60, 40, 110), alpha=150, speckle=False)
    letters, _ = word_strokes("SOKE", 150, 240, 330, rng, spacing=0.85, slant=0.22)
    piece(col, rng, letters, 78, [(0, (255, 236, 80)), (0.5, (255, 170, 30)), (1, (236, 70, 40))],
          shadow=(120, 40, 150), shadow_off=(18, 16), drips=9)
    return finish_wall(col, sh, rng)


def graffiti_02(rng):
    """Painted gradient wall with fat white bubble letters."""
    size = LANDSCAPE
    col, sh = brick_wall(size, rng, bw=110, bh=38)
    col = gradient_h(size, [(0, (40, 120, 220)), (0.5, (150, 80, 200)), (1, (250, 90, 150))])
    for _ in range(14):
        spray_blob(col, rng, rng.uniform(0, 1280), rng.uniform(0, 853), rng.uniform(40, 120),
                   rng.choice([(255, 220, 60), (60, 220, 200), (255, 140, 200)]), alpha=120, speckle=True)
    letters, _ = word_strokes("BOOM", 150, 230, 320, rng, spacing=0.9, slant=0.08, jitter=0.02, wave=0.05)
    piece(col, rng, letters, 130, [(0, (255, 255, 255)), (1, (210, 224, 255))], outline=(20, 20, 40),
          outline_w=18, shadow=(30, 20, 80), shadow_off=(16, 18), highlight=(120, 210, 255), drips=4,
          drip_color=(250, 250, 255))
    for _ in range(12):
        d = ImageDraw.Draw(col)
        sparkle(d, rng.uniform(0, 1280), rng.uniform(0, 853), rng.uniform(12, 30), (255, 255, 255))
    return finish_wall(col, sh, rng, vig=0.25)


def graffiti_03(rng):
    """Grey-painted wall buried under layers of tags and throw-ups."""
    size = LANDSCAPE
    col, sh = brick_wall(size, rng, paint=(168, 170, 172))
    for _ in range(6):
        spray_blob(col, rng, rng.uniform(0, 1280), rng.uniform(0, 853), rng.uniform(80, 180),
                   rng.choice([(140, 142, 146), (190, 190, 186), (120, 130, 150)]), alpha=200, speckle=False)
    for _ in range(3):
        letters, _ = word_strokes("".join(rng.choice("AEKMNORSUZ") for _ in range(3)),
                                  rng.uniform(0, 900), rng.uniform(80, 560), rng.uniform(120, 180), rng,
                                  spacing=0.85, slant=0.15)
        c = rng.choice([(240, 60, 60), (60, 180, 80), (250, 200, 40), (60, 120, 240)])
        piece(col, rng, letters, 40, [(0, c), (1, shade(c, 0.7))], outline_w=8, highlight=None, drips=3)
    colors = [(16, 16, 20), (240, 240, 240), (220, 40, 60), (40, 80, 220), (20, 160, 90), (250, 200, 0),
              (190, 190, 200)]
    for _ in range(26):
        tag(col, rng, rng.uniform(-40, 1150), rng.uniform(0, 780), rng.uniform(28, 90), rng.choice(colors),
            width=rng.choice((3, 4, 5, 7)), underline=rng.random() < 0.6, drips=rng.choice((0, 0, 1, 2)))
    return finish_wall(col, sh, rng, grain_amount=3)


def graffiti_04(rng):
    """Abstract spray clouds, splats and drips in neon colours on a dark wall."""
    size = LANDSCAPE
    col, sh = concrete_wall(size, rng, (50, 50, 58))
    palette = [(255, 60, 140), (40, 220, 255), (255, 220, 40), (120, 255, 120), (180, 80, 255), (255, 120, 40)]
    for _ in range(18):
        spray_blob(col, rng, rng.uniform(0, 1280), rng.uniform(0, 853), rng.uniform(60, 220), rng.choice(palette),
                   alpha=rng.randint(120, 220))
    for _ in range(6):
        splat(col, rng, rng.uniform(100, 1180), rng.uniform(100, 700), rng.uniform(20, 45), rng.choice(palette))
    d = ImageDraw.Draw(col)
    for k in range(4):
        y0 = 150 + k * 170 + rng.uniform(-40, 40)
        amp, ph, fr = rng.uniform(40, 110), rng.uniform(0, 6.28), rng.uniform(0.004, 0.008)
        pts = [(x, y0 + amp * math.sin(x * fr + ph)) for x in range(-60, 1341, 20)]
        c = rng.choice(palette + [(255, 255, 255)])
        wd = rng.uniform(10, 22)
        thick_stroke(d, [(x + 3, y + 4) for (x, y) in pts], (20, 20, 26), wd + 4)
        thick_stroke(d, pts, c, wd)
        for _ in range(rng.randint(1, 3)):
            x, y = rng.choice(pts[5:-5])
            drip(d, x, y, rng.uniform(30, 110), wd * 0.35, c)
    tag(col, rng, 980, 740, 44, (245, 245, 245), width=5)
    return finish_wall(col, sh, rng, grain_amount=3, vig=0.4)


def graffiti_05(rng):
    """Portrait: letters stacked down a narrow brick wall, with a sidewalk."""
    size = PORTRAIT
    col, sh = brick_wall(size, rng, brick=(168, 96, 70), bw=88, bh=30)
    spray_blob(col, rng, 420, 560, 380, (30, 160, 150), alpha=200, speckle=True)
    spray_blob(col, rng, 300, 300, 200, (250, 210, 60), alpha=160)
    top, _ = word_strokes("ZEN", 120, 150, 260, rng, spacing=0.9, slant=0.18)
    low, _ = word_strokes("WAX", 90, 560, 280, rng, spacing=0.92, slant=0.18)
    piece(col, rng, top + low, 64, [(0, (255, 90, 150)), (0.5, (255, 160, 60)), (1, (255, 240, 100))],
          shadow=(20, 40, 90), shadow_off=(14, 14), drips=10)
    tag(col, rng, 520, 1010, 50, (20, 20, 24), width=5)
    tag(col, rng, 60, 60, 40, (245, 245, 245), width=4)
    img = finish_wall(col, sh, rng)
    ground(img, 1140, (120, 118, 114), rng)
    return img


def graffiti_06(rng):
    """Night: neon letters under a street lamp, the rest of the wall in shadow."""
    size = LANDSCAPE
    col, sh = brick_wall(size, rng, brick=(90, 70, 80), mortar=(70, 70, 76))
    letters, _ = word_strokes("NEON", 170, 250, 300, rng, spacing=0.86, slant=0.25, wave=0.08)
    piece(col, rng, letters, 56, [(0, (120, 255, 200)), (1, (40, 200, 255))], outline=(255, 40, 160),
          outline_w=14, shadow=(20, 10, 40), shadow_off=(20, 18), highlight=(240, 255, 255), drips=6,
          halo=(255, 60, 200))
    for _ in range(6):
        tag(col, rng, rng.uniform(0, 1100), rng.uniform(40, 760), rng.uniform(30, 50),
            rng.choice([(240, 240, 240), (255, 220, 60)]), width=4)
    img = finish_wall(col, sh, rng, light=((640, -80), 900, (255, 190, 120), 0.25), vig=0.0)
    dark = radial_mask(size, (640, 180), 950, inner=255, outer=60, power=1.2)
    img = ImageChops.multiply(img, Image.merge("RGB", (dark, dark, dark)))
    return img


def graffiti_07(rng):
    """Roller-painted band, a piece with arrows and a pavement in front."""
    size = LANDSCAPE
    col, sh = brick_wall(size, rng, brick=(136, 74, 56), bw=100, bh=35)
    d = ImageDraw.Draw(col)
    band = gradient_v((1280, 470), [(0, (250, 214, 60)), (1, (250, 150, 40))])
    m = Image.new("L", size, 0)
    md = ImageDraw.Draw(m)
    md.polygon([(0, 150), (1280, 110), (1280, 590), (0, 620)], fill=255)
    m = m.filter(ImageFilter.GaussianBlur(2))
    full = Image.new("RGB", size)
    full.paste(band, (0, 110))
    col.paste(full, (0, 0), m)
    letters, end = word_strokes("RAKT", 140, 190, 300, rng, spacing=0.86, slant=0.2)
    piece(col, rng, letters, 70, [(0, (40, 40, 200)), (0.5, (60, 140, 255)), (1, (140, 240, 255))],
          outline=(12, 12, 30), shadow=(200, 40, 40), shadow_off=(-16, 16), drips=5)
    d = ImageDraw.Draw(col)
    for (ax, ay, s) in ((1070, 300, 1.0), (1120, 470, 0.7)):
        pts = catmull_rom([(ax - 120 * s, ay + 60 * s), (ax - 40 * s, ay - 20 * s), (ax + 60 * s, ay)], 12)
        thick_stroke(d, pts, (12, 12, 30), 34 * s)
        thick_stroke(d, pts, (230, 40, 60), 20 * s)
        d.polygon([(ax + 40 * s, ay - 40 * s), (ax + 110 * s, ay + 4 * s), (ax + 30 * s, ay + 44 * s)],
                  fill=(230, 40, 60), outline=(12, 12, 30))
    for _ in range(4):
        tag(col, rng, rng.uniform(0, 1100), rng.uniform(630, 700), rng.uniform(30, 45), (20, 20, 24), width=4)
    img = finish_wall(col, sh, rng)
    ground(img, 760, (110, 106, 100), rng)
    return img


def graffiti_08(rng):
    """Bright yellow wall: black tags, stickers and a pink throw-up."""
    size = LANDSCAPE
    col, sh = concrete_wall(size, rng, (244, 206, 40))
    d = ImageDraw.Draw(col)
    for _ in range(14):
        x, y = rng.uniform(0, 1240), rng.uniform(0, 820)
        sw, shh = rng.uniform(40, 110), rng.uniform(30, 70)
        c = rng.choice([(255, 255, 255), (240, 60, 60), (30, 30, 30), (60, 120, 240)])
        d.rectangle((x, y, x + sw, y + shh), fill=c)
        ic = (30, 30, 30) if c != (30, 30, 30) else (240, 240, 240)
        d.ellipse((x + sw * 0.2, y + shh * 0.2, x + sw * 0.2 + shh * 0.6, y + shh * 0.8), fill=ic)
        d.rectangle((x + sw * 0.55, y + shh * 0.3, x + sw * 0.9, y + shh * 0.45), fill=ic)
    letters, _ = word_strokes("UMO", 330, 210, 300, rng, spacing=0.92, slant=0.05, jitter=0.02)
    piece(col, rng, letters, 120, [(0, (255, 120, 190)), (1, (240, 60, 140))], outline=(20, 20, 20),
          outline_w=14, shadow=(20, 20, 20), shadow_off=(12, 12), highlight=(255, 230, 240), drips=5)
    for _ in range(18):
        tag(col, rng, rng.uniform(-40, 1150), rng.uniform(0, 780), rng.uniform(24, 70), (20, 20, 22),
            width=rng.choice((3, 4, 6)), drips=rng.choice((0, 1)))
    return finish_wall(col, sh, rng, grain_amount=3, vig=0.25)
