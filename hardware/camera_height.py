"""How high the camera must be to see the whole Zefiria grid (the table in hardware/README.md).

    python hardware/camera_height.py

A camera looking straight down from height h sees a rectangle of 2·h·tan(HFOV/2) by
2·h·tan(VFOV/2). To see an area W x H (long side along the image's long side):

    h >= max( (W/2) / tan(HFOV/2), (H/2) / tan(VFOV/2) )

A 4:3 photo (1640x1232) from a 16:9 sensor (Camera Module 3) is cropped at the sides, so
its horizontal field is 2·atan(tan(HFOV/2) · (4/3) / (16/9)), narrower than the datasheet's.
"""

from __future__ import annotations

import math

CARD_W, CARD_H = 63.0, 88.0  # mm, portrait island cards
GAP_W, GAP_H = 6.0, 7.5  # mm between cards, as players lay them (uneven in practice)
AUSTRO = 40.0  # mm outside every edge: Austro stands beside the grid
FRAMING = 1.10  # 10 % slack: the mast is never perfectly centred, the grid drifts

GRID_LONG = 5 * CARD_H + 4 * GAP_H  # 470 mm
GRID_SHORT = 5 * CARD_W + 4 * GAP_W  # 339 mm
AREA_LONG = (GRID_LONG + 2 * AUSTRO) * FRAMING
AREA_SHORT = (GRID_SHORT + 2 * AUSTRO) * FRAMING

# name, datasheet HFOV, VFOV (degrees), sensor aspect
CAMERAS = [
    ("Camera Module 3 (standard)", 66.0, 41.0, 16 / 9),
    ("Camera Module 3 Wide", 102.0, 67.0, 16 / 9),
    ("Camera Module v2", 62.2, 48.8, 4 / 3),
]
PHOTO_ASPECT = 1640 / 1232  # the still the board is read from


def photo_fov(hfov: float, vfov: float, sensor_aspect: float) -> tuple[float, float]:
    """Field of view of a 4:3 photo: a wider sensor is cropped at the sides."""
    if sensor_aspect > PHOTO_ASPECT + 0.01:
        half = math.atan(math.tan(math.radians(hfov / 2)) * PHOTO_ASPECT / sensor_aspect)
        hfov = math.degrees(2 * half)
    return hfov, vfov


def min_height(hfov: float, vfov: float, long: float, short: float) -> float:
    return max(
        (long / 2) / math.tan(math.radians(hfov / 2)),
        (short / 2) / math.tan(math.radians(vfov / 2)),
    )


def main() -> None:
    print(
        f"grid {GRID_SHORT:.0f} x {GRID_LONG:.0f} mm; with Austro's margin and 10 % slack "
        f"the camera must see {AREA_SHORT:.0f} x {AREA_LONG:.0f} mm"
    )
    print(f"{'camera':28} {'photo FOV':>14} {'min height':>11} {'px per mm':>10}")
    for name, hfov, vfov, aspect in CAMERAS:
        h_fov, v_fov = photo_fov(hfov, vfov, aspect)
        h = min_height(h_fov, v_fov, AREA_LONG, AREA_SHORT)
        seen_long = 2 * h * math.tan(math.radians(h_fov / 2))
        print(f"{name:28} {h_fov:5.1f} x {v_fov:4.1f}° {h:8.0f} mm {1640 / seen_long:9.2f}")


if __name__ == "__main__":
    main()
