"""The harbour city's backdrop and light: skies, stars, clouds, skylines, water and reflections, glowing
lights, haze, and the finishing pass (grain, vignette, softening)."""

import math

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from .drawing import blend_color, clamp, gradient_v, grain, mix, shade, vignette


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
