#!/usr/bin/env bash
# Build the static site into a folder: the pages of web/, the engine
# compiled to WebAssembly (wasm/), the committed atlas. Any static file
# server can serve the folder (GitHub Pages and the like); nothing runs on
# the server. See docs/site.md.
#
#   bash site/build.sh [DIR]     (default: target/site)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/target/site}
target=${CARGO_TARGET_DIR:-$root/target}

if [ ! -d "$(rustc --print sysroot)/lib/rustlib/wasm32-unknown-unknown" ]; then
  echo "site: the WebAssembly target is not installed; run: rustup target add wasm32-unknown-unknown" >&2
  exit 2
fi
cargo build --quiet --manifest-path "$root/Cargo.toml" -p mancala-sweep-wasm \
  --target wasm32-unknown-unknown --profile site

# Written beside the folder, then moved into place whole: a failed build
# never leaves half a site.
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d "$(dirname "$out")/.site.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The pages' modules (app.js imports them; web/sw.js lists them too, for
# the site offline).
modules="app.js fields.js calls.js board.js url.js analyze.js solve.js puzzles.js play.js atlas.js review.js"
for f in index.html app.css $modules backend.js engine.js digest.js store.js endgame.js sw.js; do
  cp "$root/web/$f" "$tmp/"
done
echo 'window.MANCALA_SWEEP = { engine: "wasm" };' > "$tmp/mode.js"
cp "$target/wasm32-unknown-unknown/site/mancala_sweep_wasm.wasm" "$tmp/mancala_sweep.wasm"
# GitHub Pages serves the folder as it is, without Jekyll.
touch "$tmp/.nojekyll"
mkdir "$tmp/atlas"
cp "$root/docs/atlas/atlas.json" "$root"/docs/atlas/*.svg "$tmp/atlas/"
rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT

# What a first visit loads (the atlas comes when its page is opened).
first="index.html app.css $modules backend.js mode.js engine.js digest.js store.js mancala_sweep.wasm"
bytes=0; zipped=0
for f in $first; do
  bytes=$((bytes + $(wc -c < "$out/$f")))
  zipped=$((zipped + $(gzip -9 -c "$out/$f" | wc -c)))
done
echo "site: $out"
echo "site: first load $bytes bytes ($zipped gzipped): $first"
