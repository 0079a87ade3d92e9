"""The Krita plugin's state, as its test hook writes it (a JSON file), asked by the shell tiers:

    state.py FILE EXPRESSION          status 0 when the Python EXPRESSION holds, 1 when it does
                                      not, or when the file is missing or half written
    state.py --value FILE EXPRESSION  the expression's value, printed

In EXPRESSION: `s`, the state (a dict); `g`, its gestures; `os.environ`; `inside(rect, x, y)`.
Standard library only: it runs with whatever python3 the tier has."""
import json
import os  # noqa: F401 (for the expressions)
import sys


def inside(rect, x, y):
    return rect is not None and rect[0] <= x < rect[0] + rect[2] and rect[1] <= y < rect[1] + rect[3]


def main(arguments):
    printing = arguments[:1] == ["--value"]
    path, expression = arguments[1:] if printing else arguments
    try:
        with open(path, encoding="utf-8") as file:
            s = json.load(file)
    except (OSError, ValueError):
        if printing:
            raise
        return 1
    g = s.get("gestures", [])
    # One namespace, so that a generator in the expression sees `s` and `g` too.
    value = eval(expression, {"os": os, "inside": inside, "s": s, "g": g})
    if printing:
        print(value)
        return 0
    return 0 if value else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
