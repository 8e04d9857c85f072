#!/usr/bin/env bash
# The exact game solver against its peers, in the same run on the same
# machine: Irving's kalah solver (empty capture; its 16-stone endgame
# database built beforehand, as its README runs it, the build timed apart)
# and CMancala (standard capture), against `game solve` two ways: from
# nothing (an empty cache folder, so that the endgame database it builds
# on a first run counts in its time), and with its cached 16-stone
# database already built (on the footing of Irving's, the build timed
# apart). Prints one Markdown table: wall and CPU time (GNU time), peak
# memory, the value (the mover's final store minus the opponent's) and the
# nodes each program says it searched; for ours also the search's own
# time (its JSON `seconds`), so that the set-up is the wall time less it.
# Values must agree: a disagreement stops the script with status 1.
#
# Usage: bash benches/game_peers.sh [STONES...]      (default: 3 4)
# Environment:
#   MS       our binary (default target/release/mancala-sweep)
#   IRVING   a built checkout of github.com/girving/kalah
#            (`make serial CFLAGS="-O3 -fgnu89-inline -fcommon"`); skipped if unset
#   CMANCALA the CMancala binary (built as ../shared/PEERS.md says); skipped if unset
#   THREADS  our threads (default: 2, this machine's cores); the cached
#            runs also run 1
#   REPS     runs of each (default 3): the table gives the fastest
set -euo pipefail
cd "$(dirname "$0")/.."
ms=${MS:-target/release/mancala-sweep}
threads=${THREADS:-2}
reps=${REPS:-3}
stones=("$@")
[ ${#stones[@]} -gt 0 ] || stones=(3 4)
if [ ! -x /usr/bin/time ]; then
  echo "benches/game_peers.sh needs GNU time at /usr/bin/time (apt-get install time)" >&2
  exit 2
fi
[ -x "$ms" ] || { echo "no binary at $ms: cargo build --release first, or set MS" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|avx512f|avx512bw|avx512vbmi|avx512_vbmi2|bmi2)$' | tr '\n' ' ')
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), flags: ${flags}load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# best_of CMD...: the fastest of $reps runs, "wall user rss" (benches/lib.sh).
. benches/lib.sh

row() { # program position wall user rss value nodes note
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$@"
}

ours() { # label capture stones threads cache(nothing|built) [extra flags]
  local label=$1 capture=$2 s=$3 t=$4 cache=$5
  shift 5
  local times value nodes note
  if [ "$cache" = nothing ]; then
    # A fresh, empty cache folder for every run: the build is timed.
    times=$(best_of env MANCALA_SWEEP_CACHE="$tmp/cold" bash -c 'rm -rf "$MANCALA_SWEEP_CACHE"; exec "$@"' _ \
      "$ms" game solve --pits 6 --stones "$s" --capture "$capture" --threads "$t" --json -q "$@")
    note="nothing built beforehand (an empty cache folder: a database it builds counts)"
  else
    times=$(best_of env MANCALA_SWEEP_CACHE="$tmp/warm" \
      "$ms" game solve --pits 6 --stones "$s" --capture "$capture" --threads "$t" --json -q "$@")
    note="its cached 16-stone database built beforehand"
  fi
  value=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["value"])' "$tmp/out")
  nodes=$(python3 -c 'import json,sys; j = json.load(open(sys.argv[1])); print(j["nodes"], "picks (" + str(j["expanded"]) + " expanded)")' "$tmp/out")
  search=$(python3 -c 'import json,sys; print("%.2f" % json.load(open(sys.argv[1]))["seconds"])' "$tmp/out")
  read -r wall user rss <<<"$times"
  local threads_said="$t threads"
  [ "$t" = 1 ] && threads_said="1 thread"
  row "mancala-sweep, $threads_said" "$label" "$wall" "$user" "$((rss / 1024))" "$value" "$nodes" "$note; the search $search s of the wall"
  echo "$value" >"$tmp/value.$label.ours.$t.$cache"
}

# warm capture: builds our cached database of `capture` beforehand (as
# Irving's is), timed for the note under the table.
warm() {
  local t0 t1
  t0=$(date +%s.%N)
  MANCALA_SWEEP_CACHE="$tmp/warm" "$ms" game analyze --pits 6 --stones 2 --capture "$1" --threads "$threads" --nodes 1 -q >/dev/null
  t1=$(date +%s.%N)
  echo "Our 16-stone database of capture $1 built in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s on $threads threads before the cached runs (by \`game analyze\`, as its first run does; not counted in them)." >>"$tmp/notes"
}

# ours_and_check label capture stones peer peer_name: our rows (1 thread,
# then $threads), and a stop with status 1 if the peer's value (in
# $tmp/value.peer, when it ran) is not ours.
ours_and_check() {
  local label=$1 capture=$2 s=$3 peer=$4 name=$5 run
  ours "$label" "$capture" "$s" "$threads" nothing
  ours "$label" "$capture" "$s" 1 built
  [ "$threads" = 1 ] || ours "$label" "$capture" "$s" "$threads" built
  for run in "$tmp/value.$label.ours."*; do
    if [ "$(cat "$run")" != "$(cat "$tmp/value.$label.ours.1.built")" ]; then
      echo "our runs disagree on $label: $(cat "$run") in $run" >&2
      exit 1
    fi
  done
  if [ -f "$tmp/value.$peer" ] && [ "$(cat "$tmp/value.$peer")" != "$(cat "$tmp/value.$label.ours.1.built")" ]; then
    echo "values disagree on $label: $name $(cat "$tmp/value.$peer"), ours $(cat "$tmp/value.$label.ours.1.built")" >&2
    exit 1
  fi
  rm -f "$tmp/value.$peer"
}

echo "| program | position | wall (s) | CPU (s) | peak RSS (MiB) | value | nodes | note |"
echo "|---|---|---:|---:|---:|---:|---:|---|"
if [ -n "${IRVING:-}" ]; then
  if [ ! -f "$tmp/endgame.dat" ]; then
    t0=$(date +%s.%N)
    printf '4\nc 16\ns\nq\n' | "$IRVING/generator" "$tmp/endgame.dat" >/dev/null 2>&1
    t1=$(date +%s.%N)
    echo "Irving's 16-stone endgame database built in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s before its runs (not counted below)." >>"$tmp/notes"
  fi
fi
warm empty
warm kalah
for s in "${stones[@]}"; do
  label="Kalah(6,$s), capture empty"
  if [ -n "${IRVING:-}" ]; then
    b=()
    for _ in 1 2 3 4 5 6; do b+=("$s"); done
    times=$(best_of "$IRVING/kalah-s" -t 22 -e 16 -E "$tmp/endgame.dat" p "${b[@]}" 0 "${b[@]}" 0)
    read -r wall user rss <<<"$times"
    value=$(sed -n 's/^Move: .*, r \(-\?[0-9]*\),.*/\1/p' "$tmp/out" | tail -1)
    nodes=$(sed -n 's/^Nodes searched: *//p' "$tmp/out" | tail -1)
    peeks=$(sed -n 's/^Nodes peeked: *//p' "$tmp/out" | tail -1)
    row "Irving's kalah-s, 1 thread" "$label" "$wall" "$user" "$((rss / 1024))" "$value" "$nodes nodes (+ $peeks peeked)" "16-stone database prebuilt"
    echo "$value" >"$tmp/value.irving"
  fi
  ours_and_check "$label" empty "$s" irving "Irving"
  label="Kalah(6,$s), capture kalah"
  if [ -n "${CMANCALA:-}" ]; then
    times=$(best_of bash -c 'code=$(echo "ROOT '"$s"'" | "$0" --api | sed -n "s/^OK CODE //p"); printf "SOLVE %s\nQUIT\n" "$code" | "$0" --api' "$CMANCALA")
    read -r wall user rss <<<"$times"
    value=$(sed -n 's/^OK EVAL \(-\?[0-9]*\) .*/\1/p' "$tmp/out" | tail -1)
    row "CMancala --api, 1 thread" "$label" "$wall" "$user" "$((rss / 1024))" "$value" "not reported" "no endgame database"
    echo "$value" >"$tmp/value.cm"
  fi
  ours_and_check "$label" kalah "$s" cm "CMancala"
done
echo
cat "$tmp/notes"
echo "Each figure is the fastest of $reps runs. Our nodes are picks searched in all (every pick, a table or database hit included, the principal variation's too) and, in brackets, the positions expanded to prove the value (whose picks were searched); Irving's are the nodes it expanded, with the children it only peeked at in brackets."
