"""bench/visitor-ab's grid-page variants still apply to the pages the theme makes: each rewrite fails on a page
that no longer holds what it rewrites, and a variant that failed only at benchmark time would cost a run."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "lib"))
import grid_variants  # noqa: E402


@pytest.mark.parametrize("name", sorted(grid_variants.VARIANTS))
def test_every_grid_variant_rewrites_the_demo_grid(name, pages):
    site, href = pages.resolve("pixabay-grid")
    html = (pages.root / site.name / href).read_text(encoding="utf-8")
    rewritten = grid_variants.apply(html, [name])
    assert rewritten != html, f"{name} left the grid page as it was"


def test_a_variant_whose_target_is_gone_fails():
    with pytest.raises(RuntimeError, match="vitrine.js"):
        grid_variants.apply("<html><head></head><body></body></html>", ["nojs"])
    with pytest.raises(ValueError, match="unknown grid variant"):
        grid_variants.parse("nojs,unheard-of")
