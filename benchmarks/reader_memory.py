"""Peak memory of the reader alone: a process that only loads a profile and reads photos.

    .venv/bin/python benchmarks/reader_memory.py          # EVAL decks, 3 sessions x 8 photos
    .venv/bin/python benchmarks/reader_memory.py --write  # and save results/reader_memory.md

The vision benchmark's process also holds the synthetic renderer, so its peak RSS says little
about the device. Here the photos and profiles are rendered and calibrated first (in this
process, which then exits), and a fresh Python process (``--read``) does what the device does:
import the reader, load a profile from disk, read the photos. Its peak resident memory
(``VmHWM``: numpy, OpenCV and the interpreter included) is the figure.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def prepare(folder: Path, sessions: int, per_setup: int) -> list[tuple[str, list[str]]]:
    import cv2
    from vision_bench import calibrated
    from zefiria.vision.profile import save_profile
    from zefiria.vision.synthetic import EVAL_DESIGNS, make_dataset

    jobs: list[tuple[str, list[str]]] = []
    setup = None
    samples = make_dataset(sessions * per_setup, 11, EVAL_DESIGNS, per_setup=per_setup)
    for sample, profile in calibrated(samples):
        if sample.setup is not setup:
            setup = sample.setup
            if profile is None:
                jobs.append(("", []))
            else:
                path = folder / f"profile-{len(jobs)}.npz"
                save_profile(profile, path)
                jobs.append((str(path), []))
        if not jobs[-1][0]:
            continue
        photo = folder / f"photo-{sample.index}.jpg"
        cv2.imwrite(str(photo), sample.render().image)
        jobs[-1][1].append(str(photo))
    return [j for j in jobs if j[0]]


def peak_mib() -> float:
    """This process's peak resident memory. On Linux ``VmHWM`` (``ru_maxrss`` keeps the
    peak of the process image before ``exec``: the renderer's here)."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def read(jobs: list[tuple[str, list[str]]]) -> dict[str, float]:
    from zefiria.vision.photo_io import load_photo
    from zefiria.vision.profile import load_profile
    from zefiria.vision.reader import read_table

    before = peak_mib()
    photos = 0
    for profile_path, photo_paths in jobs:
        profile = load_profile(Path(profile_path))
        for p in photo_paths:
            read_table(load_photo(Path(p)), profile)
            photos += 1
    peak = peak_mib()
    return {"photos": photos, "rss_after_imports_mib": before, "peak_rss_mib": peak}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=3)
    ap.add_argument("--per-setup", type=int, default=8)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--read", metavar="JOBS.json", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.read:
        print(json.dumps(read(json.loads(Path(args.read).read_text()))))
        return 0
    with tempfile.TemporaryDirectory(prefix="reader-memory-") as tmp:
        folder = Path(tmp)
        jobs = prepare(folder, args.sessions, args.per_setup)
        (folder / "jobs.json").write_text(json.dumps(jobs))
        out = subprocess.run(
            [sys.executable, __file__, "--read", str(folder / "jobs.json")],
            capture_output=True,
            text=True,
            check=True,
        )
    result = json.loads(out.stdout)
    line = (
        f"reader alone: {result['photos']} photos of {len(jobs)} profiles read; peak RSS "
        f"{result['peak_rss_mib']:.0f} MiB ({result['rss_after_imports_mib']:.0f} MiB before "
        "the first profile was loaded: Python, numpy and OpenCV imported)"
    )
    print(line)
    if args.write:
        report = (
            "# Reader memory\n\n"
            "`.venv/bin/python benchmarks/reader_memory.py --write` "
            f"(`--sessions {args.sessions} --per-setup {args.per_setup}`, EVAL decks) on "
            f"{platform.machine()} Python {platform.python_version()}, "
            f"{time.strftime('%Y-%m-%d', time.gmtime())}: a fresh process that only imports "
            "the reader, loads each profile from disk and reads its photos (what the device "
            f"does); target: under 200 MB.\n\n- {line}\n"
        )
        out_path = Path(__file__).resolve().parent / "results" / "reader_memory.md"
        out_path.write_text(report)
        print(f"written to {out_path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
