#!/usr/bin/env bash
# The cost of keeping the frontier on disk (issue 17): any-hole 2x6x4 counts
# in memory, and with --spill under memory limits that force the buffer to
# be written out many times, run alternately REPS times on 2 threads.
# Prints the median wall and user CPU time, peak RSS, the bytes written to
# run files and those bytes per position and per entry on disk, against
# the 16 bytes an entry takes in memory (64-bit key, 64-bit count).
# Needs GNU time (/usr/bin/time, Debian package `time`).
# Usage: bash benches/spill.sh [BINARY] [REPS] [RULES STONES]
set -euo pipefail
bin=${1:-target/release/mancala-sweep}
reps=${2:-3}
rules=${3:-any-hole}
stones=${4:-4}
if [ ! -x /usr/bin/time ]; then
  echo "benches/spill.sh needs GNU time at /usr/bin/time (apt-get install time)" >&2
  exit 2
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
configs=(
  "in memory|--limit 0"
  "--spill, --max-memory 2G|--spill $dir/spill --max-memory 2G"
  "--spill, --max-memory 512M|--spill $dir/spill --max-memory 512M"
)
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); $rules 2x6x$stones counts"
echo
echo "| run | wall (s) | user (s) | peak RSS (MiB) | written to disk (MiB) | bytes/position on disk | × in memory |"
echo "|---|---|---|---|---|---|---|"
base=""
for i in "${!configs[@]}"; do : >"$dir/times-$i"; done
for _ in $(seq "$reps"); do
  for i in "${!configs[@]}"; do
    flags=${configs[$i]#*|}
    rm -rf "$dir/spill"
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %U %M" -o "$dir/time" "$bin" solve --rules "$rules" --stones "$stones" $flags --threads 2 --json --quiet >"$dir/out-$i.json"
    written=0
    [ -f "$dir/spill/checkpoint.json" ] && written=$(sed -n 's/.*"written": \([0-9]*\).*/\1/p' "$dir/spill/checkpoint.json")
    echo "$(cat "$dir/time") $written" >>"$dir/times-$i"
  done
done
positions=$(sed -n 's/.*"positions":\([0-9]*\).*/\1/p' "$dir/out-0.json")
for i in "${!configs[@]}"; do
  name=${configs[$i]%%|*}
  # Every run gives the same counts as the one in memory.
  if ! diff <(sed 's/"seconds":[0-9.]*//' "$dir/out-0.json") <(sed 's/"seconds":[0-9.]*//' "$dir/out-$i.json") >/dev/null; then
    echo "error: $name gave other counts than the search in memory" >&2
    exit 1
  fi
  wall=$(cut -d' ' -f1 "$dir/times-$i" | median)
  user=$(cut -d' ' -f2 "$dir/times-$i" | median)
  rss=$(cut -d' ' -f3 "$dir/times-$i" | median)
  written=$(cut -d' ' -f4 "$dir/times-$i" | median)
  [ -z "$base" ] && base=$wall
  awk -v n="$name" -v w="$wall" -v u="$user" -v r="$rss" -v b="$written" -v p="$positions" -v base="$base" \
    'BEGIN { printf "| %s | %.2f | %.2f | %.0f | %.0f | %s | %.2f× |\n", n, w, u, r / 1024, b / 1048576, (b > 0 ? sprintf("%.2f", b / p) : "–"), w / base }'
done
