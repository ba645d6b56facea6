"""bench/visitor's sites: vitrine built (the release binary, a cold demo), sigal's photoswipe gallery of the demo's
pictures, the self-check's prerendering copy of the demo, and the nginx that serves them gzipped and as they are."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from visitor_conditions import REPO, WORK
from browserlib import Nginx, free_port, run  # Tests/Browser: on the path through visitor_conditions


def build_binary() -> None:
    print("== swift build -c release --static-swift-stdlib --product vitrine", flush=True)
    run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "vitrine"], timeout=3600, cwd=REPO)


def build_vitrine(binary: Path, formats: str = "", templates: str = "") -> Path:
    """`vitrine demo` into WORK/vitrine, from a cache of its own (both emptied first: a cold build each run), with
    `--formats FORMATS` and `--templates DIR` when given."""
    out, cache = WORK / "vitrine", WORK / "cache"
    env = {k: v for k, v in os.environ.items() if k not in ("PIXABAY_API_KEY", "FLICKR_API_KEY")}
    last: Exception | None = None
    for _ in range(3):  # a port picked by binding to 0 can be taken before the sample API binds it
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)
        try:
            run([str(binary), "demo", "--out", str(out), "--cache", str(cache), "--port", str(free_port()), "--quiet"]
                + (["--formats", formats] if formats else []) + (["--templates", templates] if templates else []),
                timeout=600, env=env)
            return out
        except RuntimeError as error:
            last = error
    raise RuntimeError(f"vitrine demo failed three times: {last}")


def demo_pictures(site: Path) -> list[Path]:
    """The full-size image (role="full", the widest if there are several) of each item's first entry, in grid order
    (docs/model.md)."""
    collection = ET.parse(site / "gallery.xml").getroot().find("collection")
    pictures = []
    for item in sorted(collection.findall("item"), key=lambda i: int(i.get("position"))):
        files = [i for i in item.find("entry").findall("image[@role='full']") if i.get("src")]
        if not files:
            raise RuntimeError(f"item {item.get('id')}: its first entry has no full-size image file")
        pictures.append(site / max(files, key=lambda i: int(i.get("width") or 0)).get("src"))
    return pictures


def build_sigal(pictures: list[Path]) -> Path:
    """sigal's photoswipe gallery of the pictures: one album folder (sigal/album/index.html is the grid), sigal's
    defaults but the theme. Not the source folder itself: at the top, photoswipe's page imports its modules as
    'static/…', a bare specifier that no browser resolves, and the lightbox never starts."""
    source, out, conf = WORK / "sigal-source", WORK / "sigal", WORK / "sigal.conf.py"
    album = source / "album"
    for path in (source, out):
        shutil.rmtree(path, ignore_errors=True)
    album.mkdir(parents=True)
    for position, picture in enumerate(pictures, 1):
        shutil.copyfile(picture, album / f"{position:02d}{picture.suffix}")
    conf.write_text(f"source = {str(source)!r}\ndestination = {str(out)!r}\ntheme = 'photoswipe'\n", encoding="utf-8")
    run([str(Path(sys.executable).parent / "sigal"), "build", "-c", str(conf)], timeout=300, cwd=WORK)
    return out


def prerender_site(site: Path) -> str:
    """A copy of the demo whose grid has Chromium prerender the first tile's page at once (Speculation Rules): the
    self-check's proof that a prerendered page's requests are slowed down too. Returns its grid page. The copy's grid
    runs no vitrine.js: the script would show the click's photo in a dialog of the grid page (since 247bb51), and
    the prerendered page would never be activated."""
    copy = WORK / "prerender"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(site, copy)
    first = ET.parse(site / "gallery.xml").getroot().find("collection/item/entry").get("href")
    rules = json.dumps({"prerender": [{"urls": [first], "eagerness": "immediate"}]})
    index = copy / "index.html"
    html = index.read_text(encoding="utf-8")
    script = re.search(r'<script src="assets/vitrine\.js"[^>]*></script>', html)
    if not script:
        raise RuntimeError("the demo's grid page has no vitrine.js to leave out of the prerendering control")
    html = html.replace(script.group(0), "", 1)
    index.write_text(html.replace("</head>", f'<script type="speculationrules">{rules}</script></head>', 1),
                     encoding="utf-8")
    return "prerender/index.html"


class TwoNginx(Nginx):
    """The browser suite's nginx with two servers of the same files (--compression): on `port` gzip for HTML, CSS,
    JavaScript, JSON and SVG as a static host serves them ("on"), on `plain_port` every file as it is ("off"). One
    process: nginx binds both ports before it serves the probe, or exits, and start() tries other ports."""

    plain_port = 0

    def _conf(self) -> str:
        self.plain_port = next(p for p in iter(free_port, None) if p != self.port)  # picked again on each try
        conf = super()._conf()
        if "\n    server {" not in conf or not conf.rstrip().endswith("}"):
            raise RuntimeError("the browser suite's nginx.conf has no longer one http block with a server in it")
        gzipped = conf.replace("\n    server {", "\n    gzip on;\n    gzip_types text/css application/javascript "
                               "text/javascript application/json image/svg+xml;\n    server {", 1)
        plain = (f"    server {{\n        listen 127.0.0.1:{self.plain_port};\n        root {self.root};\n"
                 "        gzip off;\n    }\n")
        return gzipped.rstrip().removesuffix("}") + plain + "}\n"

    def url_for(self, compression: str) -> str:
        """The address of the server for --compression's "on" or "off"."""
        return f"http://127.0.0.1:{self.port_for(compression)}/"

    def port_for(self, compression: str) -> int:
        return {"on": self.port, "off": self.plain_port}[compression]
