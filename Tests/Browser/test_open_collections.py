"""Galleries of the open collections (issue 51), as a person sees them: `vitrine demo --source openverse` and
`--source commons`, built from the sample API's catalogues, which hold hostile results at fixed places.

- Every preview credits its author, links back to the work's page at its source and names its license, linked to
  the license's deed where the API gives one; a public-domain file without a license URL is named, not linked.
- Nothing of the APIs' markup becomes markup: a title holding `<b>` and `<script>` is shown as that text, an
  `Artist` field's HTML as its text with its http(s) link, and no `javascript:` URL is a link.
- A picture whose license Vitrine cannot read is shown from the API's own URL, never a file of the site.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

import browserlib as bl

COLLECTIONS = ("openverse", "commons")

CREDIT = """
const credit = document.querySelector('main .viewer .credit');
const caption = document.querySelector('main .viewer figcaption h1');
return {
  text: credit ? credit.textContent : null,
  links: credit ? [...credit.querySelectorAll('a')].map(a => a.getAttribute('href')) : [],
  license: credit && credit.querySelector('.license') ? credit.querySelector('.license').textContent : null,
  licenseLinks: credit ? [...credit.querySelectorAll('.license a')].map(a => a.getAttribute('href')) : [],
  caption: caption ? caption.textContent : null,
  markup: [...document.querySelectorAll('main b, main script, main ul ul, main [onclick], main [onerror]')].length,
  javascript: [...document.querySelectorAll('[href^="javascript:"], [src^="javascript:"]')].length,
  scripts: [...document.querySelectorAll('script')].map(s => s.getAttribute('src') || s.type || 'inline'),
};
"""


def entries(site: bl.Site) -> list[bl.Entry]:
    return [e for item in site.items for e in item.entries if e.missing is None]


@pytest.mark.parametrize("collection", COLLECTIONS)
@pytest.mark.parametrize("origin", bl.ORIGINS)
def test_every_preview_credits_links_back_and_names_its_license(collection, origin, browser, pages):
    site = pages.sites[collection]
    shown = entries(site)
    assert len(shown) >= 20, f"{collection}: {len(shown)} entries"
    for entry in shown[:24]:
        browser.open(pages.url(origin, site, entry.href))
        page = browser.js(CREDIT)
        assert page["text"], f"{entry.href}: no credit"
        assert entry.credit["name"] in page["text"], (entry.credit, page["text"])
        assert entry.credit["href"] in page["links"], f"{entry.href}: no link back to {entry.credit['href']}"
        assert page["license"] == entry.license["label"], (page["license"], entry.license)
        if entry.license.get("href"):
            assert page["licenseLinks"] == [entry.license["href"]], page["licenseLinks"]
        else:
            assert page["licenseLinks"] == [], f"{entry.href}: a license without a URL is named, not linked"
        assert page["markup"] == 0, f"{entry.href}: markup of the API reached the page"
        assert page["javascript"] == 0, f"{entry.href}: a javascript: URL became a link"
        theme_scripts = ("application/ld+json", "speculationrules")
        assert all(s in theme_scripts or s.endswith("vitrine.js") for s in page["scripts"]), page["scripts"]
        assert not browser.console_problems()


def test_an_openverse_title_with_markup_is_shown_as_its_text(browser, pages):
    site = pages.sites["openverse"]
    entry = next(e for e in entries(site) if "<script>" in e.caption)
    for origin in bl.ORIGINS:
        browser.open(pages.url(origin, site, entry.href))
        page = browser.js(CREDIT)
        assert page["caption"] == "<b>Hafen</b> <script>alert(1)</script>", page["caption"]
        assert page["markup"] == 0 and not browser.console_problems()


def test_an_openverse_work_under_a_license_vitrine_cannot_read_is_shown_from_its_source(browser, pages):
    site = pages.sites["openverse"]
    entry = next(e for e in entries(site) if e.license["copies"] == "unknown")
    assert entry.license["label"] == "License unknown" and "href" not in entry.license
    assert bl.is_absolute(entry.shown_src("full")), "a picture of unknown license has a file of the site"
    browser.open(pages.url("http", site, entry.href))
    browser.wait(lambda d: d.execute_script(
        "const i = document.querySelector('main .stage img'); return i && i.complete && i.naturalWidth > 0"),
        20, "the picture to load from the sample API")
    assert browser.js("return document.querySelector('main .stage img').currentSrc") in site.hotlinks


def test_a_commons_artist_is_text_with_its_link_and_a_public_domain_file_is_named_not_linked(browser, pages):
    site = pages.sites["commons"]
    shown = entries(site)
    hostile = next(e for e in shown if e.credit["name"].startswith("Mallory"))
    assert hostile.credit["name"] == "Mallory & friends" and "author-href" not in hostile.credit
    public = next(e for e in shown if e.license["label"] == "Public domain")
    assert "href" not in public.license and public.license["copies"] == "allowed"
    assert not bl.is_absolute(public.picture), "a public-domain file is a file of the site"
    linked = next(e for e in shown if e.credit.get("author-href", "").startswith("https://commons.wikimedia.org/"))
    for origin in bl.ORIGINS:
        browser.open(pages.url(origin, site, hostile.href))
        page = browser.js(CREDIT)
        assert "Mallory & friends" in page["text"] and page["javascript"] == 0 and page["markup"] == 0
        browser.open(pages.url(origin, site, linked.href))
        assert linked.credit["author-href"] in browser.js(CREDIT)["links"]
        browser.open(pages.url(origin, site, public.href))
        page = browser.js(CREDIT)
        assert page["license"] == "Public domain" and page["licenseLinks"] == []
    assert not browser.console_problems()
