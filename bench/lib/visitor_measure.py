"""bench/visitor's figures of one load: the grid's LCP, layout shifts, image bytes and sharpness, the time from a
click on the first tile (a mouse's or a finger's, CLICKS) to the large photo's paint, and with --trace the main
thread's work up to LCP."""

from __future__ import annotations

import collections
import json
import statistics
import time
import urllib.parse
from pathlib import Path

from visitor_conditions import CLICK_TIMEOUT_S, POLL_S, TAP_MS, VIEWPORTS, Tool
from visitor_browser import Load


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
                       responseEnd: nav.responseEnd, transferSize: nav.transferSize,
                       encodedBodySize: nav.encodedBodySize, decodedBodySize: nav.decodedBodySize} : null,
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


def served_file(root: Path, url: str) -> Path:
    return root / urllib.parse.unquote(urllib.parse.urlsplit(url).path).lstrip("/")


def measure(tool: Tool, width: int, base: str, log_dir: Path, root: Path, click: str, rest_ms: int, throttle: str,
            trace: Path | None = None) -> dict:
    """One cold load of the tool's grid at the viewport, then a click on its first tile the `click` way (CLICKS; a
    person's pointer rests `rest_ms` first); with `trace`, the grid load's Chromium trace is written there and its
    main thread's work up to LCP summed up in the result."""
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

        click = click_to_photo(load, tool, click, rest_ms, touch=VIEWPORTS[width][2])
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


def press_tile(load: Load, x: float, y: float, click: str, rest_ms: int, touch: bool) -> tuple[float, float]:
    """Clicks at (x, y) the `click` way (CLICKS): a person's finger where there is touch, taps (touchStart, touchEnd
    TAP_MS later); else the mouse moves there, rests `rest_ms` if a person's, presses and releases at once. Returns
    the press's moment, in the epoch's clock and in perf_counter's."""
    if click == "person" and touch:
        epoch, started = time.time(), time.perf_counter()
        load.cdp("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        time.sleep(max(0.0, started + TAP_MS / 1000 - time.perf_counter()))
        load.cdp("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        return epoch, started
    load.cdp("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    if click == "person":
        time.sleep(rest_ms / 1000)
    epoch, started = time.time(), time.perf_counter()
    for kind in ("mousePressed", "mouseReleased"):
        load.cdp("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})
    return epoch, started


def click_to_photo(load: Load, tool: Tool, click: str, rest_ms: int, touch: bool) -> dict:
    """Clicks the first tile's centre (press_tile) and polls (Runtime.evaluate) until the large photo shows; then
    takes the photo's paint time from the browser, which the poll's own delays do not touch."""
    from selenium.common.exceptions import WebDriverException

    tile = load.driver.execute_script(FIRST_TILE, tool.tiles)
    if not tile or not tile["target"]:
        raise RuntimeError(f"{tool.label}: no first tile with a link")
    load.read_network()
    known = set(load.requests)
    target = json.dumps(tile["target"])
    shown_expression = PHOTO_SHOWN.format(photo=tool.photo, target=target)
    clicked_epoch, started = press_tile(load, tile["x"], tile["y"], click, rest_ms, touch)
    polls, gaps, errors, previous = 0, [], 0, time.perf_counter()  # the polls' gaps from the release (a tap's end)
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
        "click_input": "touch" if click == "person" and touch else "mouse",
        "click_poll_ms": poll_ms, "click_target": tile["target"], "photo_fetch": photo.get("fetch"),
        "photo_page": photo.get("view"),
        "click_polls": polls, "click_poll_gap_max_ms": max(gaps) * 1000,
        "click_poll_gap_median_ms": statistics.median(gaps) * 1000, "click_poll_errors": errors,
        "click_images": [{"url": r.get("url"), "wire_bytes": r.get("wire_bytes")} for r in fetched],
    }
