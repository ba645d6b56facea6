"""Vitrine's bundled sample images, drawn from scratch: the pictures of each theme, their JPEG renditions and the C
target that embeds them. Run through scripts/make-sample-images.py (make.main)."""
