#!/usr/bin/python3
"""commands.py README SECTION PREFIX...: the commands README.md gives in one section, as a
person would copy them, one a line: the lines of its ```sh blocks (a trailing comment
dropped, a line ended by a backslash joined to the next) and its inline `code` that starts
with sudo (a name in the prose is not a command), in the order they come, kept when it starts with one of the PREFIXes (a whole word or more). SECTION is a
heading's text; the section ends at the next heading of the same level or above. Exits 1,
saying why, when the section or a command is missing, so that a README that changes under
the test fails it instead of being skipped."""

from __future__ import annotations

import re
import sys
from typing import List


def section_lines(lines: List[str], title: str) -> List[str]:
    for index, line in enumerate(lines):
        match = re.match(r"^(#+) (.*)$", line)
        if match and match.group(2).strip() == title:
            level = len(match.group(1))
            end = len(lines)
            fenced = False
            for later in range(index + 1, len(lines)):
                if lines[later].lstrip().startswith("```"):
                    fenced = not fenced
                heading = re.match(r"^(#+) ", lines[later])
                if not fenced and heading and len(heading.group(1)) <= level:
                    end = later
                    break
            return lines[index + 1:end]
    raise SystemExit(f"commands.py: README has no section titled {title!r}")


def commands(lines: List[str]) -> List[str]:
    found: List[str] = []
    fenced = False
    shell = False
    pending = ""
    prose: List[str] = []

    def flush_prose() -> None:
        # Inline code may run over a line break: the prose since the last block is one text.
        for span in re.findall(r"`([^`]+)`", " ".join(prose)):
            span = re.sub(r"\s+", " ", span).strip()
            if span.startswith("sudo "):
                found.append(span)
        prose.clear()

    for line in lines:
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            shell = fenced and stripped[3:].strip() in ("sh", "bash", "console")
            if fenced:
                flush_prose()
            continue
        if fenced:
            if not shell:
                continue
            text = re.sub(r"\s+#.*$", "", stripped)
            if text.endswith("\\"):
                pending += text[:-1].strip() + " "
                continue
            text = (pending + text).strip()
            pending = ""
            if text and not text.startswith("#"):
                found.append(text)
        else:
            prose.append(stripped)
    flush_prose()
    return found


def main() -> int:
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as file:
        lines = file.read().splitlines()
    prefixes = sys.argv[3:]
    kept = [command for command in commands(section_lines(lines, sys.argv[2]))
            if any(command == prefix or command.startswith(prefix + " ") for prefix in prefixes)]
    if not kept:
        print(f"commands.py: no command starting with {' or '.join(map(repr, prefixes))} in {sys.argv[2]!r}", file=sys.stderr)
        return 1
    print("\n".join(kept))
    return 0


if __name__ == "__main__":
    sys.exit(main())
