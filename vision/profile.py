"""The calibration profile: what one table, camera pose and deck look like, saved to disk.

One ``.npz`` file (numpy arrays, no pickles) with a JSON header naming the format and its
version. Loading checks the header and every array's shape, so a truncated file, another
program's file or a profile from an older format is refused with a message instead of
producing nonsense readings.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import SIZE

from .board import BoardGeometry
from .card_print import PRINT_CHANNELS

MAGIC = "zefiria-vision-profile"
VERSION = 2  # 2: card prints for reading numbers at the photo's resolution
N_CARDS = SIZE * SIZE
N_PAWNS = 5

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F32 = NDArray[Any]
F64 = NDArray[Any]
U8 = NDArray[Any]


class ProfileError(ValueError):
    """A profile file that cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class Profile:
    geometry: BoardGeometry
    card_size: tuple[int, int]  # (w, h) of a card on the board image, px
    card_centres: F64  # (25, 2) board px of each card in the solved photo
    templates: F32  # (25, TH, TW, 3) Lab identity features of islands 1..25
    fine_templates: U8  # (25, 2h, 2w) grey cards from the fine board (2x resolution)
    board: U8  # the solved photo's board image (BGR): the empty table and the cards
    table_mean: F64  # (3,) Lab
    table_icov: F64  # (3, 3)
    table_threshold: float
    pawn_colours: F32  # (5, 3) Lab mean, calibration order (Borea .. Austro)
    pawn_icov: F32  # (5, 3, 3) inverse Lab covariance: shading spreads a pawn's colours
    pawn_offsets: F64  # (5, 2) board px from the card centre to the pawn's blob centre
    pawn_areas: F64  # (5,) blob areas in board px
    own_cost: float  # typical cost of a card against its own template (the noise floor)
    cross_cost: float  # typical cost between two different islands (the signal)
    # (25, 4, 2) board px: each card's own corners (TL, TR, BR, BL) in the solved photo;
    # None in a profile written before they were measured (boxes around the centres).
    card_quads: F64 | None = None
    # (25, h, w) grey prints of islands 1..25 cut from the solved photo (see card_print).
    card_prints: U8 | None = None
    # (5, 6) each pawn's whole object in the pawns photo (pawn_objects.PawnLooks); None in
    # a profile written before they were learned (the second look for pawns is then off).
    pawn_looks: F64 | None = None
    # The channel the prints are cut from (card_print.PRINT_CHANNELS): grey, unless the
    # cards' edges were found only in another (a border as light as the table in grey).
    print_channel: str = "grey"

    def quads(self) -> F64:
        """Each cell's card corners: the measured ones, or boxes around the centres."""
        if self.card_quads is not None:
            return self.card_quads
        w, h = self.card_size[0] / 0.94, self.card_size[1] / 0.94
        box = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        out: F64 = self.card_centres[:, None, :] + box[None]
        return out

    def header(self) -> dict[str, Any]:
        g = self.geometry
        return {
            "format": MAGIC,
            "version": VERSION,
            "image_size": list(g.image_size),
            "pitch": g.pitch,
            "margin": g.margin,
            "shrink": g.shrink,
            "card_size": list(self.card_size),
            "table_threshold": self.table_threshold,
            "own_cost": self.own_cost,
            "cross_cost": self.cross_cost,
            "print_channel": self.print_channel,
        }


_ARRAYS: dict[str, tuple[int, ...] | None] = {
    "lattice_to_image": (3, 3),
    "card_centres": (N_CARDS, 2),
    "templates": None,
    "fine_templates": None,
    "board": None,
    "table_mean": (3,),
    "table_icov": (3, 3),
    "pawn_colours": (N_PAWNS, 3),
    "pawn_icov": (N_PAWNS, 3, 3),
    "pawn_offsets": (N_PAWNS, 2),
    "pawn_areas": (N_PAWNS,),
}


def save_profile(profile: Profile, path: str | Path) -> Path:
    """Write ``profile`` to exactly ``path`` (no suffix is added)."""
    p = Path(path)
    header = json.dumps(profile.header())
    arrays: dict[str, Any] = {
        "header": np.array(header),
        "lattice_to_image": profile.geometry.lattice_to_image,
        "card_centres": profile.card_centres,
        "templates": profile.templates,
        "fine_templates": profile.fine_templates,
        "board": profile.board,
        "table_mean": profile.table_mean,
        "table_icov": profile.table_icov,
        "pawn_colours": profile.pawn_colours,
        "pawn_icov": profile.pawn_icov,
        "pawn_offsets": profile.pawn_offsets,
        "pawn_areas": profile.pawn_areas,
    }
    if profile.card_quads is not None:
        arrays["card_quads"] = profile.card_quads
    if profile.card_prints is not None:
        arrays["card_prints"] = profile.card_prints
    if profile.pawn_looks is not None:
        arrays["pawn_looks"] = profile.pawn_looks
    with p.open("wb") as f:
        np.savez_compressed(f, **arrays)
    return p


def _quads(a: NDArray[Any] | None, p: Path) -> F64 | None:
    """The optional card corners (added to format 1 later: older files have none)."""
    if a is None:
        return None
    if a.shape != (N_CARDS, 4, 2) or not np.all(np.isfinite(a)):
        raise ProfileError(f"{p}: card_quads has shape {a.shape}, expected {(N_CARDS, 4, 2)}")
    out: F64 = a.astype(np.float64)
    return out


def _prints(a: NDArray[Any] | None, p: Path) -> U8 | None:
    if a is None:
        raise ProfileError(
            f"{p}: profile has no card prints (made by an older version); calibrate again"
        )
    if a.ndim != 3 or a.shape[0] != N_CARDS or min(a.shape[1:]) < 16:
        raise ProfileError(f"{p}: card_prints has shape {a.shape}")
    out: U8 = a.astype(np.uint8)
    return out


def _looks(a: NDArray[Any] | None, p: Path) -> F64 | None:
    """The optional pawn objects (added to format 2 later: older files have none)."""
    if a is None:
        return None
    if a.shape != (N_PAWNS, 6) or not np.all(np.isfinite(a)):
        raise ProfileError(f"{p}: pawn_looks has shape {a.shape}, expected {(N_PAWNS, 6)}")
    out: F64 = a.astype(np.float64)
    return out


def _channel(header: dict[str, Any], p: Path) -> str:
    """The prints' channel (added to format 2 later: older files cut them in grey)."""
    channel = header.get("print_channel", "grey")
    if channel not in PRINT_CHANNELS:
        raise ProfileError(
            f"{p}: print_channel {channel!r} is not one of {', '.join(PRINT_CHANNELS)}"
        )
    return str(channel)


ZIP_MAGIC = b"PK\x03\x04"  # an .npz archive is a zip file


def load_profile(path: str | Path) -> Profile:
    """Read a profile written by :func:`save_profile`, or :class:`ProfileError` saying why."""
    p = Path(path)
    if not p.is_file():
        raise ProfileError(f"{p}: no such profile file")
    with p.open("rb") as f:
        if f.read(4) != ZIP_MAGIC:
            # (np.load's own reason for a text file is a note on pickles, of no help here)
            raise ProfileError(f"{p}: not a calibration profile (not a NumPy .npz archive)")
    try:
        with np.load(p, allow_pickle=False) as data:
            arrays = {k: np.asarray(data[k]) for k in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise ProfileError(f"{p}: not a calibration profile ({exc})") from None
    try:
        header = json.loads(str(arrays["header"]))
    except (KeyError, json.JSONDecodeError):
        raise ProfileError(f"{p}: not a calibration profile (no header)") from None
    if not isinstance(header, dict) or header.get("format") != MAGIC:
        raise ProfileError(f"{p}: not a calibration profile (format {header.get('format')!r})")
    if header.get("version") != VERSION:
        raise ProfileError(
            f"{p}: profile version {header.get('version')} is not supported (need {VERSION});"
            " calibrate again"
        )
    for name, shape in _ARRAYS.items():
        if name not in arrays:
            raise ProfileError(f"{p}: profile is missing {name!r}")
        if shape is not None and arrays[name].shape != shape:
            raise ProfileError(f"{p}: {name} has shape {arrays[name].shape}, expected {shape}")
    try:
        w, h = (int(v) for v in header["image_size"])
        cw, ch = (int(v) for v in header["card_size"])
        geometry = BoardGeometry(
            lattice_to_image=arrays["lattice_to_image"].astype(np.float64),
            image_size=(w, h),
            pitch=int(header["pitch"]),
            margin=float(header["margin"]),
            shrink=int(header["shrink"]),
        )
        templates = arrays["templates"].astype(np.float32)
        board = arrays["board"].astype(np.uint8)
        fine = arrays["fine_templates"].astype(np.uint8)
        if fine.shape != (N_CARDS, 2 * ch, 2 * cw):
            raise ProfileError(f"{p}: fine templates have shape {fine.shape}")
        if templates.ndim != 4 or templates.shape[0] != N_CARDS or templates.shape[3] != 3:
            raise ProfileError(f"{p}: templates have shape {templates.shape}")
        if board.shape != (*geometry.board_size[::-1], 3):
            raise ProfileError(f"{p}: board image has shape {board.shape}")
        if not np.all(np.isfinite(geometry.lattice_to_image)):
            raise ProfileError(f"{p}: the grid homography is not finite")
        return Profile(
            geometry=geometry,
            card_size=(cw, ch),
            card_centres=arrays["card_centres"].astype(np.float64),
            templates=templates,
            fine_templates=fine,
            board=board,
            table_mean=arrays["table_mean"].astype(np.float64),
            table_icov=arrays["table_icov"].astype(np.float64),
            table_threshold=float(header["table_threshold"]),
            pawn_colours=arrays["pawn_colours"].astype(np.float32),
            pawn_icov=arrays["pawn_icov"].astype(np.float32),
            pawn_offsets=arrays["pawn_offsets"].astype(np.float64),
            pawn_areas=arrays["pawn_areas"].astype(np.float64),
            own_cost=float(header["own_cost"]),
            cross_cost=float(header["cross_cost"]),
            card_quads=_quads(arrays.get("card_quads"), p),
            card_prints=_prints(arrays.get("card_prints"), p),
            pawn_looks=_looks(arrays.get("pawn_looks"), p),
            print_channel=_channel(header, p),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, ProfileError):
            raise
        raise ProfileError(f"{p}: damaged profile header ({exc})") from None
