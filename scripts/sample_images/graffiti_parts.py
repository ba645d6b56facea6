"""The graffiti pictures' building blocks: hand-drawn lettering and pieces, tags, drips, sparkles, spray
blobs and splats, brick and concrete walls, and the ground in front of them."""

import math

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from .drawing import (
    blend_color,
    blotches,
    catmull_rom,
    clamp,
    gradient_h,
    gradient_v,
    mix,
    screen_glow,
    shade,
    thick_stroke,
)
from .city_sky import finish


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
