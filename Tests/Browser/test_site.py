"""A site of several galleries (`vitrine build`): the home page leads to every gallery, and every gallery page
leads back home, from disk and from nginx, with plain links."""

import xml.etree.ElementTree as ET

import pytest
from selenium.webdriver.common.by import By

from browserlib import ORIGINS

CARDS = "return [...document.querySelectorAll('main li.tile a.caption')].map(a => a.getAttribute('href'));"


@pytest.mark.parametrize("origin", ORIGINS)
def test_home_page_links_every_gallery_and_each_links_back(origin, browser_nojs, pages):
    browser = browser_nojs
    site = pages.sites["site"]
    model = ET.parse(site.root / "site.xml").getroot()
    galleries = [g.get("href") for g in model.findall("gallery")]
    assert galleries == ["hamburg/index.html", "berlin/index.html", "press/index.html"]

    home = pages.url(origin, site, "index.html")
    browser.open(home)
    assert browser.js(CARDS) == galleries
    titles = [g.findtext("title") for g in model.findall("gallery")]
    assert browser.js("return [...document.querySelectorAll('main li.tile a.caption')].map(a => a.textContent)") == titles
    for href in galleries:
        browser.open(home)
        link = browser.driver.find_element(By.CSS_SELECTOR, f'main a.caption[href="{href}"]')
        browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", link)
        link.click()
        browser.wait_for_url(pages.url(origin, site, href))
        brand = browser.driver.find_element(By.CSS_SELECTOR, "header.site a.brand:not(.sub)")
        assert brand.text == model.findtext("title")
        brand.click()
        browser.wait_for_url(home)
    assert not browser.console_problems()


def test_feed_and_sitemap_are_served_with_the_site(pages):
    import urllib.request

    for name, root in (("feed.xml", "{http://www.w3.org/2005/Atom}feed"),
                       ("sitemap.xml", "{http://www.sitemaps.org/schemas/sitemap/0.9}urlset")):
        with urllib.request.urlopen(pages.url("http", "site", name), timeout=10) as response:
            assert response.status == 200
            assert ET.fromstring(response.read()).tag == root
