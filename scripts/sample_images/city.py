"""The twelve pictures of the harbour city theme, each drawn from the seeded random generator it is given."""

import math
import random

from PIL import Image, ImageDraw, ImageFilter

from .drawing import LANDSCAPE, PORTRAIT, SQUARE, blend_color, gradient_v, grain, screen_glow, shade
from .city_sky import clouds, finish, haze_band, light_bokeh, sky, skyline, stars, water, with_reflection
from .city_objects import (
    CONTAINER_COLORS,
    container_ship,
    ferris_wheel,
    gantry_crane,
    lamp_post,
    lighthouse,
    motorboat,
    sailboat,
    suspension_bridge,
    tower_crane,
    warehouses,
)


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
