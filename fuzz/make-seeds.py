#!/usr/bin/env python3
"""Writes the seed corpora of fuzz-pen-tracker and fuzz-gestures: short pen sessions in
their input layout (PenFuzzing/Recipes.swift: 6 bytes of device, then 8-byte steps;
fuzz-gestures has one byte of preferences first), so that fuzzing starts from frames a
real pen sends. Run it again after changing that layout."""

import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "fuzz-pen-tracker")
GESTURES_OUT = os.path.join(HERE, "corpus", "fuzz-gestures")
# fuzz-gestures' preferences byte (fuzz-gestures/main.swift, PreferencesRecipe):
# 0x00 the defaults; 0x04 squeezeButton longPress.
PREFERENCES = {"": 0x00, "-long-press": 0x04}

# Step kinds (kind % 16) and the selectors' tables, as in main.swift.
SYN, KEY, ABS, MSC, DROPPED, CATCH_UP = 0, 4, 7, 12, 14, 15
KEYS = ["pen", "eraser", "brush", "pencil", "airbrush", "mouse", "lens", "touch",
        "stylus", "stylus2", "stylus3", "finger"]
AXES = ["x", "y", "pressure", "distance", "tiltX", "tiltY", "z", "wheel", "throttle", "misc"]


def device(pressure=True, distance=True, tilt=True, tool_keys=True, touch=True,
           stylus=True, stylus2=True, eraser=True):
    features = (pressure * 0x01) | (distance * 0x02) | (tilt * 0x04) | (tool_keys * 0x08) \
        | (touch * 0x10) | (stylus * 0x20) | (stylus2 * 0x40)
    positions = 0x00          # X and Y: 0..44704, 200 units/mm
    axes = 0x01 | (0x01 << 3)  # pressure and distance: 0..2047
    tilt_ranges = 0x44         # tilt: -64..63
    extras = 0x08              # ABS_MISC (tool id)
    keys = 0x01 if eraser else 0x00
    return bytes([features, positions, axes, tilt_ranges, extras, keys])


def step(kind, selector=0, value=0, delta_us=0):
    return struct.pack("<BBiH", kind, selector, value, delta_us // 16)


def key(name, down, delta_us=0):
    return step(KEY, KEYS.index(name), 1 if down else 0, delta_us)


def axis(name, value, delta_us=0):
    return step(ABS, AXES.index(name), value, delta_us)


def frame(*events, ms=8):
    """Events then SYN_REPORT, the report ms milliseconds after the previous frame."""
    return b"".join(events) + step(SYN, delta_us=ms * 1000)


def hover_in(x=20000, y=15000):
    return frame(key("pen", True), axis("x", x), axis("y", y), axis("distance", 40),
                 step(MSC, 0, 0x8a2f1b))


def out():
    return frame(key("pen", False))


def stroke():
    frames = [frame(axis("pressure", 900), key("touch", True), axis("distance", 0))]
    frames += [frame(axis("x", 20000 + 150 * i), axis("pressure", 900 + 10 * i)) for i in range(6)]
    frames.append(frame(axis("pressure", 0), key("touch", False), axis("distance", 20)))
    return b"".join(frames)


def click(button, held_ms=80):
    return frame(key(button, True)) + frame(key(button, False), ms=held_ms)


SEEDS = {
    "hover-and-stroke": device() + hover_in() + frame(axis("x", 20100)) + stroke() + out(),
    "double-click-stylus": device() + hover_in() + click("stylus") + frame(ms=100) + click("stylus") + out(),
    "squeeze-stylus2-held": device() + hover_in() + frame(key("stylus2", True))
    + b"".join(frame(axis("x", 20000 + 30 * i), ms=100) for i in range(12)) + frame(key("stylus2", False)) + out(),
    "long-press-no-stylus2": device(stylus2=False) + hover_in() + frame(key("stylus", True))
    + frame(axis("x", 20010), ms=600) + frame(key("stylus", False)) + out(),
    "silent-pen-forced-out": device() + hover_in() + frame(axis("x", 20001), ms=900) + out(),
    "pen-then-eraser": device() + hover_in() + frame(key("pen", False), key("eraser", True), ms=20)
    + frame(axis("x", 100)) + frame(key("eraser", False)),
    "no-tool-keys-touch-only": device(pressure=False, distance=False, tilt=False, tool_keys=False, stylus2=False, eraser=False)
    + frame(axis("x", 300), axis("y", 300)) + frame(key("touch", True), axis("x", 320))
    + frame(key("touch", False)) + frame(axis("x", 330), ms=700),
    "dropped-mid-stroke": device() + hover_in() + stroke()[:40] + step(DROPPED, 1) + axis("x", 1)
    + frame(axis("pressure", 0)) + step(CATCH_UP) + out(),
    "resync-and-catch-up": device() + hover_in() + frame(key("stylus", True)) + step(DROPPED, 0)
    + frame(key("stylus", False)) + step(CATCH_UP) + out(),
}

os.makedirs(OUT, exist_ok=True)
os.makedirs(GESTURES_OUT, exist_ok=True)
for name, data in SEEDS.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    for suffix, preferences in PREFERENCES.items():
        with open(os.path.join(GESTURES_OUT, name + suffix), "wb") as f:
            f.write(bytes([preferences]) + data)
print(f"wrote {len(SEEDS)} seeds to {os.path.relpath(OUT)} and {len(SEEDS) * len(PREFERENCES)} to {os.path.relpath(GESTURES_OUT)}")
