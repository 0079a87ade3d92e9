#!/usr/bin/env python3
"""pencild's benchmarks, driven by bench/run.sh (`make bench`).

  bench.py pattern BIN OUT          the latency pattern: an evemu recording (written by
                                    BIN/pencil-test-recordings)
  bench.py host BIN PROBE RESULTS   the host figures: throughput to 1, 16 and 64 clients,
                                    instructions per frame (callgrind), RSS, idle wake-ups
  bench.py report RESULTS DOC       docs/benchmarks.md from the host figures and the VM's
                                    latency samples
  bench.py costs BIN PROBE          the per-event costs alone, against their goals: callgrind
                                    instructions per frame, bytes per event (quick, no VM)
  bench.py palette BIN              the time from a squeeze's end to the system palette on
                                    screen, on a private X server (Xvfb)

Standard library only.
"""

import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

# The latency pattern: 2000 frames of drawing at 500 Hz.
PATTERN_FRAMES = 2000
PATTERN_INTERVAL = 0.002
RECORDING = "Wacom Cintiq 22HDT Pen.events"
CLIENT_COUNTS = (1, 16, 64)


def write_generated(bin_dir, name, path):
    """Copies one of the pens pencil-test-recordings writes (the project's evemu writer,
    tests/recordings) to `path`: bench-pattern.evemu, bench-long-pattern.evemu, ..."""
    with tempfile.TemporaryDirectory(prefix="pencild-recordings.") as folder:
        subprocess.run([os.path.join(bin_dir, "pencil-test-recordings"), folder], check=True)
        shutil.copyfile(os.path.join(folder, name), path)


def frame_count(path):
    """SYN_REPORTs in an evemu recording."""
    pattern = re.compile(r"^E: \S+ 0+ 0+ 0+(\s|$)")
    with open(path, errors="replace") as f:
        return sum(1 for line in f if pattern.match(line))


def truncated_copy(source, destination, fraction):
    """The header and the first `fraction` of the events, ending at a frame boundary."""
    with open(source, errors="replace") as f:
        lines = f.readlines()
    events = [i for i, line in enumerate(lines) if line.startswith("E:")]
    keep = events[int(len(events) * fraction)]
    while keep < len(lines) and not re.match(r"^E: \S+ 0+ 0+ 0+(\s|$)", lines[keep]):
        keep += 1
    with open(destination, "w") as f:
        f.writelines(lines[:keep + 1])


class Daemon:
    """pencild on a private socket; optionally under a wrapper (valgrind)."""

    def __init__(self, bin_dir, work, arguments, wrapper=()):
        self.socket = os.path.join(work, "pencild.sock")
        if os.path.exists(self.socket):
            os.unlink(self.socket)
        self.log = open(os.path.join(work, "pencild.log"), "ab")
        command = [*wrapper, os.path.join(bin_dir, "pencild"), "--socket", self.socket,
                   "--state-dir", os.path.join(work, "state"), "--log-level", "warning", *arguments]
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"pencild did not start: {command}")
            time.sleep(0.02)

    def answers(self):
        """The socket accepts connections (it exists a moment before it listens)."""
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(self.socket)
            return True
        except OSError:
            return False
        finally:
            probe.close()

    def status(self):
        fields = {}
        for task in os.listdir(f"/proc/{self.process.pid}/task"):
            with open(f"/proc/{self.process.pid}/task/{task}/status") as f:
                for line in f:
                    key, _, value = line.partition(":")
                    if key in ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"):
                        fields[key] = fields.get(key, 0) + int(value)
                    elif key in ("VmRSS", "VmHWM"):
                        fields[key] = int(value.split()[0])
        return fields

    def wait(self, timeout=600):
        return self.process.wait(timeout=timeout)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


def read_counts(path):
    with open(path) as f:
        return {key: int(value) for key, value in (line.split() for line in f if line.strip())}


def throughput(bin_dir, probe, recording, frames, clients, work):
    # Every client is the same user here: raise the per-user cap (32 by default) to them all,
    # with room for the readiness probe the daemon may not yet have seen leave.
    config = os.path.join(work, "clients.conf")
    with open(config, "w") as f:
        f.write(f"[Limits]\nMaxClientsPerUser={max(clients + 8, 32)}\n")
    daemon = Daemon(bin_dir, work, ["--config", config, "--no-udev", "--replay", recording, "--speed", "max",
                                    "--wait-monitors", str(clients), "--exit-after-replay"])
    out = os.path.join(work, f"count-{clients}.txt")
    peak = 0
    client = subprocess.Popen([probe, "count", daemon.socket, str(clients), out])
    while client.poll() is None:
        try:
            peak = max(peak, daemon.status().get("VmHWM", 0))
        except (FileNotFoundError, ProcessLookupError):
            pass
        time.sleep(0.02)
    if client.returncode != 0:
        daemon.stop()
        raise RuntimeError(f"probe count {clients} failed")
    daemon.wait(timeout=60)
    counts = read_counts(out)
    seconds = counts["elapsed_us"] / 1e6
    return {"clients": clients, "frames": frames, "seconds": seconds, "frames_per_second": frames / seconds,
            "messages_min": counts["messages_min"], "messages_max": counts["messages_max"],
            "megabytes": counts["bytes_total"] / 1e6, "peak_rss_kib": peak}


def callgrind_breakdown(profile, total, top=14):
    """The functions of the project's sources with the largest inclusive instruction counts:
    (share, demangled name, source file relative to the repository)."""
    try:
        text = subprocess.run(["callgrind_annotate", "--inclusive=yes", profile],
                              capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    rows = []
    for line in text.splitlines():
        match = re.match(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+((?:\S*/)?Sources/[^:]+):(\S+)", line)
        if match:
            rows.append((int(match.group(1).replace(",", "")), match.group(2), match.group(3)))
    seen, chosen = set(), []
    for count, path, symbol in rows:
        if symbol in seen:
            continue
        seen.add(symbol)
        chosen.append((count, path, symbol))
        if len(chosen) == top:
            break
    names = subprocess.run(["swift", "demangle"], input="\n".join(s for _, _, s in chosen),
                           capture_output=True, text=True).stdout.splitlines() if chosen else []
    # Module names and return types make the lines long and say little here.
    modules = r"\b(?:PencilProtocol|PencilDaemon|PencilInput|PencilSystem|PencilTime|GestureRecognizer|Varlink|Swift)\."
    names = [re.sub(r" -> .*$", "", re.sub(modules, "", name)) for name in names]
    names = [re.sub(r"\((\w+) in _[0-9A-F]+\)", r"\1", name) for name in names]  # private discriminators
    names = [re.sub(r"^partial apply forwarder for ", "", name) for name in names]
    if len(names) != len(chosen):
        names = [s for _, _, s in chosen]
    return [{"share": count / total, "function": name, "file": "Sources/" + path.split("Sources/", 1)[1]}
            for (count, path, _), name in zip(chosen, names)]


def callgrind_instructions(bin_dir, probe, recording, work, name, extra=()):
    out = os.path.join(work, f"callgrind.{name}")
    daemon = Daemon(bin_dir, work, ["--no-udev", "--replay", recording, "--speed", "max", "--wait-monitors", "1",
                                    "--exit-after-replay", *extra],
                    wrapper=["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"])
    subprocess.run([probe, "count", daemon.socket, "1", os.path.join(work, f"callgrind-count.{name}")], check=True)
    daemon.wait(timeout=900)
    with open(out) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise RuntimeError(f"no totals in {out}")


def calls_to(profile, needle):
    """How often functions whose (mangled) name holds `needle` were called, and the instructions
    of those calls with what they called, from a callgrind profile's call lines."""
    names, calls, cost = {}, 0, 0
    callee = None
    with open(profile) as f:
        lines = iter(f)
        for line in lines:
            match = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
            if match:
                if match.group(3):
                    names[match.group(2)] = match.group(3)
                callee = names.get(match.group(2), "") if match.group(1) == "cfn" else None
                continue
            if line.startswith("calls=") and callee is not None and needle in callee:
                calls += int(line.split("=", 1)[1].split()[0])
                cost += int(next(lines).split()[1])
    return calls, cost


# The goals of the per-event costs (issue 10): a frame through the whole daemon, and a
# typical motion event on the wire, reply framing included.
GOAL_INSTRUCTIONS_PER_FRAME = 15_000
GOAL_MOTION_BYTES = 220
# The mirror's pass-through (issue 18): at most this many instructions a frame on top.
GOAL_MIRROR_INSTRUCTIONS = 2_000


def instructions_per_frame(bin_dir, probe, recording, work):
    """Callgrind's instruction count per frame: the difference between the whole recording and
    its first tenth, so that start-up and shutdown cancel out."""
    print("bench: instructions per frame under callgrind (two runs, then two with the mirror's routing)", flush=True)
    frames = frame_count(recording)
    small = os.path.join(work, "tenth.evemu")
    truncated_copy(recording, small, 0.1)
    full_ir = callgrind_instructions(bin_dir, probe, recording, work, "full")
    small_ir = callgrind_instructions(bin_dir, probe, small, work, "tenth")
    small_frames = frame_count(small)
    # The same, each frame also routed as the mirror routes it (--mirror-replays): what the
    # pass-through costs in pencild; its write(2) is the kernel's work, which callgrind does not count.
    mirror_full_ir = callgrind_instructions(bin_dir, probe, recording, work, "mirror-full", ["--mirror-replays"])
    mirror_small_ir = callgrind_instructions(bin_dir, probe, small, work, "mirror-tenth", ["--mirror-replays"])
    # The tool switch (issue 33): the recording's double-tap switches its pen to the eraser; the
    # frames after it are rewritten out of line (MirrorToolSwitch.rewriteAsEraser), every other
    # frame pays only an inlined check.
    switched_frames, switched_ir = calls_to(os.path.join(work, "callgrind.mirror-full"), "rewriteAsEraser")
    return {"full_ir": full_ir, "full_frames": frames, "small_ir": small_ir, "small_frames": small_frames,
            "ir_per_frame": (full_ir - small_ir) / (frames - small_frames),
            "mirror_ir_per_frame": (mirror_full_ir - mirror_small_ir) / (frames - small_frames),
            "switched_frames": switched_frames, "switched_ir_per_frame": switched_ir / switched_frames if switched_frames else None,
            "breakdown": callgrind_breakdown(os.path.join(work, "callgrind.full"), full_ir)}


# A reply around each event: {"parameters":{"event":EVENT},"continues":true} and a NUL.
REPLY_FRAMING_BYTES = len('{"parameters":{"event":') + len('},"continues":true}') + 1


# The contract's decimals for each pose member (docs/protocol.md, "Numbers on the wire").
POSE_DECIMALS = {"x": 6, "y": 6, "pressure": 6, "zOffset": 6, "slider": 6, "wheel": 6, "xMillimeters": 3,
                 "yMillimeters": 3, "tiltX": 2, "tiltY": 2, "azimuth": 5, "altitude": 5, "roll": 5}


def contract_number(value, places):
    """A float as the contract writes it: rounded to `places` decimals (ties to even on the exact
    binary value), plain decimal, trailing zeros and a bare point dropped, never -0."""
    from decimal import Decimal, ROUND_HALF_EVEN
    text = format(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def contract_floor(line):
    """The fewest bytes the contract allows for the event `line` (as `pencilctl events` prints it),
    in its reply: the same members, names and values, written with no space and each value in its
    shortest form under the contract's rounding. Split into what the bytes are spent on."""
    event = json.loads(line)
    pose = event.get("pose", {})
    pose_values = sum(len(contract_number(value, POSE_DECIMALS[name])) for name, value in pose.items())
    tool = event.get("tool", {})
    integers = len(str(event["time"])) + sum(len(str(tool[name])) for name in ("serial", "id") if name in tool)
    names_as_values = sum(len(json.dumps(text)) for text in (event["type"], event.get("device"), tool.get("type"))
                          if text is not None)
    compact = json.dumps(event, separators=(",", ":"))
    # Names and punctuation: the compact text less every value's own bytes.
    value_bytes = sum(len(json.dumps(value)) for value in pose.values()) + integers + names_as_values
    structure = len(compact) - value_bytes
    return {"bytes": REPLY_FRAMING_BYTES + structure + names_as_values + integers + pose_values,
            "framing": REPLY_FRAMING_BYTES, "structure": structure, "names_as_values": names_as_values,
            "integers": integers, "pose_values": pose_values, "pose_members": len(pose)}


def bytes_per_event(bin_dir, probe, recording, work):
    """Bytes on the wire per event: a typical motion event (the median of the recording's, as
    `pencilctl events` writes them, in its reply) and the mean over what one Monitor client of
    a replay received."""
    offline = subprocess.run([os.path.join(bin_dir, "pencilctl"), "events", recording], capture_output=True, text=True)
    motion = sorted(len(line.encode()) + REPLY_FRAMING_BYTES for line in offline.stdout.splitlines()
                    if line.startswith('{"type":"motion"'))
    daemon = Daemon(bin_dir, work, ["--no-udev", "--replay", recording, "--speed", "max",
                                    "--wait-monitors", "1", "--exit-after-replay"])
    out = os.path.join(work, "count-bytes.txt")
    subprocess.run([probe, "count", daemon.socket, "1", out], check=True)
    daemon.wait(timeout=60)
    counts = read_counts(out)
    median = statistics.median(motion) if motion else None
    # The floor for a motion event of the median size: what the contract leaves to gain.
    typical = next((line for line in offline.stdout.splitlines()
                    if line.startswith('{"type":"motion"') and len(line.encode()) + REPLY_FRAMING_BYTES == round(median)), None) \
        if median is not None else None
    return {"motion_median": median, "motion_events": len(motion),
            "floor": contract_floor(typical) if typical else None,
            "example": next((line for line in offline.stdout.splitlines() if line.startswith('{"type":"motion"')), None),
            "mean": counts["bytes_total"] / max(1, counts["messages_max"]), "messages": counts["messages_max"]}


def goal_lines(figures):
    """PASS or MISS against each per-event goal."""
    lines = []
    cg = figures.get("callgrind")
    if cg:
        verdict = "PASS" if cg["ir_per_frame"] <= GOAL_INSTRUCTIONS_PER_FRAME else "MISS"
        lines.append(f"{verdict}: {cg['ir_per_frame']:,.0f} instructions per frame (goal: at most {GOAL_INSTRUCTIONS_PER_FRAME:,})")
        if "mirror_ir_per_frame" in cg:
            added = cg["mirror_ir_per_frame"] - cg["ir_per_frame"]
            verdict = "PASS" if added <= GOAL_MIRROR_INSTRUCTIONS else "MISS"
            lines.append(f"{verdict}: the mirror's pass-through adds {added:,.0f} instructions per frame "
                         f"({cg['mirror_ir_per_frame']:,.0f} with it; goal: at most {GOAL_MIRROR_INSTRUCTIONS:,} more)")
        if cg.get("switched_frames"):
            lines.append(f"info: the tool switch: {cg['switched_frames']:,} of the {cg['full_frames']:,} frames came after the "
                         f"recording's double-tap and were written as the eraser's, {cg['switched_ir_per_frame']:,.0f} instructions "
                         f"each (MirrorToolSwitch.rewriteAsEraser); the others, with no switch active, pay only the inlined check")
    else:
        lines.append("MISS: instructions per frame not measured (valgrind is missing)")
    b = figures.get("bytes")
    if b and b["motion_median"] is not None:
        verdict = "PASS" if b["motion_median"] <= GOAL_MOTION_BYTES else "MISS"
        lines.append(f"{verdict}: {b['motion_median']:.0f} bytes for a typical motion event (goal: at most {GOAL_MOTION_BYTES})")
        floor = b.get("floor")
        if floor:
            lines.append(f"info: the contract's floor for that event is {floor['bytes']} bytes: {floor['framing']} of reply framing, "
                         f"{floor['structure']} of member names and punctuation, {floor['names_as_values']} of names as values "
                         f"(type, device, tool), {floor['integers']} of integers (time, serial, id) and {floor['pose_values']} "
                         f"of {floor['pose_members']} pose values at the contract's decimals; without its pose values it would "
                         f"still be {floor['bytes'] - floor['pose_values']}")
        lines.append(f"info: {b['mean']:.1f} bytes per event on average over the recording ({b['messages']} events to one client)")
    else:
        lines.append("MISS: bytes per motion event not measured (the recording has no motion)")
    return lines


def costs(bin_dir, probe):
    """The per-event costs alone, printed with PASS/MISS against their goals."""
    work = tempfile.mkdtemp(prefix="pencild-bench.")
    os.makedirs(os.path.join(work, "state"))
    recording = os.path.join(os.environ.get("PENCILD_RECORDINGS", ""), RECORDING)
    if not os.path.exists(recording):
        recording = os.path.join(work, "pattern-long.evemu")
        write_generated(bin_dir, "bench-long-pattern.evemu", recording)
        print("bench: PENCILD_RECORDINGS unset: a generated pattern stands in for the Cintiq 22HDT recording")
    figures = {"callgrind": instructions_per_frame(bin_dir, probe, recording, work) if shutil.which("valgrind") else None,
               "bytes": bytes_per_event(bin_dir, probe, recording, work)}
    if figures["callgrind"]:
        cg = figures["callgrind"]
        print(f"callgrind: {cg['full_ir']:,} instructions for {cg['full_frames']} frames, {cg['small_ir']:,} for {cg['small_frames']}")
        for row in cg["breakdown"]:
            print(f"  {row['share'] * 100:5.1f} %  {row['function']}  ({row['file']})")
    if figures["bytes"]["example"]:
        print(f"a motion event: {figures['bytes']['example']}")
    for line in goal_lines(figures):
        print(line)
    shutil.rmtree(work, ignore_errors=True)


def idle_wakeups(bin_dir, work, seconds=10):
    """Context switches of an idle pencild with one Monitor client connected."""
    results = {}
    for label, arguments in (("live devices (udev)", []), ("no devices (--no-udev)", ["--no-udev"])):
        try:
            daemon = Daemon(bin_dir, work, arguments)
        except RuntimeError:
            results[label] = None
            continue
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(daemon.socket)
        client.sendall(b'{"method":"org.pencild.Pen.Monitor","parameters":{},"more":true}\0')
        time.sleep(2)
        before = daemon.status()
        time.sleep(seconds)
        after = daemon.status()
        wakeups = sum(after[k] - before[k] for k in ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"))
        results[label] = {"seconds": seconds, "wakeups": wakeups, "rss_kib": after["VmRSS"]}
        client.close()
        daemon.stop()
    return results


PALETTE_ROUNDS = 10


def palette_times(bin_dir, rounds=PALETTE_ROUNDS):
    """Milliseconds from a squeeze's end to the system palette on screen, `rounds` times: the
    demo pen squeezes (pencilctl try squeeze), pencil-actions reads the ended squeeze and starts
    pencil-palette, which says when it is mapped and drawn; Escape closes it before the next.
    The figure is pencil-actions' own: from reading the squeeze to the palette's `shown`. None,
    with why, where Xvfb or xdotool is missing."""
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for program in ("Xvfb", "xdotool"):
        if not shutil.which(program):
            return {"error": f"{program} is not installed"}
    work = tempfile.mkdtemp(prefix="pencild-palette-bench.")
    started = []
    try:
        read_end, write_end = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
                                pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started.append(xvfb)
        os.close(write_end)
        # Xvfb writes the number, then the newline: read to it, or its second write fails.
        written = b""
        while not written.endswith(b"\n"):
            chunk = os.read(read_end, 64)
            if not chunk:
                raise RuntimeError("Xvfb did not start")
            written += chunk
        display = written.decode().strip()
        os.close(read_end)
        runtime = os.path.join(work, "runtime")
        os.mkdir(runtime, 0o700)
        socket_path = os.path.join(work, "pencild.sock")
        environment = dict(os.environ, DISPLAY=f":{display}", XDG_RUNTIME_DIR=runtime, PENCILD_SOCKET=socket_path,
                           GSETTINGS_BACKEND="memory", NO_AT_BRIDGE="1")
        environment.pop("WAYLAND_DISPLAY", None)
        daemon = subprocess.Popen([os.path.join(bin_dir, "pencild"), "--demo", "--socket", socket_path, "--state-dir", os.path.join(work, "state")],
                                  env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started.append(daemon)
        log_path = os.path.join(work, "actions.log")

        def log():
            with open(log_path, errors="replace") as f:
                return f.read()

        def wait(predicate, seconds=30):
            deadline = time.monotonic() + seconds
            while not predicate():
                if time.monotonic() > deadline:
                    raise RuntimeError("timed out: " + log()[-1500:])
                time.sleep(0.02)
        wait(lambda: os.path.exists(socket_path))
        actions = subprocess.Popen([os.path.join(bin_dir, "pencil-actions"), "--focus", "none", "--verbose",
                                    "--palette", os.path.join(repo, "apps", "palette", "pencil-palette"),
                                    "--config", os.path.join(work, "none.conf"),
                                    "--shipped-config", os.path.join(repo, "examples", "actions.conf")],
                                   env=environment, stdout=subprocess.DEVNULL, stderr=open(log_path, "wb"))
        started.append(actions)
        wait(lambda: "subscribed to" in log())
        times = []
        for _ in range(rounds):
            shown = log().count("the system palette is on screen")
            closed = log().count("the system palette closed")
            subprocess.run([os.path.join(bin_dir, "pencilctl"), "try", "squeeze"], env=environment, capture_output=True, check=True)
            wait(lambda: log().count("the system palette is on screen") > shown)
            times.append(int(re.findall(r"on screen at .*?, (\d+) ms after the gesture", log())[-1]))
            subprocess.run(["xdotool", "key", "Escape"], env=environment, check=True)
            wait(lambda: log().count("the system palette closed") > closed)
        return {"rounds": rounds, "ms": times}
    except (RuntimeError, subprocess.CalledProcessError, OSError) as error:
        return {"error": str(error)}
    finally:
        for process in reversed(started):
            process.terminate()
            process.wait()
        shutil.rmtree(work, ignore_errors=True)


def palette(bin_dir):
    figures = palette_times(bin_dir)
    if "error" in figures:
        print(f"palette: not measured: {figures['error']}")
        return 1
    values = sorted(figures["ms"])
    print(f"squeeze end to the system palette on screen (X11, {figures['rounds']} squeezes of the demo pen): "
          f"median {statistics.median(values):.0f} ms, min {values[0]} ms, max {values[-1]} ms")
    return 0


def host(bin_dir, probe, results):
    work = tempfile.mkdtemp(prefix="pencild-bench.")
    os.makedirs(os.path.join(work, "state"))
    figures = {"cpu": cpu_name(), "cores": os.cpu_count(), "kernel": platform.release(), "load": os.getloadavg()[0]}
    recordings = os.environ.get("PENCILD_RECORDINGS", "")
    recording = os.path.join(recordings, RECORDING)
    if not (recordings and os.path.exists(recording)):
        recording = os.path.join(work, "pattern-long.evemu")
        write_generated(bin_dir, "bench-long-pattern.evemu", recording)
        figures["recording_note"] = "PENCILD_RECORDINGS unset: a generated 20000-frame pattern stands in for the Cintiq 22HDT recording"
    figures["recording"] = os.path.basename(recording)
    frames = frame_count(recording)
    offline = subprocess.run([os.path.join(bin_dir, "pencilctl"), "events", recording], capture_output=True, text=True)
    figures["recording_events"] = len(offline.stdout.splitlines()) if offline.returncode == 0 else None
    figures["throughput"] = []
    for clients in CLIENT_COUNTS:
        print(f"bench: throughput to {clients} clients", flush=True)
        figures["throughput"].append(throughput(bin_dir, probe, recording, frames, clients, work))
    figures["callgrind"] = instructions_per_frame(bin_dir, probe, recording, work) if shutil.which("valgrind") else None
    figures["bytes"] = bytes_per_event(bin_dir, probe, recording, work)
    print("bench: idle wake-ups", flush=True)
    figures["idle"] = idle_wakeups(bin_dir, work)
    print("bench: the system palette", flush=True)
    figures["palette"] = palette_times(bin_dir)
    pencil_bench = os.path.join(bin_dir, "pencil-bench")
    if os.path.exists(pencil_bench) and recordings:
        print("bench: pencil-bench", flush=True)
        figures["pencil_bench"] = subprocess.run([pencil_bench], capture_output=True, text=True).stdout
    if os.path.exists(pencil_bench):
        print("bench: pencil-bench daemon (1 kHz replay to 1, 16 and 64 clients)", flush=True)
        figures["pencil_bench_daemon"] = subprocess.run([pencil_bench, "daemon"], capture_output=True, text=True).stdout
    with open(os.path.join(results, "host.json"), "w") as f:
        json.dump(figures, f, indent=1)
    shutil.rmtree(work, ignore_errors=True)


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


# ---- the latency samples ---------------------------------------------------------------


def evdev_frames(path):
    """(kernel µs, receipt µs) of the drawing frames: touching, after the frame that touched down."""
    frames = []
    with open(path) as f:
        rows = [tuple(int(v) for v in line.split()) for line in f if line.strip()]
    touching_before = 0
    for kernel, receipt, touching in rows:
        if touching and touching_before:
            frames.append((kernel, receipt))
        touching_before = touching
    return frames


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


def stats(latencies):
    if not latencies:
        return None
    return {"count": len(latencies), "p50": percentile(latencies, 0.50), "p99": percentile(latencies, 0.99),
            "max": max(latencies), "mean": statistics.fmean(latencies)}


def libinput_latencies(lines_path, frames, origins=None):
    """Receipt minus kernel time for each of libinput's axis events while the tip is down.

    debug-events prints each event's time as whole milliseconds since its own start:
    floor(kernel µs / 1000) - start ms. The start is unknown, so it is found: the offset that
    puts the most axis events on a drawing frame's millisecond. Within one millisecond, axis
    events and frames pair in order. `origins`: instead of each frame's kernel time, the time
    to measure from, frame by frame (the pen's, for libinput reading its mirror)."""
    axis = []  # (printed ms, receipt µs)
    down = False
    with open(lines_path, errors="replace") as f:
        for line in f:
            receipt, _, text = line.partition("\t")
            if "TABLET_TOOL_TIP" in text:
                down = " down" in text
            elif "TABLET_TOOL_AXIS" in text and down:
                printed = re.search(r"([+-]\d+\.\d{3})s", text)
                if printed:
                    axis.append((round(float(printed.group(1)) * 1000), int(receipt)))
    if not axis or not frames:
        return [], len(axis), 0
    by_ms = {}
    for index, (kernel, _) in enumerate(frames):
        by_ms.setdefault(kernel // 1000, []).append(origins[index] if origins else kernel)
    candidates = {kernel // 1000 - axis[-1][0] + shift for kernel, _ in frames[-200:] for shift in (-1, 0, 1)}
    start = max(candidates, key=lambda c: sum(1 for printed, _ in axis if printed + c in by_ms))
    latencies = []
    used = {}
    for printed, receipt in axis:
        bucket = by_ms.get(printed + start)
        if not bucket:
            continue
        index = used.get(printed, 0)
        if index < len(bucket):
            latencies.append(receipt - bucket[index])
            used[printed] = index + 1
    return latencies, len(axis), len(latencies)


def touching_motion_times(path):
    """The kernel times (µs) of the pen's frames that a Monitor client saw as motion with the
    tip down: the frames after the touch-down frame, as `evdev_frames` takes them."""
    times = []
    down = False
    with open(path) as f:
        for kind, t, _ in (line.split() for line in f if line.strip()):
            if kind == "tipDown":
                down = True
            elif kind == "tipUp":
                down = False
            elif kind == "motion" and down:
                times.append(int(t))
    return times


def rounds_of(vm):
    return sorted(int(m.group(1)) for m in (re.match(r"floor-(\d+)-evdev.txt$", name) for name in os.listdir(vm)) if m)


# The loads the pen's path is measured under (bench/guest-latency.sh), as the report names them.
LOADS = {"clients": "64 clients streaming", "flood": "a connect flood from another user", "burners": "two CPU burners"}


def mirror_figures(vm, rounds, name):
    """libinput through the mirror in the turns `name` (with {r} for the round): each mirror
    frame paired with the pen's frame it passes on (in order, the frames with the tip down);
    from the pen's kernel time to libinput's receipt; the pass-through (the pen's kernel time
    to the mirror's); and the stream to the turn's one Monitor client (kernel time to receipt)."""
    mirror, passthrough, stream = [], [], []
    axis_events = matched = 0
    unpaired = []
    for r in rounds:
        path = os.path.join(vm, name.format(r=r) + "-evdev.txt")
        if not os.path.exists(path):
            continue
        frames = evdev_frames(path)
        monitor = os.path.join(vm, name.format(r=r) + "-monitor.txt")
        with open(monitor) as f:
            stream += [int(receipt) - int(t) for kind, t, receipt in (line.split() for line in f if line.startswith("motion "))]
        pen_times = touching_motion_times(monitor)
        if len(frames) != len(pen_times):
            unpaired.append(f"round {r}: {len(frames)} mirror frames, {len(pen_times)} pen frames")
            continue
        passthrough += [kernel - pen for (kernel, _), pen in zip(frames, pen_times)]
        values, seen, paired = libinput_latencies(os.path.join(vm, name.format(r=r) + "-lines.txt"), frames, origins=pen_times)
        mirror += values
        axis_events += seen
        matched += paired
    return {"mirror": stats(mirror), "passthrough": stats(passthrough), "stream": stats(stream),
            "axis_events": axis_events, "matched": matched, "unpaired": unpaired}


def latency(vm):
    result = {"rounds": rounds_of(vm)}
    floor, pencild, pencild_floor, libinput, libinput_floor = [], [], [], [], []
    axis_events = matched = 0
    for r in result["rounds"]:
        floor += [rcv - k for k, rcv in evdev_frames(os.path.join(vm, f"floor-{r}-evdev.txt"))]
        # pencild: each motion event carries its frame's kernel time.
        path = os.path.join(vm, f"pencild-{r}-monitor.txt")
        if os.path.exists(path):
            with open(path) as f:
                pencild += [int(receipt) - int(t) for kind, t, receipt in (line.split() for line in f if line.startswith("motion "))]
        pencild_floor += [rcv - k for k, rcv in evdev_frames(os.path.join(vm, f"pencild-{r}-evdev.txt"))]
        frames = evdev_frames(os.path.join(vm, f"libinput-{r}-evdev.txt"))
        libinput_floor += [rcv - k for k, rcv in frames]
        path = os.path.join(vm, f"libinput-{r}-lines.txt")
        if os.path.exists(path):
            values, seen, paired = libinput_latencies(path, frames)
            libinput += values
            axis_events += seen
            matched += paired
    figures = mirror_figures(vm, result["rounds"], "mirror-{r}")
    result.update(mirror=figures["mirror"], passthrough=figures["passthrough"], mirror_stream=figures["stream"],
                  mirror_axis_events=figures["axis_events"],
                  mirror_matched=figures["matched"], mirror_unpaired=figures["unpaired"])
    # The same turns under each load, libinput reading the pen under the same load beside them.
    result["loads"] = {}
    for condition in LOADS:
        figures = mirror_figures(vm, result["rounds"], f"mirror-{condition}-{{r}}")
        values = []
        for r in result["rounds"]:
            path = os.path.join(vm, f"libinput-{condition}-{r}-lines.txt")
            if os.path.exists(path):
                values += libinput_latencies(path, evdev_frames(os.path.join(vm, f"libinput-{condition}-{r}-evdev.txt")))[0]
        figures["libinput"] = stats(values)
        result["loads"][condition] = figures
    result.update(floor=stats(floor), pencild=stats(pencild), pencild_floor=stats(pencild_floor),
                  libinput=stats(libinput), libinput_floor=stats(libinput_floor),
                  libinput_axis_events=axis_events, libinput_matched=matched,
                  frames_per_round=PATTERN_FRAMES)
    return result


def pen_path_under_load(lat):
    """The table of the pen's path in the four conditions, each against libinput reading the
    pen itself under the same load."""
    rows = [("nothing else", lat.get("libinput"), {"mirror": lat.get("mirror"), "passthrough": lat.get("passthrough"),
                                                   "stream": lat.get("mirror_stream")})]
    rows += [(label, lat["loads"][key].get("libinput"), lat["loads"][key]) for key, label in LOADS.items() if key in lat.get("loads", {})]
    lines = ["### The pen's path under load", "",
             "The same turns again, the pen's and its mirror's, while the mirror's pencild has other work. Goal in every "
             "row: the mirror at most +0.5 ms at p50 and +1.5 ms at p99 over libinput reading the pen itself under the "
             "same load. The stream is the mirror turn's one Monitor client of that pencild (the pen's kernel time to "
             "the client's receipt).", "",
             "| load | libinput, the pen: p50 / p99 | libinput, the mirror: p50 / p99 | mirror − libinput: p50 / p99 | goal | "
             "the pass-through: p50 / p99 | the stream to one client: p50 / p99 |",
             "|---|---:|---:|---:|---|---:|---:|"]
    for label, pen, figures in rows:
        mirror, passthrough, stream = figures.get("mirror"), figures.get("passthrough"), figures.get("stream")
        def pair(s):
            return f"{ms(s['p50'])} / {ms(s['p99'])}" if s else "not measured"
        if pen and mirror:
            added50, added99 = mirror["p50"] - pen["p50"], mirror["p99"] - pen["p99"]
            difference = f"{added50 / 1000:+.2f} ms / {added99 / 1000:+.2f} ms"
            over = [f"{(added - limit) / 1000:.2f} ms at {name}" for added, limit, name in
                    ((added50, 500, "p50"), (added99, 1500, "p99")) if added > limit]
            goal = "met" if not over else "**not met** by " + " and ".join(over)
        else:
            difference, goal = "—", "not measured"
        lines.append(f"| {label} | {pair(pen)} | {pair(mirror)} | {difference} | {goal} | {pair(passthrough)} | {pair(stream)} |")
    return lines + [""]


def ms(microseconds):
    return f"{microseconds / 1000:.2f} ms"


# The repository's folder, left out of the report: paths in it are relative to the repository.
repo_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def report(results, doc):
    with open(os.path.join(results, "host.json")) as f:
        host_figures = json.load(f)
    vm = os.path.join(results, "vm")
    lat = latency(vm) if os.path.isdir(vm) and rounds_of(vm) else None
    with open(os.path.join(vm, "script.log"), errors="replace") if os.path.exists(os.path.join(vm, "script.log")) else open(os.devnull) as f:
        vm_log = f.read()
    kernel = re.search(r"latency: kernel (\S+)", vm_log)
    libinput_version = re.search(r"latency: libinput (\S+)", vm_log)
    scheduling = re.search(r"latency: the mirror's pencild: pen's thread (.+), main thread (.+)", vm_log)
    lines = ["# Benchmarks", "",
             "Written by `bench/run.sh` (`make bench`); every figure below comes from one run of it, "
             f"on {time.strftime('%Y-%m-%d')}. Run it again rather than editing this file.", ""]

    lines += ["## Latency: kernel timestamp to receipt (in a VM)", "",
              "One VM run (qemu without KVM: software emulation, so absolute times are slow; compare "
              "within this table only). The same emulated pen (`pencilctl emulate` of a generated "
              f"pattern: {PATTERN_FRAMES} frames of drawing at {int(1 / PATTERN_INTERVAL)} Hz) is played once for each reader, "
              f"the readers taking turns, {len(lat['rounds']) if lat else 0} rounds (so that a stall of the host falls "
              "on any of them alike):", "",
              "- **floor**: a bare evdev reader (`bench/probe.swift`, blocking `read(2)` on the node);",
              "- **pencild**: a varlink client of pencild (the same probe, `Monitor` stream), pencild "
              "finding the pen through udev, reading it through libevdev, tracking it and recognising gestures;",
              "- **libinput**: `libinput debug-events --udev seat0`, line-buffered, read through a pipe.", "",
              "The reference is the same for all three: the kernel's CLOCK_MONOTONIC timestamp of the frame's "
              "SYN_REPORT, taken when the writer's `write(2)` reaches evdev. The floor reader reads it from "
              "the event; pencild carries it as `Event.time` of each `motion`; libinput's debug-events "
              "prints each event's kernel time only as whole milliseconds since its own start, so each "
              "axis event (tip down) is paired with the drawing frame of that millisecond, whose exact "
              "kernel time a bare reader running beside libinput recorded (the start offset is the one "
              "that pairs the most events). That bare reader runs in every turn, so each carries the "
              "same extra load. Receipt is CLOCK_MONOTONIC when the reader's `read(2)` returned.", ""]
    if lat and lat["floor"] and lat["pencild"]:
        env = []
        if kernel:
            env.append(f"guest kernel {kernel.group(1)}")
        if libinput_version:
            env.append(f"libinput {libinput_version.group(1)}")
        if env:
            lines += [", ".join(env) + ".", ""]
        if scheduling:
            lines += [f"The pen's path (its own thread in pencild: the pen's frame to its mirror) ran at "
                      f"**{scheduling.group(1)}**, the main loop (clients) at {scheduling.group(2)}: the "
                      "mirror's pencild ran with RLIMIT_RTPRIO 1, what the system unit grants "
                      "(`LimitRTPRIO=1`); a user's pencild asks RealtimeKit for the same, and without it stays at "
                      "the ordinary priority.", ""]
        lines += ["| reader | frames | p50 | p99 | max | mean |", "|---|---:|---:|---:|---:|---:|"]
        for label, key in (("floor (bare evdev reader)", "floor"), ("pencild varlink client", "pencild"),
                           ("libinput debug-events", "libinput"), ("libinput through the mirror", "mirror"),
                           ("the mirror's pass-through (pen's kernel time to the mirror's)", "passthrough")):
            s = lat.get(key)
            if s:
                lines.append(f"| {label} | {s['count']} | {ms(s['p50'])} | {ms(s['p99'])} | {ms(s['max'])} | {ms(s['mean'])} |")
            else:
                lines.append(f"| {label} | — | not measured | | | |")
        lines.append("")
        floor, pen, li = lat["floor"], lat["pencild"], lat.get("libinput")
        lines += ["| ratio | p50 | p99 | goal |", "|---|---:|---:|---|"]
        goal_floor = "p99 ≤ 1.5× floor: " + ("met" if pen["p99"] <= 1.5 * floor["p99"] else "**not met**")
        lines.append(f"| pencild / floor | {pen['p50'] / floor['p50']:.2f}× | {pen['p99'] / floor['p99']:.2f}× | {goal_floor} |")
        if li:
            goal_li = "p99 below libinput: " + ("met" if pen["p99"] < li["p99"] else "**not met**")
            lines.append(f"| pencild / libinput | {pen['p50'] / li['p50']:.2f}× | {pen['p99'] / li['p99']:.2f}× | {goal_li} |")
        else:
            lines.append("| pencild / libinput | — | — | libinput's axis events could not be paired with frames |")
        mi = lat.get("mirror")
        if li and mi:
            added50, added99 = mi["p50"] - li["p50"], mi["p99"] - li["p99"]
            goal = ("met" if added50 <= 500 and added99 <= 1500 else "**not met**")
            lines.append(f"| mirror − libinput | {added50 / 1000:+.2f} ms | {added99 / 1000:+.2f} ms | "
                         f"at most +0.5 ms at p50 and +1.5 ms at p99: {goal} |")
        else:
            lines.append("| mirror − libinput | — | — | not measured" + (": " + "; ".join(lat.get("mirror_unpaired", [])) if lat.get("mirror_unpaired") else "") + " |")
        lines.append("")
        if mi:
            lines += [f"Through the mirror, libinput reported {lat['mirror_axis_events']} axis events with the tip down, "
                      f"{lat['mirror_matched']} of them paired with a frame; each is measured from the pen's own frame "
                      "(its kernel time, as pencild's Monitor stream carries it), paired in order with the mirror frame "
                      "a bare reader of the mirror saw.", ""]
        lines += pen_path_under_load(lat)
        side = [f"{name} turns {ms(lat[key]['p50'])} / {ms(lat[key]['p99'])}" for name, key in
                (("pencild", "pencild_floor"), ("libinput", "libinput_floor")) if lat.get(key)]
        if side:
            lines += ["The bare reader beside the other readers (p50 / p99): " + "; ".join(side) + ".", ""]
        lines += [f"Samples: {PATTERN_FRAMES} drawing frames per turn; libinput reported "
                  f"{lat['libinput_axis_events']} axis events with the tip down, {lat['libinput_matched']} of them "
                  "paired with a frame.", ""]
    elif os.path.exists(os.path.join(vm, "skipped")):
        lines += ["**Not run for this report**: it was made with `BENCH_SKIP_VM=1` (the host figures "
                  "alone); `make bench` without it runs the VM.", ""]
    else:
        lines += ["**Not measured**: the VM run did not produce latency samples "
                  "(see the VM's script.log in the results folder).", ""]

    lines += ["## Per-event costs against their goals (on the host)", "",
              "What one frame costs the whole daemon (callgrind instructions, below) and what one event "
              "costs on the wire: a typical motion event is the median size of the recording's motion "
              "events in their reply (`{\"parameters\":{\"event\":...},\"continues\":true}` and the NUL); "
              "the mean is over every message one `Monitor` client of the replay received. The recording's "
              "pens report distance and tilt, so a motion event carries eight pose members; the fields "
              "and names are the contract's, and only the floats' rounding shortens it.", "", "```"]
    lines += goal_lines(host_figures) + ["```", ""]
    b = host_figures.get("bytes")
    if b and b.get("example"):
        lines += ["A motion event of the recording, as `pencilctl events` prints it:", "", "```", b["example"], "```", ""]
    lines += ["## Throughput, instructions, memory and wake-ups (on the host)", "",
              f"Host: {host_figures['cpu']}, {host_figures['cores']} cores, kernel {host_figures['kernel']}, "
              f"load average {host_figures.get('load', 0):.1f} when the run began"
              + (" (above the number of cores: the times below are slowed by other work; instruction counts are not)"
                 if host_figures.get("load", 0) > host_figures["cores"] else "") + ". "
              "Release build.", ""]
    lines += [f"Throughput: pencild replays `{host_figures['recording']}` at `--speed max` "
              "(`--no-udev --wait-monitors N --exit-after-replay`) to N `Monitor` clients (one probe process "
              "holding every connection); the time runs from the `Monitor` calls until every client "
              "has its `deviceRemoved`. Under load pencild coalesces motion for a client that falls "
              "behind, so clients may receive fewer messages than there are events"
              + (f" (`pencilctl events` prints {host_figures['recording_events']} for this recording)."
                 if host_figures.get("recording_events") else "."), ""]
    if host_figures.get("recording_note"):
        lines += [host_figures["recording_note"] + ".", ""]
    lines += ["| clients | frames | seconds | frames/s | messages per client | MB sent | peak RSS |",
              "|---:|---:|---:|---:|---:|---:|---:|"]
    for t in host_figures["throughput"]:
        per_client = str(t["messages_min"]) if t["messages_min"] == t["messages_max"] else f"{t['messages_min']}–{t['messages_max']}"
        lines.append(f"| {t['clients']} | {t['frames']} | {t['seconds']:.3f} | {t['frames_per_second']:,.0f} | {per_client} | "
                     f"{t['megabytes']:.1f} | {t['peak_rss_kib'] / 1024:.1f} MiB |")
    lines.append("")
    cg = host_figures.get("callgrind")
    if cg:
        lines += [f"Instructions per frame (valgrind --tool=callgrind, one client): **{cg['ir_per_frame']:,.0f}**. "
                  f"Measured as the difference between two runs, the whole recording ({cg['full_frames']} frames, "
                  f"{cg['full_ir']:,} instructions) and its first tenth ({cg['small_frames']} frames, {cg['small_ir']:,}), "
                  "so start-up and shutdown cancel out; what remains per frame is the whole pipeline: "
                  "decoding the recording's text, frame assembly, gesture recognition, JSON and the socket "
                  "writes. Instruction counts do not vary from run to run as times do.", ""]
        if "mirror_ir_per_frame" in cg:
            lines += [f"With each frame also routed as a pen's mirror routes it (`--mirror-replays`: the mirror's "
                      f"routing under withholdGestureClicks, its frames dropped since a replay has no uinput device): "
                      f"**{cg['mirror_ir_per_frame']:,.0f}** instructions per frame, "
                      f"{cg['mirror_ir_per_frame'] - cg['ir_per_frame']:+,.0f} for the pass-through. The one `write(2)` "
                      "a live mirror makes per frame is the kernel's work, which callgrind does not count.", ""]
        if cg.get("breakdown"):
            lines += ["Where the instructions of the whole run go (inclusive: a function with what it calls; "
                      "`callgrind_annotate --inclusive=yes`):", "",
                      "| share | function | source |", "|---:|---|---|"]
            for row in cg["breakdown"]:
                lines.append(f"| {row['share'] * 100:.1f} % | `{row['function']}` | {row['file']} |")
            lines.append("")
    else:
        lines += ["Instructions per frame: not measured (valgrind is not installed).", ""]
    lines += ["Idle: pencild with one `Monitor` client connected and nothing happening, context switches "
              "(voluntary and involuntary, all threads) counted from /proc over the interval:", "",
              "| mode | seconds | wake-ups | RSS |", "|---|---:|---:|---:|"]
    for label, figures in host_figures["idle"].items():
        if figures:
            lines.append(f"| {label} | {figures['seconds']} | {figures['wakeups']} | {figures['rss_kib'] / 1024:.1f} MiB |")
        else:
            lines.append(f"| {label} | — | did not start here | |")
    lines.append("")
    idle_path = os.path.join(vm, "idle.txt")
    if os.path.exists(idle_path):
        idle = read_counts(idle_path)
        lines += [f"In the VM, with a live pen plugged in and quiet (it hovered, then went silent: a forced "
                  f"proximity-out) and one client subscribed, pencild woke {idle['idle_wakeups']} times in "
                  f"{idle['idle_seconds']} s.", ""]
    palette_figures = host_figures.get("palette")
    if palette_figures and "ms" in palette_figures:
        values = sorted(palette_figures["ms"])
        lines += ["## The system palette: squeeze to screen", "",
                  f"{palette_figures['rounds']} squeezes of the demo pen under Xvfb (`bench.py palette`), each closed "
                  "with Escape before the next: from pencil-actions reading the ended squeeze to pencil-palette "
                  "saying it is mapped and drawn (a new Python and GTK 4 process each time).", "",
                  f"median {statistics.median(values):.0f} ms, min {values[0]} ms, max {values[-1]} ms", ""]
    elif palette_figures:
        lines += ["## The system palette: squeeze to screen", "", f"Not measured: {palette_figures['error']}.", ""]
    if host_figures.get("pencil_bench"):
        output = host_figures["pencil_bench"].rstrip()
        recordings = os.environ.get("PENCILD_RECORDINGS", "").rstrip("/")
        if recordings:
            output = output.replace(recordings + "/", "$PENCILD_RECORDINGS/")
        lines += ["## Input and gesture figures (pencil-bench)", "", "```", output, "```", ""]
    if host_figures.get("pencil_bench_daemon"):
        lines += ["## Dispatch to receipt at 1 kHz, 1/16/64 clients (pencil-bench daemon)", "",
                  "From a frame's due time on the host clock (a replay at real-time speed) to each client's "
                  "receipt; CPU per frame; resident memory. The replayed pen is one libwacom knows (an AES "
                  "tablet), so its database is loaded.", "",
                  "```", host_figures["pencil_bench_daemon"].rstrip().replace(repo_root + "/", ""), "```", ""]
        lines += [rss_verdict(host_figures["pencil_bench_daemon"]), ""]
    with open(doc, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


GOAL_RSS_64_CLIENTS_MIB = 12.0


def rss_verdict(daemon_output):
    """PASS or MISS for the resident memory of pencild streaming to 64 clients."""
    match = re.search(r"^64 clients:.*?RSS ([0-9.]+) MiB", daemon_output, re.MULTILINE)
    if not match:
        return "MISS: RSS with 64 clients not measured"
    rss = float(match.group(1))
    verdict = "PASS" if rss <= GOAL_RSS_64_CLIENTS_MIB else "MISS"
    return f"{verdict}: RSS with 64 streaming clients, libwacom loaded: {rss:.1f} MiB (goal: at most {GOAL_RSS_64_CLIENTS_MIB:.0f} MiB)"


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "pattern":
        write_generated(sys.argv[2], "bench-pattern.evemu", sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "host":
        host(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 4 and sys.argv[1] == "costs":
        costs(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "palette":
        return palette(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "report":
        report(sys.argv[2], sys.argv[3])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
