"""The checks themselves: on a page made to fail them, each one does fail. A suite whose checks cannot fail
would pass for the wrong reason (a script not injected, a log not read, a validator not run)."""

import pytest

from browserlib import run_vnu, same_picture
from test_axe import run_axe
from test_images import IMAGES
from test_layout import MEASURE

BAD_PAGE = """<!DOCTYPE html>
<html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bad page</title></head>
<body><main>
<p><div style="width: 2000px">Too wide</div></p>
<img src="nowhere.jpg">
<script>console.error("selfcheck: an error on the console");</script>
</main></body></html>
"""


@pytest.fixture(scope="module")
def bad_page(workdir):
    path = workdir / "selfcheck" / "bad.html"
    path.parent.mkdir(exist_ok=True)
    path.write_text(BAD_PAGE, encoding="utf-8")
    return path


def test_browser_checks_fail_on_a_bad_page(bad_page, browser, axe_source):
    browser.viewport(375)
    browser.open(bad_page.as_uri())
    m = browser.js(MEASURE)
    assert m["scrollWidth"] > m["innerWidth"], "the overflow check missed a 2000 px wide element"
    broken = [i for i in browser.js(IMAGES) if not (i["complete"] and i["naturalWidth"] > 0)]
    assert broken, "the image check missed a missing image"
    problems = browser.console_problems()
    assert any("selfcheck: an error on the console" in p for p in problems), problems
    assert any("nowhere.jpg" in p for p in problems), f"the failed image load is not on the console: {problems}"
    ids = {v["id"] for v in run_axe(browser, axe_source)["violations"]}
    assert {"image-alt", "html-has-lang"} <= ids, f"axe-core missed known violations; it found {ids}"


def test_vnu_fails_on_a_bad_page(bad_page, vnu):
    messages = " | ".join(m.get("message", "") for m in run_vnu(vnu, [bad_page]))
    assert "alt" in messages and "p" in messages, f"vnu missed known errors: {messages or 'none'}"


def test_screenshot_comparison(bad_page, browser):
    browser.open(bad_page.as_uri())
    before = browser.driver.get_screenshot_as_png()
    assert same_picture(browser.driver, before, before)
    browser.js("document.querySelector('div').textContent = 'Changed'")
    after = browser.driver.get_screenshot_as_png()
    assert not same_picture(browser.driver, before, after), "a changed text went unnoticed"


def test_rights_checks_fail_on_wrong_data():
    """The ImageObject check of test_rights.py fails on an object that names another picture, another license
    page or no credit."""
    from browserlib import Entry
    from test_rights import check_image_object

    entry = Entry(
        id="e", variant="original", href="items/e.html", missing=None,
        images=[("tile", "images/t.jpg"), ("full", "http://127.0.0.1:9/full.jpg")], caption="A ship",
        credit={"name": "A. Author", "href": "https://example.com/photo/1"},
        license={"label": "All rights reserved", "copies": "forbidden"},
    )
    good = {"@type": "ImageObject", "contentUrl": "http://127.0.0.1:9/full.jpg", "name": "A ship",
            "acquireLicensePage": "https://example.com/photo/1", "creditText": "Photo by A. Author on Flickr",
            "creator": {"@type": "Person", "name": "A. Author"}, "copyrightNotice": "© A. Author. All rights reserved."}
    base = "file:///site/"
    check_image_object(good, entry, base, base + entry.href, "good")
    for key, value in (("contentUrl", "../images/t.jpg"), ("acquireLicensePage", None), ("creditText", None),
                       ("license", "https://creativecommons.org/licenses/by/2.0/"), ("copyrightNotice", None),
                       ("creator", {"name": "Someone else"})):
        bad = {k: v for k, v in {**good, key: value}.items() if v is not None}
        with pytest.raises(AssertionError):
            check_image_object(bad, entry, base, base + entry.href, f"bad {key}")
