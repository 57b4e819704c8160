#!/usr/bin/python3
# Write the degrain quality test images as binary PGM (P5, 8-bit) into a
# directory: camera.pgm (as is), astronaut.pgm and coffee.pgm (BT.601 luma,
# Y = round(0.299 R + 0.587 G + 0.114 B), computed in integers so that the
# rounding is exact: (299 R + 587 G + 114 B + 500) // 1000).
#
# Needs python3-skimage and python3-numpy (Debian packages).
# Usage: skimage-images.py DIR

import os
import sys

import numpy as np
from skimage import data


def luma(rgb):
    c = rgb[:, :, :3].astype(np.int64)
    y = (299 * c[:, :, 0] + 587 * c[:, :, 1] + 114 * c[:, :, 2] + 500) // 1000
    return y.astype(np.uint8)


def write_pgm(path, img):
    assert img.dtype == np.uint8 and img.ndim == 2
    h, w = img.shape
    with open(path, "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (w, h))
        f.write(np.ascontiguousarray(img).tobytes())


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: %s DIR\n" % sys.argv[0])
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    write_pgm(os.path.join(out, "camera.pgm"), data.camera())
    write_pgm(os.path.join(out, "astronaut.pgm"), luma(data.astronaut()))
    write_pgm(os.path.join(out, "coffee.pgm"), luma(data.coffee()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
