"""Draws bench/year's curves from its year.tsv into a PNG: sizes on the left (history.json on its own axis), build
time and images asked on the right. Run by bench/year with Debian's Python: python3 year_plot.py YEAR.TSV OUT.PNG CACHE-MAX-BYTES TITLE"""

import csv
import sys

import matplotlib

matplotlib.use("Agg")
from matplotlib import pyplot  # noqa: E402


def main(tsv, path, max_bytes, title):
    with open(tsv, encoding="utf-8") as file:
        rows = list(csv.DictReader(file, delimiter="\t"))
    days = [int(row["day"]) + 1 for row in rows]

    def series(name, scale=1.0):
        return [float(row[name]) * scale for row in rows]

    figure, (sizes, work) = pyplot.subplots(1, 2, figsize=(12, 4.5), dpi=100)
    sizes.plot(days, series("cache_bytes", 1e-6), label="cache")
    sizes.plot(days, series("output_bytes", 1e-6), label="output")
    sizes.axhline(max_bytes / 1e6, color="grey", linestyle="--", linewidth=1, label="cache size")
    sizes.set_xlabel("day")
    sizes.set_ylabel("MB")
    sizes.set_ylim(bottom=0)
    sizes.set_title("What a year of daily builds keeps")
    history = sizes.twinx()
    history.plot(days, series("history_bytes", 1e-3), label="history.json (kB, right)", color="tab:green")
    history.set_ylabel("history.json, kB")
    history.set_ylim(bottom=0)
    handles, labels = sizes.get_legend_handles_labels()
    more_handles, more_labels = history.get_legend_handles_labels()
    sizes.legend(handles + more_handles, labels + more_labels, loc="center right")
    work.plot(days, series("seconds"), label="build, wall (s)", color="tab:red")
    work.plot(days, series("cpu_seconds"), label="build, CPU (s)", color="tab:orange")
    work.set_xlabel("day")
    work.set_ylabel("seconds")
    work.set_ylim(bottom=0)
    work.set_title("What each day's build costs")
    images = work.twinx()
    images.plot(days, series("image_requests"), label="images asked", color="tab:purple", alpha=0.5)
    images.set_ylabel("images asked")
    images.set_yscale("log")
    handles, labels = work.get_legend_handles_labels()
    more_handles, more_labels = images.get_legend_handles_labels()
    work.legend(handles + more_handles, labels + more_labels, loc="upper right")
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4])
