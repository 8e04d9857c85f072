#!/usr/bin/env bash
# The whole-tool table of issue 18: the exhaustive count (`solve --limit 0`)
# on every kernel path this CPU can run, forced with MANCALA_SWEEP_KERNEL,
# beside the naive baseline (benches/naive.rs) measured in the same run.
# Each path must give the naive baseline's answers (best store, optimal
# count, complete turns, positions); a disagreement stops the script.
# Prints the CPU model and flags, then a Markdown table: wall and user
# seconds, peak RSS, positions and picks a second, and how many times
# faster than the baseline. The picks are the baseline's count: every
# path plays every legal pick of every distinct position once, so it is
# the workload's, the same on each row.
# Needs GNU time (/usr/bin/time, Debian package `time`).
# Usage: bash benches/kernels.sh [RULES] [PITS] [STONES] [THREADS]
#        (default: any-hole 6 4 2)
set -euo pipefail
rules=${1:-any-hole}
pits=${2:-6}
stones=${3:-4}
threads=${4:-2}
if [ ! -x /usr/bin/time ]; then
  echo "benches/kernels.sh needs GNU time at /usr/bin/time (apt-get install time)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
cargo build --release -q
bin=target/release/mancala-sweep
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "SIMD flags: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|avx512f|avx512bw|avx512vl|avx512vbmi|avx512_vbmi2|bmi1|bmi2|popcnt)$' | tr '\n' ' ')"
echo "Workload: $rules 2x${pits}x${stones}, counts only (solve --limit 0), $threads threads"
echo

answers() { python3 -c 'import json,sys; d=json.loads(sys.stdin.read().strip().splitlines()[-1]); print(d["best_store"], d["optimal_count"], d["turns_total"], d["positions"])'; }

# The baseline, one thread by design.
PITS=$pits STONES=$stones RULES=$rules /usr/bin/time -f "%e %U %M" -o /tmp/ms-kernels-time \
  cargo bench -q --bench naive >/tmp/ms-kernels-naive 2>/dev/null
read -r nwall nuser nrss </tmp/ms-kernels-time
# cargo's own start-up is in the wall time; the program's own seconds are in its line.
nsec=$(python3 -c 'import json,sys; print(json.loads(open("/tmp/ms-kernels-naive").read().strip().splitlines()[-1])["seconds"])')
want=$(answers </tmp/ms-kernels-naive)
positions=$(echo "$want" | cut -d' ' -f4)
picks=$(python3 -c 'import json,sys; print(json.loads(open("/tmp/ms-kernels-naive").read().strip().splitlines()[-1])["picks"])')
# A rate in millions a second ("-" when the time rounds to zero).
rate() { python3 -c "print(f'{$1/$2/1e6:.2f} M' if $2 > 0 else '-')"; }

echo "| path | wall (s) | user (s) | peak RSS (MiB) | positions/s | picks/s | × naive (wall) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
echo "| naive baseline (benches/naive.rs, 1 thread) | $nsec | $nuser | $((nrss / 1024)) | $(rate "$positions" "$nsec") | $(rate "$picks" "$nsec") | 1.0 |"
flags=" $(grep -m1 '^flags' /proc/cpuinfo) "
has() { for f in "$@"; do [[ $flags == *" $f "* ]] || return 1; done; }
for kernel in avx512vbmi2 avx512bw avx512vbmi avx2 scalar; do
  # MANCALA_SWEEP_KERNEL caps the path; say so rather than time a lesser
  # path under this one's name.
  case $kernel in
    avx512vbmi2) need=(avx512f avx512bw avx512vl avx512vbmi avx512_vbmi2 bmi2) ;;
    avx512bw) need=(avx512f avx512bw avx512vl avx2 bmi1 bmi2 popcnt) ;;
    avx512vbmi) need=(avx512f avx512bw avx512vbmi) ;;
    avx2) need=(avx2 bmi1 bmi2 popcnt) ;;
    scalar) need=() ;;
  esac
  if ! has "${need[@]}"; then
    echo "| $kernel | not on this CPU (needs ${need[*]}) | | | | | |"
    continue
  fi
  if ! MANCALA_SWEEP_KERNEL=$kernel /usr/bin/time -f "%e %U %M" -o /tmp/ms-kernels-time \
    "$bin" solve --rules "$rules" --pits "$pits" --stones "$stones" --limit 0 --threads "$threads" --json -q \
    >/tmp/ms-kernels-out 2>/tmp/ms-kernels-err; then
    echo "| $kernel | not run: $(head -1 /tmp/ms-kernels-err) | | | | | |"
    continue
  fi
  got=$(answers </tmp/ms-kernels-out)
  if [ "$got" != "$want" ]; then
    echo "kernel $kernel answered '$got', the naive baseline '$want'" >&2
    exit 1
  fi
  read -r wall user rss </tmp/ms-kernels-time
  echo "| $kernel | $wall | $user | $((rss / 1024)) | $(rate "$positions" "$wall") | $(rate "$picks" "$wall") | $(python3 -c "print(f'{$nsec/$wall:.1f}' if $wall > 0 else '-')") |"
done
echo
echo "All paths gave the baseline's answers: best store, optimal count, turns and positions = $want; $picks picks."
