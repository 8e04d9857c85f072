#!/usr/bin/env python3
"""The costed plan for any-hole 2x6x6 (issue 19): estimated positions per
store bucket, extrapolated from the measured bucket profiles of any-hole
2x6x2 to 2x6x5, and what a cluster needs for them.

Method. Bucket k of 2x6xS (k stones in the store, N = 12S stones in all)
holds some of the C(N - k + 11, 11) ways to spread the other N - k stones
over 12 pits. The measured fraction of them that a first turn reaches,
log10 f_S(x) at x = k / N, is close to linear in S at each x (it rises
towards 1 in the late buckets, where every spread is reachable). So
log10 f_6(x) = 2 log10 f_5(x) - log10 f_4(x), capped at 0, times the
number of spreads, estimates each bucket of 2x6x6. The same rule applied
one size down is checked against the truth (2x6x4 from 2x6x2 and 2x6x3,
2x6x5 from 2x6x3 and 2x6x4) and the factor it was off by is printed.

The profiles come from the tool: 2x6x2 to 2x6x4 are solved here with the
binary given (2x6x4 takes 15 to 30 s), 2x6x5 is read from
docs/data/any-hole-2x6x5.json (the 28-minute spilled count).

Usage: python3 benches/plan_2x6x6.py [BINARY] [SENT_BYTES_A_POSITION]
[POSITIONS_A_CORE_SECOND] [CLUSTER_OVERHEAD] [RSS_BYTES_A_PEAK_POSITION]
The defaults are docs/cluster.md's measurements (see "More than one machine").
"""
import json
import subprocess
import sys
from math import comb, log10

binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/mancala-sweep"
sent = float(sys.argv[2]) if len(sys.argv) > 2 else 7.0
rate = float(sys.argv[3]) if len(sys.argv) > 3 else 1.16e6
overhead = float(sys.argv[4]) if len(sys.argv) > 4 else 1.66
rss_per_peak = float(sys.argv[5]) if len(sys.argv) > 5 else 100.0

profiles = {}
for s in (2, 3, 4):
    out = subprocess.run(
        [binary, "solve", "--rules", "any-hole", "--pits", "6", "--stones", str(s),
         "--limit", "0", "--json", "--quiet"],
        check=True, capture_output=True, text=True).stdout
    profiles[s] = json.loads(out)["positions_by_store"]
with open("docs/data/any-hole-2x6x5.json") as f:
    profiles[5] = json.load(f)["positions_by_store"]


def log_fraction(s):
    n = 12 * s
    return [(k / n, log10(p / comb(n - k + 11, 11)))
            for k, p in enumerate(profiles[s]) if p > 0]


def at(curve, x):
    for (x0, y0), (x1, y1) in zip(curve, curve[1:]):
        if x0 <= x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return curve[-1][1]


def estimate(a, b, s):
    ca, cb = log_fraction(a), log_fraction(b)
    n = 12 * s
    out = [comb(n - k + 11, 11) * 10 ** min(2 * at(cb, k / n) - at(ca, k / n), 0.0)
           for k in range(n + 1)]
    out[0] = 1.0
    return out


print("Backtest: the rule one size down, against the measured counts\n")
print("| board | from | estimated positions | measured | estimate / measured | largest bucket, estimated | measured |")
print("|---|---|---:|---:|---:|---:|---:|")
factors = []
for a, b, s in ((2, 3, 4), (3, 4, 5)):
    est = estimate(a, b, s)
    truth = profiles[s]
    factors.append(sum(est) / sum(truth))
    print(f"| 2x6x{s} | 2x6x{a}, 2x6x{b} | {sum(est):.3g} | {sum(truth):,} | {factors[-1]:.2f} "
          f"| {max(est):.3g} (store {est.index(max(est))}) | {max(truth):,} (store {truth.index(max(truth))}) |")

est = estimate(4, 5, 6)
low = sum(est) / factors[-1]
print("\nEstimate for 2x6x6 (72 stones), every sixth bucket\n")
print("| store | 0 | 6 | 12 | 18 | 24 | 30 | 36 | 42 | 48 | 54 | 60 | 66 | 72 |")
print("|---|" + "---:|" * 13)
print("| positions | " + " | ".join(f"{est[k]:.2g}" for k in range(0, 73, 6)) + " |")
peak = max(est)
print(f"\nPositions: {sum(est):.3g} by the rule, {low:.3g} if it is off by as much as "
      f"it was for 2x6x5 ({factors[-1]:.2f}x); largest bucket {peak:.3g} at store {est.index(peak)}.")
print("\nWhat a cluster needs (for the rule's figure, the larger one)\n")
print(f"- Successors sent: {sent} bytes a position -> {sum(est) * sent / 1e9:.0f} GB over the whole run.")
print(f"- Memory for the largest bucket in memory: {rss_per_peak:.0f} bytes a position of it "
      f"-> {peak * rss_per_peak / 2**30:.0f} GiB over the cluster.")
cpu = sum(est) / (rate / overhead)
print(f"- CPU: {rate / 1e6:.2f} M positions a core-second in memory, {overhead}x on a cluster "
      f"-> {cpu / 3600:.1f} core-hours.")
# Run files at their largest, a position of the largest bucket: 2x6x5's
# count held at most 1.85 GiB of them with a largest bucket of 340,692,873.
disk = 1.85 * 2**30 / 340692873
print(f"- Disk with `--spill`: {disk:.1f} bytes of run files at most, a position of the largest bucket "
      f"-> {peak * disk / 1e9:.0f} GB over the cluster.")
print("\n| machines × cores | wall time | memory a machine for the largest bucket | or, with `--spill`, disk a machine |")
print("|---|---:|---:|---:|")
for machines, cores in ((1, 2), (4, 16), (8, 16), (16, 16), (32, 16)):
    wall = cpu / (machines * cores)
    when = f"{wall / 3600:.1f} h" if wall >= 7200 else f"{wall / 60:.0f} min"
    print(f"| {machines} × {cores} | {when} | {peak * rss_per_peak / machines / 2**30:.0f} GiB "
          f"| {peak * disk / machines / 1e9:.1f} GB |")
