"""The stylesheet: in the page itself on every page but those of one photo, which link it; and a page that has it
inline fetches the file for the pages that link it, once it has loaded."""

import pytest

from browserlib import KINDS, ORIGINS

# A page of one photo (preview.xsl, photo.xsl) says so in its body's class.
ONE_PHOTO = "return /(^| )(preview|photo)-page( |$)/.test(document.body.className)"


@pytest.mark.parametrize("origin", ORIGINS)
@pytest.mark.parametrize("kind", KINDS)
def test_the_stylesheet_is_inline_or_linked_and_applies(kind, origin, browser, pages):
    site, href = pages.resolve(kind)
    browser.open(pages.url(origin, site, href))
    sheets = browser.js(
        "return [...document.styleSheets].filter(s => s.ownerNode.matches('style[data-href], link[rel=stylesheet]'))"
        ".map(s => { let rules = null; try { rules = s.cssRules.length; } catch (e) {}"
        " return {inline: s.ownerNode.localName === 'style', rules,"
        " href: s.ownerNode.getAttribute('data-href') || s.ownerNode.getAttribute('href')}; })"
    )
    assert len(sheets) == 1, sheets
    sheet = sheets[0]
    assert sheet["inline"] != browser.js(ONE_PHOTO), f"{kind}: {sheet}"
    assert sheet["href"].endswith("assets/vitrine.css") and "://" not in sheet["href"]
    # The theme's rules are in force (a linked file's rules cannot be read from a file:// page, its effect can).
    assert browser.js("return getComputedStyle(document.body).marginTop") == "0px"
    assert browser.js("return getComputedStyle(document.querySelector('.skip')).position") == "absolute"
    if origin == "http":
        # The same rules, inline or from the file, as the browser reads them: a page's look does not depend on where
        # it got them, and the inline copy's compaction (comments and whitespace left out) changes no rule.
        file_rules = browser.js(
            "return fetch(new URL(arguments[0], document.baseURI)).then(r => r.text()).then(t => {"
            " const s = new CSSStyleSheet(); s.replaceSync(t); return [...s.cssRules].map(r => r.cssText); })",
            sheet["href"],
        )
        assert len(file_rules) == sheet["rules"] and len(file_rules) > 50
        if sheet["inline"]:
            inline_rules = browser.js(
                "return [...document.querySelector('style[data-href]').sheet.cssRules].map(r => r.cssText)"
            )
            assert inline_rules == file_rules


@pytest.mark.parametrize("kind", ["pixabay-grid", "site-grid", "albums-album"])
def test_a_page_with_inline_styles_fetches_the_stylesheet_for_the_next_page(kind, browser, pages):
    site, href = pages.resolve(kind)
    browser.open(pages.url("http", site, href))
    assert browser.js("return !!document.querySelector('style[data-href]')")
    css = browser.js("return new URL(document.querySelector('style[data-href]').dataset.href, document.baseURI).href")
    browser.wait(
        lambda d: d.execute_script(
            "return performance.getEntriesByName(arguments[0]).some(e => e.responseEnd > 0)", css
        ),
        10,
        "the stylesheet's prefetch",
    )
    # A page of one photo that the visitor goes to next takes the file from the cache.
    photo = browser.js("return document.querySelector('main a.frame, main a[href*=\"items/\"]').href")
    browser.open(photo)
    assert browser.js(ONE_PHOTO)
    entry = browser.js("return performance.getEntriesByName(arguments[0]).map(e => e.transferSize)", css)
    assert entry == [0], f"the photo page fetched {css} again: transfer sizes {entry}"
