"""Licenses, rights data and link previews (issue 23), read as a crawler reads them and as a person sees them.

- Structured data: extruct (a real JSON-LD parser) reads every preview page, album photo page and grid page of
  every site; what it finds is checked against the model (gallery.xml): one schema.org ImageObject for a page that
  shows one entry, its contentUrl the picture the page shows, its license, credit and acquireLicensePage the
  model's; one ImageGallery per grid page with an ImageObject for each entry of the page's items.
- Open Graph: every page of the site built with a base URL has its card (og:title, og:url, og:image when the
  page shows a picture whose license allows copies, twitter:card), all URLs absolute; no page of the demo sites (no
  base URL) has one.
- A hotlinked picture (its license does not allow copies): loaded from the API's own URL, labelled, credited and
  linked back to its page at the source, from nginx and from disk.
"""

from __future__ import annotations

import functools
import json
import urllib.parse
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

import browserlib as bl

DEMOS = ("pixabay", "flickr", "openverse", "commons", "thumbnails", "placeholders", "albums")


# ---------------------------------------------------------------------------------------------- reading pages


@functools.lru_cache(maxsize=None)
def read_page(path: Path, base_url: str) -> dict:
    """The page's JSON-LD and Open Graph as extruct reads them, its <script type="application/ld+json"> texts,
    its twitter: metas and the src of the picture it shows (None for a placeholder or no picture)."""
    import extruct
    import lxml.html

    html = path.read_text(encoding="utf-8")
    data = extruct.extract(html, base_url=base_url, syntaxes=["json-ld", "opengraph"], uniform=False)
    doc = lxml.html.fromstring(html)
    has_class = lambda c: f"contains(concat(' ', normalize-space(@class), ' '), ' {c} ')"  # noqa: E731
    shown = doc.xpath(f"//main//*[{has_class('stage')} or {has_class('photo-stage')}]//img")
    return {
        "json-ld": data["json-ld"],
        "scripts": [s.text or "" for s in doc.xpath("//script[@type='application/ld+json']")],
        "opengraph": [p for og in data["opengraph"] for p in og["properties"]],
        "og-metas": [m.get("property") for m in doc.xpath("//meta[starts-with(@property, 'og:')]")],
        "twitter": [(m.get("name"), m.get("content")) for m in doc.xpath("//meta[starts-with(@name, 'twitter:')]")],
        "shown": shown[0].get("src") if shown else None,
    }


def galleries(site: bl.Site | bl.AlbumSite) -> list[bl.Site | bl.AlbumSite]:
    """A site's galleries: for a site of several (`vitrine build`, site.xml), one Site per gallery model."""
    if isinstance(site, bl.AlbumSite) or not (site.root / "site.xml").exists():
        return [site]
    model = ET.parse(site.root / "site.xml").getroot()
    return [
        bl.Site(site.name, site.root, model=str(Path(g.get("href")).parent / "gallery.xml"))
        for g in model.findall("gallery")
    ]


def base_of(site: bl.Site | bl.AlbumSite) -> str:
    """What the pages' URLs are relative to: the site's base URL when it has one, else its folder (file://)."""
    node = site.model.find("site")
    base = node.get("base-url") if node is not None else None
    return base or site.root.as_uri() + "/"


def absolute(base: str, location: str | None) -> str | None:
    return urllib.parse.urljoin(base, location) if location else None


def objects(found: list[dict], kind: str) -> list[dict]:
    return [o for o in found if o.get("@type") == kind]


def check_image_object(obj: dict, entry: bl.Entry, base: str, page_url: str, where: str) -> None:
    """One ImageObject against the entry of the model it stands for."""
    want = absolute(base, entry.picture)
    got = absolute(page_url, obj.get("contentUrl"))
    assert got == want, f"{where}: contentUrl {obj.get('contentUrl')!r} is not the model's picture {want!r}"
    credit = entry.credit or {}
    assert obj.get("acquireLicensePage") == credit.get("href"), (
        f"{where}: acquireLicensePage {obj.get('acquireLicensePage')!r}, the model's credit link {credit.get('href')!r}")
    assert obj.get("license") == (entry.license or {}).get("href"), (
        f"{where}: license {obj.get('license')!r}, the model's {(entry.license or {}).get('href')!r}")
    if entry.credit:
        assert obj.get("creditText"), f"{where}: no creditText for a credited picture"
        assert entry.credit["name"] in obj["creditText"], f"{where}: creditText {obj['creditText']!r}"
        assert (obj.get("creator") or {}).get("name") == entry.credit["name"], f"{where}: creator {obj.get('creator')}"
    if (entry.license or {}).get("copies") == "forbidden" and entry.credit:
        assert "All rights reserved" in obj.get("copyrightNotice", ""), f"{where}: copyrightNotice {obj}"
    if entry.caption:
        assert obj.get("name") == entry.caption, f"{where}: name {obj.get('name')!r}, caption {entry.caption!r}"


def check_scripts_are_strict_json(page: dict, where: str) -> None:
    """extruct forgives some broken JSON (it falls back to a lenient reader): the scripts must be JSON as written."""
    for text in page["scripts"]:
        try:
            json.loads(text)
        except json.JSONDecodeError as e:
            pytest.fail(f"{where}: the JSON-LD is not strict JSON ({e}): {text[:200]}")


# ---------------------------------------------------------------------------------------------- structured data


@pytest.mark.parametrize("site_name", (*DEMOS, "site"))
def test_each_preview_and_photo_page_has_one_image_object(site_name, sites):
    checked = pictures = 0
    for gallery in galleries(sites[site_name]):
        base = base_of(gallery)
        for href, entry in gallery.entries.items():
            page_url = base + href
            page = read_page(gallery.root / href, page_url)
            where = f"{site_name}/{href}"
            check_scripts_are_strict_json(page, where)
            assert len(page["json-ld"]) == len(page["scripts"]) <= 1, f"{where}: {len(page['scripts'])} JSON-LD scripts"
            found = objects(page["json-ld"], "ImageObject")
            if entry.missing is not None:
                # A page without a match for its variant shows the other variant's tile as a link: no rights data
                # for a picture the page lacks. A picture whose renditions all failed keeps its rights data, without
                # a contentUrl (check_image_object: the model's picture is None).
                assert not found, f"{where}: an ImageObject for an entry without a picture"
                continue
            assert len(found) == 1 and len(page["json-ld"]) == 1, f"{where}: {page['json-ld']}"
            obj = found[0]
            assert obj.get("@context") in ("https://schema.org", "http://schema.org"), f"{where}: {obj.get('@context')}"
            check_image_object(obj, entry, base, page_url, where)
            if page["shown"] is not None:
                pictures += 1
                shown = absolute(page_url, page["shown"])
                assert absolute(page_url, obj.get("contentUrl")) == shown, (
                    f"{where}: contentUrl {obj.get('contentUrl')!r} is not the picture shown, {page['shown']!r}")
            checked += 1
    assert checked > 0 and pictures > 0


def grid_pages(gallery: bl.Site | bl.AlbumSite) -> list[tuple[str, list[bl.Entry]]]:
    """Every grid page (album pages for an albums site) and the entries of the items it holds, in page order."""
    if isinstance(gallery, bl.AlbumSite):
        out = []
        for href, (album, number) in gallery.albums.items():
            hrefs = [en.get("href") for it in album.findall("item") if int(it.get("page")) == number
                     for en in it.findall("entry")]
            out.append((href, [gallery.entries[h] for h in hrefs]))
        out += [(href, []) for href in gallery.lists]  # lists of users and albums: no pictures of their own
        return out
    out = []
    for pages, items in ((gallery.pages, gallery.items), (gallery.archive_pages, gallery.archive_items)):
        for number, href in pages.items():
            out.append((href, [e for i in items if i.page == number for e in i.entries]))
    return out


@pytest.mark.parametrize("site_name", (*DEMOS, "site"))
def test_each_grid_page_has_one_image_gallery(site_name, sites):
    checked = 0
    for gallery in galleries(sites[site_name]):
        base = base_of(gallery)
        for href, entries in grid_pages(gallery):
            page_url = base + href
            page = read_page(gallery.root / href, page_url)
            where = f"{site_name}/{href}"
            check_scripts_are_strict_json(page, where)
            with_picture = [e for e in entries if e.picture is not None]
            found = objects(page["json-ld"], "ImageGallery")
            if not with_picture:
                assert not page["json-ld"], f"{where}: structured data on a page without pictures: {page['json-ld']}"
                continue
            assert len(found) == 1 and len(page["json-ld"]) == 1, f"{where}: {page['json-ld']}"
            media = found[0].get("associatedMedia", [])
            assert len(media) == len(with_picture), (
                f"{where}: {len(media)} ImageObjects in associatedMedia, {len(with_picture)} entries with a picture")
            assert absolute(page_url, found[0].get("url")) == page_url, f"{where}: url {found[0].get('url')}"
            for i, (obj, entry) in enumerate(zip(media, with_picture)):
                assert obj.get("@type") == "ImageObject", f"{where}: associatedMedia[{i}] is {obj.get('@type')}"
                check_image_object(obj, entry, base, page_url, f"{where} associatedMedia[{i}] ({entry.id})")
            checked += 1
    assert checked > 0


# ---------------------------------------------------------------------------------------------- Open Graph


def copyable(entry: bl.Entry) -> bool:
    """Whether the entry's license lets others copy its picture, as a link-preview service copies a card's."""
    return (entry.license or {}).get("copies") == "allowed"


def card_picture(gallery: bl.Site, href: str) -> bool:
    """Whether a page of the model has a picture for its card, one whose license allows copies: an entry's own, a
    sibling's tile (a page without a picture of its own), a tile a grid or tag page shows or the collection's cover
    when it is a file, a gallery's cover that is a file on the home page; the tag index and the search page have
    none."""
    if href in gallery.entries:
        entry = gallery.entries[href]
        if entry.picture:
            return copyable(entry)
        return any(e.shown_src("tile") and copyable(e) for e in entry.item.entries)
    if href in (gallery.tag_index, gallery.search_href):  # lists without pictures of their own
        return False
    if href in gallery.tag_pages:  # the first tile of its items that may be copied, as a grid page's
        return any(loc and copyable(shown) for shown in gallery.tag_pages[href] for r, loc in shown.images
                   if r == "tile")
    for pages, items, collection in (
        (gallery.pages, gallery.items, gallery.model.find("collection")),
        (gallery.archive_pages, gallery.archive_items, gallery.model.find("collection[@id='c-archive']")),
    ):
        for number, page in pages.items():
            if page == href:
                tiles = [loc for i in items if i.page == number and copyable(i.main) for r, loc in i.main.images
                         if r == "tile" and loc]
                cover = collection.find("image[@role='cover']")
                return bool(tiles or (cover is not None and cover.get("src")))
    raise LookupError(href)


def test_every_page_of_a_site_with_a_base_url_has_a_card(sites):
    site = sites["site"]
    base = base_of(site)
    assert base == "https://example.org/snapshots/"
    models = {g.model.find("collection/page").get("href").split("/")[0]: g for g in galleries(site)}
    home = ET.parse(site.root / "site.xml").getroot()
    locations = {bl.image_location(im) for m in (*site.root.rglob("gallery.xml"), site.root / "site.xml")
                 for im in ET.parse(m).getroot().iter("image")} - {None}
    pictures = {absolute(base, loc) for loc in locations}
    files = sorted(site.root.rglob("*.html"))
    missing_cards = []
    for path in files:
        href = path.relative_to(site.root).as_posix()
        page = read_page(path, base + href)
        props: dict[str, list[str]] = {}
        for key, value in page["opengraph"]:
            props.setdefault(key, []).append(value)
        if not props and not page["twitter"]:
            missing_cards.append(href)
            continue
        where = f"site/{href}"
        assert len(props.get("og:title", [])) == 1 and props["og:title"][0].strip(), f"{where}: og:title {props}"
        assert props.get("og:url") == [base + href], f"{where}: og:url {props.get('og:url')}, not {base + href}"
        assert props.get("og:type") == ["website"], f"{where}: og:type {props.get('og:type')}"
        if href == "index.html":
            has_picture = any(g.find("image[@role='cover'][@src]") is not None for g in home.findall("gallery"))
        elif href.split("/")[0] in models and href != models[href.split("/")[0]].changes_href:
            has_picture = card_picture(models[href.split("/")[0]], href)
        else:
            has_picture = None  # a page no card rule names: the picture is not checked
        images = props.get("og:image", [])
        if has_picture is not None:
            assert bool(images) == has_picture, f"{where}: og:image {images}, a picture in the model: {has_picture}"
        for image in images:
            parts = urllib.parse.urlsplit(image)
            assert parts.scheme in ("http", "https") and parts.netloc, f"{where}: og:image {image!r} is not absolute"
            assert image in pictures, f"{where}: og:image {image!r} is none of the models' pictures"
        twitter = dict(page["twitter"])
        assert twitter.get("twitter:card") == ("summary_large_image" if images else "summary"), f"{where}: {twitter}"
    assert not missing_cards, f"pages without a card: {missing_cards}"


def test_whats_new_pages_have_a_card(sites):
    site = sites["site"]
    base = base_of(site)
    for path in sorted(site.root.rglob("changes.html")):
        href = path.relative_to(site.root).as_posix()
        props = dict(read_page(path, base + href)["opengraph"])
        assert props.get("og:url") == base + href, f"site/{href}: no og:url"


@pytest.mark.parametrize("site_name", DEMOS)
def test_demo_pages_without_a_base_url_have_no_card(site_name, sites):
    site = sites[site_name]
    files = sorted(site.root.rglob("*.html"))
    assert files
    for path in files:
        page = read_page(path, path.as_uri())
        assert not page["og-metas"] and not page["opengraph"], f"{path}: Open Graph without a base URL"
        assert not page["twitter"], f"{path}: twitter: metas without a base URL"


# ---------------------------------------------------------------------------------------------- a hotlinked picture

PICTURE = """
const img = document.querySelector('main .stage img');
return img && {src: img.src, current: img.currentSrc, complete: img.complete, naturalWidth: img.naturalWidth};
"""


@pytest.mark.parametrize("origin", bl.ORIGINS)
def test_an_all_rights_reserved_picture_is_shown_from_its_source(origin, browser, pages):
    """The flickr demo is a search with a key: it mixes Creative Commons photos (files of the site) and All rights
    reserved ones, which are never downloaded and load from the API's own URL."""
    site = pages.sites["flickr"]
    entry = bl.hotlinked_preview(site, "forbidden")
    # Flickr's current table links All Rights Reserved to a help page: a link to read, never a license to copy.
    assert entry.license["label"] == "All rights reserved" and entry.license["copies"] == "forbidden"
    assert "creativecommons.org" not in entry.license.get("href", "")
    model = site.model.find(f".//entry[@id='{entry.id}']")
    assert all(im.get("src") is None and im.get("type") is None for im in model.findall("image")), \
        "a picture whose license forbids copies has a file of the site"
    want = entry.shown_src("full")
    assert bl.is_absolute(want) and want in site.hotlinks

    browser.open(pages.url(origin, site, entry.href))
    browser.wait(lambda d: (d.execute_script(PICTURE) or {}).get("complete"), 20, "the picture to load")
    shown = browser.js(PICTURE)
    assert shown["src"] == want, f"the page loads {shown['src']}, the model names {want}"
    assert shown["naturalWidth"] > 0, f"the picture did not load from {want}"
    assert shown["current"] in site.hotlinks, shown
    credit = browser.driver.find_element(By.CSS_SELECTOR, "main .viewer .credit")
    assert "All rights reserved" in credit.text, credit.text
    assert credit.find_element(By.CSS_SELECTOR, ".license").text == "All rights reserved"
    assert entry.credit["name"] in credit.text, credit.text
    links = [a.get_attribute("href") for a in credit.find_elements(By.CSS_SELECTOR, "a")]
    assert entry.credit["href"] in links, f"no link back to the photo's page {entry.credit['href']}: {links}"

    # Its tile on the grid page: the same label, the tile loaded from the API's own URL too.
    browser.open(pages.url(origin, site, site.grid_href(entry.item)))
    tile = browser.driver.find_element(By.CSS_SELECTOR, f"#{entry.item.id}")
    browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", tile)
    img = tile.find_element(By.CSS_SELECTOR, "img")
    browser.wait(lambda d: d.execute_script("return arguments[0].complete", img), 20, "the tile to load")
    assert img.get_attribute("src") == entry.shown_src("tile")
    assert browser.js("return arguments[0].naturalWidth", img) > 0
    assert tile.find_element(By.CSS_SELECTOR, ".license").text == "All rights reserved"
    assert not browser.console_problems()


def test_a_creative_commons_picture_is_a_file_of_the_site(pages):
    """The other side of the flickr demo: its CC photos are downloaded, and labelled with their license."""
    site = pages.sites["flickr"]
    entry = next(
        i.main for i in site.items
        if i.main.has_image and (i.main.license or {}).get("copies") == "allowed" and i.main.picture)
    assert not bl.is_absolute(entry.picture) and (site.root / entry.picture).is_file()
    assert entry.license.get("href", "").startswith(("https://creativecommons.org/", "http://creativecommons.org/"))


LABEL_LINES = """
return [...document.querySelectorAll('.ai')].map(el => {
  const tops = new Set([...el.getClientRects()].map(r => Math.round(r.top)));
  return {text: el.textContent, lines: tops.size};
});
"""


@pytest.mark.parametrize("width", (320, 375))
def test_the_ai_generated_label_never_breaks_at_its_hyphen(width, browser, pages):
    """On a phone the credit line wraps, but never inside "AI-generated": on the grid page and the preview of a
    picture the API marks as made by an AI."""
    site = pages.sites["pixabay"]
    entry = next(i.main for i in site.items if i.main.ai_generated)
    browser.viewport(width)
    try:
        for href in (site.grid_href(entry.item), entry.href):
            browser.open(pages.url("http", site, href))
            labels = browser.js(LABEL_LINES)
            assert labels and all(label["text"] == "AI-generated" for label in labels), labels
            assert all(label["lines"] == 1 for label in labels), f"{href} at {width} px: {labels}"
    finally:
        browser.viewport(1440)
