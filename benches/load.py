#!/usr/bin/env python3
"""Drive `mancala-sweep serve` with a mix of concurrent clients and report.

Why: issue 36 asks how the server holds under load, in figures: requests,
latency by kind, answers by status (only the documented ones), the
server's peak resident memory against its limits, and that it still
answers afterwards with no game or solve left behind.

The script starts the server itself on a free loopback port, so it never
talks to anything but the process it started; it stops after --seconds or
--max-requests, whichever comes first, and then checks the server:

    python3 benches/load.py --binary target/release/mancala-sweep --seconds 60

Clients (one thread each, all at once): puzzle pages and checks, small
solves with replays and finds, large solves (one past the memory guard),
games with computer turns, hints, undos and a request racing another on
the same game, solve and analysis streams dropped half-way, malformed and
oversized bodies, and slow clients (a body sent byte by byte, an answer
read a few bytes at a time). Standard library only.
"""

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

# Statuses docs/web-api.md documents; anything else is flagged.
DOCUMENTED = {200, 204, 400, 404, 409, 413, 429, 503}

# How far above its idle level the server's resident memory may stay once
# the load and the checks after it are over: a game or solve left behind
# holds far more (a perfect game's tables are 256 MiB, a large solve's
# buffers about 145 MiB), while the allocator's bookkeeping and the thread
# stacks of the blocking pool (kept ten seconds idle) take a few MiB.
NEAR_IDLE = 32 << 20


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default=None, help="the mancala-sweep binary (default: $CARGO_TARGET_DIR or target, release)")
    ap.add_argument("--seconds", type=float, default=60.0, help="how long to drive the server (default 60)")
    ap.add_argument("--max-requests", type=int, default=50000, help="stop after this many requests in all")
    ap.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    ap.add_argument("--max-memory", default="1G", help="the server's --max-memory (default 1G)")
    ap.add_argument("--max-solves", type=int, default=4, help="the server's --max-solves (default 4)")
    ap.add_argument("--solve-seconds", type=float, default=20.0, help="the server's --seconds (default 20)")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    return ap.parse_args()


def size_bytes(text):
    m = re.fullmatch(r"\s*([0-9.]+)\s*([KMGT]?)(i?B)?\s*", text, re.I)
    if not m:
        sys.exit(f"--max-memory {text!r} is not a size such as 800M or 1G")
    scale = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}[m.group(2).upper()]
    return int(float(m.group(1)) * scale)


def default_binary():
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(os.path.dirname(__file__), "..", "target")
    return os.path.join(target, "release", "mancala-sweep")


class Server:
    """The server process this script started, and its memory."""

    def __init__(self, binary, args):
        self.log = tempfile.NamedTemporaryFile(prefix="load-serve-", suffix=".log", delete=False)
        cmd = [binary, "serve", "--port", "0", "--bind", "127.0.0.1",
               "--max-memory", args.max_memory, "--max-solves", str(args.max_solves),
               "--seconds", str(args.solve_seconds)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.proc.kill()
            sys.exit(f"serve did not say its address: {line!r}")
        self.port = int(m.group(1))
        self.peak_rss = 0
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()

    def status(self):
        """(VmRSS, VmHWM) in bytes, from /proc/<pid>/status."""
        out = {}
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    key, value, _ = line.split()
                    out[key[:-1]] = int(value) * 1024
        return out.get("VmRSS", 0), out.get("VmHWM", 0)

    def _sample(self):
        while not self._stop.is_set() and self.proc.poll() is None:
            try:
                self.peak_rss = max(self.peak_rss, self.status()[0])
            except OSError:
                return
            time.sleep(0.05)

    def big_mappings(self, least=8 << 20):
        """(size, resident) of the anonymous mappings holding at least
        `least` bytes: a table still held shows as one mapping of its size."""
        out, size = [], 0
        with open(f"/proc/{self.proc.pid}/smaps") as f:
            for line in f:
                head = line.split()
                if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                    lo, hi = (int(x, 16) for x in head[0].split("-"))
                    size = hi - lo
                    anon = len(head) < 6
                elif head[0] == "Rss:" and anon and int(head[1]) * 1024 >= least:
                    out.append((size, int(head[1]) * 1024))
        return sorted(out, reverse=True)

    def trim(self):
        """Ask the server's allocator to give back the free memory it keeps
        (glibc's malloc_trim, called through gdb when it is installed), so
        that what is left resident is what the server still uses: memory
        the allocator kept after the load is not a leaked game or solve.
        None without gdb."""
        if not shutil.which("gdb"):
            return None
        subprocess.run(["gdb", "-p", str(self.proc.pid), "-batch", "-ex", "call (int)malloc_trim(0)"],
                       capture_output=True, timeout=60)
        time.sleep(0.5)
        return self.status()[0]

    def stop(self):
        self._stop.set()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        with open(self.log.name, errors="replace") as f:
            text = f.read()
        os.unlink(self.log.name)
        return text


class Tally:
    """Every request's kind, status and latency, shared by the clients."""

    def __init__(self, max_requests, deadline):
        self.lock = threading.Lock()
        self.rows = []
        self.max_requests = max_requests
        self.deadline = deadline
        self.surprises = []

    def more(self):
        return time.monotonic() < self.deadline and len(self.rows) < self.max_requests

    def add(self, kind, status, seconds, expect=None, note=""):
        with self.lock:
            self.rows.append((kind, status, seconds))
            if status not in DOCUMENTED:
                self.surprises.append(f"{kind}: status {status} {note[:200]}")
            elif expect is not None and status not in expect:
                self.surprises.append(f"{kind}: status {status}, expected {sorted(expect)} {note[:200]}")


def http(port, method, path, body=None, timeout=120.0, slow_send=0.0, slow_read=0.0, headers=""):
    """One request on a fresh connection: (status, body text, seconds).
    Status 0 is a connection that failed or timed out."""
    data = b"" if body is None else (body if isinstance(body, bytes) else body.encode())
    head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n{headers}\r\n").encode()
    start = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            if slow_send:
                s.sendall(head)
                for i in range(len(data)):
                    s.sendall(data[i:i + 1])
                    time.sleep(slow_send)
            else:
                s.sendall(head + data)
            chunks = []
            while True:
                chunk = s.recv(8 if slow_read else 65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if slow_read:
                    time.sleep(slow_read)
        text = b"".join(chunks).decode(errors="replace")
        status = int(text[9:12]) if text.startswith("HTTP/1.") else 0
        return status, text[text.find("\r\n\r\n") + 4:], time.monotonic() - start
    except (OSError, ValueError) as e:
        return 0, str(e), time.monotonic() - start


def body_json(text):
    """The JSON of an answer without chunked framing (axum sends JSON whole,
    but an HTTP/1.1 answer may be chunked)."""
    try:
        return json.loads(text)
    except ValueError:
        parts = text.split("\r\n")
        try:
            return json.loads("".join(parts[1::2]))
        except ValueError:
            return None


def call(t, port, kind, method, path, body=None, expect=None, **kw):
    status, text, secs = http(port, method, path, body, **kw)
    t.add(kind, status, secs, expect, text if status not in (200, 204) else "")
    if status == 429:
        # Busy: a page would wait before asking again, and so does a client here.
        time.sleep(0.1 + 0.2 * random.random())
    return status, text


def puzzles_client(t, port, rng):
    status, text = call(t, port, "puzzles", "GET", "/api/puzzles", expect={200})
    doc = body_json(text) or {"collections": []}
    pool = [(c["name"], p["id"]) for c in doc["collections"] for p in c["puzzles"]]
    while t.more():
        what = rng.random()
        if what < 0.15:
            call(t, port, "page", "GET", rng.choice(["/", "/index.html", "/app.js", "/app.css"]), expect={200, 404})
        elif what < 0.25:
            call(t, port, "page", "GET", "/api/atlas", expect={200})
        elif what < 0.35:
            call(t, port, "puzzles", "GET", "/api/puzzles", expect={200})
        else:
            name, pid = rng.choice(pool)
            status, text = call(t, port, "puzzles", "GET", f"/api/puzzles/{name}/{pid}", expect={200})
            puzzle = (body_json(text) or {}).get("puzzle", {})
            picks = puzzle.get("solution", [])[: rng.randint(0, 4)]
            body = json.dumps({"picks": picks, "hint": rng.random() < 0.5})
            call(t, port, "puzzle-check", "POST", f"/api/puzzles/{name}/{pid}/check", body, expect={200, 400, 429})


def small_solve_client(t, port, rng):
    while t.more():
        what = rng.random()
        rules = rng.choice(["avalanche", "any-hole", "kalah"])
        if what < 0.6:
            pits, stones = rng.randint(2, 5), rng.randint(1, 3)
            body = json.dumps({"rules": rules, "pits": pits, "stones": stones, "limit": rng.randint(0, 20)})
            call(t, port, "solve-small", "POST", "/api/solve", body, expect={200, 429})
        elif what < 0.85:
            body = json.dumps({"rules": "avalanche", "pits": 6, "stones": 4, "picks": [6, 3, 2, 5][: rng.randint(0, 4)]})
            call(t, port, "replay", "POST", "/api/replay", body, expect={200})
        else:
            body = json.dumps({"rules": rules, "pits": 6, "stones": 4, "seconds": 0.5, "seed": rng.randint(0, 9)})
            call(t, port, "find", "POST", "/api/find", body, expect={200, 429})


def large_solve_client(t, port, rng):
    while t.more():
        if rng.random() < 0.9:
            # About 145 MiB and 6 s on two cores: fits any --max-memory of 256M or more.
            body = json.dumps({"rules": "any-hole", "pits": 5, "stones": 5, "limit": 1})
            status, text = call(t, port, "solve-large", "POST", "/api/solve", body, expect={200, 429})
            doc = body_json(text) or {}
            if status == 200 and doc.get("complete") is not True:
                t.surprises.append(f"solve-large: incomplete answer ({doc.get('stopped')}) for a board that fits")
        else:
            # Past any guard below a few GiB: the stopped document, 200.
            body = json.dumps({"rules": "any-hole", "pits": 7, "stones": 4, "limit": 1})
            status, text = call(t, port, "solve-past-guard", "POST", "/api/solve", body, expect={200, 429})
            doc = body_json(text) or {}
            if status == 200 and doc.get("stopped") not in ("memory-limit", "out-of-time"):
                t.surprises.append(f"solve-past-guard: answered {doc.get('complete')}, stopped {doc.get('stopped')}")
        time.sleep(rng.random())


def game_client(t, port, rng):
    while t.more():
        level = rng.choice(["easy", "medium", "hard", "perfect"])
        if level in ("hard", "perfect"):
            pits, stones = rng.choice([(4, 3), (5, 2), (4, 4)])
        else:
            pits, stones = 6, 4
        body = {"level": level, "seed": rng.randint(0, 999), "pits": pits, "stones": stones,
                "person": rng.choice(["first", "second"])}
        status, text = call(t, port, "game-new", "POST", "/api/game/new", json.dumps(body), expect={200, 429, 503})
        if status != 200:
            time.sleep(0.2)
            continue
        doc = body_json(text)
        gid = doc["id"]
        while t.more() and not doc.get("over"):
            what = rng.random()
            if doc.get("to_move") != "person":
                status, text = call(t, port, "game-turn", "POST", f"/api/game/{gid}/reply", expect={200, 429, 503})
            elif what < 0.1:
                status, text = call(t, port, "game-hint", "POST", f"/api/game/{gid}/hint", expect={200, 429, 503})
            elif what < 0.15:
                status, text = call(t, port, "game-other", "POST", f"/api/game/{gid}/undo", expect={200})
            elif what < 0.2:
                # Two requests on the same game at once: one may be 409.
                pit = rng.choice(doc["legal"])
                other = threading.Thread(target=call, args=(t, port, "game-race", "GET", f"/api/game/{gid}"),
                                         kwargs={"expect": {200, 409}})
                other.start()
                status, text = call(t, port, "game-turn", "POST", f"/api/game/{gid}/pick",
                                    json.dumps({"pit": pit}), expect={200, 409, 429, 503})
                other.join()
            else:
                pit = rng.choice(doc["legal"])
                status, text = call(t, port, "game-turn", "POST", f"/api/game/{gid}/pick",
                                    json.dumps({"pit": pit}), expect={200, 429, 503})
            if status == 404:
                break  # dropped to make room for newer games: documented
            if status == 200:
                doc = body_json(text) or doc
            status, text = call(t, port, "game-other", "GET", f"/api/game/{gid}", expect={200, 404})
            if status == 200:
                doc = body_json(text) or doc
            elif status == 404:
                break
        call(t, port, "game-other", "DELETE", f"/api/game/{gid}", expect={204, 404})


def stream_cancel_client(t, port, rng):
    """Open a solve or analysis stream, read a few events, hang up."""
    while t.more():
        analyze = rng.random() < 0.3
        if analyze:
            path, body = "/api/analyze/stream", {"rules": "kalah", "pits": 6, "stones": 4, "seconds": 5}
        else:
            path, body = "/api/solve/stream", {"rules": "any-hole", "pits": 5, "stones": 5}
        data = json.dumps(body).encode()
        start = time.monotonic()
        status = 0
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
                s.sendall((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           f"Content-Length: {len(data)}\r\n\r\n").encode() + data)
                seen = b""
                want = rng.randint(1, 8)
                while seen.count(b"event: ") < want:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    seen += chunk
                    if seen.startswith(b"HTTP/1.") and status == 0:
                        status = int(seen[9:12])
                    if status and status != 200:
                        break
        except OSError:
            pass
        t.add("stream-cancelled", status, time.monotonic() - start, {200, 429})
        time.sleep(0.1 + rng.random() * 0.5)


MALFORMED = [
    ("POST", "/api/solve", b"{", {400}),
    ("POST", "/api/solve", b'{"pits": 40}', {400}),
    ("POST", "/api/solve", b'{"pits": "", "stones": 4}', {400}),
    ("POST", "/api/solve", b'{"nonsense": 1}', {400}),
    ("POST", "/api/solve", b'{"board": "1 2 x / 0 0 / 1 1 1"}', {400}),
    ("POST", "/api/solve", b"\xff\xfe\x00", {400}),
    ("POST", "/api/replay", b'{"picks": [99]}', {400}),
    ("POST", "/api/game/new", b'{"level": "godlike"}', {400}),
    ("POST", "/api/game/0000000000000000/pick", b'{"pit": 1}', {404}),
    ("POST", "/api/analyze", b'{"nodes": 0}', {400}),
    ("GET", "/api/nowhere", None, {404}),
    ("GET", "/api/puzzles/none/none", None, {404}),
    ("POST", "/api/solve", b'{"board": "' + b"1 " * 40000 + b'"}', {413}),
]


def malformed_client(t, port, rng):
    while t.more():
        method, path, body, expect = rng.choice(MALFORMED)
        call(t, port, "malformed", method, path, body, expect=expect)
        # Paced, so that the cheapest kind does not fill --max-requests alone.
        time.sleep(0.01)


def slow_client(t, port, rng):
    """A body sent a byte at a time, then an answer read 16 bytes at a time."""
    while t.more():
        if rng.random() < 0.5:
            body = json.dumps({"rules": "avalanche", "pits": 6, "stones": 4, "limit": 1})
            call(t, port, "slow-send", "POST", "/api/solve", body, expect={200, 429}, slow_send=0.02)
        else:
            call(t, port, "slow-read", "GET", "/api/puzzles/own-relay-none/start-684d73c7d4d6",
                 expect={200}, slow_read=0.01)


def analyze_client(t, port, rng):
    while t.more():
        body = json.dumps({"rules": rng.choice(["kalah", "avalanche"]), "pits": 6, "stones": 4,
                           "nodes": rng.choice([10000, 100000, 500000])})
        call(t, port, "analyze", "POST", "/api/analyze", body, expect={200, 429})


CLIENTS = [
    ("puzzles", puzzles_client, 2),
    ("small solves", small_solve_client, 2),
    ("large solves", large_solve_client, 2),
    ("games", game_client, 3),
    ("streams", stream_cancel_client, 1),
    ("malformed", malformed_client, 1),
    ("slow", slow_client, 1),
    ("analyze", analyze_client, 1),
]


def percentile(values, q):
    values = sorted(values)
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, int(round(q * (len(values) - 1)))))
    return values[k]


def after_checks(port, args):
    """What must hold once the load is gone: the server answers, every
    --max-solves place is free (that many solves at once are all answered),
    and a large solve fits its guard again."""
    out = []
    status, _, _ = http(port, "GET", "/api/puzzles")
    out.append(("GET /api/puzzles answers 200", status == 200))
    results = []
    threads = [threading.Thread(target=lambda: results.append(
        http(port, "POST", "/api/solve", json.dumps({"pits": 6, "stones": 4, "limit": 1}))[0]))
        for _ in range(args.max_solves)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    out.append((f"{args.max_solves} solves at once all answered (no place held)", results == [200] * args.max_solves))
    status, text, _ = http(port, "POST", "/api/solve", json.dumps({"rules": "any-hole", "pits": 5, "stones": 5, "limit": 1}))
    doc = body_json(text) or {}
    out.append(("a large solve is answered whole", status == 200 and doc.get("complete") is True))
    return out


def main():
    args = parse_args()
    binary = args.binary or default_binary()
    if not os.access(binary, os.X_OK):
        sys.exit(f"no binary at {binary}: build it (cargo build --release) or give --binary")
    server = Server(binary, args)
    port = server.port
    # Idle: after one request of each light kind, so that lazy statics count.
    for path in ["/api/puzzles", "/api/atlas", "/"]:
        http(port, "GET", path)
    http(port, "POST", "/api/solve", json.dumps({"pits": 3, "stones": 2}))
    time.sleep(0.5)
    idle_rss = server.status()[0]

    started = time.monotonic()
    t = Tally(args.max_requests, started + args.seconds)
    rng = random.Random(args.seed)
    workers = []
    for name, fn, count in CLIENTS:
        for i in range(count):
            th = threading.Thread(target=fn, args=(t, port, random.Random(rng.getrandbits(64))),
                                  name=f"{name}-{i}", daemon=True)
            th.start()
            workers.append(th)
    for th in workers:
        th.join()
    ran = time.monotonic() - started
    peak_during = server.peak_rss
    time.sleep(2.0)
    # The checks run three times: resident memory that grows from one round
    # to the next is a leak; memory the allocator keeps after the load but
    # that does not grow is not.
    after = []
    for _ in range(3):
        checks = after_checks(port, args)
        time.sleep(1.0)
        after.append(server.status()[0])
    after_rss, hwm = server.status()
    # No game or solve left behind, and the allocator's free memory given
    # back by the server itself (web/memory.rs), before the trim below:
    # the last round's resident memory within NEAR_IDLE of idle.
    checks.append((f"resident memory back near idle (within {NEAR_IDLE >> 20} MiB of it, "
                   f"before gdb's malloc_trim): {after[-1] / (1 << 20):.0f} MiB against {idle_rss / (1 << 20):.0f} MiB",
                   after[-1] <= idle_rss + NEAR_IDLE))
    mappings = server.big_mappings()
    trimmed = server.trim()
    trimmed_mappings = server.big_mappings() if trimmed is not None else []
    log = server.stop()
    panics = [line for line in log.splitlines() if "panicked" in line]
    cancelled = sum(1 for line in log.splitlines() if " cancelled " in line)

    kinds = sorted({k for k, _, _ in t.rows})
    statuses = sorted({s for _, s, _ in t.rows})
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    flags = next((line.split(":", 1)[1].split() for line in open("/proc/cpuinfo") if line.startswith("flags")), [])
    simd = ", ".join(f for f in ["avx2", "avx512f", "avx512bw"] if f in flags) or "no avx2"
    print(f"CPU: {cpu} ({os.cpu_count()} cores; {simd})")
    print(f"serve --max-memory {args.max_memory} --max-solves {args.max_solves} --seconds {args.solve_seconds}; "
          f"{len(t.rows)} requests in {ran:.1f} s ({len(t.rows) / ran:.1f}/s), seed {args.seed}")
    print()
    print("| kind | requests | p50 ms | p99 ms | " + " | ".join(str(s) for s in statuses) + " |")
    print("|---|---:|---:|---:|" + "---:|" * len(statuses))
    for k in kinds + ["all"]:
        rows = [r for r in t.rows if k in ("all", r[0])]
        lat = [r[2] * 1000 for r in rows]
        by = [sum(1 for r in rows if r[1] == s) for s in statuses]
        print(f"| {k} | {len(rows)} | {percentile(lat, 0.5):.1f} | {percentile(lat, 0.99):.1f} | "
              + " | ".join(str(b) for b in by) + " |")
    print()
    limit = size_bytes(args.max_memory)
    mib = 1 << 20
    bound = (1 + args.max_solves) * limit
    print(f"memory: idle {idle_rss / mib:.0f} MiB; peak resident {max(peak_during, hwm) / mib:.0f} MiB "
          f"(VmHWM {hwm / mib:.0f} MiB) against --max-memory {limit / mib:.0f} MiB for the games plus each of "
          f"{args.max_solves} solves ({bound / mib:.0f} MiB); after the load, after each of three rounds of "
          f"checks: {', '.join(f'{a / mib:.0f}' for a in after)} MiB")
    print("after the load, anonymous mappings of 8 MiB or more resident (size/resident MiB): "
          + (", ".join(f"{a / mib:.0f}/{b / mib:.0f}" for a, b in mappings) or "none"))
    if trimmed is None:
        print("after malloc_trim: not measured (no gdb)")
    else:
        print(f"after malloc_trim (the allocator's free pages given back): {trimmed / mib:.0f} MiB resident; "
              "mappings of 8 MiB or more: "
              + (", ".join(f"{a / mib:.0f}/{b / mib:.0f}" for a, b in trimmed_mappings) or "none"))
    outside = [s for s in statuses if s not in DOCUMENTED]
    print(f"statuses outside the documented ones: {outside or 'none'}; answers not of their kind's: "
          f"{len(t.surprises)}; panics in the server's log: {len(panics)}; requests the log marks cancelled: {cancelled}")
    for s in t.surprises[:20]:
        print(f"  ! {s}")
    for line in panics[:5]:
        print(f"  ! {line}")
    for what, ok in checks:
        print(f"after: {what}: {'yes' if ok else 'NO'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"requests": len(t.rows), "seconds": ran, "statuses": {str(s): sum(1 for r in t.rows if r[1] == s) for s in statuses},
                       "kinds": {k: {"requests": sum(1 for r in t.rows if r[0] == k),
                                     "p50_ms": percentile([r[2] * 1000 for r in t.rows if r[0] == k], 0.5),
                                     "p99_ms": percentile([r[2] * 1000 for r in t.rows if r[0] == k], 0.99)} for k in kinds},
                       "idle_rss": idle_rss, "peak_rss": max(peak_during, hwm), "after_rss": after, "trimmed_rss": trimmed,
                       "surprises": t.surprises, "panics": panics, "checks": checks, "cpu": cpu}, f, indent=1)
    bad = outside or t.surprises or panics or not all(ok for _, ok in checks)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
