#!/usr/bin/env bash
# Whole-tool benchmark: times `mancala-sweep solve` on the variants of the
# performance targets, with 1 and 2 threads, and prints a Markdown table of
# wall time, positions per second, peak RSS and the 2-thread speed-up.
# Needs GNU time (/usr/bin/time, Debian package `time`) for the peak RSS.
# Usage: bash benches/table.sh [extra solve flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/time ]; then
  echo "benches/table.sh needs GNU time at /usr/bin/time (apt-get install time)" >&2
  exit 2
fi
cargo build --release -q
bin=target/release/mancala-sweep
variants=(
  "avalanche 2x6x6|--rules avalanche --stones 6 --limit 0"
  "any-hole 2x5x4|--rules any-hole --pits 5 --limit 0"
  "any-hole 2x6x4|--rules any-hole --limit 0"
  "any-hole 2x6x4, 10 lines listed|--rules any-hole"
)
echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo
echo "| variant | threads | wall (s) | positions | positions/s | peak RSS (MiB) | best | speed-up |"
echo "|---|---|---|---|---|---|---|---|"
for v in "${variants[@]}"; do
  name=${v%%|*}
  flags=${v#*|}
  one=""
  for threads in 1 2; do
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %M" -o /tmp/ms-bench-time "$bin" solve $flags "$@" --threads "$threads" --json --quiet >/tmp/ms-bench-out
    read -r wall rss </tmp/ms-bench-time
    positions=$(grep -o '"positions":[0-9]*' /tmp/ms-bench-out | cut -d: -f2)
    best=$(grep -o '"best_store":[0-9]*' /tmp/ms-bench-out | cut -d: -f2)
    total=$(grep -o '"total_stones":[0-9]*' /tmp/ms-bench-out | cut -d: -f2)
    rate=$(awk -v p="$positions" -v w="$wall" 'BEGIN { printf "%.1fM", p / (w > 0 ? w : 0.001) / 1e6 }')
    mib=$(awk -v k="$rss" 'BEGIN { printf "%.0f", k / 1024 }')
    if [ "$threads" = 1 ]; then one=$wall; speed="1.00"; else speed=$(awk -v a="$one" -v b="$wall" 'BEGIN { printf "%.2f", a / (b > 0 ? b : 0.001) }'); fi
    echo "| $name | $threads | $wall | $positions | $rate | $mib | $best/$total | ${speed}x |"
  done
done

echo
echo "| find | wall (s) | best | exact | rounds | last beam | positions |"
echo "|---|---|---|---|---|---|---|"
for v in "any-hole 2x6x4|--rules any-hole" "any-hole 2x6x5|--rules any-hole --stones 5" "any-hole 2x6x6|--rules any-hole --stones 6" "avalanche 2x6x6|--rules avalanche --stones 6"; do
  name=${v%%|*}
  flags=${v#*|}
  # shellcheck disable=SC2086
  /usr/bin/time -f "%e %M" -o /tmp/ms-bench-time "$bin" find $flags --seconds 60 --json --quiet >/tmp/ms-bench-out
  read -r wall _ </tmp/ms-bench-time
  field() { grep -o "\"$1\":[a-z0-9]*" /tmp/ms-bench-out | cut -d: -f2; }
  echo "| $name | $wall | $(field best_store)/$(field total_stones) | $(field exact) | $(field rounds) | $(field beam) | $(field positions) |"
done
