"""The theme's stylesheet is valid CSS to the Nu HTML Checker, but for the properties and units its CSS grammar
(vnu 25.8.8) does not know yet. Pages carry the stylesheet inline, so test_html.py leaves its messages to this test."""

from browserlib import REPO, run_vnu

# What vnu's CSS grammar does not know (each used where browsers without it ignore it, see vitrine.css): CSS
# Containment 3's container queries (`container-type`, the `cqw`/`cqh` units, and so the `width` that uses them),
# CSS Box Sizing 4's `contain-intrinsic-size`, CSS Overflow 4's unprefixed `line-clamp`, and CSS Overflow 3's
# `scrollbar-gutter` (a browser without it may shift a long page once, as before it). Each message of the
# checker is named whole, with the text of the line it is about, so that no other error hides behind one of them.
NOT_KNOWN_TO_THE_CHECKER = {
    ("CSS: “contain-intrinsic-size”: Property “contain-intrinsic-size” doesn't exist.", "contain-intrinsic-size: auto 20rem;"),
    ("CSS: “line-clamp”: Property “line-clamp” doesn't exist.", "line-clamp: 2;"),
    ("CSS: “scrollbar-gutter”: Property “scrollbar-gutter” doesn't exist.", "scrollbar-gutter: stable;"),
    ("CSS: “scrollbar-gutter”: Property “scrollbar-gutter” doesn't exist.", "scrollbar-gutter: auto;"),
    ("CSS: “width”: Unknown dimension.", "@supports (width: 1cqh) {"),
    ("CSS: “container-type”: Property “container-type” doesn't exist.", "container-type: size;"),
    ("CSS: “width”: Parse Error.", "width: min(100cqw, 100cqh * var(--w) / var(--h));"),
    ("CSS: “container-type”: Property “container-type” doesn't exist.", "container-type: normal;"),
}


def test_the_stylesheet_is_valid_css_but_for_what_the_checker_does_not_know(vnu):
    stylesheet = REPO / "Templates" / "vitrine.css"
    lines = stylesheet.read_text(encoding="utf-8").split("\n")
    found = set()
    unexpected = []
    for message in run_vnu(vnu, [stylesheet], css=True):
        line = lines[message.get("lastLine", 0) - 1] if 0 < message.get("lastLine", 0) <= len(lines) else ""
        known = [(text, code) for text, code in NOT_KNOWN_TO_THE_CHECKER if text == message.get("message") and code in line]
        if known:
            found.update(known)
        else:
            unexpected.append(f"{message.get('lastLine')}: {message.get('message')}  [{line.strip()[:100]}]")
    assert not unexpected, "CSS errors:\n" + "\n".join(unexpected)
    # A message no longer given (the checker learned it, or the rule went) leaves the list.
    assert found == NOT_KNOWN_TO_THE_CHECKER, f"no longer reported: {NOT_KNOWN_TO_THE_CHECKER - found}"
