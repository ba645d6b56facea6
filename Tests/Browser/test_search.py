"""Search (issue 27): the search page of a gallery finds what its model says, from nginx and from disk, with the
query in the address (?q=), the back button, the keyboard and folding ("kranfuhrer" finds "Kranführer"); the index
script loads only where a search is made; without JavaScript there is no search box and the tag index is the way;
hostile queries and a missing or damaged index are handled. Expected results come from the model (gallery.xml)."""

from __future__ import annotations

import json
import shutil
import unicodedata
import urllib.parse
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browserlib import ORIGINS, run_vnu
from test_axe import format_violations, run_axe
from test_layout import MEASURE

FIXTURE = Path(__file__).resolve().parents[1] / "Fixtures" / "search-folding.json"
SHOWN = 48  # search.js shows this many results, then a button for more

RESULTS = "return [...document.querySelectorAll('#search-results a.frame')].map(a => a.getAttribute('href'))"
SETTLED = """
const list = document.getElementById('search-results');
const status = document.getElementById('search-status');
return !!list && list.getAttribute('data-query') === arguments[0] && !/Loading/.test(status.textContent)
  && !list.hasAttribute('aria-busy');
"""
INDEX_LOADS = """
return [...performance.getEntriesByType('resource')].filter(e => e.name.includes('search-index')).length
  + document.querySelectorAll('script[src*="search-index"]').length;
"""


def simple_fold(text: str) -> str:
    """Folding for the plain queries these tests make (the full rule is checked against the fixture)."""
    return " ".join("".join(c for c in unicodedata.normalize("NFKD", text.lower())
                            if not unicodedata.category(c).startswith("M")).split())


def entries_of(site) -> list[tuple[str, str, str]]:
    """Every entry with a picture: (href, caption, the text search looks in), in the model's order."""
    found = []
    for entry in site.model.iter("entry"):
        if entry.find("missing") is not None:
            continue
        caption = " ".join((entry.findtext("caption") or "").split())
        words = [t.text or "" for t in entry.findall("tag")]
        credit = entry.find("credit")
        if credit is not None:
            words.append(credit.get("name", ""))
        found.append((entry.get("href"), caption, simple_fold(caption + " " + " ".join(words))))
    return found


def expected(site, query: str) -> list[str]:
    terms = simple_fold(query).split()
    return [href for href, _, text in entries_of(site) if all(t in text for t in terms)]


def relative_to_search(site, href: str) -> str:
    depth = site.search_href.count("/")
    return "../" * depth + href


def search_url(pages, origin, site, query: str | None) -> str:
    base = pages.url(origin, site, site.search_href)
    return base if query is None else f"{base}?q={urllib.parse.quote(query)}"


def wait_settled(browser, query: str) -> None:
    browser.wait(lambda d: d.execute_script(SETTLED, query), 20, f"the results for {query!r}")


def common_tag(site) -> str:
    counts: dict[str, int] = {}
    for tag in site.model.iter("tag"):
        if tag.text and tag.get("href", "").startswith(site.search_href.rsplit("search.html", 1)[0] + "tags/"):
            counts[tag.text] = counts.get(tag.text, 0) + 1
    return max(sorted(counts), key=lambda t: counts[t])


def assert_axe_clean_in_both_schemes(browser, url: str, query: str, axe_source) -> None:
    """axe finds nothing on the search page at `url` once its results for `query` are in, light and dark."""
    for scheme in ("light", "dark"):
        browser.color_scheme(scheme)
        browser.open(url)
        wait_settled(browser, query)
        result = run_axe(browser, axe_source)
        assert not result["violations"], format_violations(result["violations"])


def assert_valid_as_drawn(browser, vnu, page: Path) -> None:
    """vnu finds no error in the open page as it is drawn now (written to `page`), less the Speculation Rules that
    vitrine.js adds to every page, whose type the checker does not know (the files test_html.py checks have none)."""
    html = browser.js("""
      const copy = document.documentElement.cloneNode(true);
      copy.querySelectorAll('script[type="speculationrules"]').forEach(s => s.remove());
      return '<!DOCTYPE html>' + copy.outerHTML;""")
    page.write_text(html, encoding="utf-8")
    errors = run_vnu(vnu, [page])
    assert not errors, errors[:10]


def press(browser, *keys):
    ActionChains(browser.driver).send_keys(*keys).perform()


@pytest.mark.parametrize("origin", ORIGINS)
@pytest.mark.parametrize("site_name", ("pixabay", "albums"))
def test_search_finds_what_the_model_says(site_name, origin, browser, pages):
    site = pages.sites[site_name]
    if site_name == "albums":  # titles only: a word of the first photo's title
        query = entries_of(site)[0][1].split()[0]
    else:
        query = common_tag(site)
    want = expected(site, query)
    assert want, f"no entry of {site_name} has {query!r}"
    browser.open(search_url(pages, origin, site, query))
    wait_settled(browser, query)
    got = browser.js(RESULTS)
    assert got == [relative_to_search(site, h) for h in want[:SHOWN]]
    status = browser.js("return document.getElementById('search-status').textContent")
    assert status.startswith(f"{len(want)} image" if len(want) > 1 else "1 image"), status
    assert browser.js("return document.getElementById('search-box').value") == query
    if len(want) > SHOWN:
        more = browser.driver.find_element(By.ID, "search-more")
        browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", more)
        more.click()
        assert len(browser.js(RESULTS)) == min(len(want), 2 * SHOWN)
    assert not browser.console_problems()


@pytest.mark.parametrize("origin", ORIGINS)
def test_folding_finds_accented_text_from_a_plain_query(origin, browser, pages):
    site = pages.sites["flickr"]
    words = set()
    for entry in site.model.iter("entry"):
        credit = entry.find("credit")
        for text in [entry.findtext("caption") or "", credit.get("name", "") if credit is not None else ""]:
            words.update(w for w in text.split() if simple_fold(w) != w.lower() and simple_fold(w).isascii()
                         and simple_fold(w).isalpha())
    assert words, "the Flickr demo has no accented word to search for"
    accented = sorted(words)[0]
    query = simple_fold(accented).upper()  # "KRANFUHRER" for "Kranführer"
    want = expected(site, query)
    assert want
    browser.open(search_url(pages, origin, site, query))
    wait_settled(browser, query)
    assert browser.js(RESULTS) == [relative_to_search(site, h) for h in want[:SHOWN]]


def test_javascript_folds_as_the_fixture_and_so_as_swift(browser, pages):
    site = pages.sites["pixabay"]
    browser.open(search_url(pages, "http", site, None))
    cases = json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"]
    folded = browser.js("return arguments[0].map(s => window.vitrineFold(s))", [c["input"] for c in cases])
    wrong = [(c["input"], got, c["folded"]) for c, got in zip(cases, folded) if got != c["folded"]]
    assert not wrong, wrong


@pytest.mark.parametrize("origin", ORIGINS)
def test_query_in_the_address_and_the_back_button(origin, browser, pages):
    site = pages.sites["pixabay"]
    first, second = common_tag(site), "ship"
    grid = pages.url(origin, site, site.pages[1])
    browser.open(grid)
    assert browser.js(INDEX_LOADS) == 0
    press(browser, "/")
    assert browser.js("return document.activeElement.id") == "search-box"
    press(browser, first, Keys.ENTER)
    browser.wait_for_url(search_url(pages, origin, site, first))
    wait_settled(browser, first)
    assert browser.js(RESULTS) == [relative_to_search(site, h) for h in expected(site, first)[:SHOWN]]

    box = browser.driver.find_element(By.ID, "search-box")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(second)
    wait_settled(browser, second)
    assert browser.driver.current_url == search_url(pages, origin, site, second)
    assert browser.js(RESULTS) == [relative_to_search(site, h) for h in expected(site, second)[:SHOWN]]

    browser.driver.back()
    browser.wait_for_url(search_url(pages, origin, site, first))
    wait_settled(browser, first)
    assert browser.js("return document.getElementById('search-box').value") == first
    assert browser.js(RESULTS) == [relative_to_search(site, h) for h in expected(site, first)[:SHOWN]]
    browser.driver.back()
    browser.wait_for_url(grid)
    assert not browser.console_problems()


@pytest.mark.parametrize("origin", ORIGINS)
def test_keyboard_moves_through_the_results_and_enter_opens_one(origin, browser, pages):
    site = pages.sites["pixabay"]
    query = common_tag(site)
    want = expected(site, query)
    assert len(want) >= 2
    browser.open(search_url(pages, origin, site, query))
    wait_settled(browser, query)
    browser.driver.find_element(By.ID, "search-box").click()
    active = "return document.activeElement.getAttribute('href') || document.activeElement.id"
    press(browser, Keys.ARROW_DOWN)
    assert browser.js(active) == relative_to_search(site, want[0])
    press(browser, Keys.ARROW_RIGHT)
    assert browser.js(active) == relative_to_search(site, want[1])
    press(browser, Keys.ARROW_UP, Keys.ARROW_UP)
    assert browser.js(active) == "search-box"
    press(browser, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ENTER)
    browser.wait_for_url(pages.url(origin, site, want[1]))
    # "/" does not steal the key from a field being typed in.
    browser.open(search_url(pages, origin, site, None))
    box = browser.driver.find_element(By.ID, "search-box")
    box.click()
    press(browser, "a/b")
    assert box.get_attribute("value") == "a/b"


def test_no_page_loads_the_index_until_a_search(browser, pages):
    site = pages.sites["pixabay"]
    for href in (site.pages[1], site.tag_index, next(iter(site.entries)), site.search_href):
        browser.open(pages.url("http", site, href))
        assert browser.js(INDEX_LOADS) == 0, href
    browser.driver.find_element(By.ID, "search-box").send_keys("h")
    wait_settled(browser, "h")
    assert browser.js(INDEX_LOADS) == 2  # one request, one script


@pytest.mark.parametrize("origin", ORIGINS)
def test_without_javascript_no_search_box_and_the_tag_index_is_the_way(origin, browser_nojs, pages):
    site = pages.sites["pixabay"]
    browser_nojs.open(pages.url(origin, site, site.pages[1]))
    assert not browser_nojs.driver.find_element(By.ID, "search-box").is_displayed()
    assert browser_nojs.driver.find_element(By.CSS_SELECTOR, "header a.tag-index").is_displayed()
    browser_nojs.open(search_url(pages, origin, site, "harbour"))
    note = browser_nojs.driver.find_element(By.CSS_SELECTOR, "main p.empty")
    assert "needs JavaScript" in note.text
    link = note.find_element(By.TAG_NAME, "a").get_attribute("href")
    assert link == pages.url(origin, site, site.tag_index)


HOSTILE_QUERIES = [
    "<img src=x onerror=\"window.hacked=1\">",
    "</script><script>window.hacked=1</script>",
    ".*+?^${}()|[]\\ (((",
    "\u202Eevil\u2028\u2029",
    "a" * 5000,
]


@pytest.mark.parametrize("query", HOSTILE_QUERIES, ids=["markup", "script", "regex", "controls", "long"])
def test_a_hostile_query_is_text(query, browser, pages):
    site = pages.sites["pixabay"]
    browser.open(search_url(pages, "http", site, query))
    browser.wait(lambda d: d.execute_script(
        "return document.getElementById('search-results').hasAttribute('data-query')"), 20, "the search")
    assert browser.js("return window.hacked") is None
    assert browser.js("return document.querySelectorAll('main img, #search-status *').length") == 0
    assert len(browser.js("return document.getElementById('search-box').value")) <= 200
    assert not browser.console_problems()


@pytest.mark.parametrize("damage", ["missing", "syntax", "not-an-index"])
def test_a_missing_or_damaged_index_says_search_is_unavailable(damage, browser, pages, workdir):
    site = pages.sites["pixabay"]
    copy = workdir / f"search-{damage}"
    if not copy.exists():
        shutil.copytree(site.root, copy)
        index = copy / "search-index.js"
        if damage == "missing":
            index.unlink()
        elif damage == "syntax":
            index.write_text("vitrineSearchIndex({\"v\":1,\"items\":[[0,", encoding="utf-8")
        else:
            index.write_text("vitrineSearchIndex({\"v\":1,\"paths\":7});", encoding="utf-8")
    url = (copy / site.search_href).as_uri()
    browser.open(url + "?q=harbour")
    browser.wait(lambda d: "unavailable" in d.execute_script(
        "return document.getElementById('search-status').textContent"), 20, "the unavailable notice")
    box = browser.driver.find_element(By.ID, "search-box")
    box.send_keys(" ship")
    assert "unavailable" in browser.js("return document.getElementById('search-status').textContent")
    assert browser.js("return document.querySelectorAll('script[src*=\"search-index\"]').length") == 1
    assert browser.js(RESULTS) == []
    browser.console_problems()  # the failed load or the syntax error is the browser's own report of it


CLS = """
const done = arguments[arguments.length - 1];
let total = 0;
new PerformanceObserver(list => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) total += e.value;
}).observe({type: 'layout-shift', buffered: true});
setTimeout(() => done(total), 1500);
"""


@pytest.mark.parametrize("width", (375, 1440, 3840))
def test_results_layout_axe_and_no_layout_shift(width, browser, pages, axe_source):
    site = pages.sites["pixabay"]
    query = common_tag(site)
    browser.viewport(width, 2160 if width == 3840 else None)
    for origin in ORIGINS:
        browser.open(search_url(pages, origin, site, query))
        wait_settled(browser, query)
        m = browser.js(MEASURE)
        assert m["scrollWidth"] <= m["innerWidth"], m["wide"]
        assert m["columns"] >= (2 if width == 375 else 5)
        assert browser.driver.execute_async_script(CLS) == 0
        for grid in (site.pages[1], next(iter(site.entries))):
            browser.open(pages.url(origin, site, grid))
            assert browser.driver.execute_async_script(CLS) == 0, grid
    assert_axe_clean_in_both_schemes(browser, search_url(pages, "http", site, query), query, axe_source)


def test_the_page_with_results_is_valid_html(browser, pages, vnu, workdir):
    site = pages.sites["pixabay"]
    query = common_tag(site)
    browser.open(search_url(pages, "http", site, query))
    wait_settled(browser, query)
    assert_valid_as_drawn(browser, vnu, workdir / "search-with-results.html")


def test_hostile_text_in_the_index_is_shown_as_text_and_only_site_links_are_followed(browser, pages, workdir):
    site = pages.sites["pixabay"]
    copy = workdir / "search-hostile"
    if not copy.exists():
        shutil.copytree(site.root, copy)
        caption = "<img src=x onerror=\"window.hacked=1\"></script><script>window.hacked=2</script>\u2028\u2029\u202Eevil"
        data = {"v": 1, "paths": [["items/", ".html"], ["javascript:window.hacked=3;//", ""], ["/etc/", ""]],
                "items": [[0, "a", -1, "", 0, 0, caption + " harbour", 0, "x" * 10000],
                          [1, "b", -1, "", 0, 0, "harbour scheme"],
                          [2, "passwd", -1, "", 0, 0, "harbour root"]]}
        text = json.dumps(data, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
        (copy / "search-index.js").write_text(f"vitrineSearchIndex({text});", encoding="utf-8")
    browser.open((copy / site.search_href).as_uri() + "?q=harbour")
    wait_settled(browser, "harbour")
    assert browser.js("return window.hacked") is None
    assert browser.js(RESULTS) == ["items/a.html"]
    shown = browser.js("return document.querySelector('#search-results .caption').textContent")
    assert shown.startswith("<img src=x")
    assert browser.js("return document.querySelectorAll('main script, main img').length") == 0
    assert not browser.console_problems()


# Every tile as the page shows it: the link, the picture's address and alt text, the caption.
TILES = """
return [...document.querySelectorAll('#search-results > li')].map(li => {
  const a = li.querySelector('a.frame'), img = li.querySelector('img'), cap = li.querySelector('.caption');
  return [a.getAttribute('href'), img ? img.getAttribute('src') : null, img ? img.getAttribute('alt') : null,
          cap ? cap.textContent : ''];
});
"""
# Types `arguments[0]` as a key does (the box's value set, its input event) and reports the tiles of the key's frame:
# their links, and for each whether it reaches into the first screen, with whether the list was still filling in.
KEY_FRAME = """
const done = arguments[arguments.length - 1];
const box = document.getElementById('search-box');
box.value = arguments[0];
box.dispatchEvent(new Event('input', {bubbles: true}));
requestAnimationFrame(() => setTimeout(() => {
  const list = document.getElementById('search-results');
  done({links: [...list.querySelectorAll('a.frame')].map(a => a.getAttribute('href')),
        busy: list.hasAttribute('aria-busy')});
}, 0));
"""
# The links of the results' first row (the tiles level with the first one), and of the first screen.
FIRST_ROW = """
const all = [...document.querySelectorAll('#search-results a.frame')];
const top = all.length ? all[0].getBoundingClientRect().top : 0;
return all.filter(a => Math.abs(a.getBoundingClientRect().top - top) < 1).map(a => a.getAttribute('href'));
"""
ON_FIRST_SCREEN = """
return [...document.querySelectorAll('#search-results a.frame')]
  .filter(a => a.getBoundingClientRect().top < window.innerHeight).map(a => a.getAttribute('href'));
"""
# Resolves once the page has been idle: after the idle tasks asked for before it (the page's measure of its grid).
IDLE = "const done = arguments[arguments.length - 1]; requestIdleCallback(() => done(true));"


def expected_tiles(site, query: str) -> list[list]:
    """The tiles search.js is to show for `query`: the first 48 entries that match, each with its link, picture and
    alt text, and caption, from the model."""
    by_href = {en.get("href"): en for en in site.model.iter("entry")}
    tiles = []
    for href in expected(site, query)[:SHOWN] if simple_fold(query) else []:
        en = by_href[href]
        tile = en.find("image[@role='tile']")
        location = tile.get("src") or tile.get("url") if tile is not None else None
        src = location if location is None or location.startswith(("http://", "https://")) \
            else relative_to_search(site, location)
        caption = " ".join((en.findtext("caption") or "").split())
        tiles.append([relative_to_search(site, href), src, caption or "Untitled image", caption])
    return tiles


def type_query(browser, text: str) -> dict:
    return browser.driver.execute_async_script(KEY_FRAME, text)


def words_of(site) -> list[str]:
    """The caption words of the albums set, most frequent first."""
    counts: dict[str, int] = {}
    for _, caption, _ in entries_of(site):
        for word in set(simple_fold(caption).split()):
            counts[word] = counts.get(word, 0) + 1
    return sorted(counts, key=lambda w: (-counts[w], w))


def test_a_key_draws_the_first_row_in_its_frame_and_the_rest_after(browser, pages):
    site = pages.sites["albums"]
    word = words_of(site)[0]
    assert len(expected(site, word[0])) > SHOWN
    browser.viewport(1440, 900)
    browser.open(search_url(pages, "http", site, "zzzzzz"))  # the index loaded, no results
    wait_settled(browser, "zzzzzz")
    browser.driver.execute_async_script(IDLE)  # the page has measured its grid's columns
    browser.js("window.scrollTo(0, 0)")
    # The first key of a query (from an empty list), then one that changes most of the tiles.
    for text in (word[0], word):
        frame = type_query(browser, text)
        wait_settled(browser, text)
        row, screen = browser.js(FIRST_ROW), browser.js(ON_FIRST_SCREEN)
        assert len(row) >= 2 and set(row) <= set(frame["links"]), (text, row, frame["links"])
        tiles = browser.js(TILES)
        assert tiles == expected_tiles(site, text)
        # The first key's frame held the first row and no more: the rest of the first screen and of the 48 came
        # after it, and the list said it was still filling.
        if text == word[0]:
            assert frame["links"] == row and len(row) < len(screen) < len(tiles), (frame, screen)
            assert frame["busy"], frame
        assert frame["links"] == [t[0] for t in tiles if t[0] in frame["links"]]  # in order, even part-drawn
    assert not browser.console_problems()


@pytest.mark.parametrize("origin", ORIGINS)
def test_reused_tiles_stay_right_as_a_query_shrinks_and_grows_again(origin, browser, pages):
    site = pages.sites["albums"]
    words = words_of(site)
    first = words[0]
    second = next(w for w in words[1:] if 0 < len(expected(site, f"{first} {w}")) < len(expected(site, first)))
    query = f"{first} {second}"
    browser.open(search_url(pages, origin, site, None))
    # Narrowing key by key, back to one letter, then the whole query again, and a query of other results.
    steps = [query[:n] for n in range(1, len(query) + 1)]
    steps += [query[:n] for n in range(len(query) - 1, 0, -1)] + [first, query, second, "", first[:2]]
    for text in steps:
        type_query(browser, text)
        wait_settled(browser, text)
        assert browser.js(TILES) == expected_tiles(site, text), text
    # A tile still wanted is the same element, not one made again (its picture stays loaded): marked, then narrowed.
    browser.js("document.querySelectorAll('#search-results > li').forEach(li => { li.vitrineMark = true; })")
    type_query(browser, first[:3])
    wait_settled(browser, first[:3])
    assert browser.js("return [...document.querySelectorAll('#search-results > li')]"
                      ".filter(li => li.vitrineMark).length") > 0
    assert browser.js(TILES) == expected_tiles(site, first[:3])
    assert not browser.console_problems()



# Each result picture's tile: how far below the window's bottom it starts, whether the browser is to ask for its
# picture lazily, whether it has its address; and the most picture requests of the page that were open at once (from
# the resource timings).
PICTURES = """
const pictures = [...document.querySelectorAll('#search-results img')];
const tiles = pictures.map(img => [img.closest('li').getBoundingClientRect().top - window.innerHeight,
                                   img.loading === 'lazy', !!img.getAttribute('src')]);
const sources = new Set(pictures.map(img => img.src));
const spans = performance.getEntriesByType('resource').filter(e => sources.has(e.name))
  .map(e => [e.startTime, e.responseEnd]);
let most = 0;
for (const [start] of spans) most = Math.max(most, spans.filter(([s, end]) => s <= start && start < end).length);
return {tiles: tiles, requests: spans.length, most: most};
"""
FAR_DOWN = 2500  # search.js: a tile this far below the window gets its picture lazily
IN_FLIGHT = 6  # search.js: at most this many pictures asked for at once are in flight


def test_pictures_come_a_few_at_a_time_and_lazily_only_far_down(browser, pages):
    site = pages.sites["albums"]
    word = words_of(site)[0]
    assert len(expected(site, word)) > SHOWN
    browser.viewport(375, 500)
    browser.open(search_url(pages, "http", site, "zzzzzz"))  # the index loaded, no results
    wait_settled(browser, "zzzzzz")
    browser.driver.execute_async_script(IDLE)  # the page has measured its grid's columns
    type_query(browser, word)
    wait_settled(browser, word)
    found = browser.js(PICTURES)
    tiles = found["tiles"]
    assert len(tiles) == SHOWN and all(asked for _, _, asked in tiles)
    # Asked for at once from the page's idle time (a lazy picture's request starts inside a frame, which may be a
    # key's), but for the tiles far down, which wait for the visitor to scroll.
    assert [lazy for _, lazy, _ in tiles] == [below > FAR_DOWN for below, _, _ in tiles], tiles
    assert not tiles[0][1] and tiles[-1][1], tiles
    # No more than a few of them in flight at once.
    assert found["requests"] > IN_FLIGHT and found["most"] <= IN_FLIGHT, found
    assert not browser.console_problems()
