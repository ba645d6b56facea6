"""Where a search key's frame goes (issue 27): a DevTools Performance trace of the albums search page, with the CPU
throttled 4x, while queries are typed a key at a time; then, per key, the renderer main thread's time from the
key's input event to its next frame split into script, style (and how many elements), layout (and how many
objects), paint and the rest. Run through `bench/search --trace`, which builds and serves the sites as ever.

The trace is DevTools' (the Tracing domain, as the Performance panel records it): one of the cold load, one of each
query's keys; all of them are written to trace.json, which the Performance panel opens."""

from __future__ import annotations

import collections
import json
import statistics
import time
import urllib.request
from pathlib import Path

from search_common import CPU_SLOWDOWN, READY, driver

CATEGORIES = ",".join(["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing",
                       "v8.execute", "disabled-by-default-devtools.timeline.frame"])

# TYPE of search.py, with marks around the key (user timing reaches the trace).
TYPE = """
const done = arguments[arguments.length - 1];
const box = document.getElementById('search-box');
box.value = arguments[0];
performance.mark('key-start');
const t0 = performance.now();
box.dispatchEvent(new Event('input', {bubbles: true}));
const t1 = performance.now();
requestAnimationFrame(() => setTimeout(() => { performance.mark('key-frame');
  done({script: t1 - t0, frame: performance.now() - t0,
        results: document.querySelectorAll('#search-results > li').length}); }, 0));
"""

# What each trace event is counted as; events inside a counted one are not counted again.
KINDS = {
    "EventDispatch": "script", "FunctionCall": "script", "TimerFire": "script", "FireAnimationFrame": "script",
    "v8.execute": "script", "EvaluateScript": "script", "RunMicrotasks": "script",
    "UpdateLayoutTree": "style", "RecalculateStyles": "style",
    "Layout": "layout",
    "PrePaint": "paint", "Paint": "paint", "Layerize": "paint", "UpdateLayer": "paint", "Commit": "paint",
    "PaintImage": "image", "Decode Image": "image", "Decode LazyPixelRef": "image", "ImageDecodeTask": "image",
    "HitTest": "other", "IntersectionObserverController::computeIntersections": "other",
    "ParseHTML": "other",
}


class Tracer:
    """DevTools' Tracing domain on the page, over a websocket of its own (chromedriver's CDP command cannot receive
    the events the trace comes in)."""

    def __init__(self, browser):
        import websocket

        address = browser.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json", timeout=10) as answer:
            targets = json.load(answer)
        page = next(t for t in targets if t.get("type") == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=120, suppress_origin=True)
        self.last = 0

    def call(self, method: str, params: dict | None = None, until: str | None = None) -> list[dict]:
        """Sends a command; returns the events that came before its answer (or before `until`, an event)."""
        self.last += 1
        self.socket.send(json.dumps({"id": self.last, "method": method, "params": params or {}}))
        seen = []
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.last:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                if until is None:
                    return seen
            elif until is not None and message.get("method") == until:
                return seen
            elif "method" in message:
                seen.append(message)

    def start(self) -> None:
        self.call("Tracing.start", {"traceConfig": {"includedCategories": CATEGORIES.split(",")},
                                    "transferMode": "ReportEvents"})

    def stop(self) -> list[dict]:
        events = []
        for message in self.call("Tracing.end", until="Tracing.tracingComplete"):
            if message.get("method") == "Tracing.dataCollected":
                events.extend(message["params"].get("value", []))
        return events

    def close(self) -> None:
        self.socket.close()


def breakdown(events: list[dict], start: float, end: float, pid: int, tid: int) -> dict:
    """The main thread's time between two trace timestamps (µs), by kind, outermost counted events only."""
    spans = sorted((e for e in events if e.get("pid") == pid and e.get("tid") == tid and e.get("ph") == "X"
                    and e["name"] in KINDS and start <= e["ts"] < end), key=lambda e: (e["ts"], -e.get("dur", 0)))
    totals: dict[str, float] = collections.defaultdict(float)
    styled = laid = 0
    covered_until = -1.0
    for e in spans:
        kind = KINDS[e["name"]]
        if kind == "style":
            styled += (e.get("args", {}).get("elementCount") or 0)
        if kind == "layout":
            laid += ((e.get("args", {}).get("beginData") or {}).get("dirtyObjects") or 0)
        if e["ts"] < covered_until:
            # nested: a layout forced by a script, say, is counted as the script's time and noted
            if kind in ("style", "layout"):
                totals[f"{kind} forced in script"] += e.get("dur", 0) / 1000
            continue
        totals[kind] += e.get("dur", 0) / 1000
        covered_until = e["ts"] + e.get("dur", 0)
    return {"ms": dict(totals), "elements styled": styled, "objects laid out": laid}


def main_thread(events: list[dict]) -> tuple[int, int]:
    marks = [e for e in events if e.get("name") == "key-start"]
    if not marks:
        names = collections.Counter((e.get("cat"), e.get("name")) for e in events)
        raise RuntimeError(f"no key-start mark in the trace of {len(events)} events: {names.most_common(40)}")
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("ph") == "M"
             and e.get("name") == "thread_name"}
    pid = marks[0]["pid"]
    for (p, t), name in names.items():
        if p == pid and name == "CrRendererMain":
            return p, t
    return pid, marks[0]["tid"]


def rows_of(events: list[dict], keys: list[str], typed: list[dict]) -> list[dict]:
    """Each key's row (`keys`, the box's value at each key): its page figures and its frame's trace split by kind (the
    marks paired in order)."""
    pid, tid = main_thread(events)
    starts = sorted(e["ts"] for e in events if e.get("name") == "key-start" and e.get("ph") in ("R", "I", "n", "b", "X"))
    frames = sorted(e["ts"] for e in events if e.get("name") == "key-frame" and e.get("ph") in ("R", "I", "n", "b", "X"))
    return [{"query": keys[n], "frame ms": typed[n]["frame"], "script ms (page)": typed[n]["script"],
             "results": typed[n]["results"], **breakdown(events, s, f, pid, tid)}
            for n, (s, f) in enumerate(zip(starts, frames))]


def trace(url: str, queries: list[str], width: int, out: Path, cold: bool = False) -> list[dict]:
    """With `cold`, the queries are typed as the timing runs type them (measure in search.py): right after the cold
    load's first results, a key a frame, no pause, the box emptied after each. Else with pauses."""
    from browserlib import quit_driver

    browser = driver()
    tracer = Tracer(browser)
    rows = []
    try:
        browser.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        tracer.start()
        browser.get(f"{url}?q={queries[0]}")
        deadline = time.monotonic() + 60
        while not browser.execute_script(READY, queries[0]):
            if time.monotonic() > deadline:
                raise RuntimeError("no results within 60 s")
            time.sleep(0.005)
        if cold:
            keys = [k for q in queries for k in [*(q[:n] for n in range(1, len(q) + 1)), ""]]
            typed = [browser.execute_async_script(TYPE, key) for key in keys]
            time.sleep(1)
            all_events = tracer.stop()
            out.write_text(json.dumps({"traceEvents": all_events}))
            return [r for r in rows_of(all_events, keys, typed) if r["query"]]
        time.sleep(1)
        all_events = tracer.stop()
        for query in queries:
            browser.execute_async_script(TYPE, "")
            time.sleep(0.5)
            tracer.start()
            typed = []
            for n in range(1, len(query) + 1):
                typed.append(browser.execute_async_script(TYPE, query[:n]))
                time.sleep(0.3)  # lets the tiles after the frame and the images come in, as between a person's keys
            events = tracer.stop()
            all_events.extend(events)
            rows += rows_of(events, [query[:n] for n in range(1, len(query) + 1)], typed)
    finally:
        tracer.close()
        quit_driver(browser)
    out.write_text(json.dumps({"traceEvents": all_events}))
    return rows


def report(rows: list[dict]) -> str:
    kinds = ["script", "style", "layout", "paint", "image", "other"]
    lines = ["| key | frame ms | " + " | ".join(f"{k} ms" for k in kinds)
             + " | forced style/layout ms | elements styled | objects laid out |",
             "| --- | ---: | " + " | ".join("---:" for _ in kinds) + " | ---: | ---: | ---: |"]
    for r in rows:
        forced = r["ms"].get("style forced in script", 0) + r["ms"].get("layout forced in script", 0)
        lines.append(f"| `{r['query']}` | {r['frame ms']:.1f} | "
                     + " | ".join(f"{r['ms'].get(k, 0):.1f}" for k in kinds)
                     + f" | {forced:.1f} | {r['elements styled']} | {r['objects laid out']} |")
    frame = [r["frame ms"] for r in rows]
    lines.append(f"\nmedian {statistics.median(frame):.1f} ms, slowest {max(frame):.1f} ms")
    return "\n".join(lines)
