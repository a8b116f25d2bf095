"""Synthetic photos of a Zefiria table: the recogniser's test bed and the demo's virtual camera.

It shares no code with the recogniser (the rest of :mod:`zefiria.vision`): it is the source
of the ground truth, so a bug here must not be able to hide the same bug there.

One photo: a :class:`Scene` (what is on the table) drawn with a deck :func:`design`, a
:class:`TableStyle` (table, light, sensor), a :class:`CameraPose` and a card :class:`Layout`;
whatever is not given is drawn from ``seed``.

>>> from zefiria.vision.synthetic import calibration_scenes, random_setup, render
>>> solved, pawns = calibration_scenes()
>>> photo = render(solved, design=3, seed=7)
>>> photo.image.shape
(1232, 1640, 3)

A session (one table, one camera, the calibration photos and the game after them):

>>> session = random_setup(5, design=1000)
>>> solved_photo, pawns_photo = session.calibration()
>>> game_photo = session.photo(pawns, seed=1)  # the cards nudged a little, the camera still

Benchmarks iterate ``make_dataset(200, seed)`` (held-out ``EVAL_DESIGNS``) and calibrate once
per ``sample.setup``; tuning uses ``DEV_DESIGNS`` only.
"""

from .camera import CameraPose, random_pose
from .dataset import DEV_DESIGNS, EVAL_DESIGNS, Sample, Setup, make_dataset, random_setup
from .design import CARD_MM, CardDesign, design
from .faces import card_faces
from .layout import Layout, random_layout
from .render import PHOTO_SIZE, RenderResult, Truth, render
from .scene import Hand, Scene, calibration_scenes, random_scene, scene_from_state
from .style import TableStyle, random_style

__all__ = [
    "CARD_MM",
    "DEV_DESIGNS",
    "EVAL_DESIGNS",
    "PHOTO_SIZE",
    "CameraPose",
    "CardDesign",
    "Hand",
    "Layout",
    "RenderResult",
    "Sample",
    "Scene",
    "Setup",
    "TableStyle",
    "Truth",
    "calibration_scenes",
    "card_faces",
    "design",
    "make_dataset",
    "random_layout",
    "random_pose",
    "random_scene",
    "random_setup",
    "random_style",
    "render",
    "scene_from_state",
]
