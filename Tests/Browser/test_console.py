"""No console errors or warnings on any page kind, including what the script does after load (prefetch)."""

import time

import pytest

from browserlib import FAVICON_MISS, KINDS, ORIGINS, Browser, make_driver, quit_driver


@pytest.mark.parametrize("origin", ORIGINS)
@pytest.mark.parametrize("kind", KINDS)
def test_console_clean(kind, origin, browser, pages):
    site, href = pages.resolve(kind)
    browser.open(pages.url(origin, site, href))
    browser.scroll_through()
    if browser.js("return !!document.querySelector('a[rel~=\"next\"]')"):
        # vitrine.js adds <link rel=prefetch> for the next page once the page is idle (2 s at most).
        browser.wait(
            lambda d: d.execute_script("return !!document.querySelector('link[rel=\"prefetch\"]')"),
            10,
            "the prefetch link",
        )
    browser.js("return new Promise(r => setTimeout(r, 500))")  # let the prefetches finish
    assert not browser.console_problems()
    # Self-contained: every request the page made stayed inside the site (the README: no external requests), but
    # for the pictures whose license does not allow copies, which the pages load from the API's own URL: exactly
    # the absolute URLs the site's models list in image/@url.
    base = pages.url(origin, site, "")
    requested = browser.js("return performance.getEntriesByType('resource').map(e => e.name)")
    outside = [u for u in requested if not u.startswith(base) and u not in site.hotlinks]
    assert not outside, f"requests outside the site {base} that no image/@url of its models names: {outside}"


def test_no_favicon_request_fails(pages, workdir, request):
    # A browser of its own: Chromium asks for the icon once per session and origin.
    browser = _own_browser(request, workdir)
    site, href = pages.resolve("pixabay-grid")
    browser.open(pages.url("http", site, href))
    misses = []
    deadline = time.monotonic() + 5  # the request comes a moment after the load
    while not misses and time.monotonic() < deadline:
        time.sleep(0.25)
        browser.drain()
        misses = [f"{e['level']}: {e['message']}" for _, e in browser.console if FAVICON_MISS.search(e["message"])]
    assert not misses


def _own_browser(request, workdir):
    driver = make_driver(True, workdir / "favicon-chromedriver.log")
    request.addfinalizer(lambda: quit_driver(driver))
    return Browser(driver, "favicon")
