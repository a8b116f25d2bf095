"""Sample screens as enlarged PNGs, for the docs and for checking a layout by eye.

    python -m zefiria.device.display.gallery docs/img

writes ``screen-<name>.png`` for every sample below, 4x enlarged (one OLED pixel = 4x4).
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

from .screens import (
    HintView,
    MenuView,
    MessageView,
    MoveView,
    RoundView,
    ScoreView,
    Screen,
    SpiritView,
    StormView,
    render,
)

SAMPLES: dict[str, Screen] = {
    "menu": MenuView("New game", ("2 players", "3 players", "4 players", "Solo"), 1),
    "round": RoundView(3, 6, 4, storm=True),
    "spirit": SpiritView("Borea", 3, 5, gems=2, round=3),
    "accepted": MoveView(True, "Breeze 7 <-> 12", ap=2),
    "refused": MoveView(False, "Fly to c4", "card 13 is anchored: no flying over it", ap=3),
    "storm": StormView("Tornado 2", (0, 1), (4, 3), "swap 2 and 24", frozenset({(2, 2)})),
    "score": ScoreView(19, "Good job, but you can do better than that!", details="+15 -2 +6"),
    "hint": HintView("Jugo: breeze #14 #23 (2 AP), then fly to e5"),
    "message": MessageView("Put back", "Put back cards 7 and 12 where they were"),
}


def enlarge(image: Image.Image, scale: int = 4) -> Image.Image:
    size = (image.width * scale, image.height * scale)
    return image.convert("L").resize(size, Image.Resampling.NEAREST)


def write_gallery(folder: Path, scale: int = 4) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, view in SAMPLES.items():
        path = folder / f"screen-{name}.png"
        enlarge(render(view), scale).save(path, optimize=True)
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_gallery(Path(sys.argv[1] if len(sys.argv) > 1 else "screens")):
        print(path)
