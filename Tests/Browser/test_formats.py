"""Images re-encoded as AVIF and WebP (`--formats avif,webp`, the placeholders site): every picture with copies is a
<picture> whose sources offer the same candidates as its <img>: AVIF for dense screens (min-resolution: 2dppx), AVIF
for any, then WebP; Chromium shows the AVIF for its screen; a pressed tile starts the very file its preview page
takes."""

import pytest
from selenium.webdriver.common.by import By

from browserlib import ORIGINS
from test_images import first_tile_preloads, preview_sizes, sizes_width, srcset_candidates

PICTURES = """
return [...document.querySelectorAll('main picture')].map(p => {
  const img = p.querySelector('img');
  return {
    sources: [...p.querySelectorAll('source')].map(s => ({
      type: s.type, media: s.media, srcset: s.getAttribute('srcset'), sizes: s.getAttribute('sizes'),
    })),
    srcset: img.getAttribute('srcset'), sizes: img.getAttribute('sizes'), current: img.currentSrc,
    complete: img.complete, loaded: img.naturalWidth > 0, parentIsPicture: img.parentElement === p,
  };
});
"""


def widths(srcset: str) -> list[int]:
    return [w for w, _ in srcset_candidates(srcset)]


@pytest.mark.parametrize("origin", ORIGINS)
@pytest.mark.parametrize("kind", ["placeholder-grid", "placeholder-preview"])
def test_every_picture_offers_avif_then_webp_with_the_same_candidates(kind, origin, browser, pages):
    site, href = pages.resolve(kind)
    browser.open(pages.url(origin, site, href))
    browser.scroll_through()
    browser.wait(lambda d: d.execute_script("return [...document.images].every(i => i.complete)"), 20, "images")
    pictures = browser.js(PICTURES)
    want_images, _ = site.expected_media(href)
    assert len(pictures) == want_images, "every image of the page is a <picture> with other formats"
    for picture in pictures:
        assert picture["parentIsPicture"] and picture["loaded"], picture
        assert [(s["type"], s["media"]) for s in picture["sources"]] == [
            ("image/avif", "(min-resolution: 2dppx)"), ("image/avif", ""), ("image/webp", "")], picture
        for source in picture["sources"]:
            assert source["sizes"] == picture["sizes"], picture
            if picture["srcset"]:
                assert widths(source["srcset"]) == widths(picture["srcset"]), picture
            suffix = "." + source["type"].split("/")[1]
            urls = [url for _, url in srcset_candidates(source["srcset"])] if picture["srcset"] else [source["srcset"]]
            assert all(url.endswith(suffix) for url in urls), source
        assert picture["current"].endswith(".avif"), f"Chromium shows AVIF where it can: {picture['current']}"
        shown_from = [i for i, s in enumerate(picture["sources"]) if picture["current"] in absolute_urls(browser, s)]
        assert shown_from == [1], f"a 1x screen takes the AVIF for any screen: {picture}"
    assert not browser.console_problems()


def absolute_urls(browser, source) -> list[str]:
    candidates = srcset_candidates(source["srcset"]) if source["sizes"] else [(0, source["srcset"])]
    return browser.js("return arguments[0].map(u => new URL(u, document.baseURI).href)", [u for _, u in candidates])


@pytest.mark.parametrize("dpr", [2, 3])
def test_a_dense_screen_takes_the_avif_made_for_it(dpr, new_browser, pages):
    browser = new_browser
    site, href = pages.resolve("placeholder-grid")
    browser.driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 375, "height": 812, "deviceScaleFactor": dpr, "mobile": True})
    browser.open(pages.url("http", site, href))
    browser.scroll_through()
    browser.wait(lambda d: d.execute_script("return [...document.images].every(i => i.complete)"), 20, "images")
    pictures = browser.js(PICTURES)
    assert pictures
    for picture in pictures:
        shown_from = [i for i, s in enumerate(picture["sources"]) if picture["current"] in absolute_urls(browser, s)]
        assert shown_from == [0], f"a {dpr}x screen takes the AVIF for dense screens: {picture}"
    assert not browser.console_problems()


STARTED = """
return performance.getEntriesByType('resource').filter(e => e.startTime >= arguments[0] && e.initiatorType !== 'fetch')
  .map(e => e.name);
"""


def test_a_pressed_tile_starts_the_avif_its_preview_takes(new_browser, pages):
    browser = new_browser
    site = pages.sites["placeholders"]
    browser.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    try:
        browser.open(pages.url("http", site, site.pages[1]))
        browser.scroll_through()
        browser.wait(lambda d: d.execute_script("return [...document.images].every(i => i.complete)"), 20, "tiles")
        tiles = [t for t in browser.driver.find_elements(By.CSS_SELECTOR, "main .tile a.frame")
                 if t.find_elements(By.CSS_SELECTOR, "picture img[srcset]")]
        assert tiles, "a tile with other formats"
        tile = tiles[0]
        since = browser.js("return performance.now()")
        browser.js("arguments[0].dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}))", tile)
        browser.wait(lambda d: len(d.execute_script(STARTED, since)) == 1, 10, "the pressed tile's photo")
        started = browser.js(STARTED, since)[0]
        slot = sizes_width(browser, preview_sizes(browser, tile.find_element(By.TAG_NAME, "img")))
        avif = tile.find_element(By.CSS_SELECTOR, "source[type='image/avif']:not([media])").get_attribute("srcset")
        candidates = srcset_candidates(avif)
        sharp = [url for w, url in sorted(candidates) if w >= slot] or [max(candidates)[1]]
        assert started == browser.js("return new URL(arguments[0], document.baseURI).href", sharp[0])
        # And the preview page, opened with the cache off, takes that very file.
        href = tile.get_attribute("href")
        browser.open(href)
        browser.wait(lambda d: d.execute_script(
            "const i = document.querySelector('main picture img'); return i && i.complete && i.currentSrc"), 20,
            "the preview's photo")
        assert browser.js("return document.querySelector('main picture img').currentSrc") == started
        assert not browser.console_problems()
    finally:
        browser.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})


@pytest.mark.parametrize("dpr", [1, 2])
def test_the_head_preloads_the_very_avif_the_first_tile_takes(dpr, new_browser, pages):
    """With other formats the head preloads the first format's files only (a browser without AVIF preloads nothing
    rather than a file it would not show): one link per AVIF source, each for the screens its source is for."""
    site = pages.sites["placeholders"]
    # which downloads failed is the scheduler's choice: the grid page, or else a tag page, whose first tile has a file
    firsts = [(h, site.items_on(n)[0].main) for n, h in sorted(site.pages.items())]
    firsts += [(h, shown[0]) for h, shown in site.tag_pages.items() if shown]
    href = next(h for h, entry in firsts if entry.shown_src("tile"))
    m = first_tile_preloads(new_browser, pages, site, href, 375, dpr)
    avif = [s for s in m["sources"] if s["type"] == "image/avif"]
    assert [s["media"] for s in avif] == ["(min-resolution: 2dppx)", ""], m["sources"]
    assert [(l["type"], l["media"], l["srcset"], l["sizes"]) for l in m["links"]] == [
        ("image/avif", "(min-resolution: 2dppx)", avif[0]["srcset"], avif[0]["sizes"]),
        ("image/avif", "not all and (min-resolution: 2dppx)", avif[1]["srcset"], avif[1]["sizes"])]
    assert all(link["at"] < m["style"] for link in m["links"]), m["links"]
    assert m["current"].endswith(".avif")
    assert m["byLink"] == [m["current"]], f"the links fetched {m['byLink']}, the tile shows {m['current']}"
    assert m["fetched"].count(m["current"]) == 1, "the tile's picture was fetched twice"
    assert not new_browser.console_problems()
