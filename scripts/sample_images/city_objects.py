"""What stands in the harbour city's pictures: container ships, gantry and tower cranes, sailboats and
motorboats, a suspension bridge, warehouses, lamp posts, a lighthouse and a ferris wheel."""

import math

from PIL import ImageDraw

from .drawing import shade


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
