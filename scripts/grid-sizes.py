#!/usr/bin/env python3
"""Prints the `sizes` attributes of the built-in theme's grids (Templates/layout.xsl, tile-sizes-*).

The grids of Templates/vitrine.css lay tiles out with `repeat(auto-fill, minmax(TILE, 1fr))` inside `main`, whose
padding is --pad; this script lays them out the same way at every viewport width from 280 to 4,400 px, with no
scrollbar and with a 17 px one, and writes for each column count a width that is never narrower than the tile in
either case: `calc(100vw / n - k)` from the width where n columns fit beside the scrollbar. Change it with the CSS,
then paste its output into layout.xsl; Tests/Browser/test_images.py checks the result against Chromium's layout.

Usage:  python3 scripts/grid-sizes.py
"""

import math

SCROLLBAR = 17  # the widest classic scrollbar (Windows); Linux's is 15 px, phones' overlay ones take no room
WIDTHS = range(280, 4400)


def clamp(low, value, high):
    return max(low, min(value, high))


def tile(width, grid, scrollbar=0):
    """The laid-out tile width and the column count at a viewport `width` (px, scrollbar included)."""
    pad = clamp(12, 0.03 * width, 40)  # --pad: clamp(.75rem, 3vw, 2.5rem)
    gap = clamp(10, 0.014 * width, 24)  # --gap: clamp(.625rem, 1.4vw, 1.5rem)
    base = clamp(140, 0.15 * width, 280)  # --tile: clamp(140px, 15vw, 280px)
    smallest = {"natural": base, "square": 0.75 * base, "album": clamp(128, 0.13 * width, 240)}[grid]
    if grid == "album" and width <= 384:  # @media (max-width: 24em) { .grid-album { gap: .5rem } }
        gap = 8
    content = width - scrollbar - 2 * pad
    columns = max(1, math.floor((content + gap) / (min(smallest, content) + gap) + 1e-9))
    return (content - (columns - 1) * gap) / columns, columns


def sizes(grid):
    starts = {}
    for width in WIDTHS:
        starts.setdefault(tile(width, grid, SCROLLBAR)[1], width)
    counts = sorted(starts)
    parts = []
    for index, columns in enumerate(counts):
        low = starts[columns] if index else WIDTHS.start
        high = starts[counts[index + 1]] if index + 1 < len(counts) else WIDTHS.stop
        widest = (max(tile(w, grid, bar)[0] for bar in (0, SCROLLBAR)) for w in range(low, high))
        slack = math.floor(min(w / columns - t for w, t in zip(range(low, high), widest)))
        share = f"{100 / columns:.4g}vw"
        width = f"calc({share} - {slack}px)" if slack > 0 else share
        parts.append(width if index == 0 else f"(min-width: {low}px) {width}")
    return ", ".join(reversed(parts))


if __name__ == "__main__":
    for grid in ("natural", "square", "album"):
        print(f"tile-sizes-{grid}: {sizes(grid)}")
