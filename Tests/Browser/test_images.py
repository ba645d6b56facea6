"""Every image loads (after scrolling through the page, for lazy ones) or is a placeholder; none is broken."""

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


@pytest.mark.parametrize(
    "kind,width,rendition",
    [("pixabay-grid", 375, "small"), ("pixabay-preview", 375, "small"), ("pixabay-preview", 3840, "large")],
)
def test_srcset_picks_the_rendition(kind, width, rendition, browser, pages):
    """The README: srcset/sizes offer both renditions, "so phones take the small one and 4K screens the large
    one" (at 1x; both URLs of the srcset resolve, or test_images would have found a broken image)."""
    site, href = pages.resolve(kind)
    browser.viewport(width, 2160 if width > 1440 else None)
    browser.open(pages.url("http", site, href))
    browser.wait(lambda d: d.execute_script(ALL_LOADED_IN_VIEW), 20, "the images in view to load")
    chosen = [i for i in browser.js(CURRENT) if i["srcset"] and i["complete"]]
    assert chosen, "no image with a srcset"
    for image in chosen:
        candidates = sorted(
            (int(w.rstrip("w")), url) for url, w in (c.strip().split() for c in image["srcset"].split(","))
        )
        want = (candidates[0] if rendition == "small" else candidates[-1])[1].rsplit("/", 1)[-1]
        assert image["current"].endswith("/" + want), f"at {width} px: {image['current']}, expected {want}"
