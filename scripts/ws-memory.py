#!/usr/bin/env python3
"""What a WebSocket costs a running `qiyuan serve`, from its resident set
(docs/reliability.md, "Memory per idle WebSocket"): the server's end alone, with
clients that speak raw frames and keep no buffers of their own.

    scripts/ws-memory.py idle PORT PID [SOCKETS]        # default 1000
    scripts/ws-memory.py large PORT PID SOCKETS BYTES   # each sends one message

`idle` opens 50 sockets to warm up, then SOCKETS more that read the hello and
stay silent, and prints the growth per socket. `large` opens SOCKETS sockets and
sends one text message of about BYTES from each (a `ping` the server answers
`too_large`, or a socket it closes past its hard limit), then prints what the
server kept per socket. Start the server on a fresh data folder with
`--max-sockets-per-address 0`, and raise `ulimit -n` for many sockets.
"""

import base64
import os
import socket
import struct
import sys
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise SystemExit(f"no process {pid}")


def connect(port):
    """A socket past the upgrade, its hello read and dropped."""
    s = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(65536)
    rest = data.split(b"\r\n\r\n", 1)[1]
    while len(rest) < 4:
        rest += s.recv(65536)
    length, at = rest[1] & 0x7F, 2
    if length == 126:
        length, at = struct.unpack(">H", rest[2:4])[0], 4
    while len(rest) < at + length:
        rest += s.recv(65536)
    return s


def text_frame(payload):
    """A masked text frame, as a client sends it."""
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = struct.pack(">BB", 0x81, 0x80 | n)
    elif n < 65536:
        head = struct.pack(">BBH", 0x81, 0x80 | 126, n)
    else:
        head = struct.pack(">BBQ", 0x81, 0x80 | 127, n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def drain(s):
    s.setblocking(False)
    try:
        while s.recv(1 << 20):
            pass
    except OSError:
        pass


def idle(port, pid, n):
    warm = [connect(port) for _ in range(50)]
    time.sleep(0.5)
    before = rss_kib(pid)
    sockets = [connect(port) for _ in range(n)]
    time.sleep(1.0)
    after = rss_kib(pid)
    print(f"{n} idle sockets: {before} -> {after} KiB, {(after - before) / n:.1f} KiB each")
    return warm, sockets


def large(port, pid, n, size):
    sockets = [connect(port) for _ in range(n)]
    time.sleep(0.5)
    before = rss_kib(pid)
    frame = text_frame(b'{"t":"ping","d":{"x":"' + b"e" * size + b'"}}')
    closed = 0
    for s in sockets:
        try:
            s.sendall(frame)
        except OSError:
            closed += 1
    time.sleep(1.5)
    for s in sockets:
        drain(s)
    after = rss_kib(pid)
    print(
        f"{n} sockets sent {size} bytes each ({closed} closed while sending): "
        f"{before} -> {after} KiB, {(after - before) / n:.0f} KiB kept each"
    )


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[1] not in ("idle", "large"):
        raise SystemExit(__doc__)
    port, pid = int(sys.argv[2]), int(sys.argv[3])
    if sys.argv[1] == "idle":
        idle(port, pid, int(sys.argv[4]) if len(sys.argv) > 4 else 1000)
    else:
        large(port, pid, int(sys.argv[4]), int(sys.argv[5]))
