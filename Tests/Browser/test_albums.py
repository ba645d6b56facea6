"""The album hierarchy of `vitrine albums` (the `albums` demo site): photo grids of at least two columns on a phone,
titles laid over the pictures that stay readable on any picture, the photo page's tap to hide and show the toolbar
and details (both visible without JavaScript), and breadcrumbs and back links that lead up the hierarchy. Expected
targets come from the model (gallery.xml). Axe, vnu, images, console and overflow checks of these pages run with
the other page kinds (the `albums-*` kinds of browserlib.KINDS)."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browserlib import ORIGINS

GRID = """
const grid = document.querySelector('ol.grid-album');
const doc = document.documentElement;
const tiles = [...grid.children];
const top = tiles[0].offsetTop;
return {
  columns: getComputedStyle(grid).gridTemplateColumns.split(/\\s+/).filter(Boolean).length,
  firstRow: new Set(tiles.filter(t => t.offsetTop === top).map(t => t.offsetLeft)).size,
  scrollWidth: doc.scrollWidth, innerWidth: window.innerWidth,
};
"""

# For every tile: the overlay's box against its frame's, its text colour and background (rgba), and whether the
# text fits (no line cut off half-way).
OVERLAYS = """
return [...document.querySelectorAll('ol.grid-album > li')].map(li => {
  const frame = li.querySelector('.frame').getBoundingClientRect();
  const overlay = li.querySelector('.overlay');
  const text = li.querySelector('.overlay-text');
  const o = overlay.getBoundingClientRect();
  const cs = getComputedStyle(overlay);
  return {
    id: li.id, text: text.textContent,
    inside: o.left >= frame.left - 0.5 && o.right <= frame.right + 0.5 && Math.abs(o.bottom - frame.bottom) <= 1,
    height: o.height, frameHeight: frame.height,
    color: cs.color, background: cs.backgroundColor,
    lineHeight: parseFloat(getComputedStyle(text).lineHeight), textHeight: text.getBoundingClientRect().height,
  };
});
"""

CHROME = """
const vis = el => {
  const cs = getComputedStyle(el), r = el.getBoundingClientRect();
  return {visible: cs.visibility === 'visible' && parseFloat(cs.opacity) > 0.99, top: r.top, bottom: r.bottom};
};
const img = document.querySelector('.photo-stage img').getBoundingClientRect();
return {
  toolbar: vis(document.querySelector('nav.toolbar')), details: vis(document.querySelector('section.details')),
  image: {left: img.left, top: img.top, right: img.right, bottom: img.bottom},
  width: window.innerWidth, height: window.innerHeight,
  pressed: document.querySelector('.chrome-toggle')?.getAttribute('aria-pressed') ?? null,
};
"""


def rgba(text: str) -> tuple[float, float, float, float]:
    parts = text[text.index("(") + 1 : text.index(")")].replace("/", ",").split(",")
    values = [float(p) for p in parts if p.strip()]
    return (values[0], values[1], values[2], values[3] if len(values) > 3 else 1.0)


def luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def worst_contrast(color: str, background: str) -> float:
    """The text's contrast over its band laid on the worst picture: every channel of the picture from 0 to 255."""
    fg = rgba(color)[:3]
    r, g, b, alpha = rgba(background)
    worst = 21.0
    for level in range(0, 256, 5):
        shown = tuple(alpha * c + (1 - alpha) * level for c in (r, g, b))
        worst = min(worst, contrast(fg, shown))
    return worst


@pytest.mark.parametrize("width", [320, 360, 375, 768, 1440, 3840])
def test_the_photo_grid_has_at_least_two_columns(width, browser, pages):
    site, href = pages.resolve("albums-album")
    browser.viewport(width, 2160 if width > 1440 else None)
    browser.open(pages.url("http", site, href))
    m = browser.js(GRID)
    assert m["scrollWidth"] <= m["innerWidth"], f"horizontal overflow at {width} px"
    assert m["columns"] >= 2, f"{m['columns']} column(s) at {width} px"
    assert m["firstRow"] == m["columns"]
    if width <= 375:
        assert m["columns"] == 2
    if width >= 1440:
        assert m["columns"] >= 6


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [320, 375, 1440])
def test_overlaid_titles_are_readable_on_any_picture(width, scheme, browser, pages):
    site, href = pages.resolve("albums-album")
    album, number = site.albums[href]
    titles = [
        " ".join((it.find("entry/caption").text or "").split()) for it in album.findall("item")
        if int(it.get("page")) == number
    ]
    browser.viewport(width)
    browser.color_scheme(scheme)
    browser.open(pages.url("http", site, href))
    overlays = browser.js(OVERLAYS)
    assert [o["text"] for o in overlays] == titles
    for o in overlays:
        assert o["inside"], f"{o['id']}: the title is not laid over the bottom of its picture"
        assert o["height"] <= o["frameHeight"] * 0.6, f"{o['id']}: the title covers most of the picture"
        lines = o["textHeight"] / o["lineHeight"]
        assert abs(lines - round(lines)) < 0.05 and 1 <= round(lines) <= 2, f"{o['id']}: {lines:.2f} lines shown"
        worst = worst_contrast(o["color"], o["background"])
        assert worst >= 7, f"{o['id']}: contrast {worst:.2f}:1 over the worst picture ({o['color']} on {o['background']})"


def test_a_tap_on_the_photo_hides_and_shows_the_toolbar_and_details(browser, pages):
    site, href = pages.resolve("albums-photo")
    browser.viewport(375)
    browser.open(pages.url("http", site, href))
    shown = browser.js(CHROME)
    assert shown["toolbar"]["visible"] and shown["details"]["visible"]
    assert shown["toolbar"]["top"] == 0 and abs(shown["details"]["bottom"] - shown["height"]) <= 1
    image = shown["image"]
    assert (image["left"], image["top"], image["right"], image["bottom"]) == (0, 0, shown["width"], shown["height"])
    assert shown["pressed"] == "false"

    stage = browser.driver.find_element(By.CSS_SELECTOR, ".photo-stage")
    stage.click()
    browser.wait(lambda d: not d.execute_script(CHROME)["toolbar"]["visible"], 5, "the toolbar to hide")
    hidden = browser.js(CHROME)
    assert not hidden["details"]["visible"] and hidden["pressed"] == "true"
    assert browser.driver.current_url.endswith(href), "the tap followed a link"
    stage.click()
    browser.wait(lambda d: d.execute_script(CHROME)["details"]["visible"], 5, "the details to show again")
    assert browser.js(CHROME)["toolbar"]["visible"]

    # The same from the keyboard: a toggle button over the picture once the script runs.
    browser.js("document.querySelector('.chrome-toggle').focus()")
    browser.driver.switch_to.active_element.send_keys("\n")
    browser.wait(lambda d: not d.execute_script(CHROME)["toolbar"]["visible"], 5, "Enter to hide the toolbar")
    assert not browser.console_problems()


def test_without_javascript_the_toolbar_and_details_stay_visible(browser_nojs, pages):
    site, href = pages.resolve("albums-photo")
    browser_nojs.viewport(375)
    browser_nojs.open(pages.url("http", site, href))
    browser_nojs.driver.find_element(By.CSS_SELECTOR, ".photo-stage img").click()
    state = browser_nojs.js(CHROME)
    assert state["toolbar"]["visible"] and state["details"]["visible"]
    assert state["pressed"] is None
    assert browser_nojs.driver.current_url.endswith(href)
    texts = [e.text for e in browser_nojs.driver.find_elements(By.CSS_SELECTOR, "section.details dd a")]
    entry, album = site.photos[href]
    user = site.parent[album.get("id")]
    assert texts == [album.get("title"), user.get("title")]
    assert browser_nojs.driver.find_element(By.CSS_SELECTOR, "section.details h1").text == entry.find("caption").text


def click(browser, css):
    """Follows a link from the keyboard (focus, Enter): a mouse click could land on a tile while the page is still
    scrolling smoothly to its :target."""
    link = browser.driver.find_element(By.CSS_SELECTOR, css)
    link.send_keys(Keys.ENTER)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("origin", ORIGINS)
def test_back_links_and_breadcrumbs_lead_up_the_hierarchy(origin, javascript, request, pages):
    browser = request.getfixturevalue("browser" if javascript else "browser_nojs")
    site, href = pages.resolve("albums-photo")
    entry, album = site.photos[href]
    user = site.parent[album.get("id")]
    item_id = href.rsplit("/", 1)[-1].removesuffix(".html")
    number = next(int(it.get("page")) for it in album.findall("item") if it.find("entry") is entry)
    album_page = next(h for h, (c, n) in site.albums.items() if c is album and n == number)
    user_page = user.find("page").get("href")
    users_page = site.top.find("page").get("href")
    url = lambda h, fragment="": pages.url(origin, site, h, fragment)  # noqa: E731

    browser.open(url(href))
    crumbs = [e.text for e in browser.driver.find_elements(By.CSS_SELECTOR, "ol.crumbs li")]
    assert crumbs == [site.top.get("title"), user.get("title"), album.get("title"), entry.find("caption").text]
    click(browser, "a[data-nav='up']")
    browser.wait_for_url(url(album_page, f"photos-{item_id}"))
    assert browser.js("return document.querySelector(':target').id") == f"photos-{item_id}"
    click(browser, "a[data-nav='up']")
    browser.wait_for_url(url(user_page, album.get("id")))
    click(browser, "a[data-nav='up']")
    browser.wait_for_url(url(users_page, user.get("id")))
    assert not browser.driver.find_elements(By.CSS_SELECTOR, "a[data-nav='up']"), "the top page has nothing above"

    # Down again through the lists, then up by the breadcrumb.
    click(browser, f"li#{user.get('id')} a")
    browser.wait_for_url(url(user_page))
    click(browser, f"li#{album.get('id')} a")
    browser.wait_for_url(url(album.find("page").get("href")))
    click(browser, "ol.crumbs li:first-child a")
    browser.wait_for_url(url(users_page))
    assert not browser.console_problems()


def test_escape_on_a_photo_goes_back_to_its_tile(browser, pages):
    site, href = pages.resolve("albums-photo")
    browser.open(pages.url("http", site, href))
    up = browser.driver.find_element(By.CSS_SELECTOR, "a[data-nav='up']").get_attribute("href")
    browser.driver.find_element(By.TAG_NAME, "body").send_keys("\ue00c")  # Escape
    browser.wait_for_url(up)
