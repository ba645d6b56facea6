"""A site's own search (issue 27, `vitrine build`): search.html at the site's root finds the entries of every gallery
the galleries' models say, each result naming its gallery and linking its preview page, from nginx and from disk;
only that page loads the site's index; without JavaScript the header hides the box; hostile queries and hostile text
in the index stay text. Expected results come from each gallery's gallery.xml and site.xml."""

from __future__ import annotations

import json
import shutil
import urllib.parse
import xml.etree.ElementTree as ET

import pytest
from selenium.webdriver.common.by import By

from browserlib import ORIGINS
from test_layout import MEASURE
from test_search import (
    INDEX_LOADS,
    RESULTS,
    SHOWN,
    assert_axe_clean_in_both_schemes,
    assert_valid_as_drawn,
    simple_fold,
    wait_settled,
)

GALLERY_NAMES = "return [...document.querySelectorAll('#search-results .result-gallery bdi')].map(s => s.textContent)"


def galleries_of(site) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each gallery of the site that has a search, in the home page's order: its title, and its entries with a
    picture as (href, the text search looks in: caption, tags, credit and the gallery's title)."""
    found = []
    for card in ET.parse(site.root / "site.xml").getroot().findall("gallery"):
        path = site.root / card.get("href").rsplit("/", 1)[0] / "gallery.xml"
        if not path.exists():
            continue
        model = ET.parse(path).getroot()
        if model.find("search") is None:
            continue
        title = card.findtext("title")
        entries = []
        for entry in model.iter("entry"):
            if entry.find("missing") is not None:
                continue
            words = [entry.findtext("caption") or ""] + [t.text or "" for t in entry.findall("tag")]
            credit = entry.find("credit")
            if credit is not None:
                words.append(credit.get("name", ""))
            entries.append((entry.get("href"), simple_fold(" ".join(words + [title]))))
        found.append((title, entries))
    return found


def expected(site, query: str) -> list[tuple[str, str]]:
    terms = simple_fold(query).split()
    return [(href, title) for title, entries in galleries_of(site) for href, text in entries
            if all(t in text for t in terms)]


def word_of_two_galleries(site) -> str:
    """A plain word that entries of two galleries or more hold (not one of the galleries' titles), the rarest."""
    where: dict[str, set[str]] = {}
    count: dict[str, int] = {}
    titles = {w for title, _ in galleries_of(site) for w in simple_fold(title).split()}
    for title, entries in galleries_of(site):
        for _, text in entries:
            for word in set(text.split()) - titles:
                if word.isascii() and word.isalpha() and len(word) > 2:
                    where.setdefault(word, set()).add(title)
                    count[word] = count.get(word, 0) + 1
    shared = sorted(w for w in where if len(where[w]) > 1)
    assert shared, "no word is in two galleries"
    return min(shared, key=lambda w: (count[w], w))


def search_url(pages, origin, site, query: str | None) -> str:
    base = pages.url(origin, site, site.site_search_href)
    return base if query is None else f"{base}?q={urllib.parse.quote(query)}"


@pytest.mark.parametrize("origin", ORIGINS)
def test_site_search_finds_the_items_of_two_galleries_each_naming_its_gallery(origin, browser, pages):
    site = pages.sites["site"]
    assert site.site_search_href == "search.html"
    query = word_of_two_galleries(site)
    want = expected(site, query)
    assert len({title for _, title in want}) > 1, want
    browser.open(search_url(pages, origin, site, query))
    wait_settled(browser, query)
    assert browser.js(RESULTS) == [href for href, _ in want[:SHOWN]]
    assert browser.js(GALLERY_NAMES) == [title for _, title in want[:SHOWN]]
    status = browser.js("return document.getElementById('search-status').textContent")
    assert status.startswith(f"{len(want)} image" if len(want) > 1 else "1 image"), status
    # A result opens its gallery's preview page.
    first = browser.driver.find_element(By.CSS_SELECTOR, "#search-results a.frame")
    browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", first)
    first.click()
    browser.wait_for_url(pages.url(origin, site, want[0][0]))
    assert not browser.console_problems()


@pytest.mark.parametrize("origin", ORIGINS)
def test_the_home_and_tag_pages_box_searches_the_site_and_only_the_search_page_loads_the_index(
        origin, browser, pages):
    site = pages.sites["site"]
    for href in ("index.html", site.site_tag_index, next(iter(site.site_tag_pages)), "changes.html"):
        browser.open(pages.url(origin, site, href))
        assert browser.js(INDEX_LOADS) == 0, href
        form = browser.driver.find_element(By.CSS_SELECTOR, "header form.site-search")
        assert form.get_attribute("action") == pages.url(origin, site, "search.html"), href
    box = browser.driver.find_element(By.ID, "search-box")
    query = word_of_two_galleries(site)
    box.send_keys(query)
    box.submit()
    browser.wait_for_url(search_url(pages, origin, site, query).replace("%20", "+"))
    wait_settled(browser, query)
    # One script, the site's (and over http its one request; file:// loads are not in the resource timings).
    assert browser.js(INDEX_LOADS) == (2 if origin == "http" else 1)
    assert browser.js("return document.querySelector('script[src*=\"search-index\"]').getAttribute('src')") \
        == "search-index.js"


@pytest.mark.parametrize("origin", ORIGINS)
def test_without_javascript_the_site_hides_the_box_and_points_to_its_tags(origin, browser_nojs, pages):
    site = pages.sites["site"]
    for href in ("index.html", site.site_tag_index):
        browser_nojs.open(pages.url(origin, site, href))
        assert not browser_nojs.driver.find_element(By.ID, "search-box").is_displayed(), href
        assert browser_nojs.driver.find_element(By.CSS_SELECTOR, "header a.tag-index").is_displayed(), href
    browser_nojs.open(search_url(pages, origin, site, "harbour"))
    note = browser_nojs.driver.find_element(By.CSS_SELECTOR, "main p.empty")
    assert "needs JavaScript" in note.text
    links = [a.get_attribute("href") for a in note.find_elements(By.TAG_NAME, "a")]
    assert links == [pages.url(origin, site, site.site_tag_index), pages.url(origin, site, "index.html")]


def test_a_hostile_query_on_the_site_search_is_text(browser, pages):
    site = pages.sites["site"]
    browser.open(search_url(pages, "file", site, "<img src=x onerror=\"window.hacked=1\"></script>"))
    browser.wait(lambda d: d.execute_script(
        "return document.getElementById('search-results').hasAttribute('data-query')"), 20, "the search")
    assert browser.js("return window.hacked") is None
    assert browser.js("return document.querySelectorAll('main img, #search-status *').length") == 0
    assert not browser.console_problems()


def test_hostile_gallery_titles_in_the_site_index_are_shown_as_text(browser, pages, workdir):
    site = pages.sites["site"]
    copy = workdir / "site-search-hostile"
    title = "<img src=x onerror=\"window.hacked=1\"></script><script>window.hacked=2</script>\u2028\u202Eevil"
    if not copy.exists():
        shutil.copytree(site.root, copy)
        data = {"v": 1, "galleries": [[title, "hamburg/index.html"], "not a gallery"],
                "paths": [["hamburg/items/", ".html", 0], ["hamburg/items/", ".htm", 1], ["hamburg/items/", ".x", 7]],
                "items": [[0, "a", -1, "", 0, 0, "harbour one"], [1, "b", -1, "", 0, 0, "harbour two"],
                          [2, "c", -1, "", 0, 0, "harbour three"]]}
        text = json.dumps(data, ensure_ascii=False).replace("\u2028", "\\u2028")
        (copy / "search-index.js").write_text(f"vitrineSearchIndex({text});", encoding="utf-8")
    browser.open((copy / "search.html").as_uri() + "?q=harbour")
    wait_settled(browser, "harbour")
    assert browser.js("return window.hacked") is None
    assert browser.js(RESULTS) == ["hamburg/items/a.html", "hamburg/items/b.htm", "hamburg/items/c.x"]
    # The title as text; a gallery that is not one, or none, shows no name.
    assert browser.js(GALLERY_NAMES) == [title]
    assert browser.js("return document.querySelector('.result-gallery').textContent") == "In the gallery " + title
    assert browser.js("return document.querySelectorAll('main script, main img').length") == 0
    # Its title is searched as the gallery's other words are.
    browser.open((copy / "search.html").as_uri() + "?q=evil%20one")
    wait_settled(browser, "evil one")
    assert browser.js(RESULTS) == ["hamburg/items/a.html"]
    assert not browser.console_problems()


@pytest.mark.parametrize("width", (375, 1440))
def test_site_results_layout_axe_and_vnu(width, browser, pages, axe_source, vnu, workdir):
    site = pages.sites["site"]
    query = word_of_two_galleries(site)
    browser.viewport(width)
    for origin in ORIGINS:
        browser.open(search_url(pages, origin, site, query))
        wait_settled(browser, query)
        m = browser.js(MEASURE)
        assert m["scrollWidth"] <= m["innerWidth"], m["wide"]
    assert_axe_clean_in_both_schemes(browser, search_url(pages, "http", site, query), query, axe_source)
    assert_valid_as_drawn(browser, vnu, workdir / f"site-search-with-results-{width}.html")
