// The Puzzles page: a puzzle of the committed collections played pick by
// pick (POST /api/puzzles/{collection}/{id}/check), with hints, the
// solution, and a tally kept in this browser.
import { $ } from "./fields.js";
import { api } from "./calls.js";
import { drawBoard, limitsReady } from "./board.js";
import { presetLabel, ruleKey } from "./atlas.js";
import { pageUrl, register, shownPage } from "./url.js";

// The tally counts puzzles, each once, as `puzzles play` on the terminal
// judges them: solved clean (no hint, no solution shown, no wrong pick
// taken back), solved with help, or failed (it went wrong: a wrong pick,
// or the turn ended short; solved after all, it moves to "with help").
// The streak is clean solves in a row: help or a failure ends it (help
// with a puzzle already counted changes nothing).
// `done` holds each puzzle's verdict once counted, by "collection/id", so
// that a puzzle reached again (Back, a reload, its link, Next round the
// list) is not counted again: playing it again leaves the tally and the
// streak as they are, but for a failed puzzle solved after all, which
// moves to "with help" as it would have the first time.
let collections = null, puzzle = null, picks = [], current = null, hinted = null, index = 0;
let tally = { streak: 0, solved: 0, helped: 0, failed: 0, done: {} };
// This puzzle: help used, its verdict once counted ("solved", "helped",
// "failed"), and whether it was counted before it was reached this time.
let pState = { help: false, verdict: null, before: false };
const puzzleKey = () => `${current.collection}/${current.id}`;
// Count this puzzle's verdict `v`, once.
function judged(v) { pState.verdict = v; tally.done[puzzleKey()] = v; }

async function loadCollections() {
  try {
    collections = (await api("GET", "/api/puzzles")).collections;
  } catch (e) { $("puzzle-msg").textContent = e.message; return; }
  await limitsReady;
  // Each collection by its game's name (GamePigeon avalanche, GamePigeon
  // capture, any-hole), and the number of puzzles in it.
  $("collection").innerHTML = collections.map((c, i) => `<option value="${i}">${presetLabel(ruleKey(c.rules)) && c.name === ruleKey(c.rules) ? presetLabel(ruleKey(c.rules)) : c.name} (${c.count})</option>`).join("");
  index = 0;
  puzzlesFromUrl(new URLSearchParams(location.search));
}
// The collection, grade and puzzle the link names (the first puzzle when
// it names none).
function puzzlesFromUrl(q) {
  if (!collections) return;
  const c = collections.findIndex((x) => x.name === q.get("collection"));
  if (c >= 0) $("collection").value = String(c);
  if (/^[0-5]$/.test(q.get("grade") || "")) $("grade").value = q.get("grade");
  const k = Number(q.get("puzzle"));
  index = Number.isInteger(k) && k >= 1 ? k - 1 : 0;
  loadPuzzle();
}
// The tally and streak outlive a reload (this browser's storage).
const TALLY_KEY = "mancala-sweep-puzzle-tally";
try { const t = JSON.parse(localStorage.getItem(TALLY_KEY) || "null"); if (t && typeof t.streak === "number") tally = { ...tally, ...t }; } catch (e) { /* none kept */ }
if (!tally.done || typeof tally.done !== "object") tally.done = {};

function candidates() {
  const c = collections[$("collection").value];
  const g = parseInt($("grade").value, 10);
  return c.puzzles.filter((p) => !g || p.difficulty === g);
}

async function loadPuzzle(push) {
  const list = candidates();
  if (!list.length) { $("puzzle-msg").textContent = "No puzzle of this grade here."; return; }
  const c = collections[$("collection").value];
  const p = list[index % list.length];
  const doc = await api("GET", `/api/puzzles/${encodeURIComponent(c.name)}/${encodeURIComponent(p.id)}`);
  current = { collection: c.name, ...doc.puzzle };
  picks = []; hinted = null; puzzle = { pits: current.pits, store: current.store };
  const before = tally.done[puzzleKey()] || null;
  pState = { help: false, verdict: before, before: !!before }; $("undo").disabled = true;
  if (shownPage() === "puzzles") pageUrl(push === true);
  const from = { start: "a game's start", line: "mid-game, on a best line", game: "mid-game", "game-hard": "mid-game, strong play" }[current.source];
  $("puzzle-title").textContent = `Puzzle ${p.id} · grade ${current.difficulty}${from ? " · " + from : ""} · reach ${current.goal_store} in your store this turn`;
  $("puzzle-msg").textContent = "";
  drawPuzzle();
}

function drawPuzzle(wrong) {
  const pn = current.pits.length / 2;
  // A keyboard player's place on the board survives the redraw.
  const focused = document.activeElement && /^ppit-/.test(document.activeElement.id) ? document.activeElement.id : null;
  drawBoard($("pboard"), pn, puzzle.store, current.opponent_store, (i) => {
    const d = document.createElement("button");
    d.className = "pit" + (hinted === i + 1 ? " next" : "") + (wrong === i + 1 ? " wrong" : "");
    d.id = "ppit-" + (i + 1); d.textContent = puzzle.pits[i];
    d.setAttribute("aria-label", `pit ${i + 1}: ${puzzle.pits[i]} stones`);
    d.addEventListener("click", () => pick(i + 1));
    return d;
  });
  if (focused && $(focused)) $(focused).focus();
}

async function check(body) {
  return api("POST", `/api/puzzles/${encodeURIComponent(current.collection)}/${encodeURIComponent(current.id)}/check`, body);
}

async function pick(p) {
  if (!current) return;
  let doc;
  try { doc = await check({ picks: picks.concat([p]) }); }
  catch (e) { $("puzzle-msg").textContent = e.message; return; }
  hinted = null;
  if (doc.why) {
    // Wrong: show it, then take the pick back.
    const last = doc.steps[doc.steps.length - 1];
    puzzle = { pits: last.pits, store: last.store };
    drawPuzzle(p);
    $("puzzle-msg").textContent = `Pit ${p}: ${doc.why}. Taken back — try another pit.`;
    // A wrong pick taken back is help (as the terminal's undo of one);
    // the puzzle counts as failed once, however many picks go wrong.
    pState.help = true;
    if (!pState.verdict) { tally.streak = 0; judged("failed"); tally.failed++; }
    updateTally();
    setTimeout(() => { restore(); }, 1200);
    return;
  }
  picks = doc.picks;
  $("undo").disabled = !picks.length;
  const last = doc.steps[doc.steps.length - 1];
  puzzle = { pits: last.pits, store: last.store };
  drawPuzzle();
  if (doc.outcome === "solved") {
    let clean = false;
    const was = pState.verdict;
    if (pState.verdict === "failed") { tally.failed--; tally.helped++; judged("helped"); }
    else if (!pState.verdict && pState.help) { tally.helped++; tally.streak = 0; judged("helped"); }
    else if (!pState.verdict) { tally.solved++; tally.streak++; judged("solved"); clean = true; }
    else clean = !pState.help && pState.verdict === "solved";
    updateTally();
    const again = !pState.before ? "" : was === pState.verdict ? " It was counted before, so the tally stays as it was." : " Counted before as failed, it moves to with help.";
    $("puzzle-msg").textContent = (clean ? `Solved: ${doc.store} in the store!` : `Solved with help: ${doc.store} in the store.`) + again + " Press Next puzzle.";
  } else {
    $("puzzle-msg").textContent = `Pick ${picks.length}: ${doc.store} in the store, pick again.`;
  }
}

async function restore() {
  if (!picks.length) { puzzle = { pits: current.pits, store: current.store }; drawPuzzle(); return; }
  const doc = await check({ picks });
  const last = doc.steps[doc.steps.length - 1];
  puzzle = { pits: last.pits, store: last.store }; drawPuzzle();
}

function updateTally() {
  try { localStorage.setItem(TALLY_KEY, JSON.stringify(tally)); } catch (e) { /* storage off */ }
  $("streak").textContent = tally.streak; $("solved").textContent = tally.solved;
  $("helped").textContent = tally.helped; $("failed").textContent = tally.failed;
}

$("hint").addEventListener("click", async () => {
  if (!current) return;
  const doc = await check({ picks, hint: true });
  hinted = doc.hint;
  if (hinted) { pState.help = true; if (!pState.verdict) tally.streak = 0; updateTally(); }
  drawPuzzle();
  $("puzzle-msg").textContent = hinted ? `Hint: pick pit ${hinted}.` : "No hint from here: retry.";
});
$("retry").addEventListener("click", () => { picks = []; hinted = null; $("undo").disabled = true; restore(); $("puzzle-msg").textContent = ""; });
$("show").addEventListener("click", () => { if (current) { pState.help = true; if (!pState.verdict) tally.streak = 0; updateTally(); $("puzzle-msg").textContent = "Solution: " + current.solution.join(" "); } });
// Undo: the last pick taken back, one at a time (a finished turn reopens).
$("undo").addEventListener("click", async () => {
  if (!current || !picks.length) return;
  const p = picks[picks.length - 1];
  picks = picks.slice(0, -1); hinted = null;
  await restore();
  $("undo").disabled = !picks.length;
  // Undo keeps the focus; with nothing more to take back, the pit taken back has it.
  if (!picks.length) $("ppit-" + p).focus();
  $("puzzle-msg").textContent = `Took back pit ${p}.`;
});
$("next-puzzle").addEventListener("click", () => { index++; loadPuzzle(true); });
$("collection").addEventListener("change", () => { index = 0; loadPuzzle(true); });
$("grade").addEventListener("change", () => { index = 0; loadPuzzle(true); });

// The browser tests read the puzzle shown and the collections, and choose
// a puzzle by its place in the list.
Object.defineProperties(window, {
  current: { get: () => current },
  collections: { get: () => collections },
  index: { get: () => index, set: (k) => { index = k; } },
});
window.loadPuzzle = loadPuzzle;

register("puzzles", {
  shown: () => { if (!collections) loadCollections(); },
  query: () => {
    if (!collections || !current) return "?page=puzzles";
    return `?page=puzzles&collection=${encodeURIComponent(current.collection)}&grade=${$("grade").value}&puzzle=${index + 1}`;
  },
  fromUrl: puzzlesFromUrl,
});
// The tally as kept, on the page from the start.
updateTally();
