"""Layout at a phone, a tablet and a laptop width: grid columns, no horizontal overflow."""

import pytest

from browserlib import GRID_KINDS, KINDS, ORIGINS, WIDTHS

# (fewest, most) grid columns per width. Square thumbnail tiles are smaller, so there may be more.
COLUMNS = {
    "natural": {375: (2, 2), 768: (3, 4), 1440: (5, 12)},
    "square": {375: (2, 3), 768: (3, 6), 1440: (5, 14)},
}

MEASURE = """
const doc = document.documentElement;
const out = {innerWidth: window.innerWidth, innerHeight: window.innerHeight, scrollWidth: doc.scrollWidth, wide: []};
const caption = document.querySelector('.viewer figcaption');
out.caption = caption ? Math.round(caption.getBoundingClientRect().bottom) : null;
for (const el of document.body.querySelectorAll('*')) {
  const r = el.getBoundingClientRect();
  if (r.width > 0 && r.right > window.innerWidth + 0.5 && getComputedStyle(el).position !== 'fixed') {
    const cls = el.className ? '.' + String(el.className).trim().replace(/\\s+/g, '.') : '';
    out.wide.push(el.tagName.toLowerCase() + cls + ' right=' + Math.round(r.right));
    if (out.wide.length >= 8) break;
  }
}
const grid = document.querySelector('ol.grid');
if (grid) {
  out.template = getComputedStyle(grid).gridTemplateColumns;
  out.columns = out.template.split(/\\s+/).filter(Boolean).length;
  const tiles = [...grid.children];
  out.tiles = tiles.length;
  const top = tiles.length ? tiles[0].offsetTop : 0;
  out.firstRow = new Set(tiles.filter(t => t.offsetTop === top).map(t => t.offsetLeft)).size;
}
return out;
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("origin", ORIGINS)
@pytest.mark.parametrize("kind", KINDS)
def test_layout(kind, origin, width, browser, pages):
    site, href = pages.resolve(kind)
    browser.viewport(width)
    browser.open(pages.url(origin, site, href))
    m = browser.js(MEASURE)
    assert m["innerWidth"] == width, f"the viewport is {m['innerWidth']} px wide, not {width}"
    assert m["scrollWidth"] <= m["innerWidth"], (
        f"horizontal overflow at {width} px: scrollWidth {m['scrollWidth']} > {m['innerWidth']}; "
        f"elements reaching past the right edge: {m['wide']}"
    )
    if kind in GRID_KINDS:
        fewest, most = COLUMNS[site.layout][width]
        assert fewest <= m["columns"] <= most, (
            f"{m['columns']} columns at {width} px ({m['template']}), expected {fewest}–{most}"
        )
        if m["tiles"] >= m["columns"]:
            assert m["firstRow"] == m["columns"], (
                f"the first row holds {m['firstRow']} tiles but the grid has {m['columns']} columns"
            )
    if m["caption"] is not None:  # the preview's picture and caption fit the first screen
        assert m["caption"] <= m["innerHeight"], (
            f"the preview's caption ends at {m['caption']} px, below the first screen ({m['innerHeight']} px)"
        )
    assert not browser.console_problems()


# The width the page's body is laid out in, then again once the page is too short to scroll (the root's clientWidth
# would not do: Chromium gives it without the kept gutter).
LAID_OUT_WIDTH = """
const doc = document.documentElement, main = document.querySelector('main');
const width = () => document.body.getBoundingClientRect().width;
const long = width(), scrolls = doc.scrollHeight > doc.clientHeight;
main.style.display = 'none';
const short = width();
main.style.display = '';
return {long, short, scrolls};
"""


@pytest.mark.parametrize("kind", [k for k in KINDS if not k.endswith(("-preview", "-preview-variant", "-missing",
                                                                      "-hotlinked", "-photo"))])
def test_a_scrollbar_that_comes_later_moves_nothing(kind, browser, pages):
    """A long page is painted before it is whole, when it needs no scrollbar yet; the scrollbar that comes with the
    rest must not narrow what was painted (a layout shift of every tile, seen in Chromium under load)."""
    site, href = pages.resolve(kind)
    browser.viewport(800, 300)
    browser.open(pages.url("http", site, href))
    m = browser.js(LAID_OUT_WIDTH)
    assert m["scrolls"], "the page is too short at 300 px to show what a scrollbar does"
    assert m["long"] == m["short"], f"laid out in {m['long']} px while it scrolls, {m['short']} px when short"


@pytest.mark.parametrize("kind", KINDS)
def test_reflow_at_320(kind, browser, pages):
    """WCAG 1.4.10 (reflow): nothing scrolls sideways at 320 CSS px."""
    site, href = pages.resolve(kind)
    browser.viewport(320, 640)
    browser.open(pages.url("http", site, href))
    m = browser.js(MEASURE)
    assert m["scrollWidth"] <= m["innerWidth"], f"horizontal overflow at 320 px: {m['wide']}"


@pytest.mark.parametrize("kind", GRID_KINDS)
def test_columns_on_a_4k_screen(kind, browser, pages):
    """The README: "twelve [columns] on a 4K screen" (square thumbnail tiles are smaller: at least as many)."""
    site, href = pages.resolve(kind)
    browser.viewport(3840, 2160)
    browser.open(pages.url("http", site, href))
    m = browser.js(MEASURE)
    assert m["scrollWidth"] <= m["innerWidth"], f"horizontal overflow at 3840 px: {m['wide']}"
    if site.layout == "square":
        assert m["columns"] >= 12, f"{m['columns']} columns at 3840 px ({m['template']})"
    else:
        assert m["columns"] == 12, f"{m['columns']} columns at 3840 px ({m['template']}), expected 12"


SEARCH_FORM = """
const form = document.querySelector('form.site-search');
if (!form) return null;
const before = form.getBoundingClientRect(), button = form.querySelector('button');
const inside = button.getBoundingClientRect().right <= before.right + 0.5;
button.remove();  // as in a frame painted before the parser reached it
const after = form.getBoundingClientRect();
form.append(button);
return {before: before.width, after: after.width, x: [before.left, after.left], inside: inside};
"""


@pytest.mark.parametrize("width", [1440, 375])
def test_the_search_forms_width_does_not_wait_for_its_button(width, browser, pages):
    """The header's search form has a width of its own: a frame painted before its button was read shows it at the
    width and place it keeps (a shift of 47 px otherwise, issue 52), and the button fits inside it."""
    site, href = pages.resolve("pixabay-grid")
    browser.viewport(width)
    browser.open(pages.url("http", site, href))
    form = browser.js(SEARCH_FORM)
    assert form, "no search form in the header"
    assert form["inside"], form
    assert form["before"] == form["after"] and form["x"][0] == form["x"][1], form
