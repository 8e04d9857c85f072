#!/usr/bin/env bash
# Compare two builds of mancala-sweep on the whole-tool variants, run
# alternately (old, new, old, new, ...) so that a busy spell of a shared
# machine falls on both: the median wall time, user CPU time and peak RSS
# of REPS runs each, on 2 threads.
# Needs GNU time (/usr/bin/time, Debian package `time`).
# Usage: bash benches/compare.sh OLD_BINARY NEW_BINARY [REPS]
set -euo pipefail
old=$1
new=$2
reps=${3:-5}
if [ ! -x /usr/bin/time ]; then
  echo "benches/compare.sh needs GNU time at /usr/bin/time (apt-get install time)" >&2
  exit 2
fi
variants=(
  "avalanche 2x6x6|--rules avalanche --stones 6 --limit 0"
  "any-hole 2x5x4|--rules any-hole --pits 5 --limit 0"
  "any-hole 2x6x4|--rules any-hole --limit 0"
  "any-hole 2x6x4, 10 lines listed|--rules any-hole"
)
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo
echo "| variant | build | wall (s) | user (s) | peak RSS (MiB) |"
echo "|---|---|---|---|---|"
for v in "${variants[@]}"; do
  name=${v%%|*}
  flags=${v#*|}
  : >/tmp/ms-compare-old
  : >/tmp/ms-compare-new
  for _ in $(seq "$reps"); do
    for b in old new; do
      bin=$old
      [ "$b" = new ] && bin=$new
      # shellcheck disable=SC2086
      /usr/bin/time -f "%e %U %M" -o /tmp/ms-compare-time "$bin" solve $flags --threads 2 --json --quiet >/dev/null
      cat /tmp/ms-compare-time >>/tmp/ms-compare-$b
    done
  done
  for b in old new; do
    wall=$(cut -d' ' -f1 /tmp/ms-compare-$b | median)
    user=$(cut -d' ' -f2 /tmp/ms-compare-$b | median)
    rss=$(cut -d' ' -f3 /tmp/ms-compare-$b | median)
    echo "| $name | $b | $wall | $user | $(awk -v k="$rss" 'BEGIN { printf "%.0f", k / 1024 }') |"
  done
done
