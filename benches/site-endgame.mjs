// The static site's endgame database (wasm/src/endgame.rs, web/endgame.js),
// in two tables:
//
// 1. how long the site takes to build it in the background, at 1x and
//    under a 4x CPU slowdown (RATES), how long a later visit takes to have
//    it from the browser's store, what memory it holds, and the first
//    answer, which never waits for it;
// 2. the capture target, once the database is there: on the analyze
//    bench's capture positions of 31 to 44 stones (benches/analyze.rs,
//    `--list`; POSITIONS of them; CLASS=hard takes its 37 to 44 instead),
//    how often the site's 2 s answer is a best turn and is proved best,
//    at each CPU slowdown of CAPTURE_RATES (default 1), beside native
//    `game analyze`'s 1 s answer (every core, its cached database) in the
//    same run. A turn is best when a longer native analysis
//    (TRUTH_SECONDS) proves its value equal to the position's; positions
//    that analysis does not settle are counted apart. With LARGER=1 the
//    answers wait for the larger database (20 stones on 6 pits a side),
//    built in the page first (minutes), else for the first (16).
//
// A bench, not a test: it asserts nothing, it measures.
//
//   bash site/build.sh target/site && cargo build --release
//   node benches/site-endgame.mjs [target/site] [target/release/mancala-sweep]
//   RATES= CLASS=hard LARGER=1 CAPTURE_RATES=1,4 POSITIONS=40 node benches/site-endgame.mjs
//   RATES= LIST=positions.jsonl LARGER=1 node benches/site-endgame.mjs
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { chromedriver, serveSite, machine } from "./webdriver.mjs";

const site = process.argv[2] || "target/site";
const bin = process.argv[3] || "target/release/mancala-sweep";
const rates = (process.env.RATES ?? "1,4").split(",").filter(Boolean).map(Number);
const positions = Number(process.env.POSITIONS || 25);
const truthSeconds = Number(process.env.TRUTH_SECONDS || 30);
const captureRates = (process.env.CAPTURE_RATES || "1").split(",").filter(Boolean).map(Number);
const cls = process.env.CLASS || "mid", larger = process.env.LARGER === "1";
// A capture position of 35 stones in its pits: its analysis asks for the
// database.
const board = "4 5 0 3 5 2 / 7 6 / 2 3 1 4 3 3";

const { url } = await serveSite(site);
const driver = await chromedriver();
const rows = [];
for (const rate of rates) {
  const s = await driver.session(390);
  await driver.cdp(s, "Emulation.setCPUThrottlingRate", { rate });
  await driver.go(s, url + "?page=solve");
  // The first answer (the engine loaded, no database), then the build to
  // "ready", each from the request's start.
  const r = await driver.async(s, `const done = arguments[arguments.length - 1];
    const t0 = performance.now(), seen = [];
    backend.onEndgame((e) => seen.push([performance.now() - t0, e.state, e.share || 0, e.built || e.memory || 0]));
    backend.call("POST", "/api/analyze", { rules: "kalah", board: arguments[0], seconds: 1 }).then((a) => {
      const first = performance.now() - t0;
      const wait = () => { const e = backend.endgame(); if (e && e.state !== "building") done({ first, seen, value: a.value, end: e }); else setTimeout(wait, 100); };
      wait();
    }, (e) => done({ error: String(e) }));`, [board]);
  if (r.error) throw new Error(r.error);
  const building = r.seen.find((x) => x[1] === "building"), ready = r.seen.filter((x) => x[1] === "ready");
  // A later visit: the same profile, the page loaded again; the time from
  // the navigation's start to the engine holding the database.
  await driver.go(s, url + "?page=solve");
  const again = await driver.async(s, `const done = arguments[arguments.length - 1];
    const check = () => { const e = backend.endgame(); if (e) done({ t: performance.now(), e }); else setTimeout(check, 20); };
    check();`);
  rows.push({ rate, first: r.first / 1000, build: (ready[0][0] - building[0]) / 1000, taken: (ready[ready.length - 1][0] - building[0]) / 1000,
    builder: ready[0][3], engine: ready[ready.length - 1][3], later: again.t / 1000, laterState: again.e.state, layers: r.seen.length });
  await driver.end(s);
}

// ---- 2. the capture target ----
// LIST=FILE takes the positions from FILE instead (JSON lines as `--list`
// prints them: mode, index, stones, board).
const list = process.env.LIST ? readFileSync(process.env.LIST, "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((p) => p.mode === "capture")
  : positions ? execFileSync("cargo", ["bench", "--quiet", "--bench", "analyze", "--", "--list", "--positions", String(positions), "--class", cls], { stdio: ["ignore", "pipe", "inherit"] })
  .toString().trim().split("\n").map((l) => JSON.parse(l)).filter((p) => p.mode === "capture") : [];
const native = (board, seconds) => JSON.parse(execFileSync(bin, ["game", "analyze", "--rules", "kalah", "--board", board, "--seconds", String(seconds), "--json", "-q"], { maxBuffer: 1 << 26 }).toString());
// Best (true), not best (false) or unknown (null), by the proved values of `truth`.
function best(picks, truth) {
  const t = truth.turns.find((x) => JSON.stringify(x.picks) === JSON.stringify(picks));
  if (!truth.exact || !t) return null;
  if (t.exact) return t.value === truth.value;
  return t.upper !== undefined && t.upper < truth.value ? false : null;
}
const capture = [], truths = new Map();
let held = null;
for (const rate of list.length ? captureRates : []) {
  const s = await driver.session(390);
  await driver.go(s, url + "?page=solve");
  // The database built and held by the engine (its own "ready": with the
  // engine's memory), before the first measured answer: the first, or
  // with LARGER the larger one (the engine holds one a rule set).
  held = await driver.async(s, `const done = arguments[arguments.length - 1], larger = arguments[1];
    backend.call("POST", "/api/analyze", { rules: "kalah", board: arguments[0], seconds: 1 }).then(() => {
      const wait = () => { const e = backend.endgame(), l = backend.larger();
        if (e && e.state === "ready" && e.memory && (!larger || (l && l.state === "ready" && e.key.stones === l.key.stones))) done(e); else setTimeout(wait, 500); };
      wait();
    });`, [board, larger]);
  await driver.cdp(s, "Emulation.setCPUThrottlingRate", { rate });
  for (const p of list) {
    const w = await driver.async(s, `const done = arguments[arguments.length - 1];
      const t0 = performance.now();
      backend.call("POST", "/api/analyze", { rules: "kalah", board: arguments[0], seconds: 2 })
        .then((a) => done({ picks: a.turns[0].picks, exact: a.exact, value: a.value, nodes: a.nodes, s: (performance.now() - t0) / 1000 }), (e) => done({ error: String(e) }));`, [p.board]);
    if (w.error) throw new Error(w.error);
    if (!truths.has(p.board)) truths.set(p.board, { n: native(p.board, 1), truth: native(p.board, truthSeconds) });
    const { n, truth } = truths.get(p.board);
    capture.push({ ...p, rate, site: w, native: { picks: n.turns[0].picks, exact: n.exact, value: n.value, s: n.seconds },
      truth: truth.exact ? truth.value : null, siteBest: best(w.picks, truth), nativeBest: best(n.turns[0].picks, truth) });
    console.error(JSON.stringify(capture[capture.length - 1]));
  }
  await driver.end(s);
}
driver.close();

console.log(machine());
if (rows.length) console.log("");
if (rows.length) console.log("| CPU slowdown | first answer (no database) s | build in its worker s | in the engine s | builder's memory MiB | engine's memory MiB | later visit: held after s |");
if (rows.length) console.log("|---:|---:|---:|---:|---:|---:|---:|");
const mib = (b) => (b / (1 << 20)).toFixed(0);
for (const r of rows) console.log(`| ${r.rate}x | ${r.first.toFixed(2)} | ${r.build.toFixed(1)} | ${r.taken.toFixed(1)} | ${mib(r.builder)} | ${mib(r.engine)} | ${r.later.toFixed(2)} (${r.laterState}) |`);

for (const rate of capture.length ? captureRates : []) {
  const of = capture.filter((c) => c.rate === rate);
  const yes = (b) => (b === null ? "?" : b ? "yes" : "no");
  const count = (k) => of.filter((c) => c[k] === true).length;
  const settled = of.filter((c) => c.truth !== null).length;
  const range = cls === "hard" ? "37 to 44" : "31 to 44";
  const sample = process.env.LIST ? `the positions of ${process.env.LIST}, ${of.length}` : `positions of ${range} stones, benches/analyze.rs's sample, ${of.length}`;
  console.log("");
  console.log(`Capture (${sample}), ${rate}x CPU slowdown: the site's 2 s answer (WebAssembly, one thread, its ${held.key.stones}-stone database held) and native game analyze's 1 s answer (every core, the cached database); best by a native ${truthSeconds} s analysis.`);
  console.log("| # | stones | board | proved value | site 2 s: turn | picks | best | native 1 s: turn | best |");
  console.log("|---:|---:|---|---:|---|---:|---|---|---|");
  for (const c of of) console.log(`| ${c.index} | ${c.stones} | ${c.board} | ${c.truth ?? "not settled"} | ${c.site.picks.join(",")}${c.site.exact ? " (proved)" : ""} | ${c.site.nodes} | ${yes(c.siteBest)} | ${c.native.picks.join(",")}${c.native.exact ? " (proved)" : ""} | ${yes(c.nativeBest)} |`);
  console.log("");
  const share = (k) => `${k} (${Math.round((100 * k) / of.length)}%)`;
  console.log(`${rate}x: best turn: site 2 s ${count("siteBest")} of ${settled}, native 1 s ${count("nativeBest")} of ${settled} (positions settled by the ${truthSeconds} s analysis: ${settled} of ${of.length}); proved best: site ${share(of.filter((c) => c.site.exact).length)}, native ${share(of.filter((c) => c.native.exact).length)}; slowest site answer ${Math.max(...of.map((c) => c.site.s)).toFixed(2)} s`);
}
