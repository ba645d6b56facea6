"""bench/visitor --self-check's checks: what a broken harness would get wrong (no LCP, no bytes, no throttling, a
page served compressed or not against the case's word, a prerendered page that escapes the emulation), each found
problem one line."""

from __future__ import annotations

from visitor_conditions import DOWNLOAD_BYTES_PER_S, LATENCY_MS, VIEWPORTS, Case
from visitor_relay import Link
from visitor_report import fmt


def self_check(runs: dict[Case, list[dict]]) -> list[str]:
    """What a broken harness would get wrong: no LCP, no bytes, a click that never reached the photo, no throttling,
    the grid page gzipped or not against its case's compression."""
    problems = []
    for case, group in runs.items():
        width = case.width
        for r in group:
            where = f"{case.tool} at {width}, {case.click} click, compression {case.compression}"
            if not (r["lcp_ms"] and r["lcp_ms"] > 0):
                problems.append(f"{where}: no LCP")
            if not (r["image_bytes"] > 0 and r["tiles_loaded"] > 0):
                problems.append(f"{where}: no grid image loaded")
            if not (r["click_ms"] > 0):
                problems.append(f"{where}: the click did not reach the photo")
            nav = r["navigation"] or {}
            if nav.get("responseEnd", 0) < LATENCY_MS:
                problems.append(f"{where}: the grid page's HTML came sooner than the {LATENCY_MS} ms latency")
            encoded, decoded = nav.get("encodedBodySize"), nav.get("decodedBodySize")
            if not encoded or (encoded < decoded) != (case.compression == "on"):
                problems.append(f"{where}: the grid page's HTML came as {fmt(encoded)} bytes for {fmt(decoded)}: "
                                + ("not gzipped" if case.compression == "on" else "compressed"))
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
