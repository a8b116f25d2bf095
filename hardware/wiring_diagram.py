"""Draw hardware/wiring.png: the Pi's 40-pin header and what connects to which pin.

    python hardware/wiring_diagram.py [OUTPUT.png]

The pins are the defaults of device/data/config.example.toml; the same table is in
hardware/README.md. Every signal uses the header's odd-numbered row, so no wire has to
cross a pin in use; all grounds meet on one GND rail (a breadboard or perfboard strip).
Only Pillow is needed (its built-in font), so the picture is the same on every machine.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1500, 1010
HEADER_X, HEADER_Y, COLUMN, ROW = 250, 130, 34, 40
RAIL_X = 930  # the GND rail, just left of the parts
PARTS_X = 1010

PIN_LABELS = {
    1: "3V3", 2: "5V", 3: "GPIO2 SDA", 4: "5V", 5: "GPIO3 SCL", 6: "GND", 9: "GND",
    11: "GPIO17", 13: "GPIO27", 14: "GND", 15: "GPIO22", 17: "3V3", 20: "GND", 25: "GND",
    29: "GPIO5", 30: "GND", 31: "GPIO6", 33: "GPIO13", 34: "GND", 37: "GPIO26", 39: "GND",
}  # fmt: skip
RED, BLACK, ORANGE = (210, 40, 40), (30, 30, 30), (235, 140, 20)
BLUE, GREEN, PURPLE = (40, 90, 210), (30, 150, 60), (140, 60, 170)
GREY, BOARD = (150, 150, 150), (20, 90, 50)


@dataclass(frozen=True)
class Part:
    name: str
    terminals: tuple[str, ...]  # the last one named GND goes to the GND rail
    note: str = ""


@dataclass(frozen=True)
class Wire:
    pin: int
    part: int  # index into PARTS
    terminal: str
    colour: tuple[int, int, int]


PARTS = (
    Part("OLED SSD1306 128x64, I2C 0x3C", ("VCC", "SDA", "SCL", "GND")),
    Part("OK button (hold: menu)", ("pin", "GND")),
    Part("Undo button (hold 5 s: shut down)", ("pin", "GND")),
    Part("End turn button", ("pin", "GND")),
    Part("Green LED", ("anode", "GND"), "330 ohm in series with the anode"),
    Part("Red LED", ("anode", "GND"), "330 ohm in series with the anode"),
    Part(
        "Active buzzer + NPN (BC337)",
        ("+5V", "base", "GND"),
        "1 kohm to the base; buzzer - to collector",
    ),
    Part("Hint button", ("pin", "GND")),
)  # fmt: skip

WIRES = (
    Wire(2, 6, "+5V", RED),
    Wire(3, 0, "SDA", PURPLE),
    Wire(5, 0, "SCL", BLUE),
    Wire(11, 1, "pin", GREEN),
    Wire(13, 2, "pin", GREEN),
    Wire(15, 3, "pin", GREEN),
    Wire(17, 0, "VCC", ORANGE),
    Wire(29, 4, "anode", GREEN),
    Wire(31, 5, "anode", RED),
    Wire(33, 6, "base", GREEN),
    Wire(37, 7, "pin", GREEN),
)
GND_PIN = 39


def pin_xy(pin: int) -> tuple[int, int]:
    row, col = divmod(pin - 1, 2)
    return HEADER_X + col * COLUMN, HEADER_Y + row * ROW


def pin_colour(label: str) -> tuple[int, int, int]:
    colours = {"GND": BLACK, "5V": RED, "3V3": ORANGE}
    if label in colours:
        return colours[label]
    return BLUE if ("SDA" in label or "SCL" in label) else GREEN


def draw(path: Path) -> None:
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    d = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=16)
    small = ImageFont.load_default(size=13)
    d.text((30, 18), "Zefiria Companion: wiring on the Raspberry Pi 40-pin header",
           font=ImageFont.load_default(size=24), fill=BLACK)  # fmt: skip
    d.text((30, 54), "Header seen from above, pin 1 at the top (the SD-card end of the board). "
           "Buttons switch to GND: the Pi's internal pull-ups, no resistors.", font=small,
           fill=GREY)  # fmt: skip
    d.text(
        (30, 72),
        "Every signal is on the odd (inner) row; all grounds share one GND rail. "
        "The camera uses the CSI ribbon connector, not this header.",
        font=small,
        fill=GREY,
    )

    # the parts, terminals on their left edge
    terminals: dict[tuple[int, str], tuple[int, int]] = {}
    top = 110
    for index, part in enumerate(PARTS):
        height = 30 + 24 * len(part.terminals) + (20 if part.note else 0)
        d.rounded_rectangle((PARTS_X, top, 1470, top + height), radius=6, outline=BLACK,
                            width=2, fill=(248, 248, 240))  # fmt: skip
        d.text((PARTS_X + 20, top + 6), part.name, font=font, fill=BLACK)
        if part.note:
            d.text((PARTS_X + 20, top + height - 20), part.note, font=small, fill=GREY)
        for i, name in enumerate(part.terminals):
            ty = top + 38 + 24 * i
            terminals[(index, name)] = (PARTS_X, ty)
        top += height + 12

    # the GND rail and each part's GND stub, then the wire to the header's GND pin
    gnd_ys = [y for (i, name), (_, y) in terminals.items() if name == "GND"]
    _, gnd_pin_y = pin_xy(GND_PIN)
    rail_bottom = max(*gnd_ys, gnd_pin_y) + 6
    d.line([(RAIL_X, min(gnd_ys) - 6), (RAIL_X, rail_bottom)], fill=BLACK, width=6)
    d.text((RAIL_X - 8, min(gnd_ys) - 26), "GND rail", font=small, fill=BLACK, anchor="ra")
    for y in gnd_ys:
        d.line([(RAIL_X, y), (PARTS_X, y)], fill=BLACK, width=3)
    gx, _ = pin_xy(GND_PIN)
    d.line([(gx, gnd_pin_y), (RAIL_X, gnd_pin_y)], fill=BLACK, width=3)

    # signal wires: along the pin's row, down (or up) its own lane, across to the part
    for lane, wire in enumerate(WIRES):
        px, py = pin_xy(wire.pin)
        tx, ty = terminals[(wire.part, wire.terminal)]
        lane_x = 380 + lane * 42
        d.line([(px, py), (lane_x, py), (lane_x, ty), (tx, ty)], fill=wire.colour, width=3)
        d.text((lane_x + 4, py - 17), PIN_LABELS[wire.pin], font=small, fill=wire.colour)

    # the header on top of the wires' ends
    d.rounded_rectangle((HEADER_X - 22, HEADER_Y - 22, HEADER_X + COLUMN + 22,
                         HEADER_Y + 19 * ROW + 22), radius=8, fill=BOARD)  # fmt: skip
    tiny = ImageFont.load_default(size=11)
    for pin in range(1, 41):
        x, y = pin_xy(pin)
        label = PIN_LABELS.get(pin, "")
        colour = pin_colour(label) if label else GREY
        d.ellipse((x - 11, y - 11, x + 11, y + 11), fill=colour, outline="white")
        d.text((x, y), str(pin), font=tiny, fill="white", anchor="mm")
        if label and pin % 2 == 1:
            d.text((x - 34, y), label, font=small, fill=BLACK, anchor="rm")

    # where each wire leaves the header: from its own (odd) pin, over the unused even one
    for wire in (*WIRES, Wire(GND_PIN, 0, "GND", BLACK)):
        px, py = pin_xy(wire.pin)
        d.line([(px, py), (HEADER_X + COLUMN + 22, py)], fill=wire.colour, width=3)
        d.ellipse((px - 4, py - 4, px + 4, py + 4), fill="white")

    for (_, name), (tx, ty) in terminals.items():
        d.ellipse((tx - 6, ty - 6, tx + 6, ty + 6), fill=BLACK)
        d.text((tx + 12, ty), name, font=small, fill=BLACK, anchor="lm")

    d.text((30, HEIGHT - 36), "Generated by hardware/wiring_diagram.py from the default pins "
           "in device/data/config.example.toml.", font=small, fill=GREY)  # fmt: skip
    image.save(path, optimize=True)


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("wiring.png")
    draw(out)
    print(out)
