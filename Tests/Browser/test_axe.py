"""axe-core (the copy shipped in pytest-playwright-axe, injected from the wheel's file: no network) finds no
violation on any page kind: from nginx and from disk, in the light and the dark scheme, wide and narrow."""

import pytest

from browserlib import KINDS
from conftest import VERSIONS

# (origin, colour scheme, width)
RUNS = [("http", "light", 1440), ("file", "light", 1440), ("http", "dark", 1440), ("http", "light", 375)]

RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']}).then(
  r => done({version: axe.version, violations: r.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
    nodes: v.nodes.map(n => ({target: n.target, html: n.html, summary: n.failureSummary})),
  }))}),
  e => done({error: String(e && e.stack || e)}));
"""


def run_axe(browser, axe_source) -> dict:
    browser.js(axe_source)
    result = browser.driver.execute_async_script(RUN_AXE)
    assert "error" not in result, result.get("error")
    VERSIONS["axe-core"] = result["version"]
    return result


def format_violations(violations):
    lines = []
    for v in violations:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']} [{v['helpUrl']}]")
        for n in v["nodes"]:
            lines.append(f"    {' '.join(map(str, n['target']))}: {n['html'][:200]}")
            lines.append("      " + (n["summary"] or "").replace("\n", "\n      "))
    return "\n".join(lines)


@pytest.mark.parametrize("origin,scheme,width", RUNS, ids=[f"{o}-{s}-{w}" for o, s, w in RUNS])
@pytest.mark.parametrize("kind", KINDS)
def test_axe(kind, origin, scheme, width, browser, pages, axe_source):
    site, href = pages.resolve(kind)
    browser.viewport(width)
    browser.color_scheme(scheme)
    browser.open(pages.url(origin, site, href))
    result = run_axe(browser, axe_source)
    violations = result["violations"]
    assert not violations, (
        f"axe-core {result['version']}: {len(violations)} violation(s) on {href} ({scheme}, {width} px):\n"
        + format_violations(violations)
    )
