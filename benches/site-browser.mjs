// The static site in headless Chromium against the native binary, in the
// same run, and the site's first load under a 4x CPU slowdown. Prints two
// tables with the CPU named (from /proc/cpuinfo). A bench, not a test: it
// asserts nothing, it measures.
//
//   bash site/build.sh target/site && cargo build --release
//   node benches/site-browser.mjs [target/site] [target/release/mancala-sweep]
//
// It starts its own plain static file server and chromedriver
// (/usr/bin/chromedriver, Debian's chromium-driver) on free loopback ports,
// and drives Chromium through WebDriver, with Chromium's DevTools commands
// (Emulation.setCPUThrottlingRate) sent through chromedriver.
import { execFileSync, spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { chromedriver, serveSite, free, endWithBench, machine } from "./webdriver.mjs";

const site = process.argv[2] || "target/site";
const bin = process.argv[3] || "target/release/mancala-sweep";
const runs = Number(process.env.RUNS || 3);

const { url } = await serveSite(site);
const { wd, session, cdp, async: js } = await chromedriver();

// ---- interactive under a 4x CPU slowdown, first visit (a new profile) ----
// "Interactive": the page's scripts have run and drawn the Analyze board,
// and the engine (the .wasm, compiled and started in its worker) has
// answered a first request; measured from the navigation's start.
const loads = [];
for (let i = 0; i < runs; i++) {
  const s = await session(390);
  await cdp(s, "Emulation.setCPUThrottlingRate", { rate: 4 });
  await wd("POST", `/session/${s}/url`, { url });
  const t = await js(s, `const done = arguments[arguments.length - 1];
    const t = () => performance.now();
    const drawn = t();
    backend.call("POST", "/api/replay", { rules: "kalah", board: "1 1 / 0 0 / 1 1", picks: [1] })
      .then(() => { const n = performance.getEntriesByType("navigation")[0];
        done({ dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd, drawn, engine: t(),
          board: document.querySelectorAll("#an-board .pit").length }); },
      (e) => done({ error: String(e) }));`);
  loads.push(t);
  await wd("DELETE", `/session/${s}`);
}
const med = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// ---- speed: the same requests in Chromium (one thread, the worker) and
// natively on one thread ----
const s = await session(1280);
await wd("POST", `/session/${s}/url`, { url });
async function inPage(method, path, body) {
  const r = await js(s, `const done = arguments[arguments.length - 1];
    const t0 = performance.now();
    backend.call(arguments[0], arguments[1], arguments[2]).then((d) => done({ d, s: (performance.now() - t0) / 1000 }), (e) => done({ error: e.message }));`, [method, path, body]);
  if (r.error) throw new Error(r.error);
  return [r.d, r.s];
}
await inPage("POST", "/api/replay", { rules: "kalah", board: "1 1 / 0 0 / 1 1", picks: [1] }); // the engine loaded
function native(args) {
  const t0 = performance.now();
  const out = JSON.parse(execFileSync(bin, [...args, "--json", "-q"], { maxBuffer: 1 << 28 }).toString());
  return [out, (performance.now() - t0) / 1000];
}
// `serve` on one thread for the computer's turns (the agents run on one
// thread; the whole request is timed, as in the page).
const servePort = await free();
const serve = endWithBench(spawn(bin, ["serve", "--port", String(servePort)], { stdio: "ignore", env: { ...process.env, RAYON_NUM_THREADS: "1" } }));
async function served(path, body) {
  for (let i = 0; ; i++) {
    try {
      const t0 = performance.now();
      const r = await fetch(`http://127.0.0.1:${servePort}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const d = await r.json();
      return [d, (performance.now() - t0) / 1000];
    } catch (e) { if (i > 100) throw e; await new Promise((r) => setTimeout(r, 100)); }
  }
}
const rows = [];
// A request the page's engine refuses (too big for it) is a row too, with
// its message.
async function row(what, page, nat, note) {
  let w;
  try { w = await page(); } catch (e) { const [, ns] = await nat(); rows.push([what, NaN, ns, "refused on the site: " + e.message.replace(/^\/session\/\S+: /, "")]); return; }
  const [n, ns] = await nat();
  rows.push([what, w[1], ns, note(w[0], n)]);
}
await row("solve avalanche 2x6x4", () => inPage("POST", "/api/solve", { rules: "avalanche", pits: 6, stones: 4, limit: 1 }),
  () => native(["solve", "--rules", "avalanche", "--pits", "6", "--stones", "4", "--threads", "1", "--limit", "1"]),
  (w, n) => `best ${w.best_store}/${n.best_store}`);
await row("solve any-hole 2x6x3", () => inPage("POST", "/api/solve", { rules: "any-hole", pits: 6, stones: 3, limit: 1 }),
  () => native(["solve", "--rules", "any-hole", "--pits", "6", "--stones", "3", "--threads", "1", "--limit", "1"]),
  (w, n) => `best ${w.best_store}/${n.best_store}`);
await row("find any-hole 2x6x4", () => inPage("POST", "/api/find", { rules: "any-hole", pits: 6, stones: 4 }),
  () => native(["find", "--rules", "any-hole", "--pits", "6", "--stones", "4", "--threads", "1"]),
  (w, n) => `best ${w.best_store}/${n.best_store} of 48`);
// The page solves a game by analyzing it (every turn proved, not only the
// best): the native side does the same work, `game analyze` with the same
// budget, so that the ratio compares like with like.
await row("game solve Kalah(6,3), every turn proved (the page's analysis; native: game analyze)", () => inPage("POST", "/api/analyze", { rules: "kalah", pits: 6, stones: 3, seconds: 60 }),
  () => native(["game", "analyze", "--rules", "kalah", "--pits", "6", "--stones", "3", "--seconds", "60", "--threads", "1"]),
  (w, n) => `value ${w.value}/${n.value}, exact ${w.exact}/${n.exact}, picks ${w.nodes}/${n.nodes}`);
for (const level of ["easy", "medium", "hard", "perfect"]) {
  const body = { rules: "kalah", level, person: "second", pits: 6, stones: 4, seed: 1 };
  await row(`computer's first turn, ${level}, Kalah 6x4`, () => inPage("POST", "/api/game/new", body), () => served("/api/game/new", body),
    (w, n) => `picks ${w.played.map((p) => p.pit).join(",")}/${n.played.map((p) => p.pit).join(",")}`);
}
const board = "2 0 5 1 3 4 / 8 10 / 1 4 0 2 6 2";
await row("the Analyze page's 1 s answer, avalanche board", () => inPage("POST", "/api/analyze", { rules: "avalanche", board, seconds: 1 }),
  () => native(["game", "analyze", "--rules", "avalanche", "--board", board, "--seconds", "1", "--threads", "1"]),
  (w, n) => `value ${w.value}/${n.value}, exact ${w.exact}/${n.exact}, picks ${w.nodes}/${n.nodes}`);
await wd("DELETE", `/session/${s}`);
serve.kill();

console.log(machine());
console.log("");
console.log(`First visit at 390 px under a 4x CPU slowdown (median of ${runs}, ms from the navigation's start):`);
console.log("| page drawn (scripts run) | DOMContentLoaded | load | engine answered (interactive) |");
console.log("|---:|---:|---:|---:|");
if (loads.some((l) => l.error)) console.log(JSON.stringify(loads));
console.log(`| ${med(loads.map((l) => l.drawn)).toFixed(0)} | ${med(loads.map((l) => l.dcl)).toFixed(0)} | ${med(loads.map((l) => l.load)).toFixed(0)} | ${med(loads.map((l) => l.engine)).toFixed(0)} |`);
console.log("");
console.log("| work | Chromium (WebAssembly, 1 thread) s | native 1 thread s | ratio | answers (Chromium/native) |");
console.log("|---|---:|---:|---:|---|");
for (const [what, ws, ns, note] of rows) console.log(`| ${what} | ${isNaN(ws) ? "—" : ws.toFixed(2)} | ${ns.toFixed(2)} | ${isNaN(ws) ? "—" : (ws / ns).toFixed(2)} | ${note} |`);
