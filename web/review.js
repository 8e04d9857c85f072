// The Review page: a game played (Play) or followed (Analyze), every turn
// graded by the engine's review (POST /api/review/stream: the library's
// `game review`, the same grades and words as the terminal's). The page
// grades nothing itself: it draws the engine's document, the values as a
// plot with each turn marked by its grade, and the engine's sentences. A
// turn tapped opens its position on Analyze with the better turn named.
//
// The review streams one position at a time, the last turns first (they
// are proved at once), each document the whole review so far; Stop keeps
// what is done. The game and its last review are kept in this browser
// (localStorage), so that a reload loses neither.
/* global backend */
import { $, count } from "./fields.js";
import { retryBusy, sleep, stream } from "./calls.js";
import { preset, rulesLabel } from "./board.js";
import { openAnalyze, register, showPage } from "./url.js";

const KEY = "mancala-sweep-review";
// Seconds a position on average: the whole review has at most this times
// the positions it searches (a 30-turn game from the start, 27 of its 31
// positions past the books: 4 minutes at most, within the 5 the issue
// allows; most positions are proved in far less).
export const REVIEW_SECONDS = 9;
const GRADES = ["best", "good", "inaccuracy", "mistake", "blunder"];

// The game under review and its last document: {game, doc, stopped}.
// game: {source, rules (the API's preset), board (the start from the
// first mover's side), players {first, second}, you ("first" or
// "second": the player of the bottom row), turns (picks from each
// mover's side, as the engine takes them), seen (the same picks as the
// board shows them), link {rules, board, to} (the start as Analyze's
// link reads it)}.
let RV = null, rvCtl = null, rvSeq = 0, rvRun = null;

function load() { try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; } }
function save() { try { localStorage.setItem(KEY, JSON.stringify(RV)); } catch (e) { /* storage off */ } }
// The review kept in this browser (after a reload too).
export function keptReview() { if (!RV) RV = load(); return RV; }

// Keep `game` as the one to review; its review, when the same game was
// reviewed before, stays.
export function keepGame(game) {
  const old = keptReview(), same = old && JSON.stringify(old.game) === JSON.stringify(game);
  RV = same ? old : { game, doc: null, stopped: false };
  save();
}
// Review `game` (the Review buttons of Play and Analyze).
export function openReview(game) {
  keepGame(game);
  showPage("review", true);
}

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const other = (side) => (side === "first" ? "second" : "first");

// ---- drawing ----
function draw() {
  const r = keptReview(), g = r && r.game;
  $("rv-none").hidden = !!g; $("rv-body").hidden = !g;
  if (!g) return;
  $("rv-game").textContent = `${cap(g.players.first)} (first) against ${g.players.second} (second), ${rulesLabel(g.rules)}: ${count(g.turns.length, "turn")}.`;
  drawDoc(r.doc);
}

// The values from the bottom row's player's side, for the plot.
function youBounds(g, b) {
  if (!b) return null;
  return g.you === "first" ? b : { low: -b.high, high: -b.low };
}

// The plot: the value after every turn (from the bottom row's player's
// side: up is good for them), a bar where only bounds are proved, each
// turn's point coloured by its grade; a tap on a turn's column opens it.
// Drawn at the width it has on the page (its text stays small on a wide
// screen), again when the window's width changes.
function drawGraph(g, doc) {
  const svg = $("rv-graph"), W = Math.max(280, Math.round(svg.getBoundingClientRect().width) || 360);
  const T = g.turns.length, H = 160, L = 6, R = 10, top = 18, bottom = 18;
  const vals = (doc ? doc.graph : []).map((b) => youBounds(g, b));
  const M = Math.max(4, ...vals.filter(Boolean).map((b) => Math.max(Math.abs(b.low), Math.abs(b.high))));
  const x = (k) => L + (k * (W - L - R)) / Math.max(1, T), mid = top + (H - top - bottom) / 2;
  const y = (v) => mid - (v / M) * ((H - top - bottom) / 2);
  const step = (W - L - R) / Math.max(1, T);
  const you = g.players[g.you], them = g.players[other(g.you)];
  let s = `<rect class="rv-up" x="0" y="0" width="${W}" height="${mid}"/><rect class="rv-down" x="0" y="${mid}" width="${W}" height="${H - mid}"/>` +
    `<line class="rv-zero" x1="0" x2="${W}" y1="${mid}" y2="${mid}"/>` +
    `<text x="4" y="13">${cap(you)} ahead (+${M})</text><text x="4" y="${H - 5}">${cap(them)} ahead (+${M})</text>`;
  // The line through the values proved, broken where one is not.
  let path = "";
  vals.forEach((b, k) => {
    if (!b) { path += " "; return; }
    const v = (b.low + b.high) / 2;
    if (b.low !== b.high) s += `<rect class="rv-range" x="${x(k) - 2}" y="${y(b.high)}" width="4" height="${Math.max(1, y(b.low) - y(b.high))}"/>`;
    path += `${path && !path.endsWith(" ") ? "L" : "M"}${x(k).toFixed(1)},${y(v).toFixed(1)}`;
  });
  s += `<path class="rv-line" d="${path.trim()}"/>`;
  const turns = doc ? doc.turns : [];
  for (let k = 1; k <= T; k++) {
    const t = turns[k - 1], b = vals[k], grade = t && t.grade ? t.grade : "none";
    const cy = b ? y((b.low + b.high) / 2) : mid;
    const big = grade === "mistake" || grade === "blunder";
    s += `<circle class="rv-dot rv-g-${grade}" cx="${x(k).toFixed(1)}" cy="${cy.toFixed(1)}" r="${big ? 5 : 3.5}"/>`;
    s += `<rect class="rv-hit" data-turn="${k}" x="${(x(k) - step / 2).toFixed(1)}" y="0" width="${step.toFixed(1)}" height="${H}"><title>Turn ${k}${t ? ": " + t.says : ""}</title></rect>`;
  }
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.innerHTML = s;
}

function drawDoc(doc) {
  const g = RV.game;
  $("rv-bar").max = g.turns.length; $("rv-bar").value = graded(doc);
  drawGraph(g, doc);
  // The count of each grade, the legend of the plot's colours.
  const counts = {};
  for (const t of doc ? doc.turns : []) if (t.grade) counts[t.grade] = (counts[t.grade] || 0) + 1;
  $("rv-legend").innerHTML = GRADES.map((gr) => `<span class="rv-key rv-g-${gr}">${gr} ${counts[gr] || 0}</span>`).join(" ") + ` <span class="rv-key rv-g-none">not graded ${g.turns.length - Object.values(counts).reduce((a, b) => a + b, 0)}</span>`;
  $("rv-says").innerHTML = "";
  for (const line of doc ? doc.says || [] : []) { const p = document.createElement("p"); p.textContent = line; $("rv-says").appendChild(p); }
  const ol = $("rv-turns");
  while (ol.children.length > g.turns.length) ol.lastChild.remove();
  while (ol.children.length < g.turns.length) {
    const li = document.createElement("li"), b = document.createElement("button");
    b.className = "rv-turn";
    b.innerHTML = `<span class="rv-who"></span> <span class="rv-picks"></span> <span class="rv-says"></span>`;
    b.addEventListener("click", () => openTurn(Number(b.dataset.turn)));
    li.appendChild(b); ol.appendChild(li);
  }
  g.turns.forEach((_, i) => {
    const b = ol.children[i].firstChild, t = doc && doc.turns[i];
    b.id = "rv-turn-" + (i + 1); b.dataset.turn = i + 1;
    b.dataset.grade = t && t.grade ? t.grade : "";
    b.className = "rv-turn rv-g-" + (t && t.grade ? t.grade : "none");
    b.children[0].textContent = `${i + 1}. ${cap(t ? t.player : g.players[i % 2 ? "second" : "first"])}:`;
    b.children[1].textContent = g.seen[i].join(" ");
    b.children[2].textContent = t ? t.says : "not reviewed yet";
  });
}

// ---- a turn on Analyze ----
// The Analyze link of turn k: the game's start and every pick, at the
// position before turn k, with `review=k` (Analyze then names the
// better turn the review found there).
export function turnLink(g, k) {
  const before = g.seen.slice(0, k - 1).reduce((a, t) => a + t.length, 0);
  return `?rules=${g.link.rules}&board=${g.link.board}&to=${g.link.to}&line=${g.seen.flat().join(",")}&at=${before}&review=${k}`;
}
function openTurn(k) {
  if (!RV || !RV.game) return;
  stopReview(true);
  openAnalyze(turnLink(RV.game, k));
}
window.addEventListener("resize", () => { if (RV && RV.game && !$("page-review").hidden) drawGraph(RV.game, RV.doc); });
$("rv-graph").addEventListener("click", (e) => {
  const k = e.target.dataset && e.target.dataset.turn;
  if (k) openTurn(Number(k));
});

// What the review found at turn k of the kept review, for Analyze: the
// turn's words, who played what, and a best turn (picks from the
// mover's side), or null.
export function reviewedTurn(k) {
  const r = keptReview();
  const t = r && r.doc && r.doc.turns[k - 1];
  if (!t || !t.reviewed) return null;
  return { says: t.says, player: t.player, seen: r.game.seen[k - 1], best: t.best_turn, grade: t.grade };
}

// ---- the review ----
const graded = (doc) => (doc ? doc.turns.filter((t) => t.grade).length : 0);
const ranFor = () => ((performance.now() - rvRun.t0) / 1000).toFixed(1);
function statusLine() {
  const T = RV.game.turns.length, n = graded(RV.doc);
  if (rvRun.phase === "endgame") {
    const e = backend.endgame();
    return `Making the table of endings on this device first (${Math.floor(100 * ((e && e.share) || 0))}%), ${ranFor()} s: it proves the last turns at once…`;
  }
  return `Reviewing: ${n} of ${count(T, "turn")} graded, ${ranFor()} s…`;
}
function stopReview(user) {
  if (!rvCtl) return;
  if (!user) rvSeq++;
  rvCtl.abort();
}
// Waits for the endgame database the engine asked for after the first
// pass (static site): the page builds it in the background, and the
// review is much faster with it. Nothing to wait for when none comes.
async function endgameWait(signal) {
  for (let i = 0; i < 8; i++) {
    const e = backend.endgame();
    if (e && e.state !== "building") return;
    if (e && e.state === "building") break;
    await sleep(200);
  }
  rvRun.phase = "endgame";
  for (;;) {
    if (signal.aborted) throw new DOMException("stopped", "AbortError");
    const e = backend.endgame();
    if (!e || e.state !== "building") break;
    await sleep(250);
  }
  rvRun.phase = "review";
}
// Whether the site's engine holds the endgame database of the game's
// rules (its preset's, GET /api/limits) and size.
function needsEndgame(g) {
  const e = backend.endgame(), p = preset(g.rules), want = p && p.rules, pits = g.board.split("/")[0].trim().split(/\s+/).length;
  const same = (r) => r && ["scope", "relay", "capture"].every((f) => r[f] === undefined || r[f] === want[f]);
  const held = e && e.state === "ready" && e.key.pits === pits && want && same(e.key.rules);
  return backend.engine === "wasm" && !held;
}

async function startReview() {
  stopReview(false);
  if (!keptReview() || !RV.game) return;
  const g = RV.game, seq = ++rvSeq, ctl = new AbortController();
  rvCtl = ctl;
  const run = rvRun = { t0: performance.now(), phase: "review" };
  RV.stopped = false;
  $("rv-error").textContent = "";
  $("rv-start").hidden = true; $("rv-stop").hidden = false; $("rv-bar").hidden = false;
  const tick = setInterval(() => { if (rvRun === run && seq === rvSeq) $("rv-status").textContent = statusLine(); }, 250);
  $("rv-status").textContent = statusLine();
  const body = { rules: g.rules, board: g.board, turns: g.turns, players: g.players, seconds: REVIEW_SECONDS };
  // Each document drawn as it comes (a few a second at most).
  let latest = null, timer = null;
  const onProgress = (doc) => {
    if (seq !== rvSeq) return;
    latest = doc;
    if (!timer) timer = setTimeout(() => { timer = null; if (seq === rvSeq && latest) { RV.doc = latest; save(); drawDoc(latest); } }, 150);
  };
  try {
    if (needsEndgame(g)) {
      // A first pass of a few picks a position: the finished, booked and
      // near-end positions graded at once, and the engine asks for the
      // database of the game's rules, which is built before the review.
      const quick = await retryBusy(() => stream("/api/review", { ...body, seconds: undefined, nodes: 20000 }, ctl.signal, onProgress));
      if (seq === rvSeq) { RV.doc = quick; drawDoc(quick); }
      await endgameWait(ctl.signal);
    }
    const doc = await retryBusy(() => stream("/api/review", body, ctl.signal, onProgress));
    if (seq !== rvSeq) return;
    RV.doc = doc; save(); drawDoc(doc);
    const n = graded(doc), T = g.turns.length;
    $("rv-status").textContent = doc.complete ? `Done: every turn graded in ${ranFor()} s.`
      : `Done in ${ranFor()} s: ${n} of ${count(T, "turn")} graded; the others are not proved in the time a review has (their bounds are shown). Review again to go on.`;
  } catch (e) {
    if (seq !== rvSeq) return;
    if (latest) { RV.doc = latest; drawDoc(latest); }
    if (e.name === "AbortError") {
      RV.stopped = true;
      $("rv-status").textContent = `Stopped after ${ranFor()} s: ${graded(RV.doc)} of ${count(g.turns.length, "turn")} graded. Review again to go on.`;
    } else { $("rv-status").textContent = ""; $("rv-error").textContent = e.message; }
    save();
  } finally {
    clearInterval(tick); clearTimeout(timer);
    if (seq === rvSeq) { rvCtl = null; $("rv-stop").hidden = true; $("rv-start").hidden = false; $("rv-start").textContent = "Review again"; }
  }
}
$("rv-start").addEventListener("click", startReview);
$("rv-stop").addEventListener("click", () => stopReview(true));
$("rv-back").addEventListener("click", () => {
  const g = RV && RV.game;
  if (g) showPage(g.source === "play" ? "play" : "analyze", true);
});

// The page shown: the kept game and its review; a game not reviewed yet
// is reviewed at once (one stopped waits for Review again).
function shown() {
  keptReview();
  draw();
  if (!RV || !RV.game) return;
  if (rvCtl) return;
  if (RV.doc) {
    const n = graded(RV.doc), T = RV.game.turns.length;
    $("rv-status").textContent = RV.doc.complete ? "Every turn graded (kept from the last review)."
      : `${n} of ${count(T, "turn")} graded (kept from the last review${RV.stopped ? ", stopped" : ""}). Review again to go on.`;
    $("rv-start").hidden = false; $("rv-start").textContent = "Review again"; $("rv-stop").hidden = true;
  } else startReview();
}

// The browser tests read the review shown.
Object.defineProperty(window, "review", { get: () => RV });

register("review", {
  shown,
  left: () => stopReview(true),
  query: () => "?page=review",
});
