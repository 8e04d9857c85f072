// The static site's endgame database (wasm/src/endgame.rs, web/endgame.js):
// how long the site takes to build it in the background, at 1x and under a
// 4x CPU slowdown, how long a later visit takes to have it from the
// browser's store, what memory it holds, and that the first answer never
// waits for it. A bench, not a test: it asserts nothing, it measures.
//
//   bash site/build.sh target/site
//   node benches/site-endgame.mjs [target/site]
import { chromedriver, serveSite, sleep, machine } from "./webdriver.mjs";

const site = process.argv[2] || "target/site";
const rates = (process.env.RATES || "1,4").split(",").map(Number);
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
driver.close();

console.log(machine());
console.log("");
console.log("| CPU slowdown | first answer (no database) s | build in its worker s | in the engine s | builder's memory MiB | engine's memory MiB | later visit: held after s |");
console.log("|---:|---:|---:|---:|---:|---:|---:|");
const mib = (b) => (b / (1 << 20)).toFixed(0);
for (const r of rows) console.log(`| ${r.rate}x | ${r.first.toFixed(2)} | ${r.build.toFixed(1)} | ${r.taken.toFixed(1)} | ${mib(r.builder)} | ${mib(r.engine)} | ${r.later.toFixed(2)} (${r.laterState}) |`);
