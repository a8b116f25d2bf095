"""Sessions of synthetic photos for tests and benchmarks, with held-out deck designs.

A *setup* is one table session: a deck, a table and light, a camera pose and the way the
cards were first laid out. Its two calibration photos use that layout exactly; each game
photo after them nudges the cards a little (players bump them while swapping).

Tune on ``DEV_DESIGNS`` only; report on ``EVAL_DESIGNS``, which nobody looks at while
tuning, so a recogniser is scored on decks it has never seen (as with a user's own cards).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import count

from .camera import CameraPose, random_pose
from .layout import Layout, random_layout
from .render import PHOTO_SIZE, RenderResult, render
from .scene import Scene, calibration_scenes, random_scene
from .style import TableStyle, random_style

DEV_DESIGNS: tuple[int, ...] = tuple(range(0, 16))
EVAL_DESIGNS: tuple[int, ...] = tuple(range(1000, 1012))


@dataclass(frozen=True)
class Setup:
    """One session at one table: everything that stays fixed while the game is played."""

    design: int
    style: TableStyle
    pose: CameraPose
    layout: Layout
    seed: int
    size: tuple[int, int] = PHOTO_SIZE

    def calibration(self) -> tuple[RenderResult, RenderResult]:
        """The ``solved`` and ``pawns`` photos of the calibration protocol, cards unmoved."""
        solved, pawns = calibration_scenes()
        return self.photo(solved, self.seed * 2, nudge=False), self.photo(
            pawns, self.seed * 2 + 1, nudge=False
        )

    def photo(self, scene: Scene, seed: int, nudge: bool = True) -> RenderResult:
        layout = self.layout.nudged(seed) if nudge else self.layout
        return render(
            scene, self.design, self.style, self.pose, seed, layout=layout, size=self.size
        )


def random_setup(seed: int, design: int) -> Setup:
    return Setup(
        design=design,
        style=random_style(seed),
        pose=random_pose(seed),
        layout=random_layout(seed),
        seed=seed,
    )


@dataclass(frozen=True)
class Sample:
    """One game photo to read: its session (for calibration) and its scene."""

    index: int
    setup: Setup
    scene: Scene
    seed: int

    def render(self) -> RenderResult:
        return self.setup.photo(self.scene, self.seed)


def make_dataset(
    n: int,
    seed: int = 0,
    designs: Sequence[int] = EVAL_DESIGNS,
    per_setup: int = 10,
    hand_chance: float = 0.1,
) -> Iterator[Sample]:
    """``n`` samples over sessions of ``per_setup`` photos, designs taken in turn.

    Samples are cheap (nothing is drawn until :meth:`Sample.render`); the same arguments
    always give the same samples. Group by ``sample.setup`` to calibrate once per session.
    """
    if not designs:
        raise ValueError("make_dataset needs at least one design seed")
    sessions = (random_setup(seed * 100_003 + k, designs[k % len(designs)]) for k in count())
    yield from samples_in(sessions, n, seed, per_setup, hand_chance)


def samples_in(
    sessions: Iterator[Setup], n: int, seed: int, per_setup: int, hand_chance: float = 0.1
) -> Iterator[Sample]:
    """``n`` samples, ``per_setup`` in each of ``sessions`` in turn, with the random scenes
    (hands and all) that :func:`make_dataset` draws for ``seed``: another set of sessions,
    the same game photos."""
    setup: Setup | None = None
    for i in range(n):
        if i % per_setup == 0:
            setup = next(sessions)
        assert setup is not None
        scene_seed = seed * 1_000_003 + i
        yield Sample(
            index=i, setup=setup, scene=random_scene(scene_seed, hand_chance), seed=scene_seed
        )
