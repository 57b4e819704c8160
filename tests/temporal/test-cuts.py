#!/usr/bin/python3
"""Issue 34's harsher clips through quality.py with the temporal degrain's
CPU reference: no frame of a clip with a scene cut (cutpan: a cut between
shots of the same mean and spread; scenecut) comes out worse at radius 2
or 3 than the spatial filter alone (radius 0), at sigma 10, 20 and 30. A
frame blended with the other shot loses 1 to 2 dB against radius 0
(tests/temporal/README.md); one kept apart gains from its own shot.

    test-cuts.py CFX-TEMPORAL-REF

Small clips (10 frames of 128x128, the cut between frames 4 and 5) so
that it runs in CI. Exit 77 (skip) without scikit-image, unless
CFX_REQUIRE_SKIMAGE=1."""

import json
import os
import subprocess
import sys
import tempfile

CLIPS = ["cutpan", "scenecut"]
SIGMAS = ["10", "20", "30"]
RADII = [2, 3]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: test-cuts.py CFX-TEMPORAL-REF")
    ref = os.path.abspath(sys.argv[1])
    try:
        import skimage  # noqa: F401  quality.py's photographs
    except ImportError:
        if os.environ.get("CFX_REQUIRE_SKIMAGE") == "1":
            sys.exit("no scikit-image and CFX_REQUIRE_SKIMAGE=1")
        print("SKIP: no scikit-image (python3-skimage)")
        sys.exit(77)
    quality = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "quality.py")
    with tempfile.TemporaryDirectory() as out:
        frames = os.path.join(out, "frames.json")
        cmd = [sys.executable, quality, "--no-ffmpeg", "--frames", "10",
               "--size", "128", "--sigmas", ",".join(SIGMAS), "--clips",
               ",".join(CLIPS), "--out", out, "--json", frames,
               "--baseline", "r0"]
        for r in [0] + RADII:
            cmd += ["--method", "r%d=%s {w} {h} %d {sigma} {in} {out}"
                    % (r, ref, r)]
        subprocess.run(cmd, check=True)
        with open(frames) as f:
            psnr = json.load(f)

    failures = 0
    for sigma in SIGMAS:
        for clip in CLIPS:
            base = psnr[sigma]["r0"][clip]
            for r in RADII:
                got = psnr[sigma]["r%d" % r][clip]
                worst = min(range(len(base)), key=lambda k: got[k] - base[k])
                d = got[worst] - base[worst]
                ok = d >= 0.0
                failures += not ok
                print("%s sigma %s radius %d: worst frame %d, %+.2f dB "
                      "against radius 0%s" % (clip, sigma, r, worst, d,
                                             "" if ok else "  FAIL"))
    if failures:
        sys.exit("%d cases with a frame worse than radius 0" % failures)


if __name__ == "__main__":
    main()
