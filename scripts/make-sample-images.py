#!/usr/bin/env python3
"""Draw Vitrine's bundled sample images and generate the C target that embeds them.

The pictures are synthetic (drawn from scratch with Pillow, no photographs, no
fonts, no third-party artwork), so they are free of any rights. Everything is
seeded, so re-running the script reproduces the same bytes (given the same
Pillow / libjpeg build).

Two themes:
  city      12 pictures of a harbour city (skylines, water, cranes, ships, bridges...)
  graffiti   8 pictures of colourful graffiti walls

Each picture is drawn at 1280 px on its longest edge and written as six JPEG
renditions, named by their size as Pixabay names them: 150, 640 and 1280 px on
the longest edge (previewURL / webformatURL / largeImageURL), and the other
sizes of webformatURL (its "_640" replaced): 180 and 340 px tall, and 960 at
most 960 x 720 px.

Outputs (run from the repository root):
  Sources/CSampleImages/images/{theme}-{NN}-{size}.jpg
  Sources/CSampleImages/include/CSampleImages.h
  Sources/CSampleImages/sample_images.c

Usage:  python3 scripts/make-sample-images.py [city-03 graffiti-01 ...]
        (naming pictures redraws only those; the others are read back from disk)
Needs:  Python 3.9+ and Pillow.
"""

import io
import math
import os
import random
import sys

from PIL import Image, ImageChops, ImageDraw, ImageFilter

TARGET_DIR = os.path.join("Sources", "CSampleImages")
IMAGE_DIR = os.path.join(TARGET_DIR, "images")
SIZES = (150, 180, 340, 640, 960, 1280)
# The sizes that are a rendition's height, and the one that fits a box; the others are the longest edge.
TALL_SIZES = (180, 340)
BOXED_SIZES = {960: (960, 720)}
JPEG_OPTIONS = dict(quality=78, optimize=True, progressive=True)

LANDSCAPE = (1280, 853)
PORTRAIT = (853, 1280)
SQUARE = (1280, 1280)


# --------------------------------------------------------------------------
# Generic helpers
# --------------------------------------------------------------------------

def clamp(v, lo=0, hi=255):
    return lo if v < lo else hi if v > hi else v


def mix(c1, c2, t):
    """Linear mix of two RGB tuples."""
    return tuple(int(round(a + (b - a) * t)) for a, b in zip(c1, c2))


def shade(c, f):
    """Scale a colour's brightness by f (f > 1 brightens)."""
    return tuple(clamp(int(round(v * f))) for v in c)


def smoothstep(t):
    return t * t * (3 - 2 * t)


def gradient_v(size, stops, smooth=True):
    """Vertical gradient; stops is a list of (position 0..1, colour)."""
    w, h = size
    col = Image.new("RGB", (1, h))
    px = col.load()
    for y in range(h):
        t = y / max(1, h - 1)
        for i in range(len(stops) - 1):
            p0, c0 = stops[i]
            p1, c1 = stops[i + 1]
            if t <= p1 or i == len(stops) - 2:
                u = 0.0 if p1 == p0 else min(1.0, max(0.0, (t - p0) / (p1 - p0)))
                px[0, y] = mix(c0, c1, smoothstep(u) if smooth else u)
                break
    return col.resize((w, h), Image.NEAREST)


def gradient_h(size, stops):
    w, h = size
    return gradient_v((h, w), stops).transpose(Image.Transpose.ROTATE_90).transpose(
        Image.Transpose.FLIP_TOP_BOTTOM)


def radial_mask(size, center, radius, inner=255, outer=0, power=1.0, small=96):
    """Radial falloff mask, computed at low resolution and scaled up (smooth)."""
    w, h = size
    sw = small
    sh = max(2, int(round(small * h / w)))
    m = Image.new("L", (sw, sh))
    px = m.load()
    cx, cy = center[0] * sw / w, center[1] * sh / h
    r = radius * sw / w
    for y in range(sh):
        for x in range(sw):
            d = math.hypot(x + 0.5 - cx, y + 0.5 - cy) / r
            t = max(0.0, 1.0 - d) ** power
            px[x, y] = int(round(outer + (inner - outer) * t))
    return m.resize((w, h), Image.BICUBIC)


def blend_color(img, color, mask):
    """Paint a flat colour onto img through an L mask."""
    img.paste(Image.new("RGB", img.size, color), (0, 0), mask)


def screen_glow(img, center, radius, color, strength=1.0):
    """Add a soft light (screen blend) around center."""
    m = radial_mask(img.size, center, radius, inner=int(255 * strength), power=2.0)
    layer = Image.new("RGB", img.size, (0, 0, 0))
    layer.paste(Image.new("RGB", img.size, color), (0, 0), m)
    return ImageChops.screen(img, layer)


def grain(img, rng, amount=5, scale=1):
    """Add monochrome film grain (uniform noise, +-amount)."""
    w, h = img.size
    nw, nh = max(1, w // scale), max(1, h // scale)
    n = Image.frombytes("L", (nw, nh), rng.randbytes(nw * nh))
    if scale > 1:
        n = n.resize((w, h), Image.BILINEAR)
    n = n.point(lambda v: v * 2 * amount // 255)
    return ImageChops.add(img, Image.merge("RGB", (n, n, n)), 1.0, -amount)


def vignette(img, strength=0.35):
    w, h = img.size
    m = radial_mask(img.size, (w / 2, h / 2), math.hypot(w, h) / 2,
                    inner=255, outer=int(255 * (1 - strength)), power=0.8, small=64)
    m = m.point(lambda v: clamp(v + 40))
    return ImageChops.multiply(img, Image.merge("RGB", (m, m, m)))


def blotches(size, rng, scale, lo, hi, blur=None):
    """Low-frequency random L texture in [lo, hi]."""
    w, h = size
    sw, sh = max(2, w // scale), max(2, h // scale)
    n = Image.frombytes("L", (sw, sh), rng.randbytes(sw * sh))
    n = n.resize((w, h), Image.BICUBIC)
    if blur:
        n = n.filter(ImageFilter.GaussianBlur(blur))
    return n.point(lambda v: lo + (hi - lo) * v // 255)


def catmull_rom(points, samples=10, closed=False):
    """Smooth a polyline through the given points."""
    if len(points) < 3:
        return list(points)
    pts = list(points)
    if closed:
        pts = [pts[-1]] + pts + [pts[0], pts[1]]
    else:
        pts = [pts[0]] + pts + [pts[-1]]
    out = []
    for i in range(1, len(pts) - 2):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[i + 1], pts[i + 2]
        for s in range(samples):
            t = s / samples
            t2, t3 = t * t, t * t * t
            x = 0.5 * ((2 * p1[0]) + (-p0[0] + p2[0]) * t
                       + (2 * p0[0] - 5 * p1[0] + 4 * p2[0] - p3[0]) * t2
                       + (-p0[0] + 3 * p1[0] - 3 * p2[0] + p3[0]) * t3)
            y = 0.5 * ((2 * p1[1]) + (-p0[1] + p2[1]) * t
                       + (2 * p0[1] - 5 * p1[1] + 4 * p2[1] - p3[1]) * t2
                       + (-p0[1] + 3 * p1[1] - 3 * p2[1] + p3[1]) * t3)
            out.append((x, y))
    out.append(pts[-2])
    return out


def thick_stroke(draw, pts, fill, width):
    """A polyline with round joins and caps."""
    if width <= 1:
        draw.line(pts, fill=fill, width=1)
        return
    draw.line(pts, fill=fill, width=int(width), joint="curve")
    r = width / 2
    for (x, y) in (pts[0], pts[-1]):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


# --------------------------------------------------------------------------
# City: building blocks
# --------------------------------------------------------------------------

SKIES = {
    "golden": [(0.0, (52, 78, 130)), (0.45, (214, 146, 110)), (0.8, (250, 190, 120)), (1.0, (255, 214, 150))],
    "dusk": [(0.0, (34, 28, 78)), (0.5, (128, 66, 120)), (0.85, (236, 126, 96)), (1.0, (252, 170, 110))],
    "bluehour": [(0.0, (8, 16, 48)), (0.55, (30, 56, 112)), (0.9, (84, 104, 158)), (1.0, (130, 130, 170))],
    "night": [(0.0, (4, 6, 18)), (0.7, (14, 22, 48)), (1.0, (40, 46, 80))],
    "noon": [(0.0, (38, 104, 190)), (0.6, (102, 160, 222)), (1.0, (184, 214, 238))],
    "dawn": [(0.0, (118, 146, 196)), (0.5, (206, 182, 206)), (0.85, (246, 206, 196)), (1.0, (255, 228, 196))],
    "storm": [(0.0, (52, 56, 66)), (0.6, (92, 98, 108)), (1.0, (156, 160, 162))],
    "sunrise": [(0.0, (58, 40, 72)), (0.45, (170, 62, 60)), (0.8, (240, 126, 64)), (1.0, (255, 188, 96))],
    "teal": [(0.0, (12, 34, 54)), (0.5, (34, 98, 112)), (0.85, (186, 150, 112)), (1.0, (238, 160, 102))],
}


def sky(size, horizon, name):
    """Sky gradient that reaches its last stop at the horizon line."""
    w, h = size
    stops = SKIES[name]
    g = gradient_v((w, max(2, horizon)), stops)
    img = Image.new("RGB", size, stops[-1][1])
    img.paste(g, (0, 0))
    return img


def stars(img, rng, count, y_max, bright=220):
    d = ImageDraw.Draw(img)
    w = img.size[0]
    for _ in range(count):
        x, y = rng.uniform(0, w), rng.uniform(0, y_max) ** 1.0
        fade = 1 - y / y_max
        b = int(bright * rng.uniform(0.35, 1.0) * (0.3 + 0.7 * fade))
        c = (b, b, min(255, b + 20))
        r = rng.choice((0.8, 1.0, 1.0, 1.4, 1.8))
        d.ellipse((x - r, y - r, x + r, y + r), fill=c)


def noise_octave(size, rng, sx, sy):
    """Smooth value noise: random bytes on a coarse grid, scaled up bicubically."""
    w, h = size
    nw, nh = max(2, w // sx + 2), max(2, h // sy + 2)
    n = Image.frombytes("L", (nw, nh), rng.randbytes(nw * nh))
    return n.resize((w, h), Image.BICUBIC)


def cloud_field(size, rng, sx, sy, coverage=0.5, softness=60, octaves=3):
    """Cloud density (L image) from a few octaves of value noise, thresholded softly."""
    acc = None
    weight = 0.0
    amp = 1.0
    for o in range(octaves):
        n = noise_octave(size, rng, max(2, int(sx / 2 ** o)), max(2, int(sy / 2 ** o)))
        acc = n if acc is None else Image.blend(acc, n, amp / (weight + amp))
        weight += amp
        amp *= 0.55
    lo, hi = acc.getextrema()
    thr = lo + (hi - lo) * (1 - coverage)
    return acc.point(lambda v: int(clamp((v - thr) * 255 / softness)))


CLOUD_KINDS = {
    "cumulus": dict(sx=230, sy=120, coverage=0.45, softness=70, octaves=4, dy=18),
    "streaks": dict(sx=320, sy=28, coverage=0.5, softness=80, octaves=3, dy=6),
    "storm": dict(sx=200, sy=80, coverage=0.62, softness=70, octaves=4, dy=16),
    "wisps": dict(sx=420, sy=22, coverage=0.35, softness=90, octaves=3, dy=4),
}


def clouds(img, rng, kind, bottom, lit, shadow, alpha=0.9, top=0.0, coverage=None):
    """Paint a layer of clouds between the fractions `top` and `bottom` of the height.

    Clouds are lit from above: the upper rims take the `lit` colour, the body
    fades towards `shadow`.
    """
    w, h = img.size
    k = dict(CLOUD_KINDS[kind])
    if coverage is not None:
        k["coverage"] = coverage
    dy = k.pop("dy")
    field = cloud_field(img.size, rng, **k)
    fade = 0.12
    stops = [(0.0, (0, 0, 0) if top > 0 else (255, 255, 255))]
    if top > 0:
        stops.append((min(1.0, top + fade), (255, 255, 255)))
    stops += [(max(top + fade, bottom - fade), (235, 235, 235)), (bottom, (0, 0, 0)), (1.0, (0, 0, 0))]
    field = ImageChops.multiply(field, gradient_v((w, h), stops).convert("L"))
    shifted = Image.new("L", (w, h), 0)
    shifted.paste(field, (0, dy))
    rim = ImageChops.subtract(field, shifted).filter(ImageFilter.GaussianBlur(dy * 0.6))
    body = Image.new("RGB", (w, h), mix(lit, shadow, 0.5))
    body.paste(Image.new("RGB", (w, h), shadow), (0, 0),
               field.filter(ImageFilter.GaussianBlur(dy)).point(lambda v: v // 2))
    body.paste(Image.new("RGB", (w, h), lit), (0, 0), rim.point(lambda v: min(255, v * 2)))
    img.paste(body, (0, 0), field.point(lambda v: int(v * alpha)))


def building_colors(rng, mode):
    if mode == "day":
        base = rng.choice([(150, 158, 168), (112, 126, 142), (186, 176, 160), (92, 102, 118),
                           (168, 148, 128), (132, 146, 150), (200, 196, 188), (120, 108, 100)])
        return tuple(clamp(c + rng.randint(-10, 10)) for c in base)
    return None


def skyline(img, rng, base_y, x0, x1, h_min, h_max, color, mode="silhouette",
            windows=None, lit_ratio=0.35, haze=None, peak=None, min_w=28, max_w=96):
    """Draw a row of buildings standing on base_y.

    mode "silhouette": flat colour (optionally lit windows for night scenes).
    mode "day": coloured facades with a darker side face and a window grid.
    """
    d = ImageDraw.Draw(img)
    x = x0
    W = x1 - x0
    while x < x1:
        bw = rng.uniform(min_w, max_w)
        u = (x - x0) / max(1, W)
        env = 1.0 if peak is None else 0.35 + 0.65 * math.exp(-((u - peak) ** 2) / 0.06)
        bh = rng.uniform(h_min, h_max) * env
        if rng.random() < 0.12:
            bh *= 1.5
        top = base_y - bh
        if mode == "day":
            c = building_colors(rng, "day")
            if haze:
                c = mix(c, haze[0], haze[1])
            side = shade(c, 0.78)
            sw = bw * rng.uniform(0.15, 0.3)
            d.rectangle((x, top, x + bw, base_y), fill=c)
            d.rectangle((x + bw - sw, top, x + bw, base_y), fill=side)
            wc = shade(c, rng.choice((0.82, 0.88, 1.12)))
            gx, gy = rng.choice((7, 9, 11)), rng.choice((9, 11, 13))
            yy = top + 8
            while yy < base_y - 10:
                xx = x + 5
                while xx < x + bw - sw - 5:
                    d.rectangle((xx, yy, xx + gx - 4, yy + gy - 5), fill=wc)
                    xx += gx
                yy += gy
            if rng.random() < 0.3:
                d.rectangle((x - 2, top - 4, x + bw + 2, top), fill=shade(c, 0.7))
        else:
            d.rectangle((x, top, x + bw, base_y), fill=color)
            r = rng.random()
            if r < 0.18:      # stepped top
                d.rectangle((x + bw * 0.2, top - bh * 0.12, x + bw * 0.8, top), fill=color)
                d.rectangle((x + bw * 0.35, top - bh * 0.2, x + bw * 0.65, top), fill=color)
            elif r < 0.3:     # antenna
                d.rectangle((x + bw * 0.5 - 1.5, top - bh * 0.3, x + bw * 0.5 + 1.5, top), fill=color)
                if windows:
                    d.ellipse((x + bw * 0.5 - 3, top - bh * 0.3 - 3, x + bw * 0.5 + 3, top - bh * 0.3 + 3),
                              fill=(255, 60, 50))
            elif r < 0.4:     # slanted roof
                d.polygon([(x, top), (x + bw, top - bh * 0.15), (x + bw, top)], fill=color)
            elif r < 0.46:    # gable
                d.polygon([(x, top), (x + bw / 2, top - bw * 0.45), (x + bw, top)], fill=color)
            if windows:
                gx = rng.choice((7, 8, 10))
                gy = rng.choice((9, 10, 12))
                p = lit_ratio * rng.uniform(0.4, 1.4)
                yy = top + 6
                while yy < base_y - 6:
                    xx = x + 4
                    row_on = rng.random() < 0.85
                    while xx < x + bw - 6:
                        if row_on and rng.random() < p:
                            wc = rng.choice(windows)
                            wc = shade(wc, rng.uniform(0.55, 1.05))
                            d.rectangle((xx, yy, xx + gx - 4, yy + gy - 5), fill=wc)
                        xx += gx
                    yy += gy
        x += bw + rng.uniform(-4, 6)


def water(img, horizon, rng, tint, tint_strength=0.45, ripple=6.0, smear=5,
          darken=0.85, glints=None, glint_count=0, glint_x=None):
    """Fill everything below `horizon` with rippled water reflecting what is above."""
    w, h = img.size
    wh = h - horizon
    src_top = max(0, horizon - wh)
    above = img.crop((0, src_top, w, horizon)).transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    if above.size[1] != wh:
        above = above.resize((w, wh), Image.BICUBIC)
    # vertical smear (reflections stretch into streaks)
    refl = above.resize((w, max(2, wh // smear)), Image.BILINEAR).resize((w, wh), Image.BICUBIC)
    refl = Image.blend(refl, above, 0.35)
    # pad horizontally by mirroring, then shift each band of rows
    pad = int(ripple * 3) + 4
    padded = Image.new("RGB", (w + 2 * pad, wh))
    padded.paste(refl, (pad, 0))
    padded.paste(refl.crop((0, 0, pad, wh)).transpose(Image.Transpose.FLIP_LEFT_RIGHT), (0, 0))
    padded.paste(refl.crop((w - pad, 0, w, wh)).transpose(Image.Transpose.FLIP_LEFT_RIGHT), (w + pad, 0))
    out = Image.new("RGB", (w, wh))
    ph1, ph2 = rng.uniform(0, 6.28), rng.uniform(0, 6.28)
    y = 0
    while y < wh:
        t = y / wh
        band = 1 + int(t * 5)
        amp = ripple * (0.25 + 1.6 * t)
        freq = 1.0 / (0.6 + 12 * t)
        dx = amp * (0.65 * math.sin(y * freq + ph1) + 0.35 * math.sin(y * freq * 2.3 + ph2)) \
            + rng.uniform(-0.5, 0.5) * amp * 0.4
        dx = int(round(dx))
        out.paste(padded.crop((pad - dx, y, pad - dx + w, min(wh, y + band))), (0, y))
        y += band
    grad = gradient_v((w, wh), [(0, shade(tint, 1.1)), (1, shade(tint, 0.6))])
    out = Image.blend(out, grad, tint_strength)
    if darken != 1:
        out = out.point(lambda v: int(v * darken))
    if glints and glint_count:
        d = ImageDraw.Draw(out)
        for _ in range(glint_count):
            t = rng.random() ** 1.6
            yy = t * wh
            spread = 30 + 260 * t if glint_x is not None else w
            cx = glint_x if glint_x is not None else rng.uniform(0, w)
            xx = cx + rng.gauss(0, spread * 0.45) if glint_x is not None else rng.uniform(0, w)
            ln = rng.uniform(6, 22) * (0.4 + 2.0 * t)
            c = mix(glints, (255, 255, 255), rng.uniform(0, 0.4))
            c = shade(c, rng.uniform(0.6, 1.0))
            d.line((xx - ln / 2, yy, xx + ln / 2, yy), fill=c, width=1 + int(t * 2.5))
    img.paste(out, (0, horizon))


def with_reflection(img, waterline, draw_fn, strength=0.45, ripple=3.0, rng=None, blur=1.2):
    """Draw something that floats at `waterline` together with its mirror image."""
    w, h = img.size
    layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
    draw_fn(ImageDraw.Draw(layer))
    hh = min(waterline, h - waterline)
    if hh > 2:
        part = layer.crop((0, waterline - hh, w, waterline)).transpose(Image.Transpose.FLIP_TOP_BOTTOM)
        part = part.filter(ImageFilter.GaussianBlur(blur))
        shifted = Image.new("RGBA", part.size, (0, 0, 0, 0))
        y = 0
        ph = rng.uniform(0, 6.28) if rng else 0
        while y < hh:
            dx = int(round(ripple * math.sin(y * 0.35 + ph) * (0.4 + y / max(1, hh))))
            shifted.paste(part.crop((0, y, w, min(hh, y + 2))), (dx, y))
            y += 2
        a = shifted.getchannel("A").point(lambda v: int(v * strength))
        # fade the reflection out with distance from the waterline
        fade = gradient_v((1, hh), [(0, (255, 255, 255)), (1, (40, 40, 40))]).convert("L").resize((w, hh))
        a = ImageChops.multiply(a, fade)
        shifted.putalpha(a)
        dark = ImageChops.multiply(shifted.convert("RGB"), Image.new("RGB", shifted.size, (200, 205, 215)))
        img.paste(dark, (0, waterline), a)
    img.paste(layer, (0, 0), layer)


def hull_poly(x, y, length, height, bow=1):
    """Ship hull polygon: waterline at y, bow to the right when bow=1."""
    if bow == 1:
        return [(x, y - height), (x + length * 0.94, y - height), (x + length, y - height * 1.25),
                (x + length * 0.9, y), (x + length * 0.04, y)]
    return [(x + length, y - height), (x + length * 0.06, y - height), (x, y - height * 1.25),
            (x + length * 0.1, y), (x + length * 0.96, y)]


CONTAINER_COLORS = [(168, 58, 42), (40, 84, 140), (46, 110, 78), (220, 132, 40), (130, 132, 136),
                    (200, 196, 186), (112, 40, 36), (34, 60, 96), (196, 160, 52)]


def container_ship(d, rng, x, waterline, length, scale=1.0, bow=1, hull=(38, 44, 56),
                   light=1.0, silhouette=None):
    hh = 34 * scale
    d.polygon(hull_poly(x, waterline, length, hh, bow), fill=silhouette or hull)
    if not silhouette:
        d.rectangle((x + length * 0.04, waterline - hh * 0.28, x + length * 0.92, waterline),
                    fill=(150, 44, 36))
        d.line((x + length * 0.02, waterline - hh, x + length * 0.95, waterline - hh),
               fill=(210, 210, 210), width=max(1, int(2 * scale)))
    # containers
    cw, ch = 20 * scale, 9 * scale
    start = x + length * (0.26 if bow == 1 else 0.1)
    end = x + length * (0.88 if bow == 1 else 0.72)
    cx = start
    while cx + cw < end:
        stack = rng.randint(3, 6)
        for k in range(stack):
            c = silhouette or shade(rng.choice(CONTAINER_COLORS), light * rng.uniform(0.85, 1.1))
            y0 = waterline - hh - (k + 1) * ch
            d.rectangle((cx, y0, cx + cw - 1.5 * scale, y0 + ch - 1.2 * scale), fill=c)
        cx += cw
    # bridge house near the stern
    bx = x + length * (0.07 if bow == 1 else 0.78)
    bw = length * 0.14
    c = silhouette or shade((226, 224, 218), light)
    d.rectangle((bx, waterline - hh - 70 * scale, bx + bw, waterline - hh), fill=c)
    d.rectangle((bx - 6 * scale, waterline - hh - 70 * scale, bx + bw + 6 * scale,
                 waterline - hh - 64 * scale), fill=c)
    if not silhouette:
        for k in range(4):
            yy = waterline - hh - 60 * scale + k * 14 * scale
            d.rectangle((bx + 4 * scale, yy, bx + bw - 4 * scale, yy + 4 * scale), fill=(40, 52, 66))
    d.rectangle((bx + bw * 0.6, waterline - hh - 92 * scale, bx + bw * 0.85, waterline - hh - 70 * scale),
                fill=silhouette or (60, 60, 66))


def gantry_crane(d, x, base_y, s, color, facing=-1, accent=None):
    """Ship-to-shore container crane. facing=-1: boom reaches to the left (over the water)."""
    lw = max(2, int(5 * s))
    L = 110 * s
    H = 330 * s
    portal = base_y - H * 0.5
    # legs and portal frame
    for lx in (x, x + L):
        d.line((lx, base_y, lx, portal), fill=color, width=lw + 2)
        d.line((lx - 10 * s, base_y, lx + 10 * s, base_y), fill=color, width=lw)
    d.line((x, portal, x + L, portal), fill=color, width=lw + 2)
    d.line((x, base_y - H * 0.2, x + L, base_y - H * 0.2), fill=color, width=lw)
    d.line((x, portal, x + L, base_y - H * 0.2), fill=color, width=max(1, lw - 2))
    boom_y = base_y - H * 0.6
    # upper frame
    d.line((x, portal, x, boom_y), fill=color, width=lw + 1)
    d.line((x + L, portal, x + L, boom_y), fill=color, width=lw + 1)
    # boom
    reach = 260 * s
    back = 110 * s
    if facing == -1:
        bx0, bx1 = x - reach, x + L + back
    else:
        bx0, bx1 = x - back, x + L + reach
    d.line((bx0, boom_y, bx1, boom_y), fill=accent or color, width=lw + 3)
    d.line((bx0, boom_y - 9 * s, bx1, boom_y - 9 * s), fill=color, width=max(1, lw - 2))
    # lattice
    n = int(abs(bx1 - bx0) / (14 * s))
    for i in range(n):
        xa = bx0 + i * (bx1 - bx0) / n
        xb = bx0 + (i + 1) * (bx1 - bx0) / n
        d.line((xa, boom_y, xb, boom_y - 9 * s), fill=color, width=1)
    # apex and stays
    ax = x + L * 0.5
    ay = base_y - H
    d.line((x + L * 0.1, boom_y, ax, ay), fill=color, width=lw)
    d.line((x + L * 0.9, boom_y, ax, ay), fill=color, width=lw)
    end = bx0 if facing == -1 else bx1
    tail = bx1 if facing == -1 else bx0
    d.line((ax, ay, end + (bx1 - bx0) * 0.08 * (1 if facing == -1 else -1), boom_y), fill=color, width=2)
    d.line((ax, ay, (ax + end) / 2, boom_y), fill=color, width=2)
    d.line((ax, ay, tail, boom_y), fill=color, width=2)
    # machinery house
    d.rectangle((x + L * 0.55, boom_y - 26 * s, x + L + back * 0.7, boom_y - 2 * s), fill=accent or color)
    # trolley and spreader cable
    tx = x - reach * 0.55 if facing == -1 else x + L + reach * 0.55
    d.rectangle((tx - 9 * s, boom_y + 1, tx + 9 * s, boom_y + 9 * s), fill=color)
    d.line((tx, boom_y + 9 * s, tx, base_y - H * 0.28), fill=color, width=1)
    d.rectangle((tx - 14 * s, base_y - H * 0.28, tx + 14 * s, base_y - H * 0.28 + 5 * s), fill=color)


def tower_crane(d, x, base_y, top_y, s, color, jib_left=300, jib_right=120):
    """Construction tower crane with a lattice mast."""
    mw = 18 * s
    d.line((x, base_y, x, top_y), fill=color, width=max(2, int(3 * s)))
    d.line((x + mw, base_y, x + mw, top_y), fill=color, width=max(2, int(3 * s)))
    y = base_y
    step = mw * 1.2
    flip = 0
    while y > top_y + step:
        if flip:
            d.line((x, y, x + mw, y - step), fill=color, width=max(1, int(1.5 * s)))
        else:
            d.line((x + mw, y, x, y - step), fill=color, width=max(1, int(1.5 * s)))
        d.line((x, y, x + mw, y), fill=color, width=1)
        flip ^= 1
        y -= step
    jy = top_y
    jh = 14 * s
    d.line((x - jib_left * s, jy, x + mw + jib_right * s, jy), fill=color, width=max(2, int(3 * s)))
    d.line((x - jib_left * s, jy - jh * 0.3, x + mw + jib_right * s, jy - jh), fill=color, width=max(1, int(2 * s)))
    n = int((jib_left + jib_right) * s / (jh * 1.4))
    for i in range(n):
        xa = x - jib_left * s + i * (jib_left + jib_right) * s / n
        xb = xa + (jib_left + jib_right) * s / n
        d.line((xa, jy, xb, jy - jh * 0.6), fill=color, width=1)
    # tower top and tie bars
    ty = jy - 70 * s
    d.polygon([(x, jy), (x + mw / 2, ty), (x + mw, jy)], fill=color)
    d.line((x + mw / 2, ty, x - jib_left * s * 0.7, jy - jh * 0.3), fill=color, width=max(1, int(1.5 * s)))
    d.line((x + mw / 2, ty, x + mw + jib_right * s * 0.9, jy - jh), fill=color, width=max(1, int(1.5 * s)))
    # counterweight and cab
    d.rectangle((x + mw + jib_right * s * 0.55, jy, x + mw + jib_right * s * 0.9, jy + 22 * s), fill=color)
    d.rectangle((x - 10 * s, jy + 2, x + 6 * s, jy + 18 * s), fill=color)
    # hook
    hx = x - jib_left * s * 0.62
    d.rectangle((hx - 6 * s, jy, hx + 6 * s, jy + 6 * s), fill=color)
    d.line((hx, jy + 6 * s, hx, jy + 200 * s), fill=color, width=1)
    d.polygon([(hx - 5 * s, jy + 200 * s), (hx + 5 * s, jy + 200 * s), (hx, jy + 212 * s)], fill=color)


def sailboat(d, x, waterline, s, hull, sail, sail2=None, mast=None, facing=1):
    L = 70 * s
    d.polygon([(x, waterline - 8 * s), (x + L, waterline - 8 * s), (x + L * (0.85 if facing == 1 else 0.95), waterline),
               (x + L * (0.1 if facing == 1 else 0.15), waterline)], fill=hull)
    mx = x + L * (0.45 if facing == 1 else 0.55)
    mtop = waterline - 110 * s
    d.line((mx, waterline - 8 * s, mx, mtop), fill=mast or hull, width=max(1, int(2 * s)))
    if facing == 1:
        d.polygon([(mx - 2 * s, mtop + 6 * s), (mx - 2 * s, waterline - 14 * s), (x + L * 0.05, waterline - 14 * s)],
                  fill=sail)
        d.polygon([(mx + 2 * s, mtop + 10 * s), (mx + 2 * s, waterline - 14 * s), (x + L * 0.98, waterline - 12 * s)],
                  fill=sail2 or sail)
    else:
        d.polygon([(mx + 2 * s, mtop + 6 * s), (mx + 2 * s, waterline - 14 * s), (x + L * 0.95, waterline - 14 * s)],
                  fill=sail)
        d.polygon([(mx - 2 * s, mtop + 10 * s), (mx - 2 * s, waterline - 14 * s), (x + L * 0.02, waterline - 12 * s)],
                  fill=sail2 or sail)


def motorboat(d, x, waterline, s, hull, cabin, window=None, facing=1):
    L = 90 * s
    if facing == 1:
        d.polygon([(x, waterline - 14 * s), (x + L, waterline - 18 * s), (x + L * 0.9, waterline),
                   (x + L * 0.05, waterline)], fill=hull)
        d.polygon([(x + L * 0.2, waterline - 14 * s), (x + L * 0.25, waterline - 30 * s),
                   (x + L * 0.55, waterline - 30 * s), (x + L * 0.65, waterline - 15 * s)], fill=cabin)
        if window:
            d.rectangle((x + L * 0.3, waterline - 26 * s, x + L * 0.52, waterline - 20 * s), fill=window)
    else:
        d.polygon([(x + L, waterline - 14 * s), (x, waterline - 18 * s), (x + L * 0.1, waterline),
                   (x + L * 0.95, waterline)], fill=hull)
        d.polygon([(x + L * 0.8, waterline - 14 * s), (x + L * 0.75, waterline - 30 * s),
                   (x + L * 0.45, waterline - 30 * s), (x + L * 0.35, waterline - 15 * s)], fill=cabin)
        if window:
            d.rectangle((x + L * 0.48, waterline - 26 * s, x + L * 0.7, waterline - 20 * s), fill=window)


def suspension_bridge(d, x0, x1, deck_y, tower_xs, tower_top, color, width=4, hanger_step=14,
                      lights=None, light_step=28):
    """Suspension bridge: towers, sagging main cable, hangers and deck."""
    tw = 16
    for tx in tower_xs:
        d.rectangle((tx - tw / 2, tower_top, tx - tw / 2 + 5, deck_y + 60), fill=color)
        d.rectangle((tx + tw / 2 - 5, tower_top, tx + tw / 2, deck_y + 60), fill=color)
        for yy in (tower_top + 8, tower_top + (deck_y - tower_top) * 0.45, deck_y - 10):
            d.rectangle((tx - tw / 2, yy, tx + tw / 2, yy + 6), fill=color)
    anchors = [x0] + list(tower_xs) + [x1]
    tops = [deck_y - 4] + [tower_top + 4] * len(tower_xs) + [deck_y - 4]
    cable = []
    for i in range(len(anchors) - 1):
        xa, xb = anchors[i], anchors[i + 1]
        ya, yb = tops[i], tops[i + 1]
        sag = (deck_y - 8 - min(ya, yb)) * (0.92 if 0 < i < len(anchors) - 2 else 0.25)
        steps = max(8, int((xb - xa) / 4))
        for k in range(steps + 1):
            t = k / steps
            y = ya + (yb - ya) * t + sag * 4 * t * (1 - t) * (1 if 0 < i < len(anchors) - 2 else 0.6)
            cable.append((xa + (xb - xa) * t, min(y, deck_y - 4)))
    d.line(cable, fill=color, width=width)
    for (cx, cy) in cable[::max(1, int(hanger_step / 4))]:
        if cy < deck_y - 6:
            d.line((cx, cy, cx, deck_y), fill=color, width=1)
    d.rectangle((x0 - 40, deck_y, x1 + 40, deck_y + 9), fill=color)
    d.line((x0 - 40, deck_y + 12, x1 + 40, deck_y + 12), fill=color, width=2)
    if lights:
        for (cx, cy) in cable[::max(1, int(light_step / 4))]:
            d.ellipse((cx - 2, cy - 2, cx + 2, cy + 2), fill=lights)
        xx = x0 - 40
        while xx < x1 + 40:
            d.ellipse((xx - 1.5, deck_y + 3, xx + 1.5, deck_y + 6), fill=lights)
            xx += light_step * 0.5


def warehouses(img, rng, x0, x1, base_y, height, lit=False, light_side=1.0):
    """Brick warehouse facades with gables and copper roofs (Speicherstadt-like)."""
    d = ImageDraw.Draw(img)
    x = x0
    while x < x1:
        bw = rng.uniform(150, 240)
        bh = height * rng.uniform(0.85, 1.1)
        brick = rng.choice([(142, 62, 44), (124, 54, 40), (156, 74, 52), (112, 50, 42)])
        brick = shade(brick, light_side * rng.uniform(0.9, 1.08))
        top = base_y - bh
        d.rectangle((x, top, x + bw, base_y), fill=brick)
        # horizontal brick courses (texture)
        for yy in range(int(top) + 3, int(base_y), 5):
            d.line((x, yy, x + bw, yy), fill=shade(brick, 0.9), width=1)
        roof = rng.choice([(84, 140, 120), (70, 120, 104), (60, 62, 66)])
        gables = rng.randint(1, 3)
        gw = bw / gables
        for g in range(gables):
            gx = x + g * gw
            d.polygon([(gx, top), (gx + gw / 2, top - gw * 0.42), (gx + gw, top)], fill=brick)
            d.line([(gx - 2, top + 1), (gx + gw / 2, top - gw * 0.42 - 3), (gx + gw + 2, top + 1)],
                   fill=roof, width=6)
            d.ellipse((gx + gw / 2 - 6, top - gw * 0.2 - 6, gx + gw / 2 + 6, top - gw * 0.2 + 6),
                      fill=(40, 44, 50) if not lit else (250, 210, 130))
        # windows: arched, in floors
        floors = int(bh / 44)
        cols = max(2, int(bw / 30))
        for f in range(floors):
            for cidx in range(cols):
                wx = x + (cidx + 0.5) * bw / cols - 6
                wy = top + 14 + f * 44
                on = lit and rng.random() < 0.45
                wc = rng.choice([(255, 214, 140), (250, 190, 110)]) if on else (34, 40, 48)
                d.rectangle((wx, wy + 6, wx + 12, wy + 26), fill=wc)
                d.pieslice((wx, wy, wx + 12, wy + 12), 180, 360, fill=wc)
                d.line((wx - 2, wy + 27, wx + 14, wy + 27), fill=shade(brick, 1.25), width=2)
        # cornice lines
        for yy in (top + 4, base_y - 40):
            d.rectangle((x, yy, x + bw, yy + 4), fill=shade(brick, 1.2))
        x += bw + 2


def lamp_post(d, x, base_y, h, color, lamp):
    d.line((x, base_y, x, base_y - h), fill=color, width=4)
    d.line((x, base_y - h, x + 16, base_y - h - 6), fill=color, width=3)
    d.ellipse((x + 10, base_y - h - 8, x + 24, base_y - h + 4), fill=lamp)


def lighthouse(d, x, base_y, h, stripe=(200, 40, 40), white=(236, 232, 226), lamp=(255, 236, 170)):
    wb, wt = h * 0.16, h * 0.09
    bands = 6
    for i in range(bands):
        t0, t1 = i / bands, (i + 1) / bands
        y0, y1 = base_y - h * t0, base_y - h * t1
        w0, w1 = wb + (wt - wb) * t0, wb + (wt - wb) * t1
        d.polygon([(x - w0 / 2, y0), (x + w0 / 2, y0), (x + w1 / 2, y1), (x - w1 / 2, y1)],
                  fill=stripe if i % 2 == 0 else white)
    top = base_y - h
    d.rectangle((x - wt * 0.75, top - 6, x + wt * 0.75, top), fill=(40, 40, 44))
    d.rectangle((x - wt * 0.45, top - 40, x + wt * 0.45, top - 6), fill=lamp)
    for k in range(3):
        xx = x - wt * 0.45 + k * wt * 0.45
        d.line((xx, top - 40, xx, top - 6), fill=(40, 40, 44), width=2)
    d.polygon([(x - wt * 0.6, top - 40), (x, top - 62), (x + wt * 0.6, top - 40)], fill=(40, 40, 44))
    return (x, top - 23)


def ferris_wheel(d, cx, cy, r, color, bulbs, gondola):
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=color, width=4)
    d.ellipse((cx - r * 0.93, cy - r * 0.93, cx + r * 0.93, cy + r * 0.93), outline=color, width=2)
    n = 24
    for i in range(n):
        a = 2 * math.pi * i / n
        d.line((cx, cy, cx + r * math.cos(a), cy + r * math.sin(a)), fill=color, width=2)
        bx, by = cx + r * math.cos(a), cy + r * math.sin(a)
        d.rectangle((bx - 6, by + 2, bx + 6, by + 14), fill=gondola)
    for i in range(n * 3):
        a = 2 * math.pi * i / (n * 3)
        bx, by = cx + r * 0.965 * math.cos(a), cy + r * 0.965 * math.sin(a)
        d.ellipse((bx - 2, by - 2, bx + 2, by + 2), fill=bulbs)
    return n


def light_bokeh(img, rng, points, colors, radius=(6, 16), strength=0.8):
    """Soft glows at the given points (street lights, windows...)."""
    w, h = img.size
    layer = Image.new("RGB", img.size, (0, 0, 0))
    d = ImageDraw.Draw(layer)
    for (x, y) in points:
        c = rng.choice(colors)
        r = rng.uniform(*radius)
        d.ellipse((x - r, y - r, x + r, y + r), fill=shade(c, strength * rng.uniform(0.5, 1.0)))
    layer = layer.filter(ImageFilter.GaussianBlur(radius[0] * 0.9))
    return ImageChops.screen(img, layer)


def haze_band(img, y_center, height, color, alpha=140):
    w, h = img.size
    m = Image.new("L", (1, h), 0)
    px = m.load()
    for y in range(h):
        t = abs(y - y_center) / (height / 2)
        px[0, y] = int(alpha * max(0.0, 1 - t) ** 1.5)
    m = m.resize((w, h), Image.NEAREST)
    blend_color(img, color, m)


def finish(img, rng, grain_amount=3, vig=0.3, soften=0.8):
    if soften:
        img = img.filter(ImageFilter.GaussianBlur(soften))
    if vig:
        img = vignette(img, vig)
    if grain_amount:
        img = grain(img, rng, grain_amount)
    return img


# --------------------------------------------------------------------------
# City pictures
# --------------------------------------------------------------------------

def city_01(rng):
    """Golden hour: skyline across the water, low sun, long glittering reflection."""
    w, h = LANDSCAPE
    hz = 520
    img = sky((w, h), hz, "golden")
    sun = (820, hz - 150)
    img = screen_glow(img, sun, 420, (255, 170, 80), 0.8)
    clouds(img, rng, "streaks", 0.5, (255, 200, 150), (150, 90, 110), 0.9)
    d = ImageDraw.Draw(img)
    d.ellipse((sun[0] - 34, sun[1] - 34, sun[0] + 34, sun[1] + 34), fill=(255, 238, 196))
    img = screen_glow(img, sun, 120, (255, 220, 150), 0.9)
    skyline(img, rng, hz, -20, w + 20, 40, 120, (152, 104, 112), min_w=40, max_w=110)
    skyline(img, rng, hz, -20, w + 20, 50, 230, (66, 44, 60), peak=0.35)
    d = ImageDraw.Draw(img)
    d.rectangle((0, hz - 8, w, hz), fill=(48, 32, 44))
    water(img, hz, rng, (150, 96, 80), 0.4, ripple=7, glints=(255, 214, 150), glint_count=900,
          glint_x=sun[0])
    with_reflection(img, 700, lambda dd: sailboat(dd, 300, 700, 0.9, (40, 28, 36), (60, 44, 52)),
                    0.5, 3, rng)
    return finish(img, rng, 3, 0.35)


def city_02(rng):
    """Blue hour: lit towers and their streaky reflections."""
    w, h = LANDSCAPE
    hz = 560
    img = sky((w, h), hz, "bluehour")
    stars(img, rng, 140, 300, 200)
    warm = [(255, 214, 140), (255, 196, 110), (250, 230, 190), (200, 224, 255)]
    skyline(img, rng, hz, -20, w + 20, 60, 160, (40, 52, 90), windows=warm, lit_ratio=0.2,
            min_w=40, max_w=90)
    skyline(img, rng, hz, -20, w + 20, 90, 330, (14, 18, 34), windows=warm, lit_ratio=0.4,
            peak=0.6)
    d = ImageDraw.Draw(img)
    d.rectangle((0, hz - 10, w, hz), fill=(10, 12, 22))
    pts = [(x, hz - 12) for x in range(10, w, 34)]
    for (x, y) in pts:
        d.ellipse((x - 2, y - 2, x + 2, y + 2), fill=(255, 220, 160))
    img = light_bokeh(img, rng, pts, [(255, 190, 110), (255, 220, 160)], (5, 9), 0.7)
    water(img, hz, rng, (20, 34, 66), 0.3, ripple=8, smear=8, darken=0.9)
    return finish(img, rng, 3, 0.4)


def city_03(rng):
    """Container terminal at midday: gantry cranes, a loaded ship, clouds."""
    w, h = LANDSCAPE
    hz = 600
    img = sky((w, h), hz, "noon")
    clouds(img, rng, "cumulus", 0.62, (255, 255, 255), (160, 176, 200), 1.0)
    skyline(img, rng, hz - 14, -20, w + 20, 20, 70, None, mode="day", haze=((180, 206, 230), 0.55),
            min_w=30, max_w=80)
    d = ImageDraw.Draw(img)
    # quay with stacked containers
    d.rectangle((0, hz - 14, w, hz), fill=(118, 116, 110))
    xx = 720
    while xx < w:
        for k in range(rng.randint(1, 4)):
            c = rng.choice(CONTAINER_COLORS)
            d.rectangle((xx, hz - 14 - (k + 1) * 15, xx + 36, hz - 14 - k * 15 - 2), fill=c)
        xx += 38
    for cx, acc in ((560, (196, 50, 40)), (800, (196, 50, 40)), (1040, (40, 90, 160))):
        gantry_crane(d, cx, hz - 14, 1.0, (214, 214, 210), facing=-1, accent=acc)
    water(img, hz, rng, (40, 90, 130), 0.55, ripple=6, glints=(240, 248, 255), glint_count=500)
    d = ImageDraw.Draw(img)
    # redraw the ship in front of the water with its reflection
    with_reflection(img, hz + 90, lambda dd: container_ship(dd, random.Random(33), 40, hz + 90, 700, 1.05, bow=-1),
                    0.4, 3, rng)
    with_reflection(img, 780, lambda dd: motorboat(dd, 900, 780, 1.1, (232, 232, 228), (200, 60, 40),
                                                   (40, 50, 60)), 0.45, 2, rng)
    return finish(img, rng, 3, 0.25)


def city_04(rng):
    """Suspension bridge at dusk with lights along the cable."""
    w, h = LANDSCAPE
    hz = 590
    img = sky((w, h), hz, "dusk")
    img = screen_glow(img, (300, hz), 520, (255, 130, 80), 0.6)
    clouds(img, rng, "streaks", 0.55, (250, 150, 140), (90, 56, 104), 0.9)
    skyline(img, rng, hz, -20, w + 20, 30, 110, (80, 50, 88), windows=[(255, 200, 130), (250, 220, 170)],
            lit_ratio=0.15, min_w=30, max_w=80)
    d = ImageDraw.Draw(img)
    suspension_bridge(d, -60, w + 60, hz - 90, (300, 980), 120, (30, 20, 40), width=5,
                      lights=(255, 226, 160))
    for tx in (300, 980):
        d.rectangle((tx - 12, hz - 30, tx + 12, hz), fill=(30, 20, 40))
    img = light_bokeh(img, rng, [(x, hz - 86) for x in range(-40, w + 40, 14)],
                      [(255, 200, 120)], (3, 6), 0.5)
    water(img, hz, rng, (90, 60, 100), 0.35, ripple=7, smear=6, glints=(255, 180, 140), glint_count=600)
    with_reflection(img, 760, lambda dd: motorboat(dd, 760, 760, 1.2, (30, 22, 40), (40, 30, 50),
                                                   (255, 214, 150), facing=-1), 0.5, 3, rng)
    return finish(img, rng, 3, 0.35)


def city_05(rng):
    """Pastel dawn: sailing boats on calm water, misty skyline behind."""
    w, h = LANDSCAPE
    hz = 500
    img = sky((w, h), hz, "dawn")
    img = screen_glow(img, (960, hz - 20), 380, (255, 210, 170), 0.55)
    clouds(img, rng, "wisps", 0.45, (255, 238, 238), (200, 176, 200), 0.7)
    skyline(img, rng, hz, -20, w + 20, 30, 100, (196, 178, 196), min_w=30, max_w=90)
    skyline(img, rng, hz, -20, w + 20, 40, 170, (160, 146, 172), peak=0.7)
    haze_band(img, hz - 20, 90, (246, 220, 220), 140)
    water(img, hz, rng, (190, 176, 200), 0.35, ripple=3, smear=4, glints=(255, 244, 230), glint_count=500)
    boats = [(180, 640, 0.9, (240, 240, 236)), (520, 600, 0.7, (250, 236, 220)), (760, 720, 1.3, (246, 246, 244)),
             (1060, 580, 0.55, (236, 226, 230))]
    for (x, y, s, sc) in boats:
        with_reflection(img, y, lambda dd, x=x, y=y, s=s, sc=sc: sailboat(
            dd, x, y, s, (70, 70, 88), sc, shade(sc, 0.9), facing=1 if x < 600 else -1), 0.5, 2, rng)
    haze_band(img, hz + 10, 60, (240, 220, 226), 70)
    return finish(img, rng, 3, 0.2)


def city_06(rng):
    """Brick warehouses along a canal on a bright afternoon."""
    w, h = LANDSCAPE
    hz = 560
    img = sky((w, h), hz, "noon")
    clouds(img, rng, "cumulus", 0.45, (255, 255, 255), (170, 184, 206), 1.0, coverage=0.5)
    skyline(img, rng, hz - 200, -20, w + 20, 20, 60, None, mode="day", haze=((184, 212, 238), 0.5),
            min_w=40, max_w=90)
    warehouses(img, rng, -30, w + 30, hz - 8, 300)
    d = ImageDraw.Draw(img)
    d.rectangle((0, hz - 12, w, hz), fill=(96, 92, 88))
    for x in range(0, w, 64):
        d.rectangle((x, hz - 12, x + 3, hz), fill=(70, 66, 62))
    water(img, hz, rng, (46, 76, 84), 0.45, ripple=5, smear=6, glints=(200, 214, 220), glint_count=140)
    with_reflection(img, 740, lambda dd: motorboat(dd, 280, 740, 1.6, (30, 60, 110), (236, 232, 220),
                                                   (60, 80, 100)), 0.45, 3, rng)
    return finish(img, rng, 3, 0.25)


def city_07(rng):
    """Portrait: lighthouse on the harbour mole at night under the moon."""
    w, h = PORTRAIT
    hz = 860
    img = sky((w, h), hz, "night")
    stars(img, rng, 260, 700, 230)
    moon = (620, 230)
    img = screen_glow(img, moon, 260, (120, 140, 180), 0.6)
    d = ImageDraw.Draw(img)
    d.ellipse((moon[0] - 44, moon[1] - 44, moon[0] + 44, moon[1] + 44), fill=(246, 242, 222))
    d.ellipse((moon[0] - 20, moon[1] - 10, moon[0] - 6, moon[1] + 4), fill=(226, 222, 204))
    d.ellipse((moon[0] + 8, moon[1] + 12, moon[0] + 24, moon[1] + 26), fill=(230, 226, 206))
    clouds(img, rng, "wisps", 0.55, (110, 120, 150), (30, 36, 60), 0.6, top=0.1)
    skyline(img, rng, hz, -20, w + 20, 20, 90, (20, 26, 44), windows=[(255, 210, 140), (250, 236, 200)],
            lit_ratio=0.3, min_w=24, max_w=60)
    # mole and lighthouse
    d = ImageDraw.Draw(img)
    beam = Image.new("L", img.size, 0)
    bd = ImageDraw.Draw(beam)
    lx, ly = 300, hz - 330 - 23
    bd.polygon([(lx, ly - 5), (-100, ly - 120), (-100, ly - 20), (lx, ly + 5)], fill=110)
    bd.polygon([(lx, ly - 4), (w + 100, ly - 40), (w + 100, ly + 6), (lx, ly + 4)], fill=45)
    beam = beam.filter(ImageFilter.GaussianBlur(10))
    blend_color(img, (255, 236, 180), beam)
    d = ImageDraw.Draw(img)
    d.polygon([(0, hz), (0, hz - 24), (420, hz - 30), (460, hz)], fill=(26, 26, 32))
    lamp = lighthouse(d, 300, hz - 30, 300)
    img = screen_glow(img, lamp, 90, (255, 220, 140), 0.9)
    water(img, hz, rng, (16, 24, 46), 0.3, ripple=6, smear=6, glints=(200, 210, 240), glint_count=500,
          glint_x=moon[0])
    return finish(img, rng, 3, 0.4)


def city_08(rng):
    """Portrait: tower crane silhouetted against a sunset, rooftops below."""
    w, h = PORTRAIT
    img = gradient_v((w, h), [(0, (40, 36, 84)), (0.45, (170, 72, 96)), (0.75, (246, 140, 84)), (1.0, (255, 200, 120))])
    img = screen_glow(img, (560, 1000), 500, (255, 170, 90), 0.7)
    clouds(img, rng, "streaks", 0.6, (255, 176, 150), (110, 60, 100), 0.85)
    d = ImageDraw.Draw(img)
    d.ellipse((520, 940, 600, 1020), fill=(255, 230, 180))
    img = screen_glow(img, (560, 980), 140, (255, 220, 160), 0.8)
    d = ImageDraw.Draw(img)
    sil = (34, 22, 38)
    tower_crane(d, 420, 1280, 260, 1.6, sil, jib_left=230, jib_right=110)
    tower_crane(d, 130, 1280, 620, 0.8, (80, 44, 70), jib_left=90, jib_right=200)
    skyline(img, rng, 1280, -20, w + 20, 80, 200, sil, windows=[(255, 200, 120)], lit_ratio=0.12,
            min_w=50, max_w=120)
    d = ImageDraw.Draw(img)
    for k in range(5):
        x = rng.uniform(80, 780)
        y = rng.uniform(120, 520)
        d.line((x - 7, y - 3, x, y, x + 7, y - 4), fill=sil, width=2)  # gulls
    return finish(img, rng, 3, 0.35)


def city_09(rng):
    """Square: harbour fun-fair at night, a ferris wheel and many lights."""
    w, h = SQUARE
    hz = 860
    img = sky((w, h), hz, "night")
    img = screen_glow(img, (640, hz), 700, (70, 50, 110), 0.7)
    stars(img, rng, 220, 600, 220)
    skyline(img, rng, hz, -20, w + 20, 40, 150, (24, 26, 50), windows=[(255, 210, 150), (180, 210, 255)],
            lit_ratio=0.3, min_w=30, max_w=70)
    d = ImageDraw.Draw(img)
    cx, cy, r = 820, 500, 300
    d.line((cx, cy, cx - 140, hz - 6), fill=(60, 60, 80), width=8)
    d.line((cx, cy, cx + 140, hz - 6), fill=(60, 60, 80), width=8)
    ferris_wheel(d, cx, cy, r, (200, 210, 240), (255, 240, 200), (230, 90, 120))
    pts = []
    for i in range(72):
        a = 2 * math.pi * i / 72
        pts.append((cx + r * 0.965 * math.cos(a), cy + r * 0.965 * math.sin(a)))
    img = light_bokeh(img, rng, pts, [(255, 120, 160), (120, 200, 255), (255, 220, 140)], (6, 10), 0.8)
    img = screen_glow(img, (cx, cy), 120, (255, 200, 220), 0.5)
    d = ImageDraw.Draw(img)
    d.rectangle((0, hz - 10, w, hz), fill=(14, 14, 24))
    lamps = []
    for x in range(40, 560, 90):
        lamp_post(d, x, hz - 10, 90, (20, 20, 30), (255, 226, 160))
        lamps.append((x + 17, hz - 100 - 2))
    img = light_bokeh(img, rng, lamps, [(255, 210, 140)], (14, 24), 0.9)
    water(img, hz, rng, (20, 22, 50), 0.25, ripple=9, smear=8)
    return finish(img, rng, 3, 0.4)


def city_10(rng):
    """Stormy afternoon: a ship heading out under heavy clouds, one ray of light."""
    w, h = LANDSCAPE
    hz = 540
    img = sky((w, h), hz, "storm")
    clouds(img, rng, "storm", 0.64, (186, 188, 192), (46, 50, 58), 0.95)
    ray = Image.new("L", img.size, 0)
    ImageDraw.Draw(ray).polygon([(700, 0), (860, 0), (1100, hz), (640, hz)], fill=70)
    ray = ray.filter(ImageFilter.GaussianBlur(40))
    blend_color(img, (236, 230, 210), ray)
    skyline(img, rng, hz, -20, w + 20, 20, 90, (86, 92, 100), min_w=30, max_w=90)
    d = ImageDraw.Draw(img)
    d.rectangle((0, hz - 6, w, hz), fill=(70, 74, 80))
    for x in (180, 330):
        gantry_crane(d, x, hz - 6, 0.5, (70, 76, 84), facing=1)
    water(img, hz, rng, (62, 74, 80), 0.6, ripple=10, smear=3, glints=(220, 226, 230), glint_count=1200,
          glint_x=880)
    with_reflection(img, 650, lambda dd: container_ship(dd, rng, 500, 650, 560, 1.0, bow=1, hull=(30, 34, 40),
                                                        light=0.8), 0.35, 4, rng)
    img = grain(img, rng, 3, 2)
    return finish(img, rng, 3, 0.35)


def city_11(rng):
    """Red sunrise behind a row of container cranes."""
    w, h = LANDSCAPE
    hz = 600
    img = sky((w, h), hz, "sunrise")
    sun = (380, hz - 30)
    img = screen_glow(img, sun, 460, (255, 140, 70), 0.7)
    d = ImageDraw.Draw(img)
    d.ellipse((sun[0] - 60, sun[1] - 60, sun[0] + 60, sun[1] + 60), fill=(255, 220, 150))
    img = screen_glow(img, sun, 180, (255, 200, 120), 0.9)
    clouds(img, rng, "streaks", 0.5, (255, 150, 100), (110, 46, 70), 0.85, coverage=0.4)
    d = ImageDraw.Draw(img)
    sil = (38, 20, 30)
    d.rectangle((0, hz - 12, w, hz), fill=sil)
    for i, x in enumerate((60, 330, 600, 870, 1140)):
        gantry_crane(d, x, hz - 12, 0.9 + 0.05 * (i % 2), sil, facing=-1)
    xx = 0
    while xx < w:
        n = rng.randint(0, 3)
        for k in range(n):
            d.rectangle((xx, hz - 12 - (k + 1) * 14, xx + 34, hz - 12 - k * 14 - 2), fill=sil)
        xx += 36
    water(img, hz, rng, (120, 50, 50), 0.35, ripple=7, glints=(255, 200, 140), glint_count=900, glint_x=sun[0])
    return finish(img, rng, 3, 0.35)


def city_12(rng):
    """Teal twilight on a wooden pier with lamps, the city across the bay."""
    w, h = LANDSCAPE
    hz = 480
    img = sky((w, h), hz, "teal")
    img = screen_glow(img, (1000, hz), 420, (240, 160, 100), 0.5)
    stars(img, rng, 60, 200, 160)
    skyline(img, rng, hz, -20, w + 20, 40, 150, (22, 50, 62), windows=[(255, 210, 140), (210, 240, 255)],
            lit_ratio=0.3, peak=0.6)
    water(img, hz, rng, (20, 60, 72), 0.35, ripple=5, smear=6, glints=(240, 170, 120), glint_count=500,
          glint_x=1000)
    d = ImageDraw.Draw(img)
    wood = (34, 28, 30)
    # pier in perspective from the lower left towards the middle
    d.polygon([(0, 700), (620, 560), (640, 572), (0, 760)], fill=wood)
    for k in range(12):
        t = k / 11
        x = 620 * (1 - t) ** 1.0
        y = 560 + (700 - 560) * (1 - (x / 620))
        d.rectangle((x - 2 - 4 * (1 - x / 620), y, x + 2 + 4 * (1 - x / 620), y + 30 + 80 * (1 - x / 620)),
                    fill=wood)
    lamps = []
    for k in range(6):
        x = 40 + k * 110
        y = 700 - (700 - 560) * (x / 620) - 4
        s = 1.0 - 0.6 * (x / 620)
        hh = 150 * s
        d.line((x, y, x, y - hh), fill=wood, width=max(2, int(5 * s)))
        d.ellipse((x - 8 * s, y - hh - 8 * s, x + 8 * s, y - hh + 8 * s), fill=(255, 232, 170))
        lamps.append((x, y - hh))
    img = light_bokeh(img, rng, lamps, [(255, 210, 140)], (16, 30), 0.9)
    d = ImageDraw.Draw(img)
    # a couple of figures at the railing
    for (px, py) in ((360, 620), (384, 616)):
        d.ellipse((px - 6, py - 58, px + 6, py - 46), fill=(18, 14, 18))
        d.rectangle((px - 6, py - 46, px + 6, py - 14), fill=(18, 14, 18))
        d.rectangle((px - 5, py - 14, px + 5, py), fill=(18, 14, 18))
    return finish(img, rng, 3, 0.4)


# --------------------------------------------------------------------------
# Graffiti: building blocks
# --------------------------------------------------------------------------

def U(*pts):
    return list(pts)


GLYPHS = {
    "A": [U((0.05, 1.0), (0.3, 0.35), (0.5, 0.0), (0.7, 0.35), (0.95, 1.0)), U((0.22, 0.62), (0.78, 0.62))],
    "B": [U((0.15, 1.0), (0.15, 0.0)), U((0.15, 0.02), (0.7, 0.05), (0.78, 0.25), (0.5, 0.47), (0.2, 0.48)),
          U((0.2, 0.48), (0.75, 0.52), (0.88, 0.76), (0.7, 0.97), (0.15, 0.98))],
    "C": [U((0.9, 0.15), (0.55, 0.0), (0.15, 0.2), (0.08, 0.55), (0.3, 0.92), (0.65, 1.0), (0.92, 0.85))],
    "D": [U((0.15, 1.0), (0.15, 0.0)), U((0.15, 0.02), (0.65, 0.08), (0.9, 0.45), (0.7, 0.9), (0.15, 0.98))],
    "E": [U((0.88, 0.08), (0.45, 0.0), (0.15, 0.2), (0.48, 0.48)), U((0.48, 0.48), (0.1, 0.7), (0.4, 1.0), (0.92, 0.9))],
    "K": [U((0.15, 0.0), (0.15, 1.0)), U((0.88, 0.02), (0.45, 0.35), (0.2, 0.55)), U((0.35, 0.45), (0.7, 0.75), (0.92, 1.0))],
    "M": [U((0.05, 1.0), (0.1, 0.05), (0.5, 0.6), (0.9, 0.05), (0.95, 1.0))],
    "N": [U((0.1, 1.0), (0.12, 0.02), (0.85, 0.98), (0.88, 0.0))],
    "O": [U((0.5, 0.0), (0.88, 0.2), (0.9, 0.72), (0.5, 1.0), (0.1, 0.72), (0.12, 0.2))],
    "R": [U((0.15, 1.0), (0.15, 0.0)), U((0.15, 0.02), (0.7, 0.05), (0.82, 0.28), (0.55, 0.5), (0.2, 0.52)),
          U((0.45, 0.52), (0.7, 0.75), (0.92, 1.0))],
    "S": [U((0.88, 0.14), (0.55, 0.0), (0.14, 0.18), (0.3, 0.45), (0.72, 0.56), (0.86, 0.82), (0.5, 1.0), (0.1, 0.86))],
    "T": [U((0.0, 0.06), (0.5, 0.0), (1.0, 0.06)), U((0.5, 0.04), (0.48, 0.6), (0.55, 1.0))],
    "U": [U((0.1, 0.0), (0.1, 0.65), (0.5, 1.0), (0.9, 0.65), (0.9, 0.0))],
    "V": [U((0.02, 0.0), (0.5, 1.0), (0.98, 0.0))],
    "W": [U((0.0, 0.0), (0.22, 1.0), (0.5, 0.35), (0.78, 1.0), (1.0, 0.0))],
    "X": [U((0.05, 0.0), (0.5, 0.5), (0.95, 1.0)), U((0.95, 0.0), (0.05, 1.0))],
    "Y": [U((0.05, 0.0), (0.5, 0.5), (0.95, 0.0)), U((0.5, 0.5), (0.45, 1.0))],
    "Z": [U((0.08, 0.06), (0.92, 0.04), (0.1, 0.95), (0.92, 0.96))],
}
CLOSED = {"O"}


def glyph_strokes(ch, x, y, gw, gh, rng, slant=0.2, jitter=0.04, samples=10):
    strokes = []
    for stroke in GLYPHS[ch]:
        pts = []
        for (u, v) in stroke:
            u += rng.uniform(-jitter, jitter)
            v += rng.uniform(-jitter, jitter)
            px = x + u * gw + (1 - v) * gh * slant
            py = y + v * gh
            pts.append((px, py))
        strokes.append(catmull_rom(pts, samples, closed=ch in CLOSED))
        if ch in CLOSED:
            strokes[-1].append(strokes[-1][0])
    return strokes


def word_strokes(word, x, y, height, rng, spacing=0.82, slant=0.2, bounce=0.12, jitter=0.04,
                 width_ratio=0.78, wave=0.0):
    """Layout of a word; returns (list of per-letter stroke lists, end x)."""
    letters = []
    cx = x
    for i, ch in enumerate(word):
        gh = height * rng.uniform(1 - bounce, 1 + bounce)
        gw = height * width_ratio * rng.uniform(0.85, 1.1)
        gy = y + (height - gh) * rng.uniform(0.2, 0.8) + math.sin(i * 1.3) * height * wave
        letters.append(glyph_strokes(ch, cx, gy, gw, gh, rng, slant, jitter))
        cx += gw * spacing
    return letters, cx


def stroke_mask(size, letters, width, offset=(0, 0)):
    m = Image.new("L", size, 0)
    d = ImageDraw.Draw(m)
    ox, oy = offset
    for strokes in letters:
        for s in strokes:
            thick_stroke(d, [(px + ox, py + oy) for (px, py) in s], 255, width)
    return m


def piece(img, rng, letters, stroke_w, fill_stops, outline=(16, 14, 20), outline_w=None,
          shadow=None, shadow_off=(14, 12), highlight=(255, 255, 255), drips=0, drip_color=None,
          halo=None, fill_dir="v", bbox=None, fill_pattern=None):
    """Render a graffiti 'piece': shadow, outline, gradient fill, highlights, drips."""
    w, h = img.size
    ow = outline_w or stroke_w * 0.28
    outer = stroke_mask(img.size, letters, stroke_w + 2 * ow)
    if halo:
        hm = outer.filter(ImageFilter.GaussianBlur(stroke_w * 0.9)).point(lambda v: int(v * 0.55))
        blend_color(img, halo, hm)
    if shadow:
        sm = stroke_mask(img.size, letters, stroke_w + 2 * ow, shadow_off).filter(ImageFilter.GaussianBlur(1.2))
        blend_color(img, shadow, sm)
    blend_color(img, outline, outer.filter(ImageFilter.GaussianBlur(1.0)))
    inner = stroke_mask(img.size, letters, stroke_w).filter(ImageFilter.GaussianBlur(0.9))
    box = bbox or inner.getbbox() or (0, 0, w, h)
    x0, y0, x1, y1 = box
    if fill_dir == "v":
        g = gradient_v((w, max(2, y1 - y0)), fill_stops)
        fill = Image.new("RGB", (w, h), fill_stops[-1][1])
        fill.paste(fill_stops[0][1], (0, 0, w, y0))
        fill.paste(g, (0, y0))
    else:
        g = gradient_h((max(2, x1 - x0), h), fill_stops)
        fill = Image.new("RGB", (w, h), fill_stops[-1][1])
        fill.paste(fill_stops[0][1], (0, 0, x0, h))
        fill.paste(g, (x0, 0))
    if fill_pattern:
        fill_pattern(fill, rng, box)
    img.paste(fill, (0, 0), inner)
    if highlight:
        hl = Image.new("L", img.size, 0)
        hd = ImageDraw.Draw(hl)
        for strokes in letters:
            for s in strokes:
                n = len(s)
                if n < 4:
                    continue
                a = rng.randint(0, max(0, n // 3))
                b = min(n, a + max(3, n // 3))
                seg = [(px - stroke_w * 0.18, py - stroke_w * 0.18) for (px, py) in s[a:b]]
                thick_stroke(hd, seg, 255, max(3, stroke_w * 0.16))
        hl = ImageChops.multiply(hl, inner)
        blend_color(img, highlight, hl.filter(ImageFilter.GaussianBlur(0.8)))
        # sparkles
        d = ImageDraw.Draw(img)
        for _ in range(rng.randint(2, 4)):
            s = rng.choice([pt for strokes in letters for st in strokes for pt in st])
            sparkle(d, s[0] - stroke_w * 0.2, s[1] - stroke_w * 0.2, stroke_w * rng.uniform(0.5, 0.8), highlight)
    if drips:
        d = ImageDraw.Draw(img)
        bottoms = []
        for strokes in letters:
            pts = [pt for st in strokes for pt in st]
            pts.sort(key=lambda p: -p[1])
            bottoms.extend(pts[:6])
        for _ in range(drips):
            bx, by = rng.choice(bottoms)
            bx += rng.uniform(-stroke_w * 0.3, stroke_w * 0.3)
            c = drip_color or fill.getpixel((int(clamp(bx, 0, w - 1)), int(clamp(by, 0, h - 1))))
            drip(d, bx, by + stroke_w * 0.2, rng.uniform(30, 150), rng.uniform(4, 8), c)


def sparkle(d, x, y, r, color):
    d.polygon([(x, y - r), (x + r * 0.16, y - r * 0.16), (x + r, y), (x + r * 0.16, y + r * 0.16),
               (x, y + r), (x - r * 0.16, y + r * 0.16), (x - r, y), (x - r * 0.16, y - r * 0.16)], fill=color)


def drip(d, x, y, length, width, color):
    d.line((x, y, x, y + length), fill=color, width=int(width))
    d.ellipse((x - width * 0.75, y + length - width * 0.6, x + width * 0.75, y + length + width * 0.9), fill=color)
    d.ellipse((x - width, y - width, x + width, y + width), fill=color)


def tag(img, rng, x, y, height, color, word=None, width=5, underline=True, drips=0):
    d = ImageDraw.Draw(img)
    word = word or "".join(rng.choice("AEKMNORSTUWXZ") for _ in range(rng.randint(3, 5)))
    letters, end = word_strokes(word, x, y, height, rng, spacing=0.7, slant=0.35, bounce=0.25,
                                jitter=0.08, width_ratio=0.7)
    for strokes in letters:
        for s in strokes:
            thick_stroke(d, s, color, width)
    if underline:
        pts = catmull_rom([(x - height * 0.2, y + height * 1.25), ((x + end) / 2, y + height * 1.05),
                           (end + height * 0.3, y + height * 0.95), (end + height * 0.5, y + height * 0.6)], 12)
        thick_stroke(d, pts, color, width * 0.8)
    for _ in range(drips):
        s = rng.choice([pt for st in letters for s_ in st for pt in s_])
        drip(d, s[0], s[1], rng.uniform(15, 60), max(2, width * 0.6), color)
    return end


def spray_blob(img, rng, x, y, r, color, alpha=230, speckle=True):
    """Soft-edged spray-paint blob with overspray speckles."""
    w, h = img.size
    f = 2
    m = Image.new("L", (w // f, h // f), 0)
    d = ImageDraw.Draw(m)
    for _ in range(rng.randint(3, 7)):
        ox, oy = rng.gauss(0, r * 0.35), rng.gauss(0, r * 0.35)
        rr = r * rng.uniform(0.4, 0.8)
        d.ellipse(((x + ox - rr) / f, (y + oy - rr) / f, (x + ox + rr) / f, (y + oy + rr) / f), fill=alpha)
    m = m.filter(ImageFilter.GaussianBlur(r * 0.12 / f + 1)).resize((w, h), Image.BICUBIC)
    blend_color(img, color, m)
    if speckle:
        d = ImageDraw.Draw(img)
        for _ in range(int(r * 1.2)):
            a = rng.uniform(0, 2 * math.pi)
            dist = r * rng.uniform(0.8, 1.6)
            sx, sy = x + math.cos(a) * dist, y + math.sin(a) * dist
            sr = rng.uniform(0.8, 2.2)
            d.ellipse((sx - sr, sy - sr, sx + sr, sy + sr), fill=color)


def splat(img, rng, x, y, r, color):
    d = ImageDraw.Draw(img)
    d.ellipse((x - r, y - r, x + r, y + r), fill=color)
    for _ in range(rng.randint(8, 16)):
        a = rng.uniform(0, 2 * math.pi)
        ln = r * rng.uniform(1.1, 2.2)
        ex, ey = x + math.cos(a) * ln, y + math.sin(a) * ln
        d.line((x, y, ex, ey), fill=color, width=int(r * rng.uniform(0.12, 0.3)))
        rr = r * rng.uniform(0.1, 0.22)
        d.ellipse((ex - rr, ey - rr, ex + rr, ey + rr), fill=color)
    for _ in range(rng.randint(2, 5)):
        drip(d, x + rng.uniform(-r * 0.7, r * 0.7), y + r * 0.5, rng.uniform(r * 0.6, r * 2.5), r * 0.14, color)


def brick_wall(size, rng, brick=(150, 70, 52), mortar=(176, 168, 156), bw=108, bh=38, gap=7,
               variation=18, paint=None):
    """Returns (colour image, shading L image) of a running-bond brick wall.

    The colour image is the wall as painted; the shading image (white = flat)
    is multiplied on top at the end so paint follows mortar joints.
    """
    w, h = size
    col = Image.new("RGB", size, mortar if not paint else paint)
    shadeimg = Image.new("L", size, 166)
    dc = ImageDraw.Draw(col)
    ds = ImageDraw.Draw(shadeimg)
    row = 0
    y = -rng.randint(0, bh)
    while y < h:
        x = -(bw // 2 if row % 2 else 0) - rng.randint(0, 6)
        while x < w:
            x0, y0, x1, y1 = x + gap / 2, y + gap / 2, x + bw - gap / 2, y + bh - gap / 2
            if not paint:
                v = rng.randint(-variation, variation)
                c = tuple(clamp(ch + v + rng.randint(-6, 6)) for ch in brick)
                if rng.random() < 0.08:
                    c = shade(c, 0.78)
                if rng.random() < 0.05:
                    c = mix(c, (210, 200, 190), 0.3)
                dc.rectangle((x0, y0, x1, y1), fill=c)
            ds.rectangle((x0, y0, x1, y1), fill=rng.randint(226, 244))
            ds.line((x0, y0, x1, y0), fill=252, width=2)
            ds.line((x0, y1, x1, y1), fill=206, width=2)
            x += bw
        y += bh
        row += 1
    shadeimg = shadeimg.filter(ImageFilter.GaussianBlur(1.8))
    tex = blotches(size, rng, 10, 210, 255)
    shadeimg = ImageChops.multiply(shadeimg, tex.point(lambda v: clamp(v + 20)))
    return col, shadeimg


def concrete_wall(size, rng, color, panel=320):
    w, h = size
    col = Image.new("RGB", size, color)
    sh = blotches(size, rng, 40, 212, 255, blur=8)
    sh = ImageChops.multiply(sh, blotches(size, rng, 9, 226, 255))
    d = ImageDraw.Draw(sh)
    x = rng.randint(-panel // 2, 0)
    while x < w:
        d.line((x, 0, x, h), fill=120, width=4)
        x += panel
    y = h * 0.62
    d.line((0, y, w, y), fill=130, width=3)
    sh = sh.filter(ImageFilter.GaussianBlur(1.0))
    return col, sh


def finish_wall(col, shading, rng, light=None, grain_amount=3, vig=0.3):
    img = ImageChops.multiply(col, Image.merge("RGB", (shading, shading, shading)))
    if light:
        img = screen_glow(img, light[0], light[1], light[2], light[3])
    return finish(img, rng, grain_amount, vig)


def ground(img, y, color, rng):
    w, h = img.size
    g = gradient_v((w, h - y), [(0, shade(color, 0.75)), (1, color)])
    g = ImageChops.multiply(g, Image.merge("RGB", [blotches(g.size, rng, 8, 200, 255)] * 3))
    img.paste(g, (0, y))
    d = ImageDraw.Draw(img)
    d.rectangle((0, y - 4, img.size[0], y + 2), fill=shade(color, 0.5))


# --------------------------------------------------------------------------
# Graffiti pictures
# --------------------------------------------------------------------------

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


THEMES = [
    ("city", [city_01, city_02, city_03, city_04, city_05, city_06, city_07, city_08, city_09, city_10,
              city_11, city_12]),
    ("graffiti", [graffiti_01, graffiti_02, graffiti_03, graffiti_04, graffiti_05, graffiti_06, graffiti_07,
                  graffiti_08]),
]


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

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


HEADER = """\
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
"""


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


def generate_c(entries):
    lines = [
        "/* Generated by scripts/make-sample-images.py -- do not edit.",
        " *",
        " * Embeds the synthetic sample images in images/ with C23 #embed.",
        " * Regenerate with: python3 scripts/make-sample-images.py",
        " */",
        '#include "CSampleImages.h"',
        "",
        "#ifdef __clang__",
        '#pragma clang diagnostic ignored "-Wc23-extensions"',
        "#endif",
        "",
    ]
    for e in entries:
        lines += [
            "static const unsigned char %s[] = {" % e["symbol"],
            '#embed "images/%s"' % e["file"],
            "};",
        ]
    lines += ["", "static const vitrine_sample_image images[] = {"]
    for e in entries:
        lines.append('    { "%s", %d, %d, %d, %d, %s, sizeof %s },' % (
            e["theme"], e["number"], e["longest"], e["width"], e["height"], e["symbol"], e["symbol"]))
    lines += [
        "};",
        "",
        "size_t vitrine_sample_image_count(void) {",
        "    return sizeof images / sizeof images[0];",
        "}",
        "",
        "const vitrine_sample_image *vitrine_sample_image_at(size_t index) {",
        "    return index < vitrine_sample_image_count() ? &images[index] : NULL;",
        "}",
        "",
    ]
    return "\n".join(lines)


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


if __name__ == "__main__":
    main(sys.argv)
