"""bench/visitor's measuring part (issue 26): what a visitor gets from the Vitrine demo and from sigal's photoswipe
gallery of the same 20 pictures, in headless Chromium under Lighthouse's slow-4G profile with the CPU throttled 4x.

Run through bench/visitor, which installs Chromium, chromedriver and nginx from Debian and this script's Python
packages (sigal, selenium) into .build/visitor/venv. Every wait has a timeout; every process started is stopped, also
on Ctrl-C or an error.

This file is its command line; its parts are the visitor_*.py modules beside it.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import shutil
import signal
import socket
import sys
from pathlib import Path

import grid_variants  # bench/lib, beside this file
from visitor_conditions import (
    CLICKS, COMPRESSIONS, CPU_SLOWDOWN, DOWNLOAD_BYTES_PER_S, LATENCY_MS, PRERENDER_WIDTH, REPO, REST_MS, TAP_MS, TOOLS,
    UPLOAD_BYTES_PER_S, VIEWPORTS, WORK, Case,
)
from visitor_machine import BUSY_CORES, OTHER_WORK, git_build, machine
from visitor_sites import TwoNginx, build_binary, build_sigal, build_vitrine, demo_pictures, prerender_site
from visitor_relay import SlowLink
from visitor_measure import measure
from visitor_report import fmt, progress, report, summarize
from visitor_checks import prerender_check, self_check, throttle_check


class UsageParser(argparse.ArgumentParser):
    """Bad options exit 64 (EX_USAGE), as bench/run's do."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(64, f"{self.prog}: {message}\n")


def main() -> int:
    parser = UsageParser(prog="bench/visitor", description="What a visitor gets from the Vitrine demo and from "
                         "sigal's photoswipe gallery of the same pictures, in Chromium under slow 4G (issue 26).")
    parser.add_argument("--runs", type=int, default=10,
                        help="cold loads per tool, viewport, click and compression (median; default 10)")
    parser.add_argument("--binary", type=Path, default=REPO / ".build" / "release" / "vitrine",
                        help="the vitrine to measure (default .build/release/vitrine)")
    parser.add_argument("--no-build", action="store_true",
                        help="no `swift build -c release --static-swift-stdlib` first: --binary as it is")
    parser.add_argument("--label", help="what to call the build in the report (default: the worktree's commit, "
                        "or the binary's name with --no-build)")
    parser.add_argument("--only", choices=sorted(TOOLS), help="measure one tool only")
    parser.add_argument("--formats", default="avif,webp", metavar="LIST",
                        help="build the demo with `--formats LIST` (avif, webp or both; default avif,webp, as the "
                        "starter config of `vitrine init` publishes; none: the demo's own, the APIs' JPEGs alone)")
    parser.add_argument("--templates", default="", metavar="DIR",
                        help="build the demo with vitrine's `--templates DIR` (a theme folder, as `vitrine theme "
                             "export` writes it): another version of the pages to compare with the built-in theme")
    parser.add_argument("--grid-variant", default="", metavar="NAMES",
                        help="rewrite the demo's grid page after the build with these named changes, comma-separated "
                        f"({', '.join(grid_variants.VARIANTS)}; bench/lib/grid_variants.py): a change of the page's "
                        "structure measured without a theme of its own (bench/visitor-ab measures variants in turns)")
    parser.add_argument("--viewports", default="1440 375", help='widths among "1440 375" (default both)')
    parser.add_argument("--click", default="person,instant", metavar="LIST",
                        help="how the first tile is clicked, comma-separated, each in loads of its own (default "
                        f"person,instant): person, a mouse that rests {REST_MS} ms on the tile before it presses and "
                        f"releases at 1440, a finger's tap at 375 (touchStart, touchEnd {TAP_MS} ms later); instant, a "
                        "mouse that presses and releases at once; the time counts from the press")
    parser.add_argument("--hover", type=int, metavar="MS",
                        help=f"with --click person at 1440: the pointer's rest on the tile (default {REST_MS})")
    parser.add_argument("--compression", choices=("on", "off", "both"), default="both",
                        help="on: nginx gzips HTML, CSS, JS, JSON and SVG; off: every file as it is (a second server "
                        "of the same nginx); both (default): loads of each")
    parser.add_argument("--throttle", choices=("relay", "devtools"), default="relay",
                        help="the slow network: relay (default) a TCP relay of ours that every request goes through; "
                        "devtools: Network.emulateNetworkConditions on every page (prerendered ones too)")
    parser.add_argument("--trace", action="store_true",
                        help="record each grid load's Chromium trace (.build/visitor/traces/) and sum up its main "
                        "thread's work up to LCP in results.json (`lcp_work`); tracing slows the page, so the "
                        "figures of such a run are for finding where the time goes, not for the table")
    parser.add_argument("--self-check", action="store_true",
                        help="one load of each tool at 1440 (an instant click, compression on) and two controls "
                        "(no throttling; a prerendered preview page), then check that every figure is there and "
                        "plausible; exit 1 if not")
    args = parser.parse_args()
    try:
        widths = [int(w) for w in args.viewports.split()]
    except ValueError:
        widths = []
    clicks = args.click.split(",")
    if (not widths or any(w not in VIEWPORTS for w in widths) or args.runs < 1 or (args.hover or 0) < 0
            or any(c not in CLICKS for c in clicks) or len(set(clicks)) != len(clicks)):
        parser.error(f"--viewports takes widths among {' '.join(map(str, VIEWPORTS))}, --runs a number from 1, "
                     f"--hover one from 0, --click each of {','.join(CLICKS)} at most once")
    compressions = list(COMPRESSIONS) if args.compression == "both" else [args.compression]
    rest_ms = REST_MS if args.hover is None else args.hover
    try:
        variants = grid_variants.parse(args.grid_variant)
    except ValueError as error:
        parser.error(str(error))
    if args.self_check and args.only:
        parser.error("--self-check measures both tools: leave out --only")
    if args.self_check:
        args.runs, widths, clicks, compressions = 1, [1440], ["instant"], ["on"]
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
    site = build_vitrine(binary, "" if args.formats == "none" else args.formats, args.templates)
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
    server = TwoNginx(WORK, WORK / "nginx")
    load_before = " ".join(f"{v:.2f}" for v in os.getloadavg())
    OTHER_WORK.start()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    # Each load clicks one way: the click opens the photo. In turns, so that a change in the machine's load hits all.
    cases = [Case(t.key, w, c, z) for w in widths for c in clicks for z in compressions for t in tools]
    runs: dict[Case, list[dict]] = {case: [] for case in cases}
    relays = {z: SlowLink(0) for z in compressions}  # one in front of each of nginx's servers
    try:
        server.start(probe=tools[0].grid)
        for compression, relay in relays.items():
            relay.upstream = server.port_for(compression)
            relay.start()
        bases = {z: relays[z].url if args.throttle == "relay" else server.url_for(z) for z in compressions}
        for number in range(args.runs):
            for case in cases:
                tool = TOOLS[case.tool]
                trace = None
                if args.trace:
                    (WORK / "traces").mkdir(exist_ok=True)
                    trace = WORK / "traces" / f"{'-'.join(map(str, case))}-{number + 1}.json"
                r = measure(tool, case.width, bases[case.compression], logs, WORK, case.click, rest_ms, args.throttle,
                            trace)
                runs[case].append({**case._asdict(), **r})
                print(f"   {tool.label} at {case.width}, {case.click} click, compression {case.compression}, "
                      f"run {number + 1}: {progress(r)}", flush=True)
        if args.self_check:
            control = measure(tools[-1], widths[0], server.url, logs, WORK, "instant", rest_ms, "none")
            print(f"   {tools[-1].label} at {widths[0]}, without throttling: LCP {fmt(control['lcp_ms'])} ms, "
                  f"click {fmt(control['click_ms'])} ms", flush=True)
            prerender = dataclasses.replace(TOOLS["vitrine"], grid=prerender_site(site))
            prerendered = measure(prerender, PRERENDER_WIDTH, bases["on"], logs, WORK, "instant", rest_ms,
                                  args.throttle)
            print(f"   Vitrine prerendering the first preview page: click {fmt(prerendered['click_ms'])} ms, its photo "
                  f"fetched in {fmt((prerendered['photo_fetch'] or {}).get('ms'))} ms", flush=True)
    finally:
        OTHER_WORK.take()  # nginx's
        for relay in relays.values():
            relay.stop()
        server.stop()
    load_after = " ".join(f"{v:.2f}" for v in os.getloadavg())
    other_cores = OTHER_WORK.cores()

    results = {case: summarize(group) for case, group in runs.items()}
    label = args.label or (git_build() if not args.no_build else f"{binary.name} (--no-build; worktree {git_build()})")
    meta = {"date": date, "build": label,
            "binary": str(binary), "machine": machine(), "load_before": load_before, "load_after": load_after,
            "other_cores": other_cores,
            "runs": args.runs, "viewports": widths, "clicks": clicks, "rest_ms": rest_ms, "tap_ms": TAP_MS,
            "compressions": compressions, "throttle": args.throttle,
            "formats": args.formats, "templates": args.templates, "grid_variant": variants,
            "profile": {"latency_ms": LATENCY_MS, "download_bytes_per_s": DOWNLOAD_BYTES_PER_S,
                        "upload_bytes_per_s": UPLOAD_BYTES_PER_S, "cpu_slowdown": CPU_SLOWDOWN}}
    text = report(results, runs, meta)
    (WORK / "report.md").write_text(text + "\n", encoding="utf-8")
    (WORK / "results.json").write_text(json.dumps({  # a list of the cases' medians, and every load (its case named)
        "meta": meta, "summary": [{**case._asdict(), **summary} for case, summary in results.items()],
        "runs": [r for group in runs.values() for r in group]}, indent=1), encoding="utf-8")
    print()
    print(text)
    if other_cores > BUSY_CORES:
        print(f"bench/visitor: other processes took {other_cores:.2f} cores on average during the run; run it again "
              "when the machine is quiet before comparing.", file=sys.stderr)
    if args.self_check:
        problems = self_check(runs)
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
