"""bench/visitor's conditions: the slow-4G profile and the slow CPU it measures under, the viewports, the clicks and
compressions, how long it waits, and the two galleries under test (where each one's grid, tiles and large photo are)."""

from __future__ import annotations

import dataclasses
import sys
import typing
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "Browser"))  # browserlib, for the modules that use it


WORK = REPO / ".build" / "visitor"

# Lighthouse's slow-4G profile (DevTools throttling) and its mobile CPU slowdown.
LATENCY_MS = 150
DOWNLOAD_BYTES_PER_S = 1_600_000 / 8
UPLOAD_BYTES_PER_S = 750_000 / 8
CPU_SLOWDOWN = 4
# width -> (height, device pixel ratio, mobile: a phone, with touch emulated, where a person's click is a tap)
VIEWPORTS = {1440: (900, 1, False), 375: (812, 3, True)}

# --click: how the first tile is clicked; the time counts from the press (mousePressed or touchStart) either way.
REST_MS = 150  # person, with a mouse: the pointer rests on the tile this long before the press (--hover MS)
TAP_MS = 100  # person, on a phone: the finger's touchEnd this long after its touchStart
CLICKS = {
    "person": "as a person makes it: with a mouse (1440) the pointer moves onto the tile and rests {rest} ms, then "
              f"presses and releases at once; on a phone (375) a finger taps, touchStart then touchEnd {TAP_MS} ms "
              "later (Input.dispatchTouchEvent, touch emulated)",
    "instant": "the pointer moves onto the tile, presses and releases at once (CDP mouse events, no rest)",
}

# --compression: which of nginx's two servers of the same files a load goes to.
COMPRESSIONS = {
    "on": "gzip for HTML, CSS, JS, JSON and SVG",
    "off": "every file as it is",
}

THROTTLES = {
    "relay": "a TCP relay that every connection goes through, half the latency each way, the rates shared in turn",
    "devtools": "Network.emulateNetworkConditions on every page",
}


PRERENDER_WIDTH = 375  # the self-check's prerender control: at DPR 3, so that a missed emulation shows

SETTLE_QUIET_S = 1.0  # the grid page has settled when no request has been in flight for this long
POLL_S = 0.005  # the click-to-photo poll: at most every 10 ms (a Runtime.evaluate takes a few ms itself)
PAGE_TIMEOUT_S = 60
CLICK_TIMEOUT_S = 30


class Case(typing.NamedTuple):
    """What a cold load measures: a tool's gallery at a viewport width, its first tile clicked one way, served
    compressed or not. The report has a row for each."""

    tool: str  # a key of TOOLS
    width: int  # a key of VIEWPORTS
    click: str  # a key of CLICKS
    compression: str  # a key of COMPRESSIONS


@dataclasses.dataclass(frozen=True)
class Tool:
    """One gallery under test: where its grid is, which images are its grid pictures, which image is its large photo."""

    key: str
    label: str
    grid: str  # the grid page, relative to the served root
    tiles: str  # CSS selector of the grid pictures (img elements), in grid order
    photo: str  # JS function body: the large photo's img once its page or lightbox is there, else null
    photo_method: str  # which image that is, for the report


TOOLS = {
    "vitrine": Tool(
        key="vitrine",
        label="Vitrine",
        grid="vitrine/index.html",
        tiles="main .grid img",
        photo="if (location.href !== target) return null;"
        " return document.querySelector('dialog.photo-view[open] .stage img')"
        " || document.querySelector('main .viewer img') || document.querySelector('main img');",
        photo_method="the preview's main image: in the dialog the grid page opens at the preview page's address "
        "(over http), else on the preview page itself",
    ),
    "sigal": Tool(
        key="sigal",
        label="sigal photoswipe",
        grid="sigal/album/index.html",
        tiles=".gallery .thumbnail img",
        photo="const root = document.querySelector('.pswp.pswp--open'); if (!root) return null;"
        " return [...root.querySelectorAll('img.pswp__img:not(.pswp__img--placeholder)')]"
        ".find(img => img.src === target) || null;",
        photo_method="the open lightbox's full image of the tile (img.pswp__img, not the thumbnail placeholder; "
        "photoswipe puts it in the page once decoded)",
    ),
}
