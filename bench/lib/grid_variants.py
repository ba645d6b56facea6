"""Named rewrites of the demo's grid page (index.html), for A/Bs of the page's structure without a theme of their own:
`bench/visitor --grid-variant NAMES` applies them after the build, `bench/visitor-ab` measures them in turns.

Each rewrite fails when the page no longer holds what it rewrites, so that a theme change cannot turn a variant into
the page as built without anyone noticing."""

import re
from typing import Callable

# The theme's font list as the page carries it: the inline stylesheet is compacted, no space after a comma.
FONT_LIST = 'system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue","Noto Sans",Arial,sans-serif'
SCRIPT = re.compile(r'<script src="assets/vitrine\.js"[^>]*></script>')


def _once(pattern: re.Pattern, html: str, replacement: str, what: str) -> str:
    rewritten, count = pattern.subn(replacement, html, count=1)
    if count != 1:
        raise RuntimeError(f"grid variant: the page has no {what}")
    return rewritten


def second_tile_lazy(html: str) -> str:
    images = list(re.finditer(r"<img [^>]*>", html))
    if len(images) < 2 or "loading=" in images[1].group(0):
        raise RuntimeError("grid variant: the page's second tile is not an eager image")
    tag = images[1].group(0)
    return html.replace(tag, tag[:-1] + ' loading="lazy" decoding="async">', 1)


def no_script(html: str) -> str:
    return _once(SCRIPT, html, "", "vitrine.js")


def script_at_load(html: str) -> str:
    html = _once(SCRIPT, html, "", "vitrine.js")
    loader = ('<script>addEventListener("load", () => { const s = document.createElement("script"); '
              's.src = "assets/vitrine.js"; document.head.append(s) })</script></body>')
    return _once(re.compile(r"</body>"), html, loader, "</body>")


def short_sizes(html: str) -> str:
    """The `sizes` lists without their entries for screens of 1,897 px and more, the head's preload (`imagesizes`)
    too, so that it still names the file the first tile takes."""
    wide_entries_first = r'( (?:image)?sizes)="\(min-width: [0-9]{4}px\)[^"]*?(\(min-width: [0-9]{3}px\)[^"]*)"'
    rewritten, count = re.subn(wide_entries_first, r'\1="\2"', html)
    if count == 0:
        raise RuntimeError("grid variant: the page has no sizes list with entries for wide screens")
    return rewritten


def no_json_ld(html: str) -> str:
    return _once(re.compile(r'<script type="application/ld\+json">.*?</script>', re.S), html, "", "JSON-LD")


def later_tiles_skipped(html: str) -> str:
    rule = ".grid .tile:nth-child(n+5) { content-visibility: auto; contain-intrinsic-size: auto 16rem; }</style>"
    return _once(re.compile(r"</style>"), html, rule, "inline stylesheet")


def font(families: str) -> Callable[[str], str]:
    def rewrite(html: str) -> str:
        if FONT_LIST not in html:
            raise RuntimeError("grid variant: the page's stylesheet has no longer the theme's font list")
        return html.replace(FONT_LIST, families)
    return rewrite


VARIANTS: dict[str, tuple[str, Callable[[str], str]]] = {
    "lazy2": ("the second tile loads lazily", second_tile_lazy),
    "nojs": ("no vitrine.js", no_script),
    "jsload": ("vitrine.js inserted at the load event", script_at_load),
    "short": ("the sizes lists without their entries for screens of 1,897 px and more", short_sizes),
    "nold": ("no JSON-LD", no_json_ld),
    "cv": ("content-visibility: auto on tiles 5 and later", later_tiles_skipped),
    "sans": ("the font list `sans-serif`", font("sans-serif")),
    "sysui": ("the font list `system-ui, sans-serif`", font("system-ui, sans-serif")),
}


def parse(names: str) -> list[str]:
    """The variant names of a comma-separated list ("" is the page as built); unknown ones raise ValueError."""
    chosen = [name.strip() for name in names.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in VARIANTS]
    if unknown:
        raise ValueError(f"unknown grid variant {', '.join(unknown)}; known: {', '.join(VARIANTS)}")
    return chosen


def apply(html: str, names: list[str]) -> str:
    for name in names:
        html = VARIANTS[name][1](html)
    return html
