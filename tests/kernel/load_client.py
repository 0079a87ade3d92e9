"""Clients that misbehave, for the kernel tier's mirror-under-load scenario and make bench's
loads: load_client.py SOCKET stalled COUNT | flood.

stalled: COUNT Monitor subscriptions that never read, opened again whenever pencild drops
them for lagging. flood: connections opened and closed as fast as they go (from a user
pencild refuses). Each prints "ready", and at SIGTERM how many connections it opened.
Standard library only: it runs as another user, handed over as `python3 -c` text, so that
the user need not read the repository.
"""
import json, select, signal, socket, sys
path, kind = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 0
done = False
def stop(*_):
    global done
    done = True
signal.signal(signal.SIGTERM, stop)
call = json.dumps({"method": "org.pencild.Pen.Monitor", "parameters": {}, "more": True}).encode() + b"\0"
opened = 0
def stalled():
    global opened
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(call)
    opened += 1
    return s
if kind == "stalled":
    sockets = [stalled() for _ in range(count)]
    print("ready", flush=True)
    while not done:
        poller = select.poll()
        for s in sockets:
            poller.register(s, select.POLLRDHUP | select.POLLHUP)
        for fd, _ in poller.poll(200):
            index = next(i for i, s in enumerate(sockets) if s.fileno() == fd)
            sockets[index].close()
            sockets[index] = stalled()
    print(f"opened {opened}", flush=True)
else:
    print("ready", flush=True)
    while not done:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(1)
        try:
            s.connect(path)
            opened += 1
        except OSError:
            pass
        s.close()
    print(f"opened {opened}", flush=True)
