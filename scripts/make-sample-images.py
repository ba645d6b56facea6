#!/usr/bin/env python3
"""Draw Vitrine's bundled sample images and generate the C target that embeds them.

The pictures are synthetic (drawn from scratch with Pillow, no photographs, no
fonts, no third-party artwork), so they are free of any rights. Everything is
seeded, so re-running the script reproduces the same bytes (given the same
Pillow / libjpeg build).

Two themes:
  city      12 pictures of a harbour city (skylines, water, cranes, ships, bridges...)
  graffiti   8 pictures of colourful graffiti walls

Each picture is drawn at 1280 px on its longest edge and written as six JPEG
renditions, named by their size as Pixabay names them: 150, 640 and 1280 px on
the longest edge (previewURL / webformatURL / largeImageURL), and the other
sizes of webformatURL (its "_640" replaced): 180 and 340 px tall, and 960 at
most 960 x 720 px.

Outputs (run from the repository root):
  Sources/CSampleImages/images/{theme}-{NN}-{size}.jpg
  Sources/CSampleImages/include/CSampleImages.h
  Sources/CSampleImages/sample_images.c

The drawing and the writing are in the package scripts/sample_images/ (make.py runs them); this file is its
command line.

Usage:  python3 scripts/make-sample-images.py [city-03 graffiti-01 ...]
        (naming pictures redraws only those; the others are read back from disk)
Needs:  Python 3.9+ and Pillow.
"""

import sys

from sample_images.make import main

if __name__ == "__main__":
    main(sys.argv)
