"""bench/visitor's Chromium: one cold load in a fresh browser and profile, the emulation (viewport, slow CPU, and
DevTools' slow network when asked) given to every page it opens, prerendered ones too, and the network events
and trace read from its performance log."""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from visitor_conditions import (
    CPU_SLOWDOWN, DOWNLOAD_BYTES_PER_S, LATENCY_MS, PAGE_TIMEOUT_S, SETTLE_QUIET_S, UPLOAD_BYTES_PER_S, VIEWPORTS,
)
from browserlib import (  # Tests/Browser: on the path through visitor_conditions
    CHROME_ARGS, CHROMEDRIVER, CHROMIUM, quit_driver,
)
from visitor_machine import OTHER_WORK


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
        """The viewport, with touch on a phone's (a tap then gives pointer events and a click); the slow CPU unless
        throttle is "none" (the self-check's control), and with "devtools" the slow-4G network of DevTools (else the
        URL goes through SlowLink)."""
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
        if mobile:
            commands.append(("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5}))
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


# What a trace holds (--trace): the main thread's tasks and what they did, resources, LCP's candidates, decodes.
TRACE_CATEGORIES = ",".join([
    "devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel", "loading", "blink.user_timing",
    "v8.execute", "disabled-by-default-devtools.timeline.frame", "latencyInfo",
])
