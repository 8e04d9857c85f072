#!/usr/bin/env bash
# The one-turn search on GamePigeon's avalanche against k-gerner's Java
# solver (github.com/k-gerner/Game-Pigeon-Solvers, `mancalaavalanche/java`:
# a plain depth-first search of every pick sequence, no deduplication), in
# the same run on the same machine, from the start of 6 pits of S stones.
# Prints one Markdown table: the wall time of the whole program (the JVM's
# start included, as a player runs it; and ours with its threads), the
# Java search alone once the JIT is warm (a harness of our own that calls
# its public `MancalaBoard.findBestMove`, the best of REPS calls in one
# JVM), and the best store each finds. The stores must agree: a
# disagreement stops the script with status 1.
#
# Usage: bash benches/avalanche_peer.sh [STONES...]     (default: 4 5 6)
# Environment:
#   MS      our binary (default target/release/mancala-sweep)
#   GERNER  a checkout of github.com/k-gerner/Game-Pigeon-Solvers (required)
#   REPS    runs of each (default 5): the table gives the fastest
#   THREADS our threads (default: every core)
set -euo pipefail
cd "$(dirname "$0")/.."
ms=${MS:-target/release/mancala-sweep}
reps=${REPS:-5}
threads=${THREADS:-$(nproc)}
stones=("$@")
[ ${#stones[@]} -gt 0 ] || stones=(4 5 6)
[ -x "$ms" ] || { echo "no binary at $ms: cargo build --release first, or set MS" >&2; exit 2; }
src=${GERNER:-}/mancalaavalanche/java
[ -n "${GERNER:-}" ] && [ -f "$src/MancalaBoard.java" ] || {
  echo "GERNER must name a checkout of github.com/k-gerner/Game-Pigeon-Solvers (no $src/MancalaBoard.java)" >&2
  exit 2
}
command -v javac >/dev/null || { echo "benches/avalanche_peer.sh needs a JDK (javac, java)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "benches/avalanche_peer.sh needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src"/*.java "$tmp/"
# The harness: the search alone, in one JVM, best of $reps after a warm-up.
cat > "$tmp/WarmBench.java" <<'EOF'
public class WarmBench {
    public static void main(String[] args) {
        int s = Integer.parseInt(args[0]), reps = Integer.parseInt(args[1]);
        int[] row = {s, s, s, s, s, s};
        java.io.PrintStream out = System.out;
        System.setOut(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        new MancalaBoard(row.clone(), row.clone()).findBestMove(false);
        long best = Long.MAX_VALUE;
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            new MancalaBoard(row.clone(), row.clone()).findBestMove(false);
            best = Math.min(best, System.nanoTime() - t0);
        }
        out.printf("%.3f%n", best / 1e9);
    }
}
EOF
javac -d "$tmp" "$tmp"/*.java
flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|avx512f|avx512bw|avx512vbmi|avx512_vbmi2|bmi2)$' | tr '\n' ' ')
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), flags: ${flags}load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); $(java -version 2>&1 | head -1)"
echo

# best_of CMD...: the fastest of $reps runs, "wall user rss", its stdout
# in $tmp/out (benches/lib.sh).
. benches/lib.sh

# The Java program as a player runs it (its answers piped in), as a
# command that GNU time can run: java_run STONES.
cat > "$tmp/java_run" <<EOF
#!/usr/bin/env bash
row=\$(printf '%s,%s,%s,%s,%s,%s' "\$1" "\$1" "\$1" "\$1" "\$1" "\$1")
printf '1\n%s\n%s\n\nn\n' "\$row" "\$row" | java -cp "$tmp" MancalaAvalanche
EOF
chmod +x "$tmp/java_run"

echo "| 2×6×S avalanche, from the start | Java, whole program s | Java search alone (JIT warm) s | mancala-sweep \`solve --limit 1\`, whole program, $threads threads s | ratio (Java whole / ours) | best store (Java / ours) |"
echo "|---|---:|---:|---:|---:|---|"
for s in "${stones[@]}"; do
  jw=$(best_of "$tmp/java_run" "$s" | cut -d" " -f1)
  jbest=$(sed -n 's/.*Points scored this round: \([0-9]*\).*/\1/p' "$tmp/out" | head -1)
  warm=$(java -cp "$tmp" WarmBench "$s" "$reps")
  ow=$(best_of "$ms" solve --rules avalanche --pits 6 --stones "$s" --limit 1 --threads "$threads" --json -q | cut -d" " -f1)
  obest=$(sed -n 's/.*"best_store":\([0-9]*\).*/\1/p' "$tmp/out" | head -1)
  if [ "$jbest" != "$obest" ]; then
    echo "disagreement on 2x6x$s: Java $jbest, mancala-sweep $obest" >&2
    exit 1
  fi
  ratio=$(echo "scale=2; $jw / $ow" | bc)
  echo "| 2×6×$s | $jw | $warm | $ow | ${ratio}× | $jbest / $obest |"
done
