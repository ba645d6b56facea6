"""bench/visitor's measuring part (issue 26): what a visitor gets from the Vitrine demo and from sigal's photoswipe
gallery of the same 20 pictures, in headless Chromium under Lighthouse's slow-4G profile with the CPU throttled 4x.

Run through bench/visitor, which installs Chromium, chromedriver and nginx from Debian and this script's Python
packages (sigal, selenium) into .build/visitor/venv. Every wait has a timeout; every process started is stopped, also
on Ctrl-C or an error.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import datetime
import importlib.metadata
import json
import os
import re
import shutil
import signal
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "Browser"))
import grid_variants  # noqa: E402  (bench/lib, beside this file)
from browserlib import (  # noqa: E402  (the browser suite's patterns: nginx of our own, Chromium's flags)
    CHROME_ARGS,
    CHROMEDRIVER,
    CHROMIUM,
    Nginx,
    free_port,
    quit_driver,
    run,
)

WORK = REPO / ".build" / "visitor"

# Lighthouse's slow-4G profile (DevTools throttling) and its mobile CPU slowdown.
LATENCY_MS = 150
DOWNLOAD_BYTES_PER_S = 1_600_000 / 8
UPLOAD_BYTES_PER_S = 750_000 / 8
CPU_SLOWDOWN = 4
# width -> (height, device pixel ratio, mobile)
VIEWPORTS = {1440: (900, 1, False), 375: (812, 3, True)}

THROTTLES = {
    "relay": "a TCP relay that every connection goes through, half the latency each way, the rates shared in turn",
    "devtools": "Network.emulateNetworkConditions on every page",
}

BUSY_CORES = 0.3  # other processes' average above which a run is marked busy (helpers that exit early count too)
OTHER_WORK_NOTE = " (**busy**: the figures are not comparable with a quiet run's)"

PRERENDER_WIDTH = 375  # the self-check's prerender control: at DPR 3, so that a missed emulation shows

SETTLE_QUIET_S = 1.0  # the grid page has settled when no request has been in flight for this long
POLL_S = 0.005  # the click-to-photo poll: at most every 10 ms (a Runtime.evaluate takes a few ms itself)
PAGE_TIMEOUT_S = 60
CLICK_TIMEOUT_S = 30


@dataclasses.dataclass(frozen=True)
class Tool:
    """One gallery under test: where its grid is, which images are its grid pictures, which image is its large photo."""

    key: str
    label: str
    grid: str  # the grid page, relative to the served root
    tiles: str  # CSS selector of the grid pictures (img elements), in grid order
    photo: str  # JS function body: the large photo's img once its page or lightbox is there, else null
    photo_method: str  # which image that is, for the report


TOOLS = {
    "vitrine": Tool(
        key="vitrine",
        label="Vitrine",
        grid="vitrine/index.html",
        tiles="main .grid img",
        photo="if (location.href !== target) return null;"
        " return document.querySelector('dialog.photo-view[open] .stage img')"
        " || document.querySelector('main .viewer img') || document.querySelector('main img');",
        photo_method="the preview's main image: in the dialog the grid page opens at the preview page's address "
        "(over http), else on the preview page itself",
    ),
    "sigal": Tool(
        key="sigal",
        label="sigal photoswipe",
        grid="sigal/album/index.html",
        tiles=".gallery .thumbnail img",
        photo="const root = document.querySelector('.pswp.pswp--open'); if (!root) return null;"
        " return [...root.querySelectorAll('img.pswp__img:not(.pswp__img--placeholder)')]"
        ".find(img => img.src === target) || null;",
        photo_method="the open lightbox's full image of the tile (img.pswp__img, not the thumbnail placeholder; "
        "photoswipe puts it in the page once decoded)",
    ),
}

# Whether the photo shows: loaded (complete, naturalWidth > 0) and in the viewport.
PHOTO_SHOWN = """(target => {{
  const img = (() => {{ {photo} }})();
  if (!img) return false;
  const r = img.getBoundingClientRect();
  return img.complete && img.naturalWidth > 0 && r.width > 0 && r.height > 0
    && r.left < innerWidth && r.right > 0 && r.top < innerHeight && r.bottom > 0;
}})({target})"""

# When the photo was painted, in the browser's clock (ms since the epoch): its Element Timing entry (every image gets
# an elementtiming attribute from MARK_IMAGES), else its LCP entry, not before the page's activation (prerendering).
PHOTO_PAINTED = """(target => new Promise(resolve => {{
  const img = (() => {{ {photo} }})();
  if (!img) return resolve(null);
  const nav = performance.getEntriesByType('navigation')[0];
  const activation = nav && nav.activationStart ? nav.activationStart : 0;
  const found = {{}};
  const take = (type, entries) => {{
    for (const e of entries) {{
      if ((e.element === img || e.url === img.currentSrc) && (e.renderTime || e.loadTime)) {{
        found[type] = performance.timeOrigin + Math.max(e.renderTime || e.loadTime, activation);
      }}
    }}
  }};
  const observers = ['element', 'largest-contentful-paint'].map(type => {{
    const observer = new PerformanceObserver(list => {{
      take(type, list.getEntries());
      if (found.element) finish();
    }});
    observer.observe({{type, buffered: true}});
    return observer;
  }});
  const finish = () => {{
    observers.forEach(o => o.disconnect());
    clearTimeout(timer);
    resolve(found.element ? {{at: found.element, by: 'element timing'}}
      : found['largest-contentful-paint'] ? {{at: found['largest-contentful-paint'], by: 'LCP entry'}} : null);
  }};
  const timer = setTimeout(finish, 3000);
}}).then(painted => {{
  const img = (() => {{ {photo} }})();
  const fetched = img && performance.getEntriesByName(img.currentSrc, 'resource')[0];
  const nav = performance.getEntriesByType('navigation')[0];
  const started = performance.now();
  let sum = 0;
  for (let i = 0; i < 1e7; i++) sum += i;  // a fixed piece of work: how fast this page's CPU is
  const view = {{width: innerWidth, dpr: devicePixelRatio, activationStart: nav ? nav.activationStart || 0 : 0,
                 cpuProbeMs: performance.now() - started + (sum < 0 ? 1 : 0)}};
  return {{painted, view, fetch: fetched ? {{ms: fetched.responseEnd - fetched.startTime,
                                      bodyMs: fetched.responseEnd - fetched.responseStart,
                                      bytes: fetched.encodedBodySize, transferSize: fetched.transferSize}} : null}};
}}))({target})"""

# Marks each image for Element Timing as it enters the page (a mutation observer's callback runs before the next
# paint), so that the click's photo has a paint time of its own. Given to the grid's document and to every document
# after it only once the grid has settled (Load.mark_images): its callback runs for every node the parser adds, and
# on Vitrine's grid that was 60-90 ms of the throttled main thread before its LCP (seen with --trace on 2026-11-27),
# the harness's cost, not the page's, and more on the page with more elements.
MARK_IMAGES = """
new MutationObserver(records => {
  const mark = img => { if (!img.hasAttribute('elementtiming')) img.setAttribute('elementtiming', 'bench'); };
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.nodeType !== 1) continue;
      if (node.tagName === 'IMG') mark(node);
      else if (node.firstElementChild) for (const img of node.getElementsByTagName('img')) mark(img);
    }
  }
}).observe(document, {childList: true, subtree: true});
"""


# In the grid page, once it has settled: LCP, layout shifts, the grid pictures, the resources.
GRID_FIGURES = """
const [selector, done] = arguments;
const entries = type => new Promise(resolve => {
  let timer;
  try {
    const observer = new PerformanceObserver(list => {
      clearTimeout(timer); observer.disconnect(); resolve(list.getEntries());
    });
    observer.observe({type, buffered: true});
    timer = setTimeout(() => { observer.disconnect(); resolve([]); }, 1000);
  } catch (e) { resolve([]); }
});
Promise.all([entries('largest-contentful-paint'), entries('layout-shift')]).then(([lcps, shifts]) => {
  const last = lcps[lcps.length - 1];
  const element = last && last.element;
  let sum = 0, windowMax = 0, windowSum = 0, first = 0, previous = 0;
  for (const s of shifts.filter(s => !s.hadRecentInput)) {
    sum += s.value;
    if (windowSum > 0 && s.startTime - previous < 1000 && s.startTime - first < 5000) {
      windowSum += s.value;
    } else {
      windowSum = s.value; first = s.startTime;
    }
    previous = s.startTime;
    windowMax = Math.max(windowMax, windowSum);
  }
  const tiles = [...document.querySelectorAll(selector)].map(img => {
    const r = img.getBoundingClientRect();
    const s = getComputedStyle(img);
    const edges = ['border-left-width', 'border-right-width', 'padding-left', 'padding-right']
      .reduce((sum, p) => sum + parseFloat(s.getPropertyValue(p) || '0'), 0);
    return {currentSrc: img.currentSrc, complete: img.complete, naturalWidth: img.naturalWidth,
            cssWidth: r.width - edges, cssHeight: r.height, top: r.top, loading: img.loading};
  });
  const resources = performance.getEntriesByType('resource').map(e => ({
    name: e.name, initiatorType: e.initiatorType, encodedBodySize: e.encodedBodySize,
    transferSize: e.transferSize, startTime: e.startTime, responseStart: e.responseStart,
    responseEnd: e.responseEnd, renderBlockingStatus: e.renderBlockingStatus}));
  const nav = performance.getEntriesByType('navigation')[0];
  done({
    lcp: last ? (last.renderTime || last.loadTime || last.startTime) : null,
    lcpElement: element ? (element.tagName.toLowerCase() + (last.url ? ' ' + last.url : '')) : (last ? last.url : null),
    lcpEntries: lcps.length,
    clsSum: sum, clsWindow: windowMax, shifts: shifts.length,
    tiles, resources, dpr: devicePixelRatio, innerWidth, innerHeight,
    navigation: nav ? {requestStart: nav.requestStart, responseStart: nav.responseStart,
                       responseEnd: nav.responseEnd, transferSize: nav.transferSize} : null,
  });
});
"""

FIRST_TILE = """
const img = document.querySelector(arguments[0]);
if (!img) return null;
let r = img.getBoundingClientRect();
if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) {
  img.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
  r = img.getBoundingClientRect();
}
const link = img.closest('a');
return {x: r.left + r.width / 2, y: r.top + r.height / 2, target: link ? link.href : null};
"""


# ---------------------------------------------------------------------------------------------- building


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


class GzipNginx(Nginx):
    """The browser suite's nginx, with gzip for HTML, CSS and JavaScript as a static host serves them."""

    def _conf(self) -> str:
        return super()._conf().replace(
            "default_type application/octet-stream;",
            "default_type application/octet-stream;\n    gzip on;\n"
            "    gzip_types text/css application/javascript text/javascript application/json image/svg+xml;",
        )


class Link:
    """One direction of the emulated link: a shared bandwidth, served to the connections in turn (chunk by chunk, as
    DevTools shares its throughput among the requests in flight), then a one-way delay."""

    CHUNK = 4096  # 20 ms at 1.6 Mbit/s: the grain of the sharing
    CATCH_UP_S = 0.02  # a chunk this late still leaves at the link's clock; later than that the link was idle

    def __init__(self, bytes_per_s: float, delay_s: float):
        self.rate = bytes_per_s
        self.delay = delay_s
        self.flows: list["Flow"] = []
        self.ready = asyncio.Event()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        clock = loop.time()
        turn = 0
        while True:
            waiting = [f for f in self.flows if f.pending]
            if not waiting:
                self.ready.clear()
                await self.ready.wait()
                clock = loop.time()
                continue
            flow = waiting[turn % len(waiting)]
            turn += 1
            data = flow.pending.popleft()
            if data:  # serialization at the link's rate, on a clock of its own: a late wake-up is made up for
                now = loop.time()
                clock = (clock if now - clock < self.CATCH_UP_S else now) + len(data) / self.rate
                await asyncio.sleep(max(0.0, clock - loop.time()))
            flow.out.put_nowait((loop.time() + self.delay, data))


class Flow:
    """One direction of one TCP connection through a Link: read, queued for the link, written after its delay."""

    def __init__(self, link: Link, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.link, self.reader, self.writer = link, reader, writer
        self.pending: collections.deque[bytes] = collections.deque()
        self.out: asyncio.Queue = asyncio.Queue()

    async def run(self) -> None:
        self.link.flows.append(self)
        try:
            await asyncio.gather(self._read(), self._write())
        finally:
            self.link.flows.remove(self)

    async def _read(self) -> None:
        while True:
            try:
                data = await self.reader.read(Link.CHUNK)
            except (ConnectionError, OSError):
                data = b""
            self.pending.append(data)
            self.link.ready.set()
            if not data:
                return

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            release, data = await self.out.get()
            await asyncio.sleep(max(0.0, release - loop.time()))
            try:
                if not data:
                    if self.writer.can_write_eof():
                        self.writer.write_eof()
                    return
                self.writer.write(data)
                await self.writer.drain()
            except (ConnectionError, OSError):
                return


class SlowLink:
    """A TCP relay on loopback in front of the server that makes every connection the browser opens a slow-4G one:
    the round trip's latency (half each way) and the down- and upload rates, shared by all connections.

    DevTools' own emulation (Network.emulateNetworkConditions) applies to the pages it is set on: chromedriver's
    page alone let a page that Speculation Rules prerender load at full speed (a 131 KB photo in 15-28 ms, measured).
    EveryPage now sets it on every page, but a request no page makes (a prefetch the browser makes, a service worker)
    would still escape it; every request goes through the relay, whoever makes it."""

    def __init__(self, upstream_port: int):
        self.upstream = upstream_port
        self.port = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.down = Link(DOWNLOAD_BYTES_PER_S, LATENCY_MS / 2000)
        self.up = Link(UPLOAD_BYTES_PER_S, LATENCY_MS / 2000)

    def start(self, timeout: float = 10) -> None:
        started = threading.Event()

        async def serve() -> None:
            server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            # Held here: the event loop keeps weak references to its tasks only.
            self.links = [asyncio.ensure_future(self.down.run()), asyncio.ensure_future(self.up.run())]
            started.set()
            async with server:
                try:
                    await asyncio.Event().wait()  # until stop() cancels this task
                finally:  # the links, and the connections a browser left open
                    others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
                    for task in others:
                        task.cancel()
                    await asyncio.gather(*others, return_exceptions=True)

        self.loop = asyncio.new_event_loop()
        self.task = self.loop.create_task(serve())
        self.thread = threading.Thread(target=self._run, name="slow-link", daemon=True)
        self.thread.start()
        if not started.wait(timeout):
            raise RuntimeError(f"the slow-link relay did not start within {timeout} s")

    def _run(self) -> None:
        try:
            with contextlib.suppress(asyncio.CancelledError):
                self.loop.run_until_complete(self.task)
        finally:
            self.loop.close()

    async def _connection(self, client_reader, client_writer) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        except OSError:
            client_writer.close()
            return
        try:
            await asyncio.gather(Flow(self.up, client_reader, server_writer).run(),
                                 Flow(self.down, server_reader, client_writer).run())
        finally:
            for writer in (client_writer, server_writer):
                writer.close()

    def stop(self) -> None:
        if self.loop and self.thread and self.thread.is_alive():
            self.loop.call_soon_threadsafe(self.task.cancel)
            self.thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"


# ---------------------------------------------------------------------------------------------- Chromium


class EveryPage:
    """Gives every page Chromium opens the load's emulation, through a DevTools connection of its own to the browser
    (auto-attach, each new page held until the commands are in): above all a page that Speculation Rules prerender.
    That is a target of its own, which the emulation set on chromedriver's page does not reach: measured, a preview
    page prerendered at 375 px had a DPR of 1 instead of 3 (so it chose a smaller image), a CPU at full speed, and
    no image marking for Element Timing."""

    def __init__(self, driver, commands: list[tuple[str, dict]]):
        import websocket  # selenium's dependency

        self.commands = commands
        self.pages: list[dict] = []  # the targets given the emulation: type, subtype, url
        self.next_id = 0
        self.lock = threading.Lock()
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=10) as answer:
            url = json.load(answer)["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(url, timeout=None, suppress_origin=True)
        self.reader = threading.Thread(target=self._read, name="every-page", daemon=True)
        self.reader.start()
        # Through the tabs: a page session's auto-attach from the browser's own makes Chromium refuse to prerender
        # ("PrerenderingDisabledByDevTools"); a tab's, which prerendered pages are children of, does not.
        self._send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": True,
                                            "filter": [{"type": "tab"}]})

    def _send(self, method: str, params: dict, session: str | None = None) -> None:
        with self.lock:
            self.next_id += 1
            message = {"id": self.next_id, "method": method, "params": params}
            if session:
                message["sessionId"] = session
            self.socket.send(json.dumps(message))

    def _read(self) -> None:
        while True:
            try:
                message = json.loads(self.socket.recv())
            except Exception:  # closed: the load is over
                return
            if message.get("method") != "Target.attachedToTarget":
                continue
            session, target = message["params"]["sessionId"], message["params"]["targetInfo"]
            with contextlib.suppress(Exception):
                if target["type"] == "tab":  # its pages, each held until it has the emulation
                    self._send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True,
                                                        "flatten": True, "filter": [{"type": "page"}]}, session)
                elif target["type"] == "page":
                    self._send("Page.enable", {}, session)  # else a held page runs no script added on new documents
                    for method, params in list(self.commands):
                        self._send(method, params, session)
                    self.pages.append({k: target.get(k) for k in ("type", "subtype", "url")})
                self._send("Runtime.runIfWaitingForDebugger", {}, session)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.socket.close()
        self.reader.join(5)


class Load:
    """One cold load in a fresh Chromium (a profile of its own, deleted after): the grid, then the click."""

    def __init__(self, log_dir: Path, trace: bool = False):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile = Path(tempfile.mkdtemp(prefix="profile-", dir=log_dir))
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for arg in CHROME_ARGS:
            options.add_argument(arg)
        options.add_argument(f"--user-data-dir={self.profile}")
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        prefs = {"enableNetwork": True, "enablePage": False}
        if trace:  # chromedriver then traces from the start and hands the events over with each read of the log
            prefs["traceCategories"] = TRACE_CATEGORIES
        options.add_experimental_option("perfLoggingPrefs", prefs)
        # chromedriver would otherwise hold every command, a click's or a poll's, until a navigation has loaded;
        # open() waits for the grid instead.
        options.page_load_strategy = "none"
        service = Service(CHROMEDRIVER, log_output=str(log_dir / "chromedriver.log"))
        self.driver = webdriver.Chrome(options=options, service=service)
        self.driver.set_page_load_timeout(PAGE_TIMEOUT_S)
        self.driver.set_script_timeout(PAGE_TIMEOUT_S)
        self.requests: dict[str, dict] = {}  # CDP requestId -> what the performance log said of it
        self.last_event = time.monotonic()
        self.every_page: EveryPage | None = None
        self.trace_events: list[dict] = []

    def close(self) -> None:
        OTHER_WORK.take()
        try:
            if self.every_page:
                self.every_page.close()
            quit_driver(self.driver)
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def cdp(self, method: str, params: dict | None = None) -> dict:
        return self.driver.execute_cdp_cmd(method, params or {})

    def emulate(self, width: int, throttle: str) -> None:
        """The viewport; the slow CPU unless throttle is "none" (the self-check's control), and with "devtools" the
        slow-4G network of DevTools (else the URL goes through SlowLink)."""
        height, dpr, mobile = VIEWPORTS[width]
        commands = [("Network.enable", {})]
        if throttle == "devtools":
            commands.append(("Network.emulateNetworkConditions", {
                "offline": False, "latency": LATENCY_MS, "downloadThroughput": DOWNLOAD_BYTES_PER_S,
                "uploadThroughput": UPLOAD_BYTES_PER_S, "connectionType": "cellular4g"}))
        if throttle != "none":
            commands.append(("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN}))
        commands.append(("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": dpr, "mobile": mobile}))
        for method, params in commands:  # chromedriver's page
            self.cdp(method, params)
        self.every_page = EveryPage(self.driver, commands)  # every other page, prerendered ones first of all

    def mark_images(self) -> None:
        """From now on, every image that enters the grid's document or any later one (the click's page, prerendered
        or not) is marked for Element Timing (MARK_IMAGES); a page already prerendered keeps its LCP entry."""
        command = ("Page.addScriptToEvaluateOnNewDocument", {"source": MARK_IMAGES})
        self.cdp(*command)
        self.every_page.commands.append(command)
        self.cdp("Runtime.evaluate", {"expression": MARK_IMAGES})

    def read_network(self) -> None:
        """Takes in the performance log's network events: which requests are in flight, their type and size."""
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            method, params = message.get("method", ""), message.get("params", {})
            if method == "Tracing.dataCollected":
                self.trace_events.append(params)
                continue
            if not method.startswith("Network."):
                continue
            self.last_event = time.monotonic()
            request = self.requests.setdefault(params.get("requestId", ""), {"done": False})
            if method == "Network.requestWillBeSent":
                request.update(url=params["request"]["url"], sent=params["timestamp"], type=params.get("type"))
            elif method == "Network.responseReceived":  # the URL here too: a prerendered page's requests come
                request.update(type=params.get("type"), status=params["response"].get("status"),  # without the rest
                               mime=params["response"].get("mimeType"))
                request.setdefault("url", params["response"].get("url"))
            elif method in ("Network.loadingFinished", "Network.loadingFailed"):
                request.update(done=True, finished=params["timestamp"], failed=method.endswith("Failed"),
                               wire_bytes=params.get("encodedDataLength", 0))

    def open(self, url: str, timeout: float = PAGE_TIMEOUT_S) -> None:
        """Loads url and waits until it has loaded and no request has been in flight for SETTLE_QUIET_S."""
        self.driver.get(url)  # returns at once (page_load_strategy "none")
        self.last_event = time.monotonic()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.read_network()
            busy = any(not r["done"] and r.get("url", "").startswith("http") for r in self.requests.values())
            ready = self.driver.execute_script("return document.URL === arguments[0] && document.readyState", url)
            if ready == "complete" and not busy and time.monotonic() - self.last_event >= SETTLE_QUIET_S:
                return
            time.sleep(0.1)
        raise RuntimeError(f"the page did not settle within {timeout} s")

    def image_urls(self) -> set[str]:
        return {r["url"] for r in self.requests.values() if r.get("type") == "Image" and r["done"]
                and not r.get("failed") and "url" in r}


def served_file(root: Path, url: str) -> Path:
    return root / urllib.parse.unquote(urllib.parse.urlsplit(url).path).lstrip("/")


def measure(tool: Tool, width: int, base: str, log_dir: Path, root: Path, hover_ms: int, throttle: str,
            trace: Path | None = None) -> dict:
    """One cold load of the tool's grid at the viewport, then a click on its first tile; with `trace`, the grid
    load's Chromium trace is written there and its main thread's work up to LCP summed up in the result."""
    load = Load(log_dir, trace=trace is not None)
    try:
        load.emulate(width, throttle)
        load.open(base + tool.grid)
        grid = load.driver.execute_async_script(GRID_FIGURES, tool.tiles)
        load.mark_images()
        lcp_work = None
        if trace is not None:
            load.read_network()
            trace.write_text(json.dumps({"traceEvents": load.trace_events}), encoding="utf-8")
            lcp_work = main_thread_before_lcp(load.trace_events)
        images = load.image_urls()
        grid_images = [r for r in grid["resources"] if r["name"] in images]
        loaded_tiles = {i for i, t in enumerate(grid["tiles"])
                        if t["complete"] and t["naturalWidth"] > 0 and t["currentSrc"] in images}
        image_bytes = sum(r["encodedBodySize"] for r in grid_images)
        first = grid["tiles"][0] if grid["tiles"] else None

        click = click_to_photo(load, tool, hover_ms)
        sharpness = None
        if first and first["currentSrc"]:
            from PIL import Image

            with Image.open(served_file(root, first["currentSrc"])) as picture:
                pixels = picture.width
            sharpness = {"src": first["currentSrc"], "imageWidth": pixels, "cssWidth": first["cssWidth"],
                         "dpr": grid["dpr"], "ratio": pixels / (first["cssWidth"] * grid["dpr"])}
        return {
            "lcp_ms": grid["lcp"], "lcp_element": grid["lcpElement"], "lcp_entries": grid["lcpEntries"],
            "cls": grid["clsWindow"], "cls_sum": grid["clsSum"], "layout_shifts": grid["shifts"],
            "image_bytes": image_bytes, "image_requests": len(grid_images),
            "image_transfer_bytes": sum(r["transferSize"] for r in grid_images),
            "image_bytes_on_disk": sum(served_file(root, r["name"]).stat().st_size for r in grid_images),
            "image_span_ms": (max(r["responseEnd"] for r in grid_images) - min(r["startTime"] for r in grid_images)
                              if grid_images else None),
            "tiles": len(grid["tiles"]), "tiles_loaded": len(loaded_tiles),
            "bytes_per_picture": image_bytes / len(loaded_tiles) if loaded_tiles else None,
            "navigation": grid["navigation"], "viewport": [grid["innerWidth"], grid["innerHeight"], grid["dpr"]],
            "sharpness": sharpness, **click, "lcp_work": lcp_work,
            # what the grid page loaded and when (ms from its navigation): what LCP waited for
            "timeline": [{"name": r["name"].rsplit("/", 1)[-1], "type": r["initiatorType"],
                          "start": round(r["startTime"]), "first_byte": round(r["responseStart"]),
                          "end": round(r["responseEnd"]), "bytes": r["encodedBodySize"],
                          "blocking": r.get("renderBlockingStatus")} for r in grid["resources"]],
        }
    finally:
        load.close()


# What a trace holds (--trace): the main thread's tasks and what they did, resources, LCP's candidates, decodes.
TRACE_CATEGORIES = ",".join([
    "devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel", "loading", "blink.user_timing",
    "v8.execute", "disabled-by-default-devtools.timeline.frame", "latencyInfo",
])


def main_thread_before_lcp(events: list[dict]) -> dict | None:
    """Where the renderer's main thread spent the time up to the grid's last LCP candidate: its events' own time
    (without their children's) by name, from navigation start and from the end of the LCP image's download, and
    the image decodes on any thread in the second window. Nil when the trace has no candidate."""
    candidates = sorted((e for e in events if e.get("name") == "largestContentfulPaint::Candidate"),
                        key=lambda e: e["ts"])
    if not candidates:
        return None
    lcp = candidates[-1]
    pid, tid = lcp["pid"], lcp["tid"]
    starts = [e["ts"] for e in events if e.get("name") == "navigationStart" and e.get("pid") == pid
              and e["ts"] <= lcp["ts"]]
    navigation = max(starts) if starts else min(e["ts"] for e in events if e.get("pid") == pid and "ts" in e)
    data = (lcp.get("args") or {}).get("data") or {}
    images = [e for e in events if e.get("name") == "LargestImagePaint::Candidate" and e["ts"] == lcp["ts"]]
    lcp_url = ((images[0].get("args") or {}).get("data") or {}).get("imageUrl", "") if images else ""
    # The candidate's own figures, in ms from the navigation (Chromium puts them there for an image).
    image_end = navigation + data["imageLoadEnd"] * 1000 if "imageLoadEnd" in data else None

    def own_times(start: float, end: float, on_main: bool) -> dict[str, float]:
        spans = sorted((e for e in events if e.get("ph") == "X" and "dur" in e
                        and ((e.get("pid"), e.get("tid")) == (pid, tid)) == on_main
                        and e["ts"] < end and e["ts"] + e["dur"] > start),
                       key=lambda e: (e["ts"], -e["dur"]))
        totals: dict[str, float] = collections.defaultdict(float)
        stack: list[tuple[dict, float]] = []  # (event, its children's time so far)

        def pop() -> None:
            event, children = stack.pop()
            clipped = min(event["ts"] + event["dur"], end) - max(event["ts"], start)
            totals[event["name"]] += max(0.0, clipped - children) / 1000
            if stack:
                stack[-1] = (stack[-1][0], stack[-1][1] + max(0.0, clipped))

        for event in spans:
            while stack and stack[-1][0]["ts"] + stack[-1][0]["dur"] <= event["ts"]:
                pop()
            stack.append((event, 0.0))
        while stack:
            pop()
        return dict(sorted(((k, round(v, 1)) for k, v in totals.items() if v >= 0.5), key=lambda kv: -kv[1]))

    result = {"lcp_ms": round((lcp["ts"] - navigation) / 1000), "lcp_url": lcp_url.rsplit("/", 1)[-1],
              "image_discovered_ms": data.get("imageDiscoveryTime"), "image_start_ms": data.get("imageLoadStart"),
              "from_navigation": own_times(navigation, lcp["ts"], True)}
    if image_end is not None:
        result["image_end_ms"] = round((image_end - navigation) / 1000)
        result["after_image"] = own_times(image_end, lcp["ts"], True)
        result["after_image_other_threads"] = {k: v for k, v in own_times(image_end, lcp["ts"], False).items()
                                               if "ecode" in k or "Raster" in k or "Image" in k}
    return result


def click_to_photo(load: Load, tool: Tool, hover_ms: int) -> dict:
    """Clicks the first tile's centre (CDP mouse events) and polls (Runtime.evaluate) until the large photo shows;
    then takes the photo's paint time from the browser, which the poll's own delays do not touch."""
    from selenium.common.exceptions import WebDriverException

    tile = load.driver.execute_script(FIRST_TILE, tool.tiles)
    if not tile or not tile["target"]:
        raise RuntimeError(f"{tool.label}: no first tile with a link")
    load.read_network()
    known = set(load.requests)
    target = json.dumps(tile["target"])
    shown_expression = PHOTO_SHOWN.format(photo=tool.photo, target=target)
    x, y = tile["x"], tile["y"]
    load.cdp("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    time.sleep(hover_ms / 1000)
    clicked_epoch = time.time()
    started = time.perf_counter()
    load.cdp("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y, "button": "left", "clickCount": 1})
    load.cdp("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x, "y": y, "button": "left", "clickCount": 1})
    polls, gaps, errors, previous = 0, [], 0, started
    shown = None
    while time.perf_counter() - started < CLICK_TIMEOUT_S:
        time.sleep(max(0.0, previous + POLL_S - time.perf_counter()))
        try:
            answer = load.cdp("Runtime.evaluate", {"expression": shown_expression, "returnByValue": True})
            value = answer.get("result", {}).get("value")
        except WebDriverException:  # between two documents: no context to evaluate in
            value, errors = None, errors + 1
        now = time.perf_counter()
        polls += 1
        gaps.append(now - previous)
        previous = now
        if value is True:
            shown = now
            break
    if shown is None:
        raise RuntimeError(f"{tool.label}: the large photo did not show within {CLICK_TIMEOUT_S} s of the click")
    photo = load.cdp("Runtime.evaluate", {
        "expression": PHOTO_PAINTED.format(photo=tool.photo, target=target), "awaitPromise": True,
        "returnByValue": True, "timeout": 10000}).get("result", {}).get("value") or {}
    painted = photo.get("painted")
    poll_ms = (shown - started) * 1000
    load.read_network()
    fetched = [r for rid, r in load.requests.items() if rid not in known and r.get("type") == "Image" and r["done"]]
    return {
        "click_ms": (painted["at"] / 1000 - clicked_epoch) * 1000 if painted else poll_ms,
        "click_by": painted["by"] if painted else "poll",
        "click_poll_ms": poll_ms, "click_target": tile["target"], "photo_fetch": photo.get("fetch"),
        "photo_page": photo.get("view"),
        "click_polls": polls, "click_poll_gap_max_ms": max(gaps) * 1000,
        "click_poll_gap_median_ms": statistics.median(gaps) * 1000, "click_poll_errors": errors,
        "click_images": [{"url": r.get("url"), "wire_bytes": r.get("wire_bytes")} for r in fetched],
    }


# ---------------------------------------------------------------------------------------------- the report


def median(values: list[float | None]) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summarize(runs: list[dict]) -> dict:
    keys = ("lcp_ms", "bytes_per_picture", "click_ms", "cls", "cls_sum", "tiles_loaded", "image_bytes")
    summary = {k: median([r[k] for r in runs]) for k in keys}
    summary["sharpness"] = median([(r["sharpness"] or {}).get("ratio") for r in runs])
    summary["range"] = {k: [min(v), max(v)] for k in keys if (v := [r[k] for r in runs if r[k] is not None])}
    return summary


def fmt(value: float | None, unit: str = "", digits: int = 0) -> str:
    return "–" if value is None else f"{value:,.{digits}f}{unit}"


def verdict(checks: list[bool | None]) -> str:
    return " / ".join("–" if c is None else ("✔" if c else "✘") for c in checks)


def table(results: dict, widths: list[int]) -> str:
    """The issue's table: Vitrine and sigal side by side, the targets, ✔/✘ per viewport."""

    def cell(tool: str, key: str, unit: str, digits: int = 0, scale: float = 1) -> str:
        if tool not in results:
            return "–"
        values = [results[tool][w][key] for w in widths]
        return " / ".join(fmt(None if v is None else v / scale, "", digits) for v in values) + unit

    def met(key: str, ok, beside_sigal: bool) -> str:
        """✔/✘ per viewport: ok(Vitrine's figure, sigal's figure or None); – where a figure is missing."""
        checks = []
        for w in widths:
            ours = results.get("vitrine", {}).get(w, {}).get(key)
            theirs = results.get("sigal", {}).get(w, {}).get(key)
            checks.append(None if ours is None or (beside_sigal and theirs is None) else ok(ours, theirs))
        return verdict(checks)

    vs = " / ".join(map(str, widths))
    rows = [
        ("grid LCP", cell("vitrine", "lcp_ms", " ms"), cell("sigal", "lcp_ms", " ms"),
         "≤ sigal's", met("lcp_ms", lambda a, b: a <= b, True)),
        ("image bytes per grid picture", cell("vitrine", "bytes_per_picture", " KB", 1, 1000),
         cell("sigal", "bytes_per_picture", " KB", 1, 1000), "≤ 1.25× sigal's",
         met("bytes_per_picture", lambda a, b: a <= 1.25 * b, True)),
        ("click on the first picture until the large photo shows", cell("vitrine", "click_ms", " ms"),
         cell("sigal", "click_ms", " ms"), "≤ sigal's", met("click_ms", lambda a, b: a <= b, True)),
        ("grid CLS", cell("vitrine", "cls", "", 3), cell("sigal", "cls", "", 3), "0",
         met("cls", lambda a, _: a == 0, False)),
        ("first tile: image px per device px", cell("vitrine", "sharpness", "", 2), cell("sigal", "sharpness", "", 2),
         "≥ 1", met("sharpness", lambda a, _: a >= 1, False)),
    ]
    lines = [f"| median of the cold loads | Vitrine | sigal photoswipe | target | met, {vs} |",
             "| --- | --- | --- | --- | --- |"]
    lines += [f"| {name}, {vs} | {a} | {b} | {target} | {ok} |" for name, a, b, target, ok in rows]
    return "\n".join(lines)


def progress(r: dict) -> str:
    """One load's figures, as the run goes."""
    return (f"LCP {fmt(r['lcp_ms'])} ms, {fmt(r['image_bytes'] / 1000, ' KB', 1)} for {r['tiles_loaded']} of "
            f"{r['tiles']} pictures, click {fmt(r['click_ms'])} ms ({r['click_by']}; poll {fmt(r['click_poll_ms'])} "
            f"ms), CLS {r['cls']:.3f}, sharpness {fmt((r['sharpness'] or {}).get('ratio'), '', 2)}"
            + (lcp_work_line(r["lcp_work"]) if r.get("lcp_work") else ""))


def lcp_work_line(work: dict) -> str:
    """--trace's summary of one load: the main thread's largest items after the LCP image arrived."""
    after = work.get("after_image")
    if after is None:
        return f"\n      trace: LCP {work['lcp_ms']} ms ({work['lcp_url'] or 'text'}); from navigation: " + ", ".join(
            f"{k} {v}" for k, v in list(work["from_navigation"].items())[:8])
    return (f"\n      trace: {work['lcp_url']} in at {work['image_end_ms']} ms, LCP {work['lcp_ms']} ms; main thread "
            "after it: " + ", ".join(f"{k} {v}" for k, v in list(after.items())[:8])
            + "; other threads: " + ", ".join(f"{k} {v}" for k, v in work["after_image_other_threads"].items()))


class OtherWork:
    """The CPU time that processes other than this run's took while it ran: the machine's busy time (/proc/stat) less
    this process's and its descendants'. The load average cannot tell the two apart. A descendant's time is read from
    /proc while it lives (take() before each browser or server stops): Chromium's helpers are not all reaped by
    their parents, so os.times() would miss them."""

    def __init__(self):
        self.start()

    def start(self) -> None:
        self.started = time.monotonic()
        self.busy = self.busy_s()
        self.own = self.self_s()
        self.descendants = 0.0

    @staticmethod
    def busy_s() -> float:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
        return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")

    @staticmethod
    def self_s() -> float:
        t = os.times()
        return t.user + t.system

    def take(self) -> None:
        """Adds the CPU time of this process's living descendants (their own and their reaped children's)."""
        parents, times = {}, {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                pid = int(stat.parent.name)
                parents[pid] = int(fields[1])
                times[pid] = sum(int(v) for v in fields[11:15])  # utime stime cutime cstime
        ours, found = {os.getpid()}, True
        while found:
            found = False
            for pid, parent in parents.items():
                if parent in ours and pid not in ours:
                    ours.add(pid)
                    found = True
        ours.discard(os.getpid())
        self.descendants += sum(times[pid] for pid in ours) / os.sysconf("SC_CLK_TCK")

    def cores(self) -> float:
        """The other processes' CPU time over the run, in cores on average."""
        other = (self.busy_s() - self.busy) - (self.self_s() - self.own) - self.descendants
        return max(0.0, other) / max(1e-3, time.monotonic() - self.started)


OTHER_WORK = OtherWork()


def machine() -> dict:
    cpu = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    chromium = run([CHROMIUM, "--version"], timeout=30).stdout.strip()
    return {"nproc": os.cpu_count(), "cpu": cpu, "chromium": chromium,
            "sigal": importlib.metadata.version("sigal"), "selenium": importlib.metadata.version("selenium")}


def git_build() -> str:
    with contextlib.suppress(Exception):
        head = run(["git", "rev-parse", "--short", "HEAD"], timeout=30, cwd=REPO).stdout.strip()
        dirty = run(["git", "status", "--porcelain", "--untracked-files=no"], timeout=30, cwd=REPO).stdout.strip()
        return head + ("+changes" if dirty else "")
    return "unknown"


def report(results: dict, runs_by_tool: dict, meta: dict, widths: list[int]) -> str:
    lines = [
        f"Visitor speed (bench/visitor), {meta['date']}, build {meta['build']} ({meta['binary']}).",
        f"{meta['machine']['nproc']} cores ({meta['machine']['cpu']}); load average (1, 5, 15 min) before: "
        f"{meta['load_before']}; after: {meta['load_after']}; other processes than this run's: "
        f"{meta['other_cores']:.2f} cores on average{OTHER_WORK_NOTE if meta['other_cores'] > BUSY_CORES else ''}. "
        f"{meta['machine']['chromium']}, "
        f"sigal {meta['machine']['sigal']}, selenium {meta['machine']['selenium']}.",
        f"Slow 4G ({LATENCY_MS} ms, {DOWNLOAD_BYTES_PER_S * 8 / 1e6:g} Mbit/s down, "
        f"{UPLOAD_BYTES_PER_S * 8 / 1e3:g} kbit/s up; {THROTTLES[meta['throttle']]}), CPU {CPU_SLOWDOWN}x slower "
        f"(Emulation.setCPUThrottlingRate); median of {meta['runs']} cold "
        f"loads (a fresh Chromium profile each); nginx on loopback (HTTP/1.1, gzip for HTML, CSS and JS); the pointer "
        f"rests {meta['hover_ms']} ms on the tile before the press. Vitrine's demo built with "
        + (f"`--formats {meta['formats']}`" if meta.get('formats') else "its default formats (the APIs' JPEGs)")
        + (f" and the theme folder `{meta['templates']}`" if meta.get('templates') else "")
        + (f"; its grid page rewritten: {'; '.join(grid_variants.VARIANTS[v][0] for v in meta['grid_variant'])}."
           if meta.get('grid_variant') else "."),
        "",
        table(results, widths),
        "",
        "How: LCP = the last 'largest-contentful-paint' entry once the grid has settled (loaded, no request for "
        f"{SETTLE_QUIET_S:g} s). Image bytes = the encoded body bytes (Resource Timing) of every image response of "
        "the grid page, divided by the grid pictures whose image loaded (KB = 1,000 bytes). Click = from the CDP "
        "mouse press at the first tile's centre to the large photo's paint (its Element Timing renderTime, in the "
        "browser's clock; Vitrine: " + TOOLS["vitrine"].photo_method + "; sigal: " + TOOLS["sigal"].photo_method +
        "); Runtime.evaluate polls every 5 ms (or as soon as the page's busy main thread answers) until the photo is "
        "loaded and in the viewport ('poll saw it'). "
        "CLS = the largest session window of layout shifts without recent input (1 s gap, 5 s cap). Sharpness = "
        "the first tile's image file width ÷ (its CSS content width × DPR).",
        "",
        "| tool | viewport | grid pictures loaded | grid image requests | LCP element | click: images fetched "
        "| click: poll saw it | poll gap median / max | LCP min–max | click min–max |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]

    def name(url: str | None) -> str:
        return "/".join(urllib.parse.urlsplit(url).path.split("/")[-2:]) if url else "–"

    def spread(summary: dict, key: str) -> str:
        low, high = summary["range"].get(key, [None, None])
        return f"{fmt(low)}–{fmt(high)} ms"

    for key, per_width in results.items():
        for w in widths:
            last = runs_by_tool[key][w][-1]
            element = (last["lcp_element"] or "–").split(" ")
            fetched = [f"{name(i['url'])} {(i['wire_bytes'] or 0) / 1000:.0f} KB" for i in last["click_images"]]
            lines.append(
                f"| {TOOLS[key].label} | {w} | {last['tiles_loaded']} of {last['tiles']} | {last['image_requests']} "
                f"| {element[0]} {name(element[1]) if len(element) > 1 else ''} | {', '.join(fetched) or 'none'} "
                f"| {fmt(last['click_poll_ms'])} ms | {last['click_poll_gap_median_ms']:.1f} / "
                f"{last['click_poll_gap_max_ms']:.1f} ms | {spread(per_width[w], 'lcp_ms')} "
                f"| {spread(per_width[w], 'click_ms')} |")
    lines.append("")
    lines.append("(the last run's details; every run's figures are in .build/visitor/results.json)")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------- main


def self_check(runs_by_tool: dict) -> list[str]:
    """What a broken harness would get wrong: no LCP, no bytes, a click that never reached the photo, no throttling."""
    problems = []
    for key, per_width in runs_by_tool.items():
        for width, runs in per_width.items():
            for r in runs:
                where = f"{key} at {width}"
                if not (r["lcp_ms"] and r["lcp_ms"] > 0):
                    problems.append(f"{where}: no LCP")
                if not (r["image_bytes"] > 0 and r["tiles_loaded"] > 0):
                    problems.append(f"{where}: no grid image loaded")
                if not (r["click_ms"] > 0):
                    problems.append(f"{where}: the click did not reach the photo")
                nav = r["navigation"] or {}
                if nav.get("responseEnd", 0) < LATENCY_MS:
                    problems.append(f"{where}: the grid page's HTML came sooner than the {LATENCY_MS} ms latency")
                if r["lcp_ms"] and r["lcp_ms"] < 2 * LATENCY_MS:
                    problems.append(f"{where}: LCP {r['lcp_ms']:.0f} ms is below two round trips: not throttled")
                for problem in (bandwidth_problem(r), photo_bandwidth_problem(r)):
                    if problem:
                        problems.append(f"{where}: {problem}")
                if r["viewport"][0] != width:
                    problems.append(f"{where}: the page saw a viewport {r['viewport'][0]} px wide")
                view = r["photo_page"] or {}
                if (view.get("width"), view.get("dpr")) != (width, VIEWPORTS[width][1]):
                    problems.append(f"{where}: the photo's page saw {view.get('width')} px at DPR {view.get('dpr')}")
                if not r["sharpness"]:
                    problems.append(f"{where}: no sharpness for the first tile")
                if r["image_bytes"] != r["image_bytes_on_disk"]:
                    problems.append(f"{where}: {r['image_bytes']} image bytes counted, {r['image_bytes_on_disk']} "
                                    "in the files served")
                if r["click_by"] == "poll":
                    problems.append(f"{where}: the photo's paint time is unknown (no Element Timing or LCP entry)")
                if r["click_ms"] > r["click_poll_ms"] + 1000 or r["click_poll_ms"] > r["click_ms"] + 1000:
                    problems.append(f"{where}: the paint ({r['click_ms']:.0f} ms) and the poll "
                                    f"({r['click_poll_ms']:.0f} ms) disagree by more than a second")
    return problems


def prerender_check(prerendered: dict, width: int, control: dict) -> list[str]:
    """A prerendered preview page must get what every page gets: its photo no faster than the slow link allows, the
    viewport's DPR, the slow CPU (a fixed piece of work at least twice as long as on the unthrottled control's)."""
    problems = []
    view = prerendered["photo_page"] or {}
    if not view.get("activationStart"):
        problems.append("the preview page was not prerendered: the control tests nothing")
    fetch = prerendered["photo_fetch"]
    if not fetch or not fetch["bytes"]:
        problems.append("the prerendered preview page has no Resource Timing entry for its photo")
    elif fetch["ms"] < 0.8 * fetch["bytes"] / DOWNLOAD_BYTES_PER_S * 1000:
        problems.append(f"the prerendered page loaded its {fetch['bytes']:,}-byte photo in {fetch['ms']:.0f} ms, not "
                        f"the {fetch['bytes'] / DOWNLOAD_BYTES_PER_S * 1000:.0f} ms that slow 4G takes")
    if view.get("dpr") != VIEWPORTS[width][1]:
        problems.append(f"the prerendered page had a DPR of {view.get('dpr')}, not {VIEWPORTS[width][1]}")
    fast = (control["photo_page"] or {}).get("cpuProbeMs") or 0
    if not view.get("cpuProbeMs", 0) >= 2 * fast:
        problems.append(f"the prerendered page's CPU was not slowed down ({view.get('cpuProbeMs', 0):.0f} ms for "
                        f"what took {fast:.0f} ms without throttling)")
    return problems


def bandwidth_problem(r: dict) -> str | None:
    """Whether the grid's images came faster than slow 4G can bring their bytes."""
    least = r["image_bytes"] / DOWNLOAD_BYTES_PER_S * 1000
    if r["image_span_ms"] is None or r["image_span_ms"] < 0.8 * least:
        return (f"the grid's {r['image_bytes']:,} image bytes came in {fmt(r['image_span_ms'])} ms, not the "
                f"{least:.0f} ms that slow 4G takes")
    return None


def photo_bandwidth_problem(r: dict) -> str | None:
    """Whether the large photo's body came faster than slow 4G can bring it (None too when it came from a cache)."""
    fetch = r["photo_fetch"]
    if not fetch or not fetch["transferSize"] or fetch["bytes"] < 4 * Link.CHUNK:
        return None
    least = (fetch["bytes"] - Link.CHUNK) / DOWNLOAD_BYTES_PER_S * 1000  # the first chunk may come with the headers
    if fetch["bodyMs"] < 0.8 * least:
        return (f"the photo's {fetch['bytes']:,} bytes came in {fetch['bodyMs']:.0f} ms, not the {least:.0f} ms that "
                "slow 4G takes")
    return None


def throttle_check(control: dict) -> list[str]:
    """The photo's bandwidth check must flag a load without throttling: otherwise it could pass a harness that
    throttles nothing. (Not the grid's: a loaded machine can take as long as slow 4G for 20 small images.)"""
    if not control["photo_fetch"] or not control["photo_fetch"]["transferSize"]:
        return ["the unthrottled control load has no network fetch of its photo to check"]
    if photo_bandwidth_problem(control) is None:
        return [f"an unthrottled load passed the photo's bandwidth check ({control['photo_fetch']['bodyMs']:.0f} ms "
                f"for {control['photo_fetch']['bytes']:,} bytes)"]
    return []


class UsageParser(argparse.ArgumentParser):
    """Bad options exit 64 (EX_USAGE), as bench/run's do."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(64, f"{self.prog}: {message}\n")


def main() -> int:
    parser = UsageParser(prog="bench/visitor", description="What a visitor gets from the Vitrine demo and from "
                         "sigal's photoswipe gallery of the same pictures, in Chromium under slow 4G (issue 26).")
    parser.add_argument("--runs", type=int, default=3, help="cold loads per tool and viewport (median; default 3)")
    parser.add_argument("--binary", type=Path, default=REPO / ".build" / "release" / "vitrine",
                        help="the vitrine to measure (default .build/release/vitrine)")
    parser.add_argument("--no-build", action="store_true",
                        help="no `swift build -c release --static-swift-stdlib` first: --binary as it is")
    parser.add_argument("--label", help="what to call the build in the report (default: the worktree's commit, "
                        "or the binary's name with --no-build)")
    parser.add_argument("--only", choices=sorted(TOOLS), help="measure one tool only")
    parser.add_argument("--formats", default="", metavar="LIST",
                        help="build the demo with `--formats LIST` (avif, webp or both; default: the demo's own, "
                        "the APIs' JPEGs alone)")
    parser.add_argument("--templates", default="", metavar="DIR",
                        help="build the demo with vitrine's `--templates DIR` (a theme folder, as `vitrine theme "
                             "export` writes it): another version of the pages to compare with the built-in theme")
    parser.add_argument("--grid-variant", default="", metavar="NAMES",
                        help="rewrite the demo's grid page after the build with these named changes, comma-separated "
                        f"({', '.join(grid_variants.VARIANTS)}; bench/lib/grid_variants.py): a change of the page's "
                        "structure measured without a theme of its own (bench/visitor-ab measures variants in turns)")
    parser.add_argument("--viewports", default="1440 375", help='widths among "1440 375" (default both)')
    parser.add_argument("--hover", type=int, default=0, metavar="MS",
                        help="rest the pointer on the first tile this long before pressing (default 0: the click "
                        "comes at once, as a tap does; the time counts from the press)")
    parser.add_argument("--throttle", choices=("relay", "devtools"), default="relay",
                        help="the slow network: relay (default) a TCP relay of ours that every request goes through; "
                        "devtools: Network.emulateNetworkConditions on every page (prerendered ones too)")
    parser.add_argument("--trace", action="store_true",
                        help="record each grid load's Chromium trace (.build/visitor/traces/) and sum up its main "
                        "thread's work up to LCP in results.json (`lcp_work`); tracing slows the page, so the "
                        "figures of such a run are for finding where the time goes, not for the table")
    parser.add_argument("--self-check", action="store_true",
                        help="one load of each tool at 1440 and two controls (no throttling; a prerendered "
                        "preview page), then check that every figure is there and plausible; exit 1 if not")
    args = parser.parse_args()
    try:
        widths = [int(w) for w in args.viewports.split()]
    except ValueError:
        widths = []
    if not widths or any(w not in VIEWPORTS for w in widths) or args.runs < 1 or args.hover < 0:
        parser.error(f"--viewports takes widths among {' '.join(map(str, VIEWPORTS))}, --runs a number from 1, "
                     "--hover one from 0")
    try:
        variants = grid_variants.parse(args.grid_variant)
    except ValueError as error:
        parser.error(str(error))
    if args.self_check and args.only:
        parser.error("--self-check measures both tools: leave out --only")
    if args.self_check:
        args.runs, widths = 1, [1440]
    tools = [TOOLS[args.only]] if args.only else list(TOOLS.values())

    socket.setdefaulttimeout(60)  # selenium's calls to chromedriver: none hangs for ever
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run the finally blocks on SIGTERM too
    WORK.mkdir(parents=True, exist_ok=True)
    if not args.no_build:
        build_binary()
    binary = args.binary.resolve()
    if not binary.is_file():
        raise SystemExit(f"bench/visitor: {binary} is missing; build it or give --binary.")

    print(f"== vitrine demo ({binary})", flush=True)
    site = build_vitrine(binary, args.formats, args.templates)
    if variants:
        grid = site / "index.html"
        grid.write_text(grid_variants.apply(grid.read_text(encoding="utf-8"), variants), encoding="utf-8")
        print(f"== the grid page rewritten: {'; '.join(grid_variants.VARIANTS[v][0] for v in variants)}", flush=True)
    if any(t.key == "sigal" for t in tools):
        print("== sigal build (photoswipe) of the demo's 20 full-size pictures", flush=True)
        build_sigal(demo_pictures(site))

    logs = WORK / "logs"
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir(parents=True)
    server = GzipNginx(WORK, WORK / "nginx")
    load_before = " ".join(f"{v:.2f}" for v in os.getloadavg())
    OTHER_WORK.start()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    runs_by_tool: dict[str, dict[int, list[dict]]] = {t.key: {w: [] for w in widths} for t in tools}
    relay = SlowLink(0)
    try:
        server.start(probe=tools[0].grid)
        relay.upstream = server.port
        relay.start()
        base = relay.url if args.throttle == "relay" else server.url
        for number in range(args.runs):  # alternating the tools and viewports: a load change hits all alike
            for width in widths:
                for tool in tools:
                    trace = None
                    if args.trace:
                        (WORK / "traces").mkdir(exist_ok=True)
                        trace = WORK / "traces" / f"{tool.key}-{width}-{number + 1}.json"
                    r = measure(tool, width, base, logs, WORK, args.hover, args.throttle, trace)
                    runs_by_tool[tool.key][width].append(r)
                    print(f"   {tool.label} at {width}, run {number + 1}: {progress(r)}", flush=True)
        if args.self_check:
            control = measure(tools[-1], widths[0], server.url, logs, WORK, args.hover, "none")
            print(f"   {tools[-1].label} at {widths[0]}, without throttling: LCP {fmt(control['lcp_ms'])} ms, "
                  f"click {fmt(control['click_ms'])} ms", flush=True)
            prerender = dataclasses.replace(TOOLS["vitrine"], grid=prerender_site(site))
            prerendered = measure(prerender, PRERENDER_WIDTH, base, logs, WORK, args.hover, args.throttle)
            print(f"   Vitrine prerendering the first preview page: click {fmt(prerendered['click_ms'])} ms, its photo "
                  f"fetched in {fmt((prerendered['photo_fetch'] or {}).get('ms'))} ms", flush=True)
    finally:
        OTHER_WORK.take()  # nginx's
        relay.stop()
        server.stop()
    load_after = " ".join(f"{v:.2f}" for v in os.getloadavg())
    other_cores = OTHER_WORK.cores()

    results = {key: {w: summarize(runs) for w, runs in per_width.items()} for key, per_width in runs_by_tool.items()}
    label = args.label or (git_build() if not args.no_build else f"{binary.name} (--no-build; worktree {git_build()})")
    meta = {"date": date, "build": label,
            "binary": str(binary), "machine": machine(), "load_before": load_before, "load_after": load_after,
            "other_cores": other_cores,
            "runs": args.runs, "viewports": widths, "hover_ms": args.hover, "throttle": args.throttle,
            "formats": args.formats, "templates": args.templates, "grid_variant": variants,
            "profile": {"latency_ms": LATENCY_MS, "download_bytes_per_s": DOWNLOAD_BYTES_PER_S,
                        "upload_bytes_per_s": UPLOAD_BYTES_PER_S, "cpu_slowdown": CPU_SLOWDOWN}}
    text = report(results, runs_by_tool, meta, widths)
    (WORK / "report.md").write_text(text + "\n", encoding="utf-8")
    (WORK / "results.json").write_text(
        json.dumps({"meta": meta, "summary": results, "runs": runs_by_tool}, indent=1), encoding="utf-8")
    print()
    print(text)
    if other_cores > BUSY_CORES:
        print(f"bench/visitor: other processes took {other_cores:.2f} cores on average during the run; run it again "
              "when the machine is quiet before comparing.", file=sys.stderr)
    if args.self_check:
        problems = self_check(runs_by_tool)
        problems += throttle_check(control)
        problems += prerender_check(prerendered, PRERENDER_WIDTH, control)
        for problem in problems:
            print(f"self-check: {problem}", file=sys.stderr)
        print("self-check: " + ("failed" if problems else "every figure is there and plausible"), file=sys.stderr)
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("bench/visitor: interrupted", file=sys.stderr)
        sys.exit(130)
    except RuntimeError as error:
        print(f"bench/visitor: {error}", file=sys.stderr)
        sys.exit(1)
