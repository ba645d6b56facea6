"""What bench/year checks and measures of one day's site and cache: local links, the feed, sizes, identical trees."""

import filecmp
import html.parser
import os
import urllib.parse
import xml.etree.ElementTree as ElementTree

ATOM = "{http://www.w3.org/2005/Atom}"
CACHE_ENTRY_FOLDERS = ("responses", "images", "urls", "builds")
LINK_ATTRIBUTES = {"href", "src", "poster", "data-src", "content"}


def cache_entry_bytes(cache):
    """The size of the cache's entries as --cache-max-size counts it: every regular file of its four entry
    folders, temporary (hidden) files of writes under way left out."""
    total = 0
    for kind in CACHE_ENTRY_FOLDERS:
        for folder, _, names in os.walk(os.path.join(cache, kind)):
            for name in names:
                path = os.path.join(folder, name)
                if not name.startswith(".") and os.path.isfile(path) and not os.path.islink(path):
                    total += os.path.getsize(path)
    return total


def tree_bytes(root):
    """The size of every regular file below `root`."""
    total = 0
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            if os.path.isfile(path) and not os.path.islink(path):
                total += os.path.getsize(path)
    return total


def tree_files(root):
    """Every file below `root`, relative to it."""
    files = set()
    for folder, _, names in os.walk(root):
        for name in names:
            files.add(os.path.relpath(os.path.join(folder, name), root))
    return files


def differences(first, second):
    """The files that exist in one tree only, or differ in bytes: empty when the trees are identical."""
    first_files, second_files = tree_files(first), tree_files(second)
    different = sorted(first_files ^ second_files)
    for name in sorted(first_files & second_files):
        if not filecmp.cmp(os.path.join(first, name), os.path.join(second, name), shallow=False):
            different.append(name)
    return different


class _Links(html.parser.HTMLParser):
    """The URLs a page links to or loads: href, src, srcset's candidates, and og:image-like `content` URLs."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name == "srcset":
                self.urls += [candidate.strip().split(" ")[0] for candidate in value.split(",") if candidate.strip()]
            elif name in LINK_ATTRIBUTES and (name != "content" or value.startswith(("./", "../"))):
                self.urls.append(value)


def _is_local(url):
    if not url or url.startswith(("#", "data:", "mailto:", "javascript:")):
        return False
    parts = urllib.parse.urlsplit(url)
    return not parts.scheme and not parts.netloc


def broken_links(root):
    """Every local link of every HTML page below `root` whose target is missing, as (page, link)."""
    broken = []
    for page in sorted(name for name in tree_files(root) if name.endswith(".html")):
        parser = _Links()
        with open(os.path.join(root, page), encoding="utf-8") as file:
            parser.feed(file.read())
        folder = os.path.dirname(os.path.join(root, page))
        for url in parser.urls:
            if not _is_local(url):
                continue
            path = urllib.parse.unquote(urllib.parse.urlsplit(url).path)
            if not path:
                continue
            target = os.path.normpath(os.path.join(folder, path))
            if os.path.isdir(target):
                target = os.path.join(target, "index.html")
            if not target.startswith(os.path.abspath(root)) or not os.path.isfile(target):
                broken.append((page, url))
    return broken


def feed_problems(root):
    """What makes the site's Atom feed and sitemap invalid: not XML, not a feed, an entry without its id, title,
    updated or link; empty when both are whole."""
    problems = []
    try:
        feed = ElementTree.parse(os.path.join(root, "feed.xml")).getroot()
    except (OSError, ElementTree.ParseError) as error:
        return [f"feed.xml: {error}"]
    if feed.tag != ATOM + "feed":
        problems.append(f"feed.xml: the root is {feed.tag}, not an Atom feed")
    for required in ("id", "title", "updated"):
        if feed.find(ATOM + required) is None:
            problems.append(f"feed.xml: no {required}")
    for number, entry in enumerate(feed.findall(ATOM + "entry"), 1):
        for required in ("id", "title", "updated", "link"):
            if entry.find(ATOM + required) is None:
                problems.append(f"feed.xml: entry {number} has no {required}")
    try:
        ElementTree.parse(os.path.join(root, "sitemap.xml"))
    except (OSError, ElementTree.ParseError) as error:
        problems.append(f"sitemap.xml: {error}")
    return problems
