"""`vitrine random` in a real browser: the countdown (right after a reload and on a later visit, computed from the
page, not the session), the reload when the next image is due (and no reload loop while the site is not updated
yet), favorites (add, list, remove from the list, from nginx and from disk), the page without JavaScript, the
image fitted to the width in its proportions at 320 and 1440 px, axe-core and the Nu HTML Checker.

The sites are built by the real binary from the sample API that keeps running for the session (conftest's
`sample_api`): the Unsplash site hotlinks its images from it, as Unsplash's terms require. `--now` moves the binary's clock, so a site
whose next image is due in a few seconds needs no waiting for minutes."""

from __future__ import annotations

import datetime
import time
from pathlib import Path

import pytest

import browserlib as bl
from test_axe import format_violations, run_axe
from test_screenshots import SETTLED, stable_screenshot


def _iso(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class RandomSites:
    """Builds random-image sites into the folder nginx serves."""

    def __init__(self, root: Path, workdir: Path, base: str, server: bl.Nginx):
        self.root = root
        self.workdir = workdir
        self.base = base
        self.server = server

    def build(self, name: str, *arguments: str, now: datetime.datetime | None = None) -> Path:
        env = bl.clean_env(self.workdir)
        env.pop("UNSPLASH_ACCESS_KEY", None)
        clock = ["--now", _iso(now)] if now is not None else []
        out = self.root / name
        bl.run(
            [str(bl.vitrine_binary()), "random", *arguments, *clock, "--out", str(out),
             "--cache", str(self.workdir / "random-cache"), "--quiet"],
            timeout=120, env=env,
        )
        return out

    def url(self, origin: str, name: str, href: str = "index.html") -> str:
        if origin == "http":
            return f"{self.server.url}{name}/{href}"
        return (self.root / name / href).as_uri()


@pytest.fixture(scope="session")
def random_sites(server, sample_api, workdir) -> RandomSites:
    sites = RandomSites(workdir / "site", workdir, sample_api, server)
    sites.build("random-picsum", "--source", "picsum", "--endpoint", sample_api, "--every", "1h")
    # A fixed clock a good while ahead: the same page (and screenshot) in every run, and never due during the tests.
    sites.build("random-unsplash", "--source", "unsplash", "--key", "sample-key", "--endpoint",
                sample_api + "unsplash/", "--every", "1h",
                now=datetime.datetime(2031, 1, 1, tzinfo=datetime.timezone.utc))
    return sites


SITES = ("random-picsum", "random-unsplash")

COUNTDOWN = """
const t = document.querySelector('[data-next-update]'), c = document.querySelector('[data-countdown]');
return {due: Date.parse(t.getAttribute('datetime')), now: Date.now(), hidden: c.hidden,
        remaining: c.hasAttribute('data-remaining') ? Number(c.getAttribute('data-remaining')) : null,
        text: c.textContent, waiting: c.getAttribute('data-waiting')};
"""


def _check_countdown(browser) -> dict:
    c = browser.js(COUNTDOWN)
    assert not c["hidden"] and c["remaining"] is not None, c
    expected = (c["due"] - c["now"]) / 1000
    assert abs(c["remaining"] - expected) <= 1.5, f"countdown {c['remaining']} s, the page says {expected:.1f} s"
    assert c["text"].startswith("(in "), c
    return c


@pytest.mark.parametrize("origin", bl.ORIGINS)
def test_countdown_after_reload_and_on_a_later_visit(origin, browser, random_sites):
    url = random_sites.url(origin, "random-picsum")
    browser.open(url)
    first = _check_countdown(browser)
    assert 3500 <= first["remaining"] <= 3600, "the site was built with --every 1h a moment ago"
    browser.driver.refresh()
    browser.wait(lambda d: d.execute_script("return document.readyState") == "complete", 30, "the reload")
    again = _check_countdown(browser)
    assert again["due"] == first["due"], "a reload shows the same next image"
    browser.open("about:blank")
    time.sleep(2.2)
    browser.open(url)
    later = _check_countdown(browser)
    elapsed = (later["now"] - first["now"]) / 1000
    assert abs((first["remaining"] - later["remaining"]) - elapsed) <= 1.5, (first, later)
    assert not browser.console_problems()


def test_the_page_reloads_when_the_next_image_is_due_and_then_waits_without_looping(browser, random_sites):
    # --every 10s with the clock 6 s back: the next image is due 4 s from now.
    now = datetime.datetime.now(datetime.timezone.utc)
    random_sites.build("random-soon", "--source", "picsum", "--endpoint", random_sites.base, "--every", "10s",
                       now=now - datetime.timedelta(seconds=6))
    browser.open(random_sites.url("http", "random-soon"))
    c = _check_countdown(browser)
    assert 1 <= c["remaining"] <= 5, c
    browser.js("window.vitrineMarker = 1")
    browser.wait(lambda d: d.execute_script("return window.vitrineMarker === undefined"), 15, "the reload at zero")
    browser.wait(lambda d: d.execute_script("return document.readyState") == "complete", 30, "the reloaded page")
    # Reloaded, but nothing regenerated the site: the page waits (10 s, then longer) instead of reloading again.
    waiting = browser.js(COUNTDOWN)
    assert waiting["waiting"] == "10" and "not there yet" in waiting["text"], waiting
    browser.js("window.vitrineMarker = 2")
    time.sleep(4)
    assert browser.js("return window.vitrineMarker") == 2, "the overdue page reloaded in a loop"
    assert not browser.console_problems()


def click(browser, element) -> None:
    """Scrolls the element into view at once (the theme scrolls smoothly) and clicks it."""
    browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", element)
    element.click()


FAVORITES = "return [...document.querySelectorAll('[data-favorites-list] li')].map(li => li.getAttribute('data-favorite'))"


@pytest.mark.parametrize("origin", bl.ORIGINS)
@pytest.mark.parametrize("name", SITES)
def test_favorites_add_list_and_remove(name, origin, browser, random_sites):
    from selenium.webdriver.common.by import By

    page = random_sites.url(origin, name)
    favorites = random_sites.url(origin, name, "favorites.html")
    browser.open(page)
    browser.js("localStorage.clear()")
    browser.open(page)
    toggle = browser.driver.find_element(By.CSS_SELECTOR, "[data-favorite-toggle]")
    assert toggle.is_displayed() and toggle.text == "Add to favorites"
    me = browser.js("return document.getElementById('photo').getAttribute('data-favorite-id')")
    click(browser, toggle)
    assert toggle.text == "Remove from favorites"
    click(browser, toggle)
    assert toggle.text == "Add to favorites", "the same button removes it again"
    click(browser, toggle)

    browser.open(favorites)
    assert browser.js(FAVORITES) == [me], "the favorite is listed (the storage is shared by both pages)"
    browser.wait(lambda d: d.execute_script(
        "const i = document.querySelector('[data-favorites-list] img'); return i && i.complete && i.naturalWidth > 0"),
        15, "the favorite's image")
    credit = browser.driver.find_element(By.CSS_SELECTOR, "[data-favorites-list] .credit").text
    assert credit.startswith("Photo by ") and credit.endswith(" on " + ("Unsplash" if "unsplash" in name else "Lorem Picsum"))
    click(browser, browser.driver.find_element(By.CSS_SELECTOR, "button[data-remove]"))
    assert browser.js(FAVORITES) == []
    assert "No favorites yet" in browser.driver.find_element(By.CSS_SELECTOR, "[data-favorites-status]").text
    browser.open(favorites)
    assert browser.js(FAVORITES) == [], "removed for good"
    browser.open(page)
    assert browser.driver.find_element(By.CSS_SELECTOR, "[data-favorite-toggle]").text == "Add to favorites"
    assert not browser.console_problems()


def test_a_favorite_whose_file_is_gone_shows_a_note_and_bad_entries_are_ignored(browser, random_sites):
    from selenium.webdriver.common.by import By

    page = random_sites.url("http", "random-picsum")
    browser.open(page)
    browser.js("""localStorage.setItem('vitrine-favorites', JSON.stringify([
      {id: 'picsum:gone', src: 'images/0000.jpg', caption: 'An old favorite', author: 'A', authorHref: 'javascript:alert(1)'},
      {id: 'bad', src: 'javascript:alert(1)'}, 'junk', null]))""")
    browser.open(random_sites.url("http", "random-picsum", "favorites.html"))
    assert browser.js(FAVORITES) == ["picsum:gone"], "entries with unusable addresses are left out"
    browser.wait(lambda d: d.execute_script("return !!document.querySelector('[data-favorites-list] .ph')"), 15,
                 "the note for a missing file")
    note = browser.driver.find_element(By.CSS_SELECTOR, "[data-favorites-list] .ph").text
    assert note == "This image is no longer part of the site."
    assert not browser.driver.find_elements(By.CSS_SELECTOR, "[data-favorites-list] .credit a"), "no javascript: link"
    browser.js("localStorage.clear()")
    browser.console_problems()  # the missing file's 404 is the point of this test


def test_without_javascript_the_page_still_shows_image_fields_and_next_time(browser_nojs, random_sites):
    from selenium.webdriver.common.by import By

    b = browser_nojs
    b.open(random_sites.url("http", "random-picsum"))
    img = b.driver.find_element(By.CSS_SELECTOR, "#photo img")
    b.wait(lambda d: d.execute_script("return document.querySelector('#photo img').naturalWidth > 0"), 15, "image")
    assert img.is_displayed()
    labels = [e.text for e in b.driver.find_elements(By.CSS_SELECTOR, ".fields dt")]
    assert 3 <= len(labels) <= 5 and labels[:3] == ["Author", "Size", "Source page"]
    assert b.driver.find_element(By.CSS_SELECTOR, "[data-next]").text.startswith("Next image at ")
    assert b.driver.find_element(By.CSS_SELECTOR, "[data-next]").text.endswith(" UTC.")
    assert not b.driver.find_element(By.CSS_SELECTOR, "[data-favorite-toggle]").is_displayed()
    b.open(random_sites.url("http", "random-picsum", "favorites.html"))
    assert "need JavaScript" in b.driver.find_element(By.CSS_SELECTOR, "[data-favorites-status]").text


FIT = """
const img = document.querySelector('#photo img'), r = img.getBoundingClientRect(), doc = document.documentElement;
return {width: r.width, height: r.height, natural: [img.naturalWidth, img.naturalHeight],
        client: doc.clientWidth, scroll: doc.scrollWidth, inner: window.innerWidth};
"""


@pytest.mark.parametrize("width", (320, 1440))
@pytest.mark.parametrize("name", SITES)
def test_the_image_fills_the_width_in_its_proportions(name, width, browser, random_sites):
    browser.viewport(width)
    browser.open(random_sites.url("http", name))
    browser.wait(lambda d: d.execute_script("return document.querySelector('#photo img').naturalWidth > 0"), 15,
                 "the image")
    m = browser.js(FIT)
    assert m["scroll"] <= m["inner"], f"horizontal overflow at {width} px: {m}"
    assert abs(m["width"] - m["client"]) <= 1, f"the image is {m['width']} px wide in a {m['client']} px page"
    ratio = m["natural"][1] / m["natural"][0]
    assert abs(m["height"] / m["width"] - ratio) <= 0.01, f"proportions changed: {m}"


@pytest.mark.parametrize("origin,scheme,width", [("http", "light", 1440), ("http", "dark", 320), ("file", "light", 1440)])
@pytest.mark.parametrize("name", SITES)
def test_axe_on_the_random_and_favorites_pages(name, origin, scheme, width, browser, random_sites, axe_source):
    from selenium.webdriver.common.by import By

    browser.viewport(width)
    browser.color_scheme(scheme)
    page = random_sites.url(origin, name)
    browser.open(page)
    browser.js("localStorage.clear()")
    browser.open(page)
    for href in ("index.html", "favorites.html"):
        if href == "index.html":
            click(browser, browser.driver.find_element(By.CSS_SELECTOR, "[data-favorite-toggle]"))
        else:
            browser.open(random_sites.url(origin, name, href))
            assert len(browser.js(FAVORITES)) == 1, "axe checks the list with a favorite in it"
        result = run_axe(browser, axe_source)
        assert not result["violations"], f"{href} of {name}:\n" + format_violations(result["violations"])
    browser.js("localStorage.clear()")


@pytest.mark.parametrize("name", SITES)
def test_html_valid(name, random_sites, vnu):
    files = sorted((random_sites.root / name).glob("*.html"))
    assert [f.name for f in files] == ["favorites.html", "index.html"]
    errors = bl.run_vnu(vnu, files)
    assert not errors, "\n".join(f"{m.get('url')}:{m.get('lastLine')}: {m.get('message')}" for m in errors)


@pytest.mark.parametrize("width", (375, 1440))
def test_screenshot(width, browser, random_sites):
    """Tests/Browser/screenshots/random-{375,1440}.png for the README: the Unsplash site, whose sample photo is
    the same in every run."""
    browser.viewport(width)
    browser.driver.execute_cdp_cmd("Emulation.setScrollbarsHidden", {"hidden": True})
    browser.open(random_sites.url("http", "random-unsplash"))
    settled = browser.driver.execute_async_script(SETTLED)
    assert settled["loaded"] == settled["images"], settled
    # The live countdown would differ in every run: stop it and show a fixed one.
    browser.js("window.setTimeout = () => 0")
    time.sleep(1.2)
    browser.js("document.querySelector('[data-countdown]').textContent = '(in 59 min 59 s)'")
    png = stable_screenshot(browser)
    bl.SCREENSHOTS.mkdir(exist_ok=True)
    bl.write_if_changed(
        bl.SCREENSHOTS / f"random-{width}.png", png, same=lambda old, new: bl.same_picture(browser.driver, old, new))
