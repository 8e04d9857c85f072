// The Analyze page on the static site, opened on an avalanche start (5
// stones a pit unless START says otherwise) at 390 px, as a phone player
// opens it: the time to "Done" with Think 1 s, the longest main-thread task
// meanwhile (PerformanceObserver 'longtask'), and how long Stop takes to
// show "Stopped" when tapped 10 s into a 30 s analysis. A bench, not a
// test: it asserts nothing, it measures.
//
//   bash site/build.sh target/site
//   node benches/site-analyze.mjs [target/site]
//
// It starts its own plain static file server and chromedriver
// (/usr/bin/chromedriver) on free loopback ports and drives Chromium
// through WebDriver.
import { chromedriver, serveSite, sleep, machine } from "./webdriver.mjs";

const site = process.argv[2] || "target/site";
const runs = Number(process.env.RUNS || 3);
const stopAfter = Number(process.env.STOP_AFTER || 10);
// The position opened: START (a query of the Analyze page), by default
// the avalanche start of 5 stones a pit; that of 4 (`?rules=avalanche`)
// is in the opening book and answered at once, so Stop has nothing to
// stop there.
const start = process.env.START || "?rules=avalanche&board=5,5,5,5,5,5/0,0/5,5,5,5,5,5&to=you";

const { url } = await serveSite(site);
const driver = await chromedriver();
const { wd, cdp, sync: js } = driver;
async function session() {
  // A phone's width, its scroll bars over the page.
  const s = await driver.session(390);
  // From the page's first script on: every long task, and the moments the
  // status line first says "Thinking", "Done" and "Stopped" (Date.now(),
  // so that they compare with this script's clock).
  await cdp(s, "Page.addScriptToEvaluateOnNewDocument", { source: `
    window.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); }).observe({ type: "longtask", buffered: true });
    window.__seen = {};
    document.addEventListener("DOMContentLoaded", () => {
      const st = document.getElementById("an-status");
      new MutationObserver(() => { const w = (st.textContent.match(/^(Thinking|Done|Stopped)/) || [])[1]; if (w && !window.__seen[w]) window.__seen[w] = Date.now(); })
        .observe(st, { childList: true, characterData: true, subtree: true });
    });` });
  return s;
}
async function until(s, script, seconds) {
  const t0 = Date.now();
  for (;;) {
    const v = await js(s, script);
    if (v) return v;
    if (Date.now() - t0 > seconds * 1000) return null;
    await sleep(50);
  }
}

const done = [], stops = [];
for (let i = 0; i < runs; i++) {
  // Think 1 s (the default) on the avalanche start: to "Done".
  let s = await session();
  const t0 = Date.now();
  await wd("POST", `/session/${s}/url`, { url: url + start });
  await until(s, "return window.__seen.Done || null;", 300);
  const r = await js(s, `return { seen: window.__seen, nav: performance.timeOrigin, long: window.__long,
    status: document.getElementById("an-status").textContent, turns: document.querySelectorAll("#an-turns .turn").length,
    elements: document.getElementsByTagName("*").length };`);
  const thinking = r.seen.Thinking || r.nav;
  const longest = Math.max(0, ...r.long.map((l) => l[1]));
  // Each long task, from the analysis's start (ms): which part of the
  // work it was.
  console.error(`run ${i + 1}: long tasks [start from Thinking, ms]: ` + JSON.stringify(r.long.map(([t, d]) => [Math.round(t + r.nav - thinking), Math.round(d)])) + `; Done at ${r.seen.Done - thinking} ms`);
  done.push({ toDone: (r.seen.Done - thinking) / 1000, fromNav: (r.seen.Done - r.nav) / 1000, longest, over100: r.long.filter((l) => l[1] > 100).length, turns: r.turns, elements: r.elements, status: r.status, wall: (Date.now() - t0) / 1000 });
  await wd("DELETE", `/session/${s}`);

  // Think 30 s, Stop tapped `stopAfter` s after the analysis started.
  s = await session();
  await wd("POST", `/session/${s}/url`, { url: url + start });
  await until(s, "return window.__seen.Done || null;", 300);
  await js(s, `const sel = document.getElementById("an-seconds"); sel.value = "30"; window.__seen = {}; window.__long = []; sel.dispatchEvent(new Event("change"));`);
  const started = await until(s, "return window.__seen.Thinking || null;", 60);
  await sleep(Math.max(0, started + stopAfter * 1000 - Date.now()));
  // The tap is sent now; a page that is busy takes it when it is free.
  const tapped = Date.now();
  await js(s, `document.getElementById("an-stop").click();`);
  const stopped = await until(s, "return window.__seen.Stopped || null;", 400);
  const after = await js(s, "return { long: window.__long, status: document.getElementById('an-status').textContent };");
  stops.push({ latency: stopped ? (stopped - tapped) / 1000 : NaN, longest: Math.max(0, ...after.long.map((l) => l[1])), status: after.status });
  await wd("DELETE", `/session/${s}`);
}
driver.close();

console.log(machine());
console.log("");
console.log("| run | Think 1 s: to Done s | longest task ms | tasks over 100 ms | turn rows drawn | elements on the page | Stop after " + stopAfter + " s: to Stopped s | longest task while thinking 30 s ms |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|");
done.forEach((d, i) => console.log(`| ${i + 1} | ${d.toDone.toFixed(2)} | ${d.longest.toFixed(0)} | ${d.over100} | ${d.turns} | ${d.elements} | ${stops[i].latency.toFixed(2)} | ${stops[i].longest.toFixed(0)} |`));
console.log("");
console.log("status at Done: " + done[done.length - 1].status);
console.log("status at Stopped: " + stops[stops.length - 1].status);
