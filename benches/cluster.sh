#!/usr/bin/env bash
# The cost of the timely-dataflow backend (issue 19): any-hole 2x6x4 counts
# in memory on 2 threads, then `solve --cluster` with 1, 2 and 4 processes
# on this machine (on localhost ports from a host file), each process with
# --threads 2/processes (at least 1), so that every run has the machine's 2
# cores. Each run's answer must be the in-memory one (seconds and threads
# aside); a difference stops the script.
# Prints a Markdown table: wall seconds (until the last process ends), user
# CPU seconds over all processes, the largest and the summed peak RSS, the
# bytes of successors sent between processes and in all (a worker's
# batches to the other workers of its process too) per position, and the wall
# time against the search in memory.
# Needs GNU time (/usr/bin/time, Debian package `time`).
# Usage: bash benches/cluster.sh [BINARY] [RULES] [PITS] [STONES]
set -euo pipefail
bin=${1:-target/release/mancala-sweep}
rules=${2:-any-hole}
pits=${3:-6}
stones=${4:-4}
if [ ! -x /usr/bin/time ]; then
  echo "benches/cluster.sh needs GNU time at /usr/bin/time (apt-get install time)" >&2
  exit 2
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cores=$(nproc)
board=(--rules "$rules" --pits "$pits" --stones "$stones")
same() { python3 - "$1" "$2" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("seconds"); d.pop("threads")
sys.exit(0 if a == b else 1)
EOF
}
echo "Machine: $cores cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); $rules 2x${pits}x${stones} counts"
echo
echo "| run | wall (s) | user (s), all processes | peak RSS (MiB), largest / sum | bytes a position: between processes / sent in all | × in memory |"
echo "|---|---:|---:|---:|---:|---:|"
start=$(date +%s.%N)
/usr/bin/time -f "%e %U %M" -o "$dir/time" "$bin" solve "${board[@]}" --limit 0 --threads "$cores" --json -q >"$dir/memory.json"
read -r mwall muser mrss <"$dir/time"
echo "| in memory, $cores threads | $mwall | $muser | $((mrss / 1024)) | | 1.00 |"
for n in 1 2 4; do
  threads=$((cores / n > 0 ? cores / n : 1))
  python3 -c "
import socket
socks = [socket.socket() for _ in range($n)]
for s in socks: s.bind(('127.0.0.1', 0))
print('\n'.join('127.0.0.1:%d' % s.getsockname()[1] for s in socks))
for s in socks: s.close()" >"$dir/hosts"
  start=$(date +%s.%N)
  for p in $(seq 0 $((n - 1))); do
    /usr/bin/time -f "%e %U %M" -o "$dir/time-$p" "$bin" solve "${board[@]}" --cluster --processes "$n" --process "$p" \
      --hostfile "$dir/hosts" --threads "$threads" --json >"$dir/out-$p.json" 2>"$dir/err-$p" &
  done
  wait
  wall=$(python3 -c "import time; print(f'{time.time() - $start:.2f}')")
  if ! same "$dir/memory.json" "$dir/out-0.json"; then
    echo "error: $n processes gave other counts than the search in memory" >&2
    exit 1
  fi
  read -r user largest sum < <(cat "$dir"/time-* | awk '{ u += $2; s += $3; if ($3 > m) m = $3 } END { printf "%.2f %d %d\n", u, m / 1024, s / 1024 }')
  per=$(sed -n 's/.*(\([0-9.]*\) a position).*/\1/p' "$dir/err-0")
  all=$(sed -n 's/.* \([0-9]*\) in all$/\1/p' "$dir/err-0")
  positions=$(sed -n 's/.* of the \([0-9]*\) positions.*/\1/p' "$dir/err-0")
  per="$per / $(python3 -c "print(f'{$all / $positions:.2f}')")"
  ratio=$(python3 -c "print(f'{$wall / $mwall:.2f}')")
  echo "| --cluster, $n process$([ "$n" = 1 ] || echo es) × --threads $threads | $wall | $user | $largest / $sum | $per | $ratio |"
done
