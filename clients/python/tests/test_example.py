"""The Python example of docs/clients.md is examples/python/gestures.py, and it works."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
import unittest
from typing import List

from support import Daemon, recordings, replay_arguments, require

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
EXAMPLE = os.path.join(REPOSITORY, "examples", "python", "gestures.py")


class Example(unittest.TestCase):
    def test_the_documentation_shows_the_example_file(self) -> None:
        with open(os.path.join(REPOSITORY, "docs", "clients.md"), encoding="utf-8") as file:
            page = file.read()
        self.assertIn("\n## Writing a client\n", page)
        section = page.split("\n## Writing a client\n", 1)[1]
        python = section.split("\n### Python\n", 1)[1]
        block = re.search(r"```python\n(.*?)```", python, re.S)
        assert block is not None, "no ```python block in docs/clients.md under ## Writing a client, ### Python"
        with open(EXAMPLE, encoding="utf-8") as file:
            self.assertEqual(block.group(1), file.read())

    def test_the_example_prints_the_pen_and_its_gestures(self) -> None:
        cintiq = [(r, d) for r, d in recordings() if "Cintiq" in r]
        require(bool(cintiq), "the Cintiq 22HDT recording is needed")
        with Daemon(replay_arguments(*cintiq[0])) as daemon:
            # Ctrl+C ends the example as in a terminal, also where this test was started in the
            # background of a shell without job control, which passes SIGINT on ignored.
            process = subprocess.Popen([sys.executable, EXAMPLE], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       env=dict(os.environ, PENCILD_SOCKET=daemon.socket, PYTHONUNBUFFERED="1"),
                                       preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
            output = b""
            try:
                assert process.stdout is not None and process.stderr is not None
                deadline = time.monotonic() + 60
                while not re.search(b"\ndoubleTap[^\n]*\n", output):
                    left = deadline - time.monotonic()
                    self.assertGreater(left, 0, f"no doubleTap line in 60 s: {output!r}")
                    if select.select([process.stdout], [], [], left)[0]:
                        chunk = os.read(process.stdout.fileno(), 65536)
                        self.assertTrue(chunk, f"the example ended: {output!r}")
                        output += chunk
            finally:
                process.send_signal(signal.SIGINT)
                process.wait(timeout=20)
                for stream in (process.stdout, process.stderr):
                    if stream is not None:
                        stream.close()
            lines: List[str] = output.decode().splitlines()
        self.assertEqual(lines[0], "pen: Wacom Cintiq 22HDT Pen")
        squeezes = [line for line in lines if line.startswith("squeeze")]
        self.assertEqual(len(squeezes), 7, "the recording's seven squeezes, ended")
        self.assertTrue(all(line.startswith("squeeze showContextualPalette focus:") for line in squeezes), squeezes)
        self.assertTrue(lines[-1].startswith("doubleTap switchEraser focus:"), lines[-1])


if __name__ == "__main__":
    unittest.main()
