#!/usr/bin/env bash
# docs/games.md's match table: every agent against every other, GAMES games a
# pairing (pairs from one opening, each agent starting once), on Kalah(6,4)
# unless RULES/PITS/STONES say otherwise. Prints a Markdown table.
#
#   bash benches/match_table.sh [GAMES] [AGENT...]
#
# Needs python3 to format the JSON. Each pairing's results file goes to
# ${OUT:-target/match-table}/, so a stopped run resumes where it was.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-200}
shift || true
AGENTS=("$@")
if [ ${#AGENTS[@]} -eq 0 ]; then
  AGENTS=(random greedy minimax:3 alphabeta:4 mtdf:12 montecarlo:1000 mcts:2000)
fi
OUT=${OUT:-target/match-table}
mkdir -p "$OUT"
cargo build --release -q
BIN=target/release/mancala-sweep
RULEFLAGS=(--rules "${RULES:-kalah}" --pits "${PITS:-6}" --stones "${STONES:-4}")
echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) threads; rules ${RULEFLAGS[*]}; $GAMES games a pairing, seed 1, 2 random opening turns"
echo
echo "| A | B | A wins | draws | B wins | A's score (95% interval) | Elo A−B (interval) | first player's score | ms a turn A / B |"
echo "|---|---|---:|---:|---:|---|---|---:|---|"
for ((i = 0; i < ${#AGENTS[@]}; i++)); do
  for ((j = i + 1; j < ${#AGENTS[@]}; j++)); do
    a=${AGENTS[$i]}; b=${AGENTS[$j]}
    f="$OUT/${a//:/-}_vs_${b//:/-}.json"
    "$BIN" game match "$b" "$a" --games "$GAMES" --seed 1 "${RULEFLAGS[@]}" --out "$f" --json -q > "$f.stdout"
    python3 - "$f.stdout" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d["summary"]
elo = lambda e: "∞" if e is None else f"{e:+.0f}"
print(f"| {d['a']} | {d['b']} | {s['a_wins']} | {s['draws']} | {s['b_wins']} | "
      f"{s['score']:.3f} ({s['score_low']:.3f}–{s['score_high']:.3f}) | "
      f"{elo(s['elo'])} ({elo(s['elo_low'])} to {elo(s['elo_high'])}) | "
      f"{s['first_player_score']:.3f} | {s['a_ms_per_move']:.2f} / {s['b_ms_per_move']:.2f} |")
PY
  done
done
