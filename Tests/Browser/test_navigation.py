"""Navigation on preview and grid pages: the keys of vitrine.js, and the same through plain links without
JavaScript. Expected targets come from the model (gallery.xml), not from the page."""

import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browserlib import ORIGINS
from test_images import preview_sizes, sizes_width, srcset_candidates

SITES = ("pixabay", "flickr", "thumbnails", "site")


def start_entry(site):
    """The last item of grid page 1 when there are more pages (its next item is on page 2), else item 2."""
    item = site.items_on(1)[-1] if len(site.pages) > 1 else site.items[1]
    return item.entry(site.variants[0])


def other_variant(entry):
    entries = entry.item.entries
    return entries[(entries.index(entry) + 1) % len(entries)]


def press(browser, key):
    ActionChains(browser.driver).send_keys(key).perform()


def click(browser, css):
    links = browser.driver.find_elements(By.CSS_SELECTOR, css)
    assert links, f"no {css} on {browser.driver.current_url}"
    # The theme scrolls smoothly (scroll-behavior: smooth): bring the link into view at once, or WebDriver
    # clicks where it will be before it gets there.
    browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", links[0])
    links[0].click()


@pytest.mark.parametrize("origin", ORIGINS)
@pytest.mark.parametrize("site_name", SITES)
def test_keyboard(site_name, origin, browser, pages):
    site = pages.sites[site_name]
    url = lambda e: pages.url(origin, site, e.href)  # noqa: E731
    start = start_entry(site)
    following = site.neighbour(start, +1)
    assert following is not None

    browser.open(url(start))
    press(browser, Keys.ARROW_RIGHT)
    browser.wait_for_url(url(following))
    press(browser, Keys.ARROW_LEFT)
    browser.wait_for_url(url(start))
    if len(start.item.entries) > 1:
        other = other_variant(start)
        press(browser, "v")
        browser.wait_for_url(url(other))
        press(browser, "v")  # wraps around to the first variant
        browser.wait_for_url(url(start))
    press(browser, Keys.ESCAPE)
    browser.wait_for_url(pages.url(origin, site, site.grid_href(start.item), start.item.id))
    # Back on the grid, the keyboard carries on from the tile the visitor came from, not from the top.
    focused = "const a = document.activeElement; return a.matches('a.frame') ? a.closest('li').id : a.tagName;"
    browser.wait(lambda d: d.execute_script(focused) == start.item.id, 5, f"focus on tile {start.item.id}")
    press(browser, Keys.ENTER)
    browser.wait_for_url(url(start.item.main))

    if len(site.pages) > 1:  # the same keys page through the grid
        browser.open(pages.url(origin, site, site.pages[1]))
        press(browser, Keys.ARROW_RIGHT)
        browser.wait_for_url(pages.url(origin, site, site.pages[2]))
        press(browser, Keys.ARROW_LEFT)
        browser.wait_for_url(pages.url(origin, site, site.pages[1]))
    assert not browser.console_problems()


@pytest.mark.parametrize("origin", ORIGINS)
@pytest.mark.parametrize("site_name", SITES)
def test_plain_links_without_javascript(site_name, origin, browser_nojs, pages):
    browser = browser_nojs
    site = pages.sites[site_name]
    url = lambda e: pages.url(origin, site, e.href)  # noqa: E731
    start = start_entry(site)
    following = site.neighbour(start, +1)

    browser.open(url(start))
    press(browser, Keys.ARROW_RIGHT)  # the keys are the script's: with JavaScript off, nothing happens
    time.sleep(1)
    assert browser.driver.current_url == url(start), "JavaScript is not off: an arrow key navigated"
    assert not browser.js("return !!document.querySelector('link[rel=\"prefetch\"]')"), "vitrine.js ran"

    click(browser, 'a[rel~="next"]')
    browser.wait_for_url(url(following))
    click(browser, 'a[rel~="prev"]')
    browser.wait_for_url(url(start))
    if len(start.item.entries) > 1:
        other = other_variant(start)
        click(browser, f'a[data-nav="variant"][href$="{other.href.split("/")[-1]}"]')
        browser.wait_for_url(url(other))
        click(browser, f'a[data-nav="variant"][href$="{start.href.split("/")[-1]}"]')
        browser.wait_for_url(url(start))
    click(browser, 'a[data-nav="up"]')
    browser.wait_for_url(pages.url(origin, site, site.grid_href(start.item), start.item.id))

    if len(site.pages) > 1:
        click(browser, '.pager a[rel~="next"]')
        browser.wait_for_url(pages.url(origin, site, site.pages[2]))
        click(browser, '.pager a[rel~="prev"]')
        browser.wait_for_url(pages.url(origin, site, site.pages[1]))

    # A tile leads to its preview page.
    first = site.items_on(1)[0]
    browser.open(pages.url(origin, site, site.pages[1]))
    click(browser, f'#{first.id} a.frame')
    browser.wait_for_url(url(first.main))

    # A page without a match for its variant leads to the other variant.
    missing = next((e for e in site.entries.values() if e.missing is not None), None)
    if missing is not None:
        target = next(e for e in missing.item.entries if e.missing is None)
        browser.open(url(missing))
        click(browser, f'main a:not(.frame)[href$="{target.href.split("/")[-1]}"]')
        browser.wait_for_url(url(target))
    assert not browser.console_problems()


FOCUS = """
const el = document.activeElement;
const r = el.getBoundingClientRect();
const style = getComputedStyle(el);
return {cls: el.className, tag: el.tagName, top: r.top, bottom: r.bottom, outline: style.outlineStyle,
        outlineWidth: parseFloat(style.outlineWidth)};
"""


@pytest.mark.parametrize(
    "kind", ("pixabay-grid", "pixabay-preview", "pixabay-missing", "site-changes", "gallery-changes", "archive-grid"))
def test_skip_link_and_visible_focus(kind, browser, pages):
    """Tab first reaches the skip link, which comes into view; it leads to <main>; focus is visible."""
    site, href = pages.resolve(kind)
    start = pages.url("http", site, href)
    browser.open(start)
    press(browser, Keys.TAB)
    f = browser.js(FOCUS)
    assert "skip" in f["cls"], f"the first Tab stop is {f}, not the skip link"
    in_view = f["top"] >= 0 and f["bottom"] <= browser.js("return innerHeight")
    assert in_view, f"the focused skip link is off screen: {f}"
    assert f["outline"] != "none" and f["outlineWidth"] >= 2, f"no visible focus outline: {f}"
    press(browser, Keys.ENTER)
    browser.wait_for_url(start + "#main")
    press(browser, Keys.TAB)  # the next Tab stop is inside <main>
    assert browser.js("return !!document.activeElement.closest('main')"), browser.js(FOCUS)
    f = browser.js(FOCUS)
    assert f["outline"] != "none" and f["outlineWidth"] >= 2, f"no visible focus outline: {f}"
    assert not browser.console_problems()


@pytest.mark.parametrize("origin", ORIGINS)
def test_bad_fragment_is_ignored(origin, browser, pages):
    """A grid opened with a fragment that names no tile, or that is not valid percent-encoding, keeps the focus on
    the page and logs nothing; one that names a tile focuses its link (the return from a preview)."""
    site = pages.sites["pixabay"]
    grid = site.pages[1]
    focused = "const a = document.activeElement; return a.matches('a.frame') ? a.closest('li').id : a.tagName;"
    for fragment in ("%E0%A4%A", "no-such-item", "c1-p1", "%3Cscript%3E"):
        browser.open(pages.url(origin, site, grid, fragment))
        time.sleep(0.2)  # the focus is moved a frame after load; give it that frame to do wrong
        assert browser.js(focused) == "BODY", fragment
    item = site.items_on(1)[1]
    browser.open(pages.url(origin, site, grid, item.id))
    browser.wait(lambda d: d.execute_script(focused) == item.id, 5, f"focus on tile {item.id}")
    assert not browser.console_problems()


# The images the page began to load since `arguments[0]` (performance.now() then); the preview pages it fetched
# for its dialog are FETCHED.
STARTED = """
return performance.getEntriesByType('resource').filter(e => e.startTime >= arguments[0] && e.initiatorType !== 'fetch')
  .map(e => e.name);
"""
FETCHED = """
return performance.getEntriesByType('resource').filter(e => e.startTime >= arguments[0] && e.initiatorType === 'fetch')
  .map(e => e.name);
"""


@pytest.mark.parametrize("width", [1440, 375])
def test_pressing_or_resting_on_a_tile_starts_its_photo(width, new_browser, pages):
    """The photo of a preview page starts downloading when its tile is pressed, or the pointer rests on it: the file
    the preview page takes (the same candidates, the preview's sizes), and never more than six a page."""
    browser = new_browser
    site = pages.sites["pixabay"]
    items = site.items_on(1)
    browser.driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 700},
    )
    browser.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    try:
        browser.open(pages.url("http", site, site.pages[1]))
        browser.scroll_through()  # every tile's own image has loaded before the presses
        browser.wait(lambda d: d.execute_script("return [...document.images].every(i => i.complete)"), 20, "tiles")
        since = browser.js("return performance.now()")
        tiles = browser.driver.find_elements(By.CSS_SELECTOR, "main .tile a.frame")
        press = "arguments[0].dispatchEvent(new PointerEvent(arguments[1], {bubbles: true}))"
        browser.js(press, tiles[2], "pointerdown")
        # Waits, not time limits: a loaded machine (a CI runner beside other jobs) has taken over 10 s.
        browser.wait(lambda d: len(d.execute_script(STARTED, since)) == 1, 30, "the pressed tile's photo")
        browser.js(press, tiles[3], "pointerover")  # a pointer that rests
        browser.wait(lambda d: len(d.execute_script(STARTED, since)) == 2, 30, "the rested-on tile's photo")
        for tile in tiles[4:9]:
            browser.js(press, tile, "pointerdown")
        time.sleep(1)
        started = browser.js(STARTED, since)
        assert len(started) == 6, f"at most six photos a page: {started}"
        # Each is the file the tile's preview page takes in a browser that holds none of them: the narrowest of
        # the tile's candidates (the preview's) as wide as the preview's sizes (test_srcset_picks_the_smallest_sharp_
        # rendition holds the preview pages to that rule); a browser holding a larger one may take that instead.
        wanted = []
        for tile in tiles[2:8]:
            img = tile.find_element(By.TAG_NAME, "img")
            slot = sizes_width(browser, preview_sizes(browser, img))
            candidates = srcset_candidates(img.get_attribute("srcset"))
            sharp = [url for w, url in sorted(candidates) if w >= slot] or [max(candidates)[1]]
            wanted.append(browser.js("return new URL(arguments[0], document.baseURI).href", sharp[0]))
        assert started == wanted, "the photos started are the ones the preview pages take"
        # Over http the grid opens a preview in its dialog: the same presses fetch those preview pages.
        pages_fetched = browser.js(FETCHED, since)
        assert pages_fetched == [t.get_attribute("href") for t in tiles[2:8]], pages_fetched
        assert not browser.console_problems()
    finally:
        browser.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})


def test_a_link_the_pointer_rests_on_is_prerendered_and_focus_still_returns(browser, pages):
    """Speculation Rules prerender the grid while the pointer rests on a preview's link back to it; the click shows
    that page (its navigation was activated, not loaded), and the keyboard focus is on the tile all the same."""
    site = pages.sites["pixabay"]
    start = start_entry(site)
    browser.open(pages.url("http", site, start.href))
    up = browser.driver.find_element(By.CSS_SELECTOR, "a[data-nav='up']")
    ActionChains(browser.driver).move_to_element(up).perform()
    time.sleep(1)  # "moderate" eagerness: 200 ms of hover, then the prerender's own loading
    ActionChains(browser.driver).click(up).perform()
    browser.wait_for_url(pages.url("http", site, site.grid_href(start.item), start.item.id))
    activated = browser.js("return performance.getEntriesByType('navigation')[0].activationStart")
    assert activated > 0, "the grid was loaded at the click, not prerendered"
    focused = "const a = document.activeElement; return a.matches('a.frame') ? a.closest('li').id : a.tagName;"
    browser.wait(lambda d: d.execute_script(focused) == start.item.id, 5, f"focus on tile {start.item.id}")
    assert not browser.console_problems()
