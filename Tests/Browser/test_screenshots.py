"""Screenshots at the three widths, into Tests/Browser/screenshots/ (1x, the viewport only, light scheme, served
by nginx): the Pixabay grid, a preview, a page without a match for its variant, the tag index and a tag page, and
the square thumbnail grid.
The README shows them and CI keeps the folder, so they are committed: a file is rewritten only when its picture
changed, not for the little Chromium's image scaling varies by from run to run."""

import time

import pytest

from browserlib import HEIGHTS, SCREENSHOTS, WIDTHS, png_size, same_picture, write_if_changed

SHOTS = (
    "pixabay-grid", "pixabay-preview", "pixabay-missing", "pixabay-tags", "pixabay-tag-grid", "thumbnails-grid",
    "site-home", "site-changes",
    "albums-user", "albums-album", "albums-photo",
)

# Every image in view loaded, the fonts ready, two frames painted. (Not img.decode(): it decodes at full size,
# racing the painter's decode at the drawn size, and the screenshot would differ from run to run.)
SETTLED = """
const done = arguments[arguments.length - 1];
const inView = [...document.images].filter(img => {
  const r = img.getBoundingClientRect();
  return r.bottom > 0 && r.top < window.innerHeight && r.width > 0;
});
const loaded = () => inView.every(img => img.complete);
const frames = () => requestAnimationFrame(() => requestAnimationFrame(() => done({
  images: inView.length, loaded: inView.filter(img => img.complete && img.naturalWidth > 0).length})));
const start = Date.now();
(function poll() {
  if (loaded() || Date.now() - start > 20000) document.fonts.ready.then(frames);
  else setTimeout(poll, 50);
})();
"""


def stable_screenshot(browser, tries: int = 6) -> bytes:
    """Chromium may paint a scaled image at low quality first and repaint it sharper a moment later: take
    screenshots half a second apart until two are the same (at most `tries`)."""
    png = browser.driver.get_screenshot_as_png()
    for _ in range(tries):
        time.sleep(0.5)
        again = browser.driver.get_screenshot_as_png()
        if again == png:
            break
        png = again
    return png


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("kind", SHOTS)
def test_screenshot(kind, width, browser, pages):
    site, href = pages.resolve(kind)
    browser.viewport(width)
    # Overlay scrollbars, as on phones and tablets: a classic scrollbar's thumb follows the estimated height of
    # the tiles that content-visibility has not rendered yet, which differs from run to run.
    browser.driver.execute_cdp_cmd("Emulation.setScrollbarsHidden", {"hidden": True})
    browser.open(pages.url("http", site, href))
    browser.driver.execute_async_script(SETTLED)
    # Once more with every image in the cache: what Chromium paints first then depends less on when each image
    # arrived.
    browser.open(pages.url("http", site, href))
    settled = browser.driver.execute_async_script(SETTLED)
    assert settled["loaded"] == settled["images"], f"images in view that did not load: {settled}"
    png = stable_screenshot(browser)
    assert png_size(png) == (width, HEIGHTS[width]), "not a 1x screenshot of the viewport"
    SCREENSHOTS.mkdir(exist_ok=True)
    write_if_changed(
        SCREENSHOTS / f"{kind}-{width}.png", png, same=lambda old, new: same_picture(browser.driver, old, new)
    )
    assert not browser.console_problems()
