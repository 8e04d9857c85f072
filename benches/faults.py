#!/usr/bin/env python3
"""Kill long runs with SIGKILL at seeded random moments, resume them with
the same command, and check the answer and the files they leave.

Why: issue 36 asks for crash consistency in figures, as SQLite's and
RocksDB's kill-at-random-points tests give them: every long run that
writes state (a spilled `solve`, a `game endgame` build, a `game match
--out`) must, after any number of `kill -9` and resumes, give the same
answer as a run that was never stopped, and leave no temporary file; and
a disk that fills up must stop it with one clear line, keep the last
checkpoint, and let the same command finish once space is freed.

    python3 benches/faults.py --binary target/release/mancala-sweep --kills 20 --seed 1

Each job is run once uninterrupted for the reference answer; then, in a
fresh folder, started, killed after a random delay (mean a little under
the reference time over --kills), started again with the same command,
until --kills kills are done, then left to finish (a run that finishes
before its kills are done starts over in a fresh folder, so every kill
lands in a run). Children get a TMPDIR of their own, checked empty at the
end. The disk-full part needs root (it mounts small tmpfs folders) and is
skipped with a line saying so otherwise. Standard library only; exit
status 1 when any check fails.
"""

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default=None, help="the mancala-sweep binary (default: $CARGO_TARGET_DIR or target, release)")
    ap.add_argument("--kills", type=int, default=20, help="SIGKILLs for each job (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the kill moments (default 1)")
    ap.add_argument("--work", default=None, help="folder for the runs (default: a new one under /tmp, removed after)")
    ap.add_argument("--jobs", default="solve,endgame,match", help="which jobs, comma-separated (default all three)")
    ap.add_argument("--no-disk-full", action="store_true", help="skip the disk-full part")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    return ap.parse_args()


def default_binary():
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(os.path.dirname(__file__), "..", "target")
    return os.path.join(target, "release", "mancala-sweep")


def strip_times(value):
    """A document without the figures that differ between identical runs
    (wall and CPU times)."""
    if isinstance(value, dict):
        return {k: strip_times(v) for k, v in value.items()
                if not re.search(r"seconds|_ms|^ms|time", k)}
    if isinstance(value, list):
        return [strip_times(v) for v in value]
    return value


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Job:
    """A long run: its command in a folder, its answer, and the files it
    may leave when it has finished."""

    def __init__(self, name, argv, answer, allowed):
        self.name = name
        self.argv = argv          # function(folder) -> argv
        self.answer = answer      # function(folder, stdout) -> comparable answer
        self.allowed = allowed    # function(folder) -> set of paths allowed after the end


def jobs(binary):
    def solve_argv(d):
        return [binary, "solve", "--rules", "any-hole", "--pits", "6", "--stones", "4",
                "--spill", os.path.join(d, "spill"), "--max-memory", "200M", "--json", "--quiet"]

    def solve_answer(d, out):
        return json.dumps(strip_times(json.loads(out)), sort_keys=True)

    def endgame_argv(d):
        return [binary, "game", "endgame", "--up-to", "16", "--out", os.path.join(d, "kalah6.db"), "--quiet"]

    def endgame_answer(d, out):
        return sha(os.path.join(d, "kalah6.db"))

    def match_argv(d):
        return [binary, "game", "match", "alphabeta:6", "alphabeta:8", "--games", "100", "--seed", "7",
                "--out", os.path.join(d, "match.json"), "--json", "--quiet"]

    def match_answer(d, out):
        with open(os.path.join(d, "match.json")) as f:
            saved = json.dumps(strip_times(json.load(f)), sort_keys=True)
        printed = json.dumps(strip_times(json.loads(out)), sort_keys=True)
        return saved + "\n" + printed

    return {
        "solve": Job("spilled solve (any-hole 2x6x4, --max-memory 200M)", solve_argv, solve_answer,
                     lambda d: {os.path.join(d, "spill"), os.path.join(d, "spill", "checkpoint.json")}),
        "endgame": Job("game endgame (kalah, 6 pits, up to 16 stones)", endgame_argv, endgame_answer,
                       lambda d: {os.path.join(d, "kalah6.db")}),
        "match": Job("game match --out (alphabeta:6 vs alphabeta:8, 100 games)", match_argv, match_answer,
                     lambda d: {os.path.join(d, "match.json")}),
    }


def everything(folder):
    out = set()
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            out.add(os.path.join(root, name))
    return out


class Runner:
    def __init__(self, work):
        self.tmp = os.path.join(work, "tmpdir")
        os.makedirs(self.tmp, exist_ok=True)
        self.env = dict(os.environ, TMPDIR=self.tmp)

    def start(self, argv):
        return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env,
                                start_new_session=True)

    def run(self, argv, timeout=3600):
        p = self.start(argv)
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def kill_run(job, runner, work, kills, rng, reference_seconds, failures):
    """Kill `job` `kills` times and let it finish; the figures."""
    rounds = 0
    done_kills = 0
    resumes = 0
    identical = 0
    answers = 0
    leftovers = []
    mean = max(0.05, 0.8 * reference_seconds / kills)
    while done_kills < kills or rounds == 0:
        rounds += 1
        folder = os.path.join(work, f"{job.name.split()[1]}-round{rounds}")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        argv = job.argv(folder)
        first = True
        while True:
            if not first:
                resumes += 1
            first = False
            p = runner.start(argv)
            delay = rng.uniform(0.02, 2 * mean) if done_kills < kills else None
            try:
                out, err = p.communicate(timeout=delay)
                finished = True
            except subprocess.TimeoutExpired:
                finished = False
            if not finished:
                os.killpg(p.pid, signal.SIGKILL)
                p.communicate()
                done_kills += 1
                continue
            out, err = out.decode(errors="replace"), err.decode(errors="replace")
            if p.returncode != 0:
                failures.append(f"{job.name}: exit {p.returncode} on resume {resumes}: {err.strip()[-300:]}")
                break
            answers += 1
            if job.answer(folder, out) == job.reference:
                identical += 1
            else:
                failures.append(f"{job.name}: answer after {done_kills} kills differs from the uninterrupted run")
            extra = sorted(everything(folder) - job.allowed(folder))
            if extra:
                leftovers += extra
                failures.append(f"{job.name}: left behind {extra[:5]}")
            break
        if done_kills >= kills:
            break
    return {"kills": done_kills, "resumes": resumes, "rounds": rounds, "answers": answers,
            "identical": identical, "leftovers": len(leftovers)}


def one_line_error(code, err):
    """A clean stop: an exit status that is neither 0 nor a panic's, and one line."""
    lines = [line for line in err.strip().splitlines() if line.strip()]
    return code not in (0, 101) and len(lines) == 1 and "panicked" not in err, lines


def mount_tmpfs(path, size):
    os.makedirs(path, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", path], check=True)


def remount(path, size):
    subprocess.run(["mount", "-o", f"remount,size={size}", path], check=True)


def umount(path):
    subprocess.run(["umount", path], check=False)


def fill(path):
    """Write a ballast file at `path` until the disk is full."""
    block = b"\0" * (1 << 20)
    with open(path, "wb", buffering=0) as f:
        try:
            while True:
                f.write(block)
        except OSError:
            pass
        # The last partial block too, to the last byte.
        for size in (1 << 16, 1 << 12, 1 << 9, 1):
            try:
                while True:
                    f.write(block[:size])
            except OSError:
                pass


def check_stop(key, mnt, job, runner, code, err, failures, free):
    """After a run stopped by a full disk: one line, the checkpoint
    readable, then `free()` and the same command must finish with the
    reference answer and leave nothing behind."""
    clean, lines = one_line_error(code, err)
    row = {"job": key, "exit": code, "line": lines[0] if lines else "", "one_line": clean}
    if not clean:
        failures.append(f"disk full, {key}: exit {code}, stderr {err.strip()[-400:]!r}")
    state_ok = True
    cp = os.path.join(mnt, "spill", "checkpoint.json")
    if key.startswith("solve"):
        try:
            with open(cp) as f:
                json.load(f)
        except (OSError, ValueError) as e:
            state_ok = False
            failures.append(f"disk full, {key}: checkpoint not readable: {e}")
    row["checkpoint_intact"] = state_ok
    free()
    code, out, err = runner.run(job.argv(mnt))
    row["resumed_exit"] = code
    row["identical"] = code == 0 and job.answer(mnt, out) == job.reference
    if not row["identical"]:
        failures.append(f"disk full, {key}: the resumed run exit {code}, answer differs or failed: {err.strip()[-300:]}")
    extra = sorted(everything(mnt) - job.allowed(mnt))
    row["leftovers"] = len(extra)
    if extra:
        failures.append(f"disk full, {key}: left behind {extra[:5]}")
    return row


def disk_full(jobs_, runner, work, failures, rng):
    """Each job on a tmpfs that fills up: one clear line, the last
    checkpoint intact, and the same command finishes once space is freed.
    Two ways for the spilled solve: a disk too small for it (its own
    guard sees the free space fall below the next run file and a margin)
    and a disk that another writer fills while it runs (the write itself
    fails)."""
    rows = []
    if os.geteuid() != 0:
        print("disk full: skipped (mounting a small tmpfs needs root)")
        return rows
    for key, job in jobs_.items():
        cases = {"solve": ["solve (small disk)", "solve (filled while running)"],
                 "endgame": ["endgame (small disk)"], "match": ["match (disk filled)"]}[key]
        for case in cases:
            mnt = os.path.join(work, "full-" + re.sub(r"\W+", "-", case).strip("-"))
            ballast = os.path.join(mnt, "ballast")
            try:
                if case == "solve (small disk)":
                    mount_tmpfs(mnt, "96M")
                    code, out, err = runner.run(job.argv(mnt))
                    rows.append(check_stop(case, mnt, job, runner, code, err, failures,
                                           lambda: remount(mnt, "2G")))
                elif case == "solve (filled while running)":
                    mount_tmpfs(mnt, "2G")
                    p = runner.start(job.argv(mnt))
                    time.sleep(rng.uniform(0.2, 0.6) * job.reference_seconds)
                    fill(ballast)
                    out, err = p.communicate()
                    rows.append(check_stop(case, mnt, job, runner, p.returncode, err.decode(errors="replace"),
                                           failures, lambda: os.unlink(ballast)))
                elif case == "endgame (small disk)":
                    mount_tmpfs(mnt, "8M")
                    code, out, err = runner.run(job.argv(mnt))
                    rows.append(check_stop(case, mnt, job, runner, code, err, failures,
                                           lambda: remount(mnt, "1G")))
                else:
                    # The results file is small: a disk full but for a few KiB.
                    mount_tmpfs(mnt, "1M")
                    fill(ballast)
                    os.truncate(ballast, os.path.getsize(ballast) - 2048)
                    code, out, err = runner.run(job.argv(mnt))
                    rows.append(check_stop(case, mnt, job, runner, code, err, failures,
                                           lambda: os.unlink(ballast)))
            finally:
                umount(mnt)
    # --max-disk on the spilled solve: a limit, then the same command
    # without it resumes.
    job = jobs_.get("solve")
    if job:
        folder = os.path.join(work, "max-disk")
        os.makedirs(folder, exist_ok=True)
        code, out, err = runner.run(job.argv(folder) + ["--max-disk", "16M"])
        rows.append(check_stop("solve --max-disk 16M", folder, job, runner, code, err, failures, lambda: None))
    return rows


def main():
    args = parse_args()
    binary = os.path.abspath(args.binary or default_binary())
    if not os.access(binary, os.X_OK):
        sys.exit(f"no binary at {binary}: build it (cargo build --release) or give --binary")
    if args.kills < 1:
        sys.exit(f"--kills {args.kills}: give at least 1")
    own_work = args.work is None
    work = args.work or tempfile.mkdtemp(prefix="faults-")
    os.makedirs(work, exist_ok=True)
    rng = random.Random(args.seed)
    runner = Runner(work)
    all_jobs = jobs(binary)
    chosen = {k: all_jobs[k] for k in args.jobs.split(",") if k}
    failures = []
    rows = []
    started = time.monotonic()
    for key, job in chosen.items():
        folder = os.path.join(work, f"{key}-reference")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        t0 = time.monotonic()
        code, out, err = runner.run(job.argv(folder))
        ref_seconds = time.monotonic() - t0
        if code != 0:
            sys.exit(f"{job.name}: the uninterrupted run failed (exit {code}): {err.strip()[-400:]}")
        job.reference = job.answer(folder, out)
        job.reference_seconds = ref_seconds
        t0 = time.monotonic()
        row = kill_run(job, runner, work, args.kills, rng, ref_seconds, failures)
        row.update(job=job.name, reference_seconds=ref_seconds, killed_seconds=time.monotonic() - t0)
        rows.append(row)
        print(f"{job.name}: {row['kills']} kills, {row['resumes']} resumes, {row['identical']}/{row['answers']} "
              f"answers identical, {row['leftovers']} leftovers ({ref_seconds:.0f} s uninterrupted, "
              f"{row['killed_seconds']:.0f} s with the kills)", flush=True)
    disk_rows = [] if args.no_disk_full else disk_full(chosen, runner, work, failures, rng)
    tmp_left = sorted(os.listdir(runner.tmp))
    if tmp_left:
        failures.append(f"TMPDIR not empty: {tmp_left[:5]}")

    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    flags = next((line.split(":", 1)[1].split() for line in open("/proc/cpuinfo") if line.startswith("flags")), [])
    simd = ", ".join(f for f in ["avx2", "avx512f", "avx512bw"] if f in flags) or "no avx2"
    print()
    print(f"CPU: {cpu} ({os.cpu_count()} cores; {simd}); seed {args.seed}; {time.monotonic() - started:.0f} s in all")
    print()
    print("| run | SIGKILLs | resumes | answers identical | leftovers | uninterrupted s | with kills s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['job']} | {r['kills']} | {r['resumes']} | {r['identical']}/{r['answers']} | {r['leftovers']} | "
              f"{r['reference_seconds']:.0f} | {r['killed_seconds']:.0f} |")
    if disk_rows:
        print()
        print("| disk full | exit | one line | checkpoint intact | resumed | identical | leftovers |")
        print("|---|---:|---|---|---:|---|---:|")
        for r in disk_rows:
            print(f"| {r['job']} | {r['exit']} | {'yes' if r['one_line'] else 'NO'} | "
                  f"{'yes' if r['checkpoint_intact'] else 'NO'} | {r['resumed_exit']} | "
                  f"{'yes' if r['identical'] else 'NO'} | {r['leftovers']} |")
        for r in disk_rows:
            print(f"  {r['job']}: {r['line']}")
    print(f"\nTMPDIR left: {len(tmp_left)} files; failures: {len(failures)}")
    for f in failures:
        print(f"  ! {f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": cpu, "seed": args.seed, "kills": args.kills, "runs": rows, "disk_full": disk_rows,
                       "failures": failures}, f, indent=1)
    if own_work and not failures:
        shutil.rmtree(work, ignore_errors=True)
    elif failures:
        print(f"(the runs are kept in {work})")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
