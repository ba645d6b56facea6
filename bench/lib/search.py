"""bench/search's measuring part (issue 27): the search of the albums set (5,000 photos) and of the Pixabay demo in
headless Chromium with the CPU throttled 4x, or with --site the site-wide search of a `vitrine build` site of five
galleries of 1,000 photos each. Run through bench/search. Every process started is stopped, also on an error or
Ctrl-C."""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
import os
import platform
import shutil
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "Browser"))
from browserlib import Nginx, SampleAPI, free_port, quit_driver, run  # noqa: E402
from search_common import CPU_SLOWDOWN, READY, WORK, driver  # noqa: E402
import search_trace  # noqa: E402

BUDGET_MS = 100
BUDGET_GZIP_BYTES = 60
# Typed a key at a time; each key's latency is measured.
QUERIES = {
    "albums": ["qui", "dolorem", "quia est", "voluptatem magnam", "e", "zzz"],
    "pixabay": ["harbour", "hamburg", "port ship", "e", "zzz"],
}
QUERIES["site"] = QUERIES["albums"]
# The site of --site: five galleries of JSONPlaceholder's albums, 1,000 photos each (users x albums of 50 photos;
# the sample API serves 10 users of 10 albums, so the fifth repeats the first's photos under a folder of its own).
SITE_GALLERIES = [(2, 10), (10, 2), (5, 4), (4, 5), (2, 10)]

# Sets the box to `query`, fires the input event as a key does, and reports when the next frame has been drawn:
# the script's work (t_script) and the time to the frame with the results (t_frame), in ms.
TYPE = """
const done = arguments[arguments.length - 1];
const box = document.getElementById('search-box');
box.value = arguments[0];
const t0 = performance.now();
box.dispatchEvent(new Event('input', {bubbles: true}));
const t1 = performance.now();
requestAnimationFrame(() => setTimeout(() => done({script: t1 - t0, frame: performance.now() - t0,
  results: document.querySelectorAll('#search-results > li').length,
  status: document.getElementById('search-status').textContent}), 0));
"""


def load_average() -> float:
    return os.getloadavg()[0]


def cpu_ticks() -> list[int]:
    """The host's processor time so far, all cores, from /proc/stat's first line: user, nice, system, idle, iowait,
    irq, softirq, steal (the time the hypervisor gave this machine's virtual cores to someone else)."""
    with open("/proc/stat", encoding="ascii") as stat:
        return [int(field) for field in stat.readline().split()[1:9]]


def host_share(before: list[int], after: list[int]) -> dict:
    """Of the processor time between two `cpu_ticks`: the share stolen by the hypervisor and the share busy (neither
    idle nor stolen), in per cent."""
    spent = [b - a for a, b in zip(before, after)]
    total = sum(spent) or 1
    return {"steal_pct": 100 * spent[7] / total, "busy_pct": 100 * (total - spent[3] - spent[4] - spent[7]) / total}


def build(binary: str, out: Path, cache: Path, args: list[str], port: int, templates: str = "") -> float:
    shutil.rmtree(out, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PIXABAY_API_KEY", "FLICKR_API_KEY")}
    env["XDG_CACHE_HOME"] = str(WORK / "xdg-cache")
    start = time.monotonic()
    if templates:
        args = [*args, "--templates", templates]
    run([binary, "demo", *args, "--port", str(port), "--out", str(out), "--cache", str(cache), "--quiet"],
        timeout=900, env=env)
    return time.monotonic() - start


def build_site(binary: str, out: Path, cache: Path, base: str, templates: str = "") -> float:
    """`vitrine build` of SITE_GALLERIES from the running sample API at `base` (the photos are hotlinked from it)."""
    shutil.rmtree(out, ignore_errors=True)
    config = WORK / "site.toml"
    config.write_text('title = "Albums"\nhistory = false\n' + "".join(
        f'\n[[gallery]]\nsource = "albums"\npath = "gallery-{n}"\nusers = {users}\nalbums = {albums}\n'
        f'endpoint = "{base.rstrip("/")}"\nimage-endpoint = "{base}"\n'
        for n, (users, albums) in enumerate(SITE_GALLERIES, 1)), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PIXABAY_API_KEY", "FLICKR_API_KEY")}
    env["XDG_CACHE_HOME"] = str(WORK / "xdg-cache")
    start = time.monotonic()
    extra = ["--templates", templates] if templates else []
    run([binary, "build", "--config", str(config), "--out", str(out), "--cache", str(cache), *extra, "--quiet"],
        timeout=900, env=env)
    return time.monotonic() - start


def index_size(site: Path) -> dict:
    raw = (site / "search-index.js").read_bytes()
    text = raw.decode("utf-8")
    data = json.loads(text[text.index("(") + 1:text.rindex(")")])
    count = len(data["items"])
    gz6 = len(gzip.compress(raw, 6, mtime=0))
    gz9 = len(gzip.compress(raw, 9, mtime=0))
    return {"entries": count, "raw": len(raw), "gzip6": gz6, "gzip9": gz9,
            "raw_per_entry": len(raw) / count, "gzip6_per_entry": gz6 / count, "gzip9_per_entry": gz9 / count}


def measure(url: str, queries: list[str], runs: int, width: int) -> dict:
    """A fresh Chromium per run: the page opened cold with ?q= (time to the first results), then each query typed."""
    cold, marks, keys, scripts = [], [], {q: [] for q in queries}, {q: [] for q in queries}
    counts, hosts = {}, []
    for _ in range(runs):
        ticks = cpu_ticks()
        slowest = 0.0
        browser = driver()
        try:
            browser.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
            first = queries[0]
            browser.get(f"{url}?q={first}")
            deadline = time.monotonic() + 60
            while not browser.execute_script(READY, first):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"no results for {first} within 60 s")
                time.sleep(0.005)
            # from navigation start to the results, as the page measured it
            cold.append(browser.execute_script(
                "return performance.now() - performance.getEntriesByType('navigation')[0].startTime"))
            # when the index had come and when the page's load event ended (the typing starts after both)
            marks.append(browser.execute_script(
                "const n = performance.getEntriesByType('navigation')[0];"
                "const i = performance.getEntriesByType('resource').find(e => e.name.includes('search-index'));"
                "return {index: i ? i.responseEnd - n.startTime : null, load: n.loadEventEnd - n.startTime};"))
            for query in queries:
                for n in range(1, len(query) + 1):
                    result = browser.execute_async_script(TYPE, query[:n])
                    keys[query].append(result["frame"])
                    scripts[query].append(result["script"])
                    slowest = max(slowest, result["frame"])
                counts[query] = result["results"], result["status"]
                browser.execute_async_script(TYPE, "")
        finally:
            quit_driver(browser)
        hosts.append({"slowest_key_ms": slowest, **host_share(ticks, cpu_ticks())})
    return {"cold_ms": cold, "cold_marks_ms": marks, "keys_ms": keys, "script_ms": scripts, "counts": counts,
            "runs": hosts}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default="")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--width", type=int, default=1440)
    parser.add_argument("--templates", default="",
                        help="a theme folder for the sites (vitrine's --templates): another version to compare")
    parser.add_argument("--site", action="store_true",
                        help="instead of the two galleries, the site-wide search (the root search.html and its "
                             "search-index.js) of a `vitrine build` site of five galleries of 1,000 photos each")
    parser.add_argument("--trace", action="store_true",
                        help="instead of the timing runs, one traced run of the albums queries: where each key's "
                             "frame goes (trace-report.md, and trace.json for DevTools' Performance panel)")
    parser.add_argument("--cold", action="store_true",
                        help="with --trace: the queries typed as the timing runs type them (right after the cold "
                             "load's first results, a key a frame, no pause)")
    args = parser.parse_args()
    binary = args.binary
    if not binary:
        print("== swift build --product vitrine", flush=True)
        run(["swift", "build", "--product", "vitrine"], timeout=3600, cwd=REPO)
        binary = str(REPO / ".build" / "debug" / "vitrine")
    os.environ["VITRINE_BIN"] = binary
    WORK.mkdir(parents=True, exist_ok=True)
    root = WORK / "sites"
    root.mkdir(exist_ok=True)
    load_before = load_average()
    port = free_port()
    if not args.site:
        build(binary, root / "pixabay", WORK / "cache-pixabay", ["--source", "pixabay"], port, args.templates)
        port = free_port()
        build(binary, root / "albums", WORK / "cache-albums", ["--source", "albums", "--users", "10", "--albums", "10"],
              port, args.templates)
    api = SampleAPI(WORK / "sample-api.log", dict(os.environ))  # the albums' photos are hotlinked from it
    nginx = Nginx(root, WORK / "nginx")
    results = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
               "templates": args.templates or "the binary's own",
               "machine": f"{platform.node()}: {os.cpu_count()} cores, {platform.platform()}",
               "cpu_slowdown": CPU_SLOWDOWN, "runs": args.runs, "width": args.width, "sites": {}}
    try:
        api.start(port)
        if args.site:
            build_site(binary, root / "site", WORK / "cache-site", api.base, args.templates)
        nginx.start("site/index.html" if args.site else "albums/index.html")
        if args.trace:
            rows = search_trace.trace(
                f"http://127.0.0.1:{nginx.port}/{'site' if args.site else 'albums'}/search.html",
                QUERIES["albums"], args.width, WORK / "trace.json", cold=args.cold)
            text = (f"bench/search --trace{' --cold' if args.cold else ''}, {results['date']}, "
                    f"load average {load_before:.2f} before, "
                    f"{load_average():.2f} after; CPU {CPU_SLOWDOWN}x slower, {args.width} px\n\n"
                    f"{search_trace.report(rows)}\n")
            (WORK / "trace-report.md").write_text(text)
            print(text)
            return 0
        for name in ("site",) if args.site else ("albums", "pixabay"):
            site = root / name
            results["sites"][name] = {"index": index_size(site), **measure(
                f"http://127.0.0.1:{nginx.port}/{name}/search.html", QUERIES[name], args.runs, args.width)}
    finally:
        nginx.stop()
        api.stop()
    results["load_before"] = load_before
    results["load_after"] = load_average()
    (WORK / "results.json").write_text(json.dumps(results, indent=1))
    lines = [f"bench/search, {results['date']}, {results['machine']}; CPU {CPU_SLOWDOWN}x slower, "
             f"{args.runs} runs, {args.width} px; load average {load_before:.2f} before, "
             f"{results['load_after']:.2f} after", "",
             "| site | query | results | keys typed | median ms a key (script) | first key: median, slowest ms "
             "| slowest ms | within 100 ms |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, site in results["sites"].items():
        lines.append(f"| {name} | cold load with ?q={QUERIES[name][0]} (page, index, results) | — | — | "
                     f"{statistics.median(site['cold_ms']):.0f} | — | {max(site['cold_ms']):.0f} | — |")
        every = []
        for query, times in site["keys_ms"].items():
            count = site["counts"][query][0]
            firsts = times[::len(query)]  # each run's keys in turn: the query's first key (from an empty box)
            every += times
            lines.append(f"| {name} | `{query}` | {site['counts'][query][1]} ({count} shown) | {len(query)} | "
                         f"{statistics.median(times):.1f} ({statistics.median(site['script_ms'][query]):.1f}) | "
                         f"{statistics.median(firsts):.1f}, {max(firsts):.1f} | {max(times):.1f} | "
                         f"{'yes' if max(times) <= BUDGET_MS else 'no'} |")
        lines.append(f"| {name} | every key ({len(every) // args.runs} a run) | — | — | {statistics.median(every):.1f} | "
                     f"— | {max(every):.1f} | {sum(t <= BUDGET_MS for t in every)} of {len(every)} |")
    lines += ["", "| site | entries | index bytes | a entry raw | gzip -6 a entry | gzip -9 a entry | ≤ 60 B |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, site in results["sites"].items():
        i = site["index"]
        lines.append(f"| {name} | {i['entries']} | {i['raw']} | {i['raw_per_entry']:.1f} | "
                     f"{i['gzip6_per_entry']:.1f} | {i['gzip9_per_entry']:.1f} | "
                     f"{'yes' if i['gzip6_per_entry'] <= BUDGET_GZIP_BYTES else 'no'} |")
    # Whether a slow key follows the host: each run's slowest key beside the share of the machine's processor time
    # the hypervisor stole and the share busy (this benchmark's Chromium included) while the run lasted.
    lines += ["", "| site | run | slowest key ms | host steal % | host busy % |", "| --- | --- | --- | --- | --- |"]
    for name, site in results["sites"].items():
        for number, host in enumerate(site["runs"], 1):
            lines.append(f"| {name} | {number} | {host['slowest_key_ms']:.1f} | {host['steal_pct']:.1f} | "
                         f"{host['busy_pct']:.1f} |")
    report = "\n".join(lines) + "\n"
    (WORK / "report.md").write_text(report)
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
