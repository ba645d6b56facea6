"""Generic drawing helpers for the sample pictures: the canvas sizes, colour arithmetic, gradients, masks,
glows, grain, vignettes, noise blotches and smooth strokes."""

import math

from PIL import Image, ImageChops, ImageFilter


LANDSCAPE = (1280, 853)
PORTRAIT = (853, 1280)
SQUARE = (1280, 1280)


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
