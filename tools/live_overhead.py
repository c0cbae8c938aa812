#!/usr/bin/env python3
"""What the live view costs the solver (issue 25: a slow or absent viewer must not slow
it by more than 5%): the same run without --serve, served with nobody watching, watched
by a fast client (the event stream read at once and every frame fetched as it comes)
and by slow clients (event streams opened and never read, a request sent a byte a
second), interleaved over repetitions; MLUPS from `barracuda run`'s summary line.

    python3 tools/live_overhead.py --exe build/src/barracuda --backend cuda
"""
import argparse
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

BOX = """
title = "periodic box (live view overhead)"
[model]
lattice = "D3Q19"
collision = "bgk"
precision = "fp32"
tau = 0.6
[domain]
size = [{n}, {n}, {n}]
periodic = [true, true, true]
[initial]
velocity = [0.05, 0.02, 0.0]
[run]
steps = {steps}
check_interval = 1000
[output]
interval = 0
formats = []
"""


def watch_fast(url, stop):
    """A viewer on a fast link: the event stream read continuously, each new frame fetched."""
    parts = urllib.parse.urlsplit(url)
    token = urllib.parse.parse_qs(parts.query)["token"][0]
    base = f"{parts.scheme}://{parts.netloc}"
    headers = {"X-Barracuda-Token": token}

    def stream():
        try:
            with urllib.request.urlopen(f"{base}/api/events?token={token}", timeout=30) as r:
                while not stop.is_set() and r.readline():
                    pass
        except Exception:
            pass

    threading.Thread(target=stream, daemon=True).start()
    frames = 0
    while not stop.is_set():
        try:
            with urllib.request.urlopen(urllib.request.Request(f"{base}/api/frame.png", headers=headers), timeout=10) as r:
                r.read()
                frames += 1
        except Exception:
            time.sleep(0.05)
    return frames


def watch_slow(url, stop):
    """Viewers that do not keep up: four event streams never read, one request sent a
    byte a second, and frames read at 1 KB/s."""
    parts = urllib.parse.urlsplit(url)
    token = urllib.parse.parse_qs(parts.query)["token"][0]
    host, port = parts.hostname, parts.port
    socks = []
    for _ in range(4):
        s = socket.create_connection((host, port))
        s.sendall(f"GET /api/events?token={token} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        socks.append(s)
    drip = socket.create_connection((host, port))
    frame = socket.create_connection((host, port))
    frame.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    request = f"GET /api/status?token={token} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    k = 0
    while not stop.is_set():
        if k < len(request):
            try:
                drip.send(request[k:k + 1])
            except OSError:
                pass
        if k % 20 == 0:
            try:
                frame.sendall(f"GET /api/frame.png?token={token} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            except OSError:
                pass
        try:
            frame.settimeout(0.01)
            frame.recv(1024)
        except OSError:
            pass
        k += 1
        time.sleep(1.0)
    for s in socks + [drip, frame]:
        s.close()


def run(exe, case, backend, mode, extra):
    cmd = [exe, "run", str(case), "--backend", backend, "-q", "--out", tempfile.mkdtemp(prefix="live-"), *extra]
    if mode != "plain":
        cmd += ["--serve", "127.0.0.1:0"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stop = threading.Event()
    watcher = None
    if mode != "plain":
        url = None
        for line in p.stderr:
            m = re.search(r"live view at (\S+)", line)
            if m:
                url = m.group(1)
                break
        if url and mode in ("fast", "slow"):
            target = watch_fast if mode == "fast" else watch_slow
            watcher = threading.Thread(target=target, args=(url, stop), daemon=True)
            watcher.start()
    out, err = p.communicate()
    stop.set()
    m = re.search(r"done: (\d+) steps.*?, ([0-9.e+]+) MLUPS", out)
    if p.returncode != 0 or not m:
        sys.exit(f"{mode}: exit code {p.returncode}\n{out}\n{err}")
    return float(m.group(2))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", default="build/src/barracuda")
    ap.add_argument("--backend", default="cuda")
    ap.add_argument("--size", type=int, default=256, help="edge of the periodic box")
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--sphere-steps", type=int, default=12000)
    ap.add_argument("--repetitions", type=int, default=2)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="live-overhead-"))
    box = tmp / "box.toml"
    box.write_text(BOX.format(n=args.size, steps=args.steps))
    source = Path(__file__).resolve().parent.parent
    cases = [(f"D3Q19 BGK FP32 {args.size}^3 periodic", box, []),
             ("sphere3d.toml at 256 x 96 x 96 (MRT FP32)", source / "cases" / "sphere3d.toml",
              ["--set", "domain.size=[256, 96, 96]", "--set", "obstacle[0].center=[64, 47.5, 47.5]",
               "--set", f"run.steps={args.sphere_steps}", "--set", "run.steady_tolerance=0",
               "--set", "output.interval=0", "--set", "output.formats=[]"])]
    modes = ["plain", "idle", "fast", "slow"]
    print(f"{'case':44} {'viewer':6} {'MLUPS (each run)':30} {'median':>9} {'of plain':>8}")
    for name, case, extra in cases:
        results = {m: [] for m in modes}
        for _ in range(args.repetitions):
            for m in modes:
                results[m].append(run(args.exe, case, args.backend, m, extra))
        plain = statistics.median(results["plain"])
        for m in modes:
            med = statistics.median(results[m])
            each = ", ".join(f"{v:.0f}" for v in results[m])
            print(f"{name:44} {m:6} {each:30} {med:9.0f} {med / plain:8.3f}", flush=True)


if __name__ == "__main__":
    main()
