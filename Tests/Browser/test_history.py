"""The pages of a site's history (history = true) and of a gallery's archive (keep = "all"), followed as a reader
would: with JavaScript off, through plain links, from the home page and a grid page to the "What's new" pages, from
there to a gallery and an item, and from a grid page to the archive and an archived item. Targets come from the
models (site.xml, hamburg/gallery.xml)."""

import pytest
from selenium.webdriver.common.by import By

from browserlib import ORIGINS
from test_navigation import click


@pytest.mark.parametrize("origin", ORIGINS)
def test_history_and_archive_through_plain_links(origin, browser_nojs, pages):
    browser = browser_nojs
    site = pages.sites["site"]
    url = lambda href: pages.url(origin, site, href)  # noqa: E731

    browser.open(url("index.html"))
    click(browser, "header a.changes")
    browser.wait_for_url(url("changes.html"))
    # Newest first: the second build (8 gone), then the first (everything new).
    sections = [s.get_attribute("id") for s in browser.driver.find_elements(By.CSS_SELECTOR, "main section")]
    assert sections == ["snapshot-2", "snapshot-1"]
    click(browser, '#snapshot-1 h3 a[href$="hamburg/changes.html"]')
    browser.wait_for_url(url(site.changes_href))

    # A tile of what a snapshot added leads to the item's page, archived or not.
    first = site.changes_items[0]
    click(browser, f'#snapshot-1 #{first.id} a.frame')
    browser.wait_for_url(url(first.main.href))

    # Every page of the gallery links its "What's new" page and its archive.
    browser.open(url(site.pages[1]))
    click(browser, "header a.changes")
    browser.wait_for_url(url(site.changes_href))
    browser.open(url(site.pages[1]))
    link = browser.driver.find_element(By.CSS_SELECTOR, "header a.archive")
    assert link.text == "No longer in the results"
    click(browser, "header a.archive")
    browser.wait_for_url(url(site.archive_pages[1]))

    # An archived item: its tile says when it was last seen, and leads to its page, which says so too and keeps
    # its credit.
    archived = site.archive_items[0]
    tile = browser.driver.find_element(By.CSS_SELECTOR, f"#{archived.id}")
    assert "Last seen" in tile.text
    click(browser, f"#{archived.id} a.frame")
    browser.wait_for_url(url(archived.main.href))
    assert browser.driver.find_element(By.CSS_SELECTOR, "main .seen time").get_attribute("datetime")
    assert browser.driver.find_elements(By.CSS_SELECTOR, "main .credit a")
    assert not browser.console_problems()
