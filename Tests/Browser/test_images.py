"""Every image loads (after scrolling through the page, for lazy ones) or is a placeholder; none is broken."""

import re

import pytest

from browserlib import KINDS, ORIGINS

IMAGES = """
return [...document.images].map(img => ({
  src: img.getAttribute('src'), complete: img.complete, naturalWidth: img.naturalWidth,
  alt: img.getAttribute('alt'), width: img.getAttribute('width'), height: img.getAttribute('height'),
  inMain: !!img.closest('main'),
}));
"""
ALL_LOADED = "return [...document.images].every(img => img.complete);"
ALL_LOADED_IN_VIEW = """
return [...document.images].every(img => {
  const r = img.getBoundingClientRect();
  return r.bottom <= 0 || r.top >= window.innerHeight || r.width === 0 || img.complete;
});
"""


@pytest.mark.parametrize("origin", ORIGINS)
@pytest.mark.parametrize("kind", KINDS)
def test_images(kind, origin, browser, pages):
    site, href = pages.resolve(kind)
    browser.open(pages.url(origin, site, href))
    browser.scroll_through()
    browser.wait(lambda d: d.execute_script(ALL_LOADED), 20, "every image to finish loading")
    images = browser.js(IMAGES)
    broken = [i for i in images if not (i["complete"] and i["naturalWidth"] > 0)]
    assert not broken, f"broken or unloaded images: {broken}"
    assert all(i["alt"] is not None for i in images), "an image without alt"
    unsized = [i["src"] for i in images if not (i["width"] and i["height"])]
    assert not unsized, f"images without width/height (the layout jumps when they load): {unsized}"

    want_images, want_placeholders = site.expected_media(href)
    shown = sum(1 for i in images if i["inMain"])
    placeholders = browser.js("return document.querySelectorAll('main .ph').length")
    assert (shown, placeholders) == (want_images, want_placeholders), (
        f"the page shows {shown} images and {placeholders} placeholders; "
        f"the model says {want_images} and {want_placeholders}"
    )
    assert not browser.console_problems()


CURRENT = """
return [...document.querySelectorAll('main img')].map(img => ({
  current: img.currentSrc, srcset: img.getAttribute('srcset') || '', complete: img.complete,
}));
"""


# The width a `sizes` attribute gives at the current viewport, as Chromium computes it: a probe image whose one
# candidate is "1w" has a density of 1 / that width, so its naturalWidth is the width itself (in whole pixels).
SIZES_PROBE = """
const done = arguments[arguments.length - 1];
const probe = new Image();
probe.onload = () => done(probe.naturalWidth);
probe.onerror = () => done(-1);
probe.sizes = arguments[0];
probe.srcset = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw== 1w';
"""
# The same width to the fraction of a pixel, for the theme's sizes ("(min-width: Npx) and (…) LENGTH, ..., LENGTH"):
# the first entry whose media condition holds, its length laid out as a box's width. `sizes` reads vw as a hundredth of
# the viewport with its scrollbar, which the page's own vw is not (its root keeps a scrollbar's room), so vw is given
# in pixels.
SIZES_EXACT = """
const parts = [];
let depth = 0, start = 0;
for (let i = 0; i < arguments[0].length; i += 1) {
  const c = arguments[0][i];
  depth += c === '(' ? 1 : c === ')' ? -1 : 0;
  if (c === ',' && depth === 0) { parts.push(arguments[0].slice(start, i)); start = i + 1; }
}
parts.push(arguments[0].slice(start));
for (const part of parts) {
  const m = part.trim().match(/^(.*\\))\\s+(calc\\(.*\\)|[^\\s()]+)$/);
  if (m && !matchMedia(m[1]).matches) continue;
  const length = (m ? m[2] : part.trim()).replace(/([\\d.]+)vw/g, (_, n) => '(' + n + ' * ' + innerWidth + 'px / 100)');
  const box = document.createElement('div');
  box.style.cssText = 'position:absolute;visibility:hidden;width:calc(' + length + ')';
  document.body.append(box);
  const width = box.getBoundingClientRect().width;
  box.remove();
  return [width, m ? m[2] : part.trim()];
}
return [-1, ''];
"""


def sizes_entry(browser, sizes: str) -> tuple[float, str]:
    """The width `sizes` gives now, and the length it took it from."""
    exact, length = browser.js(SIZES_EXACT, sizes)
    chromium = browser.driver.execute_async_script(SIZES_PROBE, sizes)
    assert abs(chromium - exact) <= 1, f"Chromium reads sizes as {chromium} px, the test as {exact} px: {sizes}"
    return exact, length


def sizes_width(browser, sizes: str) -> float:
    return sizes_entry(browser, sizes)[0]


# The sizes a tile's preview gives its photo, as vitrine.js makes them from the grid's: the width and height of the
# tile's <img> (arguments[0]) put in, or the entries that need them left out.
PREVIEW_SIZES = """
const img = arguments[0], w = +img.getAttribute('width') || 0, h = +img.getAttribute('height') || 0;
return document.querySelector('[data-preview-sizes]').dataset.previewSizes.split(', ')
  .filter(e => (w > 0 && h > 0 && 100 * w >= 46 * h) || !e.includes('{w}')).join(', ')
  .replaceAll('{w}', String(w)).replaceAll('{h}', String(h));
"""


def preview_sizes(browser, img) -> str:
    return browser.js(PREVIEW_SIZES, img)


FIRST_TILE = """
const img = document.querySelector('main .tile img');
const top = img.closest('.tile').getBoundingClientRect().top;
const columns = [...document.querySelectorAll('main .tile')].filter(t => t.getBoundingClientRect().top === top).length;
return {sizes: img.getAttribute('sizes'), width: img.getBoundingClientRect().width, columns: columns};
"""


@pytest.mark.parametrize("kind", ["pixabay-grid", "thumbnails-grid", "albums-album"])
def test_sizes_match_the_laid_out_tiles(kind, browser, pages):
    """Each grid's `sizes` is its tile width at every breakpoint: never narrower, with a scrollbar or without (the
    picture would be chosen too small and look soft), and at most 10 % wider (it would be chosen larger than
    needed), except just above a step, where the page has one more column than `sizes` counts (its entry for n
    columns is `calc(100/n vw - k)`) because a scrollbar narrower than the 17 px it allows for, or none, left room."""
    site, href = pages.resolve(kind)
    browser.open(pages.url("http", site, href))
    wrong = []
    for hidden in (False, True):
        browser.driver.execute_cdp_cmd("Emulation.setScrollbarsHidden", {"hidden": hidden})
        for width in (320, 360, 375, 414, 480, 600, 700, 768, 820, 1024, 1280, 1366, 1440, 1600, 1920, 2560, 3840):
            browser.viewport(width, 1000)
            tile = browser.js(FIRST_TILE)
            said, length = sizes_entry(browser, tile["sizes"])
            share = re.match(r"(?:calc\()?([\d.]+)vw", length)
            counted = round(100 / float(share.group(1))) if share else 0
            bar = "without" if hidden else "with"
            where = f"{width} px {bar} a scrollbar: {tile['columns']} tiles {tile['width']:.1f} px wide"
            if said < tile["width"] - 0.5:
                wrong.append(f"{where}, sizes says {said:.1f} px, narrower")
            elif said > tile["width"] * 1.10 and tile["columns"] != counted + 1:
                wrong.append(f"{where}, sizes says {said:.1f} px for {counted} columns")
    assert not wrong, "sizes does not match the layout: " + "; ".join(wrong)


CANDIDATES = """
return [...document.querySelectorAll('main .tile img, main .stage img')].map(img => ({
  src: img.getAttribute('src'), srcset: img.getAttribute('srcset') || '', loading: img.getAttribute('loading'),
  priority: img.getAttribute('fetchpriority'),
}));
"""


def srcset_candidates(srcset: str) -> list[tuple[int, str]]:
    return [(int(w.rstrip("w")), url) for url, w in (c.strip().split() for c in srcset.split(",") if c.strip())]


def model_candidates(site, entry_id: str, prefix: str) -> list[tuple[int, str]]:
    """What the model offers for an entry: every rendition with a file or URL and a width, one per width (the
    first in the model's order), narrowest first."""
    entry = site.model.find(f".//entry[@id='{entry_id}']")
    seen: dict[int, str] = {}
    for image in entry.findall("image"):
        location = image.get("url") or (prefix + image.get("src") if image.get("src") else None)
        width = int(image.get("width") or 0)
        if location and width > 0 and width not in seen:
            seen[width] = location
    return sorted(seen.items())


def test_every_size_the_model_has_is_a_candidate_and_only_the_first_tiles_load_at_once(browser, pages):
    """A grid offers each picture in every size the API has (Pixabay: 180 and 340 px tall, 640, 960, 1280), the
    first row on a phone loads at once, the first tile with high priority, and the rest lazily."""
    site, href = pages.resolve("pixabay-grid")
    browser.open(pages.url("http", site, href))
    tiles = browser.js(CANDIDATES)
    items = site.items_on(1)
    assert len(tiles) == len(items) > 2
    for index, (tile, item) in enumerate(zip(tiles, items)):
        assert srcset_candidates(tile["srcset"]) == model_candidates(site, item.main.id, ""), item.id
        assert len(srcset_candidates(tile["srcset"])) == 5, "the sample API has five sizes of every picture"
        assert tile["loading"] == (None if index < 2 else "lazy"), f"tile {index + 1}: loading={tile['loading']}"
        assert tile["priority"] == ("high" if index == 0 else None), f"tile {index + 1}: {tile['priority']}"

    site, href = pages.resolve("pixabay-preview")
    browser.open(pages.url("http", site, href))
    (picture,) = browser.js(CANDIDATES)
    assert srcset_candidates(picture["srcset"]) == model_candidates(site, site.entries[href].id, "../")
    assert picture["loading"] is None and picture["priority"] == "high"


# The head's preloads, where they stand in it, the first tile's picture, and what was fetched for a link.
PRELOADS = """
const head = [...document.head.children];
const picture = document.querySelector('main .tile picture'), img = document.querySelector('main .tile img');
return {
  links: head.filter(l => l.matches('link[rel=preload]')).map(l => ({
    at: head.indexOf(l), as: l.getAttribute('as'), type: l.getAttribute('type'), media: l.getAttribute('media'),
    srcset: l.getAttribute('imagesrcset'), sizes: l.getAttribute('imagesizes'), href: l.getAttribute('href'),
    priority: l.getAttribute('fetchpriority')})),
  style: head.findIndex(e => e.matches('style, link[rel=stylesheet]')),
  sources: picture ? [...picture.querySelectorAll('source')].map(s => ({
    type: s.type, media: s.media, srcset: s.getAttribute('srcset'), sizes: s.getAttribute('sizes')})) : [],
  img: {src: img.getAttribute('src'), srcset: img.getAttribute('srcset'), sizes: img.getAttribute('sizes')},
  current: img.currentSrc, complete: img.complete,
  byLink: performance.getEntriesByType('resource')
    .filter(e => e.initiatorType === 'link' && !/\\.(css|html|js)$/.test(new URL(e.name).pathname))
    .map(e => e.name),
  fetched: performance.getEntriesByType('resource').map(e => e.name),
};
"""


def first_tile_preloads(browser, pages, site, href: str, width: int, dpr: int) -> dict:
    """A grid page opened afresh at that screen, once its first tile has its picture (what links fetched but
    vitrine.js's prefetches of the next page and its stylesheet)."""
    browser.driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": dpr, "mobile": width < 700})
    browser.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    try:
        browser.open(pages.url("http", site, href))
        browser.wait(lambda d: d.execute_script(
            "const i = document.querySelector('main .tile img'); return i && i.complete"), 20, "the first tile")
        return browser.js(PRELOADS)
    finally:
        browser.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})


@pytest.mark.parametrize("kind,width,dpr", [("pixabay-grid", 1440, 1), ("pixabay-grid", 375, 3),
                                            ("pixabay-tag-grid", 375, 2), ("albums-album", 1440, 1)])
def test_the_head_first_asks_for_the_very_file_the_first_tile_takes(kind, width, dpr, new_browser, pages):
    """A long grid page takes a slow phone a while to read: its head starts with a preload of the first tile's
    picture, with the tile's own candidates and sizes, before the inline stylesheet; the browser fetches that file
    once, for the link, and the tile shows it."""
    m = first_tile_preloads(new_browser, pages, *pages.resolve(kind), width, dpr)
    (link,) = m["links"]
    assert link["as"] == "image" and link["priority"] == "high" and link["type"] is None, link
    assert link["at"] < m["style"], f"the preload comes after the stylesheet: {link['at']} >= {m['style']}"
    assert (link["srcset"], link["sizes"], link["href"]) == (m["img"]["srcset"], m["img"]["sizes"], m["img"]["src"])
    assert m["byLink"] == [m["current"]], f"the link fetched {m['byLink']}, the tile shows {m['current']}"
    assert m["fetched"].count(m["current"]) == 1, "the tile's picture was fetched twice"
    assert not new_browser.console_problems()


CURRENT = """
return [...document.querySelectorAll('main img')].map(img => ({
  current: img.currentSrc, srcset: img.getAttribute('srcset') || '', sizes: img.getAttribute('sizes') || '',
  complete: img.complete,
}));
"""


@pytest.mark.parametrize(
    "kind,width,dpr",
    [("pixabay-grid", 375, 1), ("pixabay-grid", 375, 3), ("pixabay-grid", 1440, 1), ("pixabay-grid", 3840, 2),
     ("pixabay-preview", 375, 3), ("pixabay-preview", 1440, 1), ("pixabay-preview", 3840, 1)],
)
def test_srcset_picks_the_smallest_sharp_rendition(kind, width, dpr, browser, pages):
    """Chromium takes the narrowest candidate with at least one image pixel per device pixel of the width `sizes`
    gives (the widest when none is that wide): a phone a small file, a 4K screen a large one."""
    site, href = pages.resolve(kind)
    browser.driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": 2160 if width > 1440 else 900, "deviceScaleFactor": dpr, "mobile": width < 700},
    )
    # Chromium takes a larger candidate it already holds, so every load starts with none held.
    browser.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    browser.driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    browser.driver.get("about:blank")
    try:
        check_the_choice(browser, pages.url("http", site, href), width, dpr)
    finally:
        browser.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})


def check_the_choice(browser, url, width, dpr):
    browser.open(url)
    browser.wait(lambda d: d.execute_script(ALL_LOADED_IN_VIEW), 20, "the images in view to load")
    chosen = [i for i in browser.js(CURRENT) if i["srcset"] and i["complete"]]
    assert chosen, "no image with a srcset"
    for image in chosen[:4]:
        said = sizes_width(browser, image["sizes"])
        candidates = sorted(srcset_candidates(image["srcset"]))
        sharp = [c for c in candidates if c[0] >= said * dpr]
        want = (sharp[0] if sharp else candidates[-1])[1].rsplit("/", 1)[-1]
        assert image["current"].endswith("/" + want), (
            f"at {width} px × {dpr}: {image['current']}, expected {want} (sizes {said} px)"
        )


@pytest.mark.parametrize("kind", ["pixabay-preview", "flickr-preview"])
def test_the_preview_photos_sizes_are_the_space_it_is_shown_in(kind, browser, pages):
    """A preview's `sizes` is the width its photo is shown at where the screen is at least as wide, for its height, as
    the photo (a landscape photo on a wide screen, as tall as the space under the bar and narrower than the page):
    within 10 % above it, never below (but for the tile's ratio, whole pixels over whole pixels, which the grid's
    dialog uses too: 0.5 %). Elsewhere it is the width of main, which the photo never exceeds. So the browser takes
    the candidate that fits the space (issue 52)."""
    site, href = pages.resolve(kind)
    wrong = []
    for width, height in ((320, 568), (375, 812), (414, 896), (600, 960), (768, 1024), (1024, 768), (1280, 720),
                          (1440, 900), (1920, 1080), (2560, 1440), (3840, 2160)):
        browser.viewport(width, height)
        browser.open(pages.url("http", site, href))
        # The picture's own width inside its box (object-fit: contain): the box's, or less where its height stops it.
        photo = browser.js("""const img = document.querySelector('main .stage img');
            const box = img && img.getBoundingClientRect(), w = img && +img.getAttribute('width'), h = img && +img.getAttribute('height');
            return img && {sizes: img.getAttribute('sizes') || '', box: box.width, ratio: w && h ? w / h : 0,
                           shown: w && h ? Math.min(box.width, box.height * w / h) : box.width};""")
        assert photo and photo["sizes"], f"{kind}: no photo with a sizes attribute"
        said = sizes_width(browser, photo["sizes"])
        wide = photo["ratio"] > 0 and width / height >= photo["ratio"]
        most = photo["shown"] * 1.1 + 1 if wide else photo["box"] * 1.1 + 1
        if not photo["shown"] * 0.995 - 1 <= said <= most:
            wrong.append(f"{width}x{height}: shown at {photo['shown']:.1f} px in {photo['box']:.1f}, sizes {said:.1f} px")
    assert not wrong, "; ".join(wrong)
