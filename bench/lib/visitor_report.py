"""bench/visitor's report: the medians of each case's loads, the issue's table (a row per tool, viewport, click and
compression) with the targets met beside sigal's, each load's line as the run goes, and report.md's text."""

from __future__ import annotations

import statistics
import urllib.parse

import grid_variants  # bench/lib, beside this file
from visitor_conditions import (
    CLICKS, COMPRESSIONS, CPU_SLOWDOWN, DOWNLOAD_BYTES_PER_S, LATENCY_MS, SETTLE_QUIET_S, THROTTLES, TOOLS,
    UPLOAD_BYTES_PER_S, Case,
)
from visitor_machine import BUSY_CORES, OTHER_WORK_NOTE


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
    return " ".join("–" if c is None else ("✔" if c else "✘") for c in checks)


# The table's medians: the key in a case's summary, the column, unit, digits, scale; the target for Vitrine,
# whether its figure meets it given sigal's in the same case, and whether that takes sigal's figure.
FIGURES = (
    ("lcp_ms", "grid LCP", " ms", 0, 1, "≤ sigal's", lambda a, b: a <= b, True),
    ("bytes_per_picture", "image bytes per grid picture", " KB", 1, 1000, "≤ 1.25× sigal's",
     lambda a, b: a <= 1.25 * b, True),
    ("click_ms", "click on the first picture until the large photo shows", " ms", 0, 1, "≤ sigal's",
     lambda a, b: a <= b, True),
    ("cls", "grid CLS", "", 3, 1, "0", lambda a, _: a == 0, False),
    ("sharpness", "first tile: image px per device px", "", 2, 1, "≥ 1", lambda a, _: a >= 1, False),
)


def table(results: dict[Case, dict]) -> str:
    """The issue's table: a row of medians per tool, viewport, click and compression, Vitrine's above sigal's of the
    same conditions, and on Vitrine's rows ✔/✘ per target."""
    lines = ["| tool | viewport | click | compression | " + " | ".join(f[1] for f in FIGURES) + " | targets met |",
             "| --- " * (len(FIGURES) + 5) + "|"]
    for case, summary in results.items():
        cells = [fmt(None if summary[key] is None else summary[key] / scale, unit, digits)
                 for key, _, unit, digits, scale, *_ in FIGURES]
        met = ""
        if case.tool == "vitrine":
            theirs = results.get(case._replace(tool="sigal"), {})
            met = verdict([None if summary[key] is None or (beside and theirs.get(key) is None)
                           else ok(summary[key], theirs.get(key)) for key, *_, ok, beside in FIGURES])
        lines.append(f"| {TOOLS[case.tool].label} | {case.width} | {case.click} | {case.compression} | "
                     f"{' | '.join(cells)} | {met} |")
    lines += ["", "Targets met: ✔/✘ on Vitrine's rows in the columns' order, against sigal's row below it (the same "
              "viewport, click and compression); – where a figure is missing. The targets: "
              + "; ".join(f"{heading} {target}" for _, heading, _, _, _, target, *_ in FIGURES) + "."]
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


def report(results: dict[Case, dict], runs: dict[Case, list[dict]], meta: dict) -> str:
    lines = [
        f"Visitor speed (bench/visitor), {meta['date']}, build {meta['build']} ({meta['binary']}).",
        f"{meta['machine']['nproc']} cores ({meta['machine']['cpu']}); load average (1, 5, 15 min) before: "
        f"{meta['load_before']}; after: {meta['load_after']}; other processes than this run's: "
        f"{meta['other_cores']:.2f} cores on average{OTHER_WORK_NOTE if meta['other_cores'] > BUSY_CORES else ''}. "
        f"{meta['machine']['chromium']}, "
        f"sigal {meta['machine']['sigal']}, selenium {meta['machine']['selenium']}.",
        f"Slow 4G ({LATENCY_MS} ms, {DOWNLOAD_BYTES_PER_S * 8 / 1e6:g} Mbit/s down, "
        f"{UPLOAD_BYTES_PER_S * 8 / 1e3:g} kbit/s up; {THROTTLES[meta['throttle']]}), CPU {CPU_SLOWDOWN}x slower "
        f"(Emulation.setCPUThrottlingRate); each row the median of {meta['runs']} cold loads (a fresh Chromium "
        "profile each, one click each), the rows' loads in turns. nginx on loopback (HTTP/1.1), one process with a "
        "server block on a port of its own for each compression: "
        + "; ".join(f"{z}, {COMPRESSIONS[z]}" for z in meta["compressions"]) + ". Clicks: "
        + "; ".join(f"{c}, {CLICKS[c].format(rest=meta['rest_ms'])}" for c in meta["clicks"])
        + ". Vitrine's demo built with "
        + (f"`--formats {meta['formats']}`" if meta.get('formats') not in (None, "", "none")
           else "its default formats (the APIs' JPEGs)")
        + (f" and the theme folder `{meta['templates']}`" if meta.get('templates') else "")
        + (f"; its grid page rewritten: {'; '.join(grid_variants.VARIANTS[v][0] for v in meta['grid_variant'])}."
           if meta.get('grid_variant') else "."),
        "",
        table(results),
        "",
        "How: LCP = the last 'largest-contentful-paint' entry once the grid has settled (loaded, no request for "
        f"{SETTLE_QUIET_S:g} s). Image bytes = the encoded body bytes (Resource Timing) of every image response of "
        "the grid page, divided by the grid pictures whose image loaded (KB = 1,000 bytes). Click = from the press "
        "at the first tile's centre (CDP mousePressed, or a tap's touchStart) to the large photo's paint (its "
        "Element Timing renderTime, in the browser's clock; Vitrine: " + TOOLS["vitrine"].photo_method + "; sigal: "
        + TOOLS["sigal"].photo_method + "); from the release (a tap's touchEnd) Runtime.evaluate polls every 5 ms (or "
        "as soon as the page's busy main thread answers) until the photo is loaded and in the viewport ('poll saw "
        "it', from the press). "
        "CLS = the largest session window of layout shifts without recent input (1 s gap, 5 s cap). Sharpness = "
        "the first tile's image file width ÷ (its CSS content width × DPR).",
        "",
        "| tool | viewport | click | compression | grid pictures loaded | grid image requests | LCP element "
        "| click: images fetched | click: poll saw it | poll gap median / max | LCP min–max | click min–max |",
        "| --- " * 12 + "|",
    ]

    def name(url: str | None) -> str:
        return "/".join(urllib.parse.urlsplit(url).path.split("/")[-2:]) if url else "–"

    def spread(summary: dict, key: str) -> str:
        low, high = summary["range"].get(key, [None, None])
        return f"{fmt(low)}–{fmt(high)} ms"

    for case, summary in results.items():
        last = runs[case][-1]
        element = (last["lcp_element"] or "–").split(" ")
        fetched = [f"{name(i['url'])} {(i['wire_bytes'] or 0) / 1000:.0f} KB" for i in last["click_images"]]
        lines.append(
            f"| {TOOLS[case.tool].label} | {case.width} | {case.click} | {case.compression} "
            f"| {last['tiles_loaded']} of {last['tiles']} | {last['image_requests']} "
            f"| {element[0]} {name(element[1]) if len(element) > 1 else ''} | {', '.join(fetched) or 'none'} "
            f"| {fmt(last['click_poll_ms'])} ms | {last['click_poll_gap_median_ms']:.1f} / "
            f"{last['click_poll_gap_max_ms']:.1f} ms | {spread(summary, 'lcp_ms')} | {spread(summary, 'click_ms')} |")
    lines.append("")
    lines.append("(the last run's details; every run's figures are in .build/visitor/results.json)")
    return "\n".join(lines)
