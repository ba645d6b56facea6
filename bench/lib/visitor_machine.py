"""bench/visitor's record of the machine a run had: the CPU time other processes took meanwhile (a busy run's figures
are not comparable), the processor, Chromium's and the packages' versions, and the build measured."""

from __future__ import annotations

import contextlib
import importlib.metadata
import os
import time
from pathlib import Path

from visitor_conditions import REPO
from browserlib import CHROMIUM, run  # Tests/Browser: on the path through visitor_conditions


BUSY_CORES = 0.3  # other processes' average above which a run is marked busy (helpers that exit early count too)
OTHER_WORK_NOTE = " (**busy**: the figures are not comparable with a quiet run's)"


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
