"""The five Wind Spirits."""

from __future__ import annotations

from enum import Enum


class Spirit(Enum):
    BOREA = "borea"
    JUGO = "jugo"
    ETESIA = "etesia"
    SKYRON = "skyron"
    AUSTRO = "austro"

    @property
    def title(self) -> str:
        return self.value.capitalize()

    @classmethod
    def parse(cls, text: str) -> Spirit:
        """A spirit from its name or any unambiguous prefix, case-insensitive.

        >>> Spirit.parse("Sky"), Spirit.parse("a")
        (<Spirit.SKYRON: 'skyron'>, <Spirit.AUSTRO: 'austro'>)
        """
        key = text.strip().lower()
        matches = [s for s in cls if s.value.startswith(key)] if key else []
        if len(matches) != 1:
            names = ", ".join(s.value for s in cls)
            raise ValueError(f"unknown spirit {text!r}: expected one of {names}")
        return matches[0]


# The order the calibration protocol uses for the pawns photo (islands 1..5).
CALIBRATION_ORDER: tuple[Spirit, ...] = tuple(Spirit)
