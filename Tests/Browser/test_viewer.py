"""A tile's preview in a dialog on its grid page (vitrine.js, over http): the click shows the tile's photo without a
new document, at the preview page's address and with that page's own contents; Escape, the way back and the back
button return to the grid with the focus on the tile; previous and next move inside while their item is on the page.
From disk, with a modifier key and with JavaScript off, the tile is a plain link. Expected targets come from the
model (gallery.xml)."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_axe import format_violations, run_axe
from test_images import srcset_candidates
from test_navigation import click, press

OPEN = "const d = document.querySelector('dialog.photo-view'); return !!(d && d.open);"
PHOTO = """const img = document.querySelector('dialog.photo-view[open] .stage img');
return img && img.complete && img.naturalWidth > 0 ? img.currentSrc : null;"""
LOADED = "return !!document.querySelector('dialog.photo-view[open] a[data-nav=\"up\"]')"
# Whether the dialog shows the preview page of the item with this id (its way back names the tile).
SHOWS = """const up = document.querySelector('dialog.photo-view[open] a[data-nav="up"]');
return !!up && up.hash === '#' + arguments[0];"""
FOCUSED_TILE = "const a = document.activeElement; return a.matches('a.frame') ? a.closest('li').id : a.tagName;"
# What a preview shows, whichever document it is in: its caption's text, its links, its photo's candidates.
FIGURE = """
const root = document.querySelector('dialog.photo-view[open]') || document;
const figure = root.querySelector('figure.viewer'), bar = root.querySelector('nav.bar');
const img = figure.querySelector('.stage img');
return {text: figure.textContent, bar: bar.textContent.replace(/\\s+/g, ' ').trim(),
        links: [...bar.querySelectorAll('a'), ...figure.querySelectorAll('a')].map(a => a.href),
        srcset: img.srcset.split(', ').map(c => new URL(c.split(' ')[0], document.baseURI).href + ' ' + c.split(' ')[1]),
        sizes: img.sizes, src: img.currentSrc};
"""


def open_grid(browser, pages, origin="http"):
    site = pages.sites["pixabay"]
    browser.open(pages.url(origin, site, site.pages[1]))
    browser.js("window.sameDocument = true")
    return site


def same_document(browser) -> bool:
    return browser.js("return window.sameDocument === true")


def test_a_tile_opens_its_preview_in_the_page_with_the_preview_pages_contents(browser, pages):
    site = open_grid(browser, pages)
    first = site.items_on(1)[0]
    preview = pages.url("http", site, first.main.href)
    click(browser, f"#{first.id} a.frame")
    browser.wait_for_url(preview)
    browser.wait(lambda d: d.execute_script(PHOTO), 10, "the photo in the dialog")
    browser.wait(lambda d: d.execute_script(LOADED), 10, "the preview page's bar in the dialog")
    assert same_document(browser), "the click loaded a new document"
    in_dialog = browser.js(FIGURE)
    assert browser.js("return document.title") != "" and browser.js(OPEN)

    browser.open(preview)  # the same address, loaded: the preview page itself shows the same
    assert browser.js(FIGURE) == in_dialog
    assert not browser.console_problems()


def test_escape_the_way_back_and_the_back_button_return_to_the_tile(browser, pages):
    site = open_grid(browser, pages)
    grid = pages.url("http", site, site.pages[1])
    items = site.items_on(1)
    for close in ("escape", "up", "back"):
        item = items[1]
        click(browser, f"#{item.id} a.frame")
        browser.wait_for_url(pages.url("http", site, item.main.href))
        browser.wait(lambda d: d.execute_script(LOADED), 10, "the preview page's bar in the dialog")
        if close == "escape":
            press(browser, Keys.ESCAPE)
        elif close == "up":
            click(browser, 'dialog.photo-view[open] a[data-nav="up"]')
        else:
            browser.driver.back()
        browser.wait_for_url(grid)
        browser.wait(lambda d: not d.execute_script(OPEN), 5, f"the dialog closed by {close}")
        browser.wait(lambda d: d.execute_script(FOCUSED_TILE) == item.id, 5, f"focus on tile {item.id} ({close})")
        assert same_document(browser), f"{close} loaded a new document"
    # The grid's own relative links still lead where they did before the address changed and back.
    hrefs = browser.js("return [...document.querySelectorAll('main .tile a.frame')].map(a => a.href)")
    assert hrefs[0] == pages.url("http", site, items[0].main.href)
    assert not browser.console_problems()


def test_next_and_previous_move_inside_the_dialog_and_the_back_button_leaves_it(browser, pages):
    site = open_grid(browser, pages)
    grid = pages.url("http", site, site.pages[1])
    items = site.items_on(1)
    click(browser, f"#{items[0].id} a.frame")
    browser.wait(lambda d: d.execute_script(LOADED), 10, "the preview page's bar in the dialog")
    press(browser, Keys.ARROW_RIGHT)
    browser.wait_for_url(pages.url("http", site, items[1].main.href))
    browser.wait(lambda d: d.execute_script(PHOTO) and d.execute_script(SHOWS, items[1].id), 10, "item 2 in the dialog")
    if len(items[1].entries) > 1:
        press(browser, "v")
        browser.wait_for_url(pages.url("http", site, items[1].entries[1].href))
        press(browser, "v")
        browser.wait_for_url(pages.url("http", site, items[1].main.href))
    press(browser, Keys.ARROW_LEFT)
    browser.wait_for_url(pages.url("http", site, items[0].main.href))
    assert same_document(browser)
    browser.driver.back()  # moves replace the address: one step back is the grid
    browser.wait_for_url(grid)
    browser.wait(lambda d: not d.execute_script(OPEN), 5, "the dialog closed by the back button")
    browser.driver.forward()  # and forward opens it again
    browser.wait_for_url(pages.url("http", site, items[0].main.href))
    browser.wait(lambda d: d.execute_script(PHOTO), 10, "the photo in the dialog again")
    assert same_document(browser)

    if len(site.pages) > 1:  # the next item of the page's last is on grid page 2: its preview page loads
        last = items[-1]
        press(browser, Keys.ESCAPE)
        browser.wait_for_url(grid)
        click(browser, f"#{last.id} a.frame")
        browser.wait(lambda d: d.execute_script(LOADED), 10, "the preview page's bar in the dialog")
        following = site.neighbour(last.main, +1)
        press(browser, Keys.ARROW_RIGHT)
        browser.wait_for_url(pages.url("http", site, following.href))
        browser.wait(lambda d: d.execute_script("return document.readyState") == "complete", 10, "the page")
        assert not same_document(browser), "an item of another grid page was shown in this one's dialog"
    assert not browser.console_problems()


def test_from_disk_and_with_a_modifier_key_a_tile_is_a_plain_link(browser, pages):
    site = open_grid(browser, pages, "file")
    first = site.items_on(1)[0]
    click(browser, f"#{first.id} a.frame")
    browser.wait_for_url(pages.url("file", site, first.main.href))
    browser.wait(lambda d: d.execute_script("return document.readyState") == "complete", 10, "the preview page")
    assert not same_document(browser) and not browser.js(OPEN)

    site = open_grid(browser, pages)
    # A click with Ctrl (a new tab) is the browser's: the script leaves it alone. The test stops the tab itself.
    left_alone = browser.js("""
        let prevented = null;
        addEventListener('click', e => { prevented = e.defaultPrevented; e.preventDefault(); }, {once: true});
        document.querySelector('main .tile a.frame').dispatchEvent(
            new MouseEvent('click', {bubbles: true, cancelable: true, ctrlKey: true, button: 0}));
        return prevented === false && !document.querySelector('dialog.photo-view[open]');""")
    assert left_alone

    # A preview that cannot be fetched: the preview page itself is loaded.
    browser.js("window.fetch = () => Promise.reject(new TypeError('offline'))")
    click(browser, f"#{first.id} a.frame")
    browser.wait_for_url(pages.url("http", site, first.main.href))
    browser.wait(lambda d: d.execute_script("return window.sameDocument !== true && document.readyState") == "complete",
                 10, "the preview page loaded")
    assert browser.js("return !document.querySelector('dialog') && !!document.querySelector('main figure.viewer')")
    assert not browser.console_problems()


@pytest.mark.parametrize("width", [1440, 375])
def test_the_open_dialog_passes_axe(width, browser, pages, axe_source):
    browser.viewport(width)
    site = open_grid(browser, pages)
    first = site.items_on(1)[0]
    click(browser, f"#{first.id} a.frame")
    browser.wait(lambda d: d.execute_script(LOADED), 10, "the preview page's bar in the dialog")
    browser.wait(lambda d: d.execute_script(PHOTO), 10, "the photo in the dialog")
    result = run_axe(browser, axe_source)
    assert not result["violations"], format_violations(result["violations"])
    # Tab never reaches the page under the dialog (past the dialog's last link it may reach the browser's own UI,
    # the page's body here, as the spec has it).
    reached = set()
    for _ in range(12):
        ActionChains(browser.driver).send_keys(Keys.TAB).perform()
        where = browser.js("const a = document.activeElement; return a.closest('dialog.photo-view') ? 'dialog' : a.tagName")
        assert where in ("dialog", "BODY"), f"focus reached {where} under the dialog"
        reached.add(where)
    assert "dialog" in reached


def test_a_caption_with_markup_is_shown_as_text_until_the_preview_comes(browser, pages):
    """The dialog's first view takes the tile's caption: as text, never as markup (the preview page's own copy, which
    replaces it, is the page's HTML, escaped by the theme)."""
    site = open_grid(browser, pages)
    first = site.items_on(1)[0]
    hostile = '<img src=x onerror="window.pwned = 1">\u202e Straße'
    browser.js("""
        document.querySelector('#' + arguments[0] + ' .caption').textContent = arguments[1];
        const fetch = window.fetch;  // the preview page comes only when the test says so
        window.releasePreview = null;
        window.fetch = (...args) => new Promise(resolve => { window.releasePreview = () => resolve(fetch(...args)); });
    """, first.id, hostile)
    click(browser, f"#{first.id} a.frame")
    browser.wait(lambda d: d.execute_script("return !!window.releasePreview"), 10, "the preview's fetch")
    shown = browser.js("const h = document.querySelector('dialog.photo-view[open] h1'); return h && h.textContent")
    assert shown == hostile
    assert browser.js("return !document.querySelector('dialog.photo-view img:not(.stage img)') && !window.pwned")
    browser.js("window.releasePreview()")
    browser.wait(lambda d: d.execute_script(LOADED), 10, "the preview page's bar in the dialog")
    assert not browser.js("return window.pwned")
    assert not browser.console_problems()


# The resource entries of the images that began after `arguments[0]` (performance.now() then): URL, start, end.
IMAGES_SINCE = """
return performance.getEntriesByType('resource')
  .filter(e => e.startTime >= arguments[0] && e.initiatorType !== 'fetch' && e.initiatorType !== 'link')
  .map(e => ({url: e.name, start: e.startTime, end: e.responseEnd}));
"""


def test_the_next_photo_starts_only_once_the_shown_one_has_loaded(new_browser, pages):
    """On a slow link the dialog's photo has the link to itself: the next item's photo (and its preview page) are
    asked for after it has come, never beside it."""
    browser = new_browser
    browser.viewport(1440)
    site = open_grid(browser, pages)
    first, second = site.items_on(1)[:2]
    browser.wait(lambda d: d.execute_script("return [...document.images].every(i => i.complete)"), 20, "tiles")
    next_img = browser.driver.find_element(By.CSS_SELECTOR, f"#{second.id} a.frame img")
    next_files = {u for _, u in srcset_candidates(next_img.get_attribute("srcset"))}
    next_files = {browser.js("return new URL(arguments[0], document.baseURI).href", u) for u in next_files}
    # About 1.6 Mbit/s: a photo takes a good part of a second.
    browser.driver.execute_cdp_cmd("Network.enable", {})
    browser.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 40, "downloadThroughput": 200_000, "uploadThroughput": 90_000})
    try:
        since = browser.js("return performance.now()")
        click(browser, f"#{first.id} a.frame")
        browser.wait(lambda d: d.execute_script(PHOTO), 20, "the photo in the dialog")
        shown = browser.js(PHOTO)
        browser.wait(lambda d: any(i["url"] in next_files for i in d.execute_script(IMAGES_SINCE, since)), 20,
                     "the next item's photo")
        images = browser.js(IMAGES_SINCE, since)
        photo = next(i for i in images if i["url"] == shown)
        following = [i for i in images if i["url"] in next_files]
        assert len(following) == 1, following
        assert following[0]["start"] >= photo["end"], f"the next photo began before the shown one came: {images}"
        # Its preview page too: nothing but the shown photo and its own page share the link until the photo came.
        pages_fetched = browser.js(
            "return performance.getEntriesByType('resource').filter(e => e.startTime >= arguments[0] && "
            "e.initiatorType === 'fetch').map(e => ({url: e.name, start: e.startTime}))", since)
        next_page = pages.url("http", site, second.main.href)
        assert [p for p in pages_fetched if p["url"] == next_page and p["start"] < photo["end"]] == []
        assert not browser.console_problems()
    finally:
        browser.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def test_the_grids_own_warm_up_leaves_the_dialogs_links_alone(new_browser, pages):
    """The grid warms its next page once it is idle, which may be after a tile's preview has opened in the dialog.
    On the last grid page, which has no next page, it warms nothing: not the dialog's next photo, whose file name is
    relative to the preview page and would be asked for from the wrong folder."""
    browser = new_browser
    site = pages.sites["pixabay"]
    last = max(site.pages)
    item = site.items_on(last)[0]
    browser.open(pages.url("http", site, site.pages[last]))
    assert browser.js("return document.querySelector('a[rel~=\"next\"]')") is None
    since = browser.js("return performance.now()")
    click(browser, f"#{item.id} a.frame")
    browser.wait(lambda d: d.execute_script(LOADED), 10, "the preview page's bar in the dialog")
    assert browser.js("return !!document.querySelector('dialog.photo-view[open] a[rel~=\"next\"][data-prefetch]')")
    # The page's load handler again, as when the idle moment comes after the click: its warm-up runs now.
    browser.js("window.dispatchEvent(new Event('load')); return true")
    browser.wait(lambda d: d.execute_script(
        "return new Promise(done => requestIdleCallback(() => setTimeout(() => done(true), 50)))"), 10, "idle")
    wrong = [u for u in browser.js(
        "return performance.getEntriesByType('resource').filter(e => e.startTime >= arguments[0]).map(e => e.name)",
        since) if "/images/" in u and not u.startswith(pages.url("http", site, ""))]
    assert wrong == [] and not browser.console_problems()
