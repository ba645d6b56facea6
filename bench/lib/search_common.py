"""What bench/search's timing runs (search.py) and its trace (search_trace.py, `bench/search --trace`) share: the
work folder, the CPU slowdown, the check that a query's results are in, and the Chromium both drive."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "Browser"))
from browserlib import CHROME_ARGS, CHROMEDRIVER, CHROMIUM  # noqa: E402

WORK = REPO / ".build" / "search-bench"
CPU_SLOWDOWN = 4

READY = """
const l = document.getElementById('search-results');
return !!l && l.getAttribute('data-query') === arguments[0] && !/Loading/.test(document.getElementById('search-status').textContent);
"""


def driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in CHROME_ARGS:
        options.add_argument(arg)
    service = Service(CHROMEDRIVER, log_output=str(WORK / "chromedriver.log"))
    made = webdriver.Chrome(options=options, service=service)
    made.set_script_timeout(60)
    return made
