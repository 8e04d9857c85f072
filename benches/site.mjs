// The static site's engine against the native binary on the same work, in
// the same run: node (V8, Chromium's engine) runs target/site's .wasm
// through the same boundary as web/engine.js; the binary runs the same
// request as `game analyze` / `solve`. Prints a table.
//
//   bash site/build.sh target/site && cargo build --release
//   node benches/site.mjs [target/site] [target/release/mancala-sweep]
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";

const site = process.argv[2] || "target/site";
const bin = process.argv[3] || "target/release/mancala-sweep";
let engine;
const dec = new TextDecoder(), enc = new TextEncoder();
const text = (ptr, len) => dec.decode(new Uint8Array(engine.exports.memory.buffer, ptr, len));
const m = await WebAssembly.instantiate(readFileSync(`${site}/mancala_sweep.wasm`), {
  mancala_sweep: { now_ms: () => performance.now(), event: () => {}, input: () => 0, output: () => {} },
});
engine = m.instance;
function call(method, path, body) {
  const req = enc.encode(`${method} ${path}\n${JSON.stringify(body)}`);
  const ptr = engine.exports.alloc(req.length);
  new Uint8Array(engine.exports.memory.buffer, ptr, req.length).set(req);
  const len = engine.exports.call(ptr, req.length);
  const answer = text(engine.exports.answer(), len);
  return JSON.parse(answer.slice(answer.indexOf("\n") + 1));
}
function timed(f) {
  const t0 = performance.now();
  const out = f();
  return [out, (performance.now() - t0) / 1000];
}
const board = "2 0 5 1 3 4 / 8 10 / 1 4 0 2 6 2";
const rows = [];
for (const nodes of [200000, 2000000]) {
  const [w, ws] = timed(() => call("POST", "/api/analyze", { rules: "avalanche", board, nodes }));
  const [n, ns] = timed(() => JSON.parse(execFileSync(bin, ["game", "analyze", "--rules", "avalanche", "--board", board, "--nodes", String(nodes), "--threads", "1", "--json", "-q"]).toString()));
  rows.push([`analyze, avalanche board, ${nodes} picks`, ws, ns, `value ${w.value}/${n.value}, exact ${w.exact}/${n.exact}, picks ${w.nodes}/${n.nodes}`]);
}
{
  const [w, ws] = timed(() => call("POST", "/api/solve", { rules: "avalanche", pits: 6, stones: 4, limit: 1 }));
  const [n, ns] = timed(() => JSON.parse(execFileSync(bin, ["solve", "--rules", "avalanche", "--threads", "1", "--limit", "1", "--json", "-q"]).toString()));
  rows.push(["solve avalanche 6x4", ws, ns, `best ${w.best_store}/${n.best_store}`]);
}
console.log(`machine: ${execFileSync("sh", ["-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"]).toString().trim()}, node ${process.version}`);
console.log("| work | WebAssembly (node) s | native 1 thread s | answers (wasm/native) |");
console.log("|---|---:|---:|---|");
for (const [what, ws, ns, note] of rows) console.log(`| ${what} | ${ws.toFixed(2)} | ${ns.toFixed(2)} | ${note} |`);
