"""bench/year's figures: one row a day, the growth target, the summary, the table for BENCHMARKS.md and the plot."""

import dataclasses
import json
import os
import statistics
import subprocess


@dataclasses.dataclass
class Row:
    day: int
    now: str
    seconds: float
    cpu_seconds: float
    load: float
    peak_kib: int
    cache_bytes: int
    output_bytes: int
    history_bytes: int
    api_requests: int
    image_requests: int
    images_downloaded: int
    pages_written: int
    bytes_pruned: int
    entries_pruned: int


@dataclasses.dataclass
class Report:
    """What bench/year reads of `vitrine build --json`."""

    images_downloaded: int
    pages_written: int
    bytes_removed: int
    entries_removed: int


def parse_report(text):
    summary = json.loads(text)["summary"]
    cache = summary.get("cache", {})
    return Report(
        images_downloaded=summary["imagesDownloaded"], pages_written=summary["pagesWritten"],
        bytes_removed=cache.get("bytesRemoved", 0), entries_removed=cache.get("entriesRemoved", 0))


FIELDS = [field.name for field in dataclasses.fields(Row)]


def append_tsv(path, row):
    new = not os.path.exists(path)
    with open(path, "a", encoding="utf-8") as file:
        if new:
            file.write("\t".join(FIELDS) + "\n")
        file.write("\t".join(str(getattr(row, name)) for name in FIELDS) + "\n")


def megabytes(count):
    return f"{count / 1_000_000:.1f} MB"


def day_line(row, rebuilt):
    return (f"day {row.day:3} {row.now[:10]}  {row.seconds:5.2f} s ({row.cpu_seconds:5.2f} s CPU, load "
            f"{row.load:4.1f})  {row.peak_kib / 1024:5.1f} MiB  cache "
            f"{megabytes(row.cache_bytes):>9}  output {megabytes(row.output_bytes):>9}  history "
            f"{row.history_bytes / 1000:7.1f} kB  {row.api_requests} searches  {row.image_requests:4} images asked  "
            f"{row.images_downloaded:4} downloaded  {row.pages_written:4} pages written  pruned "
            f"{megabytes(row.bytes_pruned)}" + ("  rebuilt identical" if rebuilt else ""))


def window(rows, last_day, days=5, measure="cpu_seconds"):
    """The median build time (CPU unless `measure` says otherwise) of the `days` days that end with `last_day`
    (0-based day numbers)."""
    chosen = [getattr(row, measure) for row in rows if last_day - days < row.day <= last_day]
    return statistics.median(chosen) if chosen else None


def growth_failures(rows):
    """The growth target: the last days' builds take at most 1.2 times days 26-30's (5-day medians)."""
    if len(rows) < 40:
        return []
    early, late = window(rows, 29), window(rows, rows[-1].day)
    if late > 1.2 * early:
        return [f"the last 5 days' builds take {late:.2f} s of CPU (median), over 1.2 times days 26-30's "
                f"{early:.2f} s"]
    return []


def commit():
    """The short commit of the tree the year is run from, read before the build."""
    result = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return result.stdout.strip() or "an unknown commit"


def machine(commit):
    cores = os.cpu_count()
    try:
        model = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo", encoding="utf-8")
                     if line.startswith("model name"))
    except (OSError, StopIteration):
        model = "unknown CPU"
    return f"{cores} cores ({model}), release build of {commit}"


def summary(rows, arguments):
    first, last = rows[0], rows[-1]
    lines = [
        f"{len(rows)} days of a {arguments.items}-item gallery, {arguments.new_per_day} new results a day, history "
        f"on, cache size {arguments.cache_max_size}; {machine(arguments.commit)}.",
        f"cache: {megabytes(first.cache_bytes)} after day 0, at most {megabytes(max(r.cache_bytes for r in rows))}, "
        f"{megabytes(last.cache_bytes)} after the last day; {megabytes(sum(r.bytes_pruned for r in rows))} pruned "
        f"in all.",
        f"output: {megabytes(first.output_bytes)} -> {megabytes(last.output_bytes)}; history.json: "
        f"{first.history_bytes / 1000:.1f} kB -> {last.history_bytes / 1000:.1f} kB "
        f"({(last.history_bytes - first.history_bytes) / max(len(rows) - 1, 1) / 1000:.2f} kB a day).",
        f"images asked: {first.image_requests} on day 0, then {statistics.mean(r.image_requests for r in rows[1:]) if len(rows) > 1 else 0:.1f} "
        f"a day; searches a day: {sorted({r.api_requests for r in rows[1:]}) or '-'}.",
    ]
    if len(rows) >= 40:
        early, late = window(rows, 29), window(rows, last.day)
        wall_early, wall_late = window(rows, 29, measure="seconds"), window(rows, last.day, measure="seconds")
        lines.append(f"build CPU time (5-day medians): days 26-30 {early:.2f} s, the last 5 days {late:.2f} s "
                     f"({late / early:.2f}x; the target is at most 1.2x); wall time {wall_early:.2f} s and "
                     f"{wall_late:.2f} s ({wall_late / wall_early:.2f}x).")
    return "\n".join(lines)


def markdown_table(rows, arguments):
    chosen = sorted({0, 1, 29, 59, 89, 179, 269, rows[-1].day} & {row.day for row in rows})
    lines = [
        "| day | build (CPU) | peak RSS | cache | output | history.json | searches | images asked | downloaded "
        "| pruned |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in (rows[day] for day in chosen):
        lines.append(
            f"| {row.day + 1} | {row.seconds:.2f} s ({row.cpu_seconds:.2f} s) | {row.peak_kib / 1024:.0f} MiB | {megabytes(row.cache_bytes)} | "
            f"{megabytes(row.output_bytes)} | {row.history_bytes / 1000:.0f} kB | {row.api_requests} | "
            f"{row.image_requests} | {row.images_downloaded} | {megabytes(row.bytes_pruned)} |")
    return "\n".join(lines)


def plot(tsv, path, arguments):
    """Draws the curves with Debian's Python and python3-matplotlib (installed when missing): the Python running
    this script may be another one."""
    python = "/usr/bin/python3"
    check = subprocess.run([python, "-c", "import matplotlib"], capture_output=True)
    if check.returncode != 0:
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True)
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "python3-matplotlib"], check=True,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"), stdout=subprocess.DEVNULL)
    title = (f"bench/year: {arguments.items} items, {arguments.new_per_day} new a day, history on, cache size "
             f"{arguments.cache_max_size}")
    subprocess.run([python, os.path.join(os.path.dirname(os.path.abspath(__file__)), "year_plot.py"), tsv, path,
                    str(arguments.max_bytes), title], check=True)
