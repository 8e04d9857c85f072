// The Solve page: the most stones one turn can take (POST /api/solve/stream,
// or /api/find for a good line in a moment), and the picks of its line
// stepped through on the board.
/* global backend */
import { $, clearErrors, clearTyped, count, invalidFields, readCount, sayTyped, setField, showError, wholeWithin, wholeWords } from "./fields.js";
import { boardLink, boardOfLink, choosePreset, drawBoard, LIMITS, pasteField, tooLong } from "./board.js";
import { request, stream } from "./calls.js";
import { keepUrl, openAnalyze, register } from "./url.js";

let pits = [], store = 0, oppStore = 0, n = 6, line = null, steps = null, at = 0, rules = "avalanche";
let controller = null;
// The paste field, read by the engine as it is typed; `pasting`: a Use
// not yet answered, which a solve waits for.
const paste = pasteField($("paste"), $("err-paste"), () => $("rules").value);
let pasting = null;

const maxPits = () => LIMITS.max_pits_per_side, maxStones = () => LIMITS.max_stones_in_play;

function boardText() {
  const opp = pits.slice(n).reverse().join(" ");
  return `${opp} / ${oppStore} ${store} / ${pits.slice(0, n).join(" ")}`;
}

function drawSolve(highlight) {
  drawBoard($("board"), n, store, oppStore, (i) => {
    const inp = document.createElement("input");
    inp.inputMode = "numeric"; inp.autocomplete = "off"; inp.value = pits[i];
    inp.className = "pit" + (highlight === i + 1 ? " next" : "");
    inp.id = "pit-" + (i + 1);
    inp.setAttribute("aria-label", "pit " + (i + 1));
    inp.setAttribute("aria-describedby", "err-board");
    inp.addEventListener("input", () => { clearResult(); if (checkPits()) { syncPaste(); keepUrl("solve"); } });
    return inp;
  });
}

// Every pit of the Solve board checked as typed: the counts read into
// `pits`, the first refused one said beside the board.
function checkPits() {
  let first = null;
  $("board").querySelectorAll("input.pit").forEach((inp) => {
    const k = Number(inp.id.slice(4)), t = inp.value.trim();
    const ok = wholeWithin(t, 0, maxStones());
    inp.setAttribute("aria-invalid", String(!ok));
    if (ok) pits[k - 1] = Number(t); else if (!first) first = `Pit ${k}: ${wholeWords(0, maxStones())}` + (t ? ` ("${t}" is not one).` : " (it is blank).");
  });
  const err = $("err-board");
  if (first) sayTyped(err, first); else if (err.dataset.typed) clearTyped(err);
  return !first;
}

// Back to the board as typed, editable (after a solve shows its line):
// the result and any position of the line go from the screen.
function editBoard() { clearResult(); drawSolve(); checkPits(); syncPaste(); keepUrl("solve"); }
// The paste field holds the board shown, as text: when the board changes
// another way (a count typed, the size, a link), the old text goes.
function syncPaste() { $("paste").value = boardText(); clearTyped($("err-paste")); }

function clearResult() { line = null; steps = null; $("result").innerHTML = ""; $("steps").hidden = true; $("solve-error").textContent = ""; $("progress").textContent = ""; clearErrors($("page-solve")); }

function reset() {
  const k = readCount($("size"), 1, maxPits(), "Pits a side"), s = readCount($("stones"), 0, maxStones(), "Stones a pit");
  if (k === null || s === null) return;
  n = k; pits = Array(2 * n).fill(s); store = 0; oppStore = 0; clearResult(); drawSolve(); checkPits(); syncPaste(); keepUrl("solve");
}

// The board `b` (as readBoard gives it) on the page.
function setBoard(b) {
  n = b.n; setField($("size"), n);
  pits = b.pits; oppStore = b.oppStore; store = b.store; clearResult(); drawSolve(); checkPits(); syncPaste(); keepUrl("solve");
}

// Use: the pasted text read by the engine; a board it refuses is said
// beside the board, which stays as it was.
async function usePaste() {
  const t = $("paste").value;
  if (!t.trim()) { $("err-paste").textContent = "Paste or type a board first."; return; }
  const long = tooLong(t);
  if (long) { sayTyped($("err-paste"), long); return; }
  const reading = paste.read(), mine = reading.catch(() => null);
  pasting = mine;
  try { setBoard(await reading); }
  catch (e) { clearTyped($("err-paste")); sayTyped($("err-board"), e.message); }
  finally { if (pasting === mine) pasting = null; }
}

async function solve(kind) {
  // One search at a time: a second tap while one runs does nothing.
  if (controller) return;
  // A board being pasted is solved once the engine has read it.
  if (pasting) await pasting;
  clearResult();
  // Nothing is solved while a field holds what is not a count.
  const bad = invalidFields($("page-solve"));
  if (bad.length) { $("solve-error").textContent = "Not solved: put right the field marked in red first."; bad[0].focus(); return; }
  $("solve").disabled = $("find").disabled = true;
  rules = $("rules").value;
  $("result").textContent = kind === "find" ? "Searching…" : "Solving…";
  $("stop").hidden = false;
  controller = new AbortController();
  try {
    const body = { board: boardText(), rules, ...(kind === "solve" ? { limit: 1 } : {}) };
    const doc = kind === "solve" ? await solveStream(body, controller.signal) : await request("POST", "/api/find", body, controller.signal);
    $("progress").textContent = "";
    showResult(doc, kind);
  } catch (e) {
    $("result").textContent = ""; $("progress").textContent = "";
    if (e.name === "AbortError") $("solve-error").textContent = "Stopped.";
    else showError($("page-solve"), "", e, $("solve-error"));
  } finally { $("stop").hidden = true; controller = null; $("solve").disabled = $("find").disabled = false; }
}

// POST /api/solve/stream: "progress" events while the search runs, then
// the /api/solve document.
const solveStream = (body, signal) => stream("/api/solve", body, signal, showProgress);

function showProgress(p) {
  const pass = p.phase === "forward" ? "Counting" : "Marking the best lines";
  $("progress").textContent = `${pass}: store ${p.store} of ${p.max_store}, ${p.positions.toLocaleString()} positions` +
    (p.best != null ? `, best so far ${p.best}` : "") + `, ${p.seconds.toFixed(1)} s`;
}

async function showResult(doc, kind) {
  if (kind === "solve" && !doc.complete) { showStopped(doc); return; }
  line = kind === "solve" ? doc.optimal[0] : doc.line;
  const best = doc.best_store;
  // Every stone on the board, the opponent's store too (the search's
  // total_stones counts only those in play: the pits and your store).
  const onBoard = pits.reduce((a, b) => a + b, 0) + store + oppStore;
  const sweep = doc.sweep ? (oppStore ? ` — a <b>sweep</b>: every stone but the ${oppStore} in the opponent's store!` : " — a <b>sweep</b>: every stone!") : "";
  $("result").innerHTML = `<p class="big">Best store: <b id="best">${best}</b> of the <span id="on-board">${onBoard}</span> stones on the board${sweep}</p>` +
    (kind === "solve" ? `<p>${count(doc.optimal_count, "optimal pick sequence")} of ${count(doc.turns_total, "turn")}.</p>` : `<p>${doc.exact ? "Proved best." : "Best found in " + doc.seconds.toFixed(1) + " s, not proved."}</p>`) +
    (line && line.length ? `<p>Pits to pick: <span class="line" id="line"></span></p>` : "<p>No pick is possible.</p>") +
    // This page answers "the most stones this turn"; a player in a game
    // wants the best turn for the game, which can differ.
    `<p class="help" id="not-game">The most stones this turn, not always the best turn for the game: <a id="to-analyze" href="?rules=${rules}&board=${boardLink({ pits, store, oppStore })}&to=you">analyze this position for the game</a>.</p>`;
  $("to-analyze").addEventListener("click", (e) => {
    e.preventDefault();
    openAnalyze(e.currentTarget.getAttribute("href"));
  });
  if (!line || !line.length) return;
  const rep = await request("POST", "/api/replay", { board: boardText(), rules, picks: line });
  steps = rep.steps; at = 0; showStep();
}

// Bytes as the command line's --max-memory writes them: "256 MiB", "1 GiB".
const bytesWords = (b) => (b >= 2 ** 30 && b % 2 ** 30 === 0 ? `${b / 2 ** 30} GiB` : `${Math.round(b / 2 ** 20)} MiB`);

// A solve that stopped before the end (the memory guard, or its time): why
// in plain words, the best store found so far kept on screen, and what to
// do, with Find (a good line in a moment) one tap away.
function showStopped(doc) {
  const memory = doc.stopped === "memory-limit", wasm = backend.engine === "wasm";
  // The memory a search may hold here, as the engine says it (GET /api/limits).
  const cap = LIMITS.max_memory ? bytesWords(LIMITS.max_memory) : null;
  const why = memory ? (wasm ? `This board needs more memory than this page may use${cap ? ` (${cap})` : ""}` : `This board needs more memory than the server lets one search use (its --max-memory${cap ? `, ${cap}` : ""})`)
    : doc.stopped === "out-of-time" ? "This board needs more time than one search may take here" : "The search was stopped";
  const best = doc.best_store == null ? "<p>No turn had ended yet, so there is no best store so far.</p>"
    : `<p class="big">Best store found so far: <b id="best-so-far">${doc.best_store}</b>${doc.best_proved ? " (proved best)" : " (there may be a better one)"}</p>`;
  const exact = !memory ? "" : wasm ? " To solve it exactly, run <code>mancala-sweep solve</code> or <code>mancala-sweep serve</code> on a computer (this board needs about 1 GB)."
    : " To solve it exactly, start the server with more memory, for example <code>mancala-sweep serve --max-memory 2G</code>.";
  $("result").innerHTML = `<p id="stopped-why">${why}, so the search stopped at store ${doc.store_bucket} of ${doc.max_store}.</p>${best}` +
    `<p>Press <button type="button" id="try-find">Find</button> for a good line in a moment.${exact}</p>`;
  $("try-find").addEventListener("click", () => solve("find"));
}

function showStep() {
  const b = at === 0 ? null : steps[at - 1];
  const shownPits = b ? b.pits : pits;
  $("line").innerHTML = line.map((p, k) => k === at ? `<b>${p}</b>` : String(p)).join(" ");
  drawBoard($("board"), n, b ? b.store : store, oppStore, (i) => {
    const d = document.createElement("button");
    d.className = "pit" + (at < line.length && line[at] === i + 1 ? " next" : "");
    d.id = "pit-" + (i + 1); d.textContent = shownPits[i]; d.tabIndex = -1;
    d.setAttribute("aria-label", `pit ${i + 1}: ${shownPits[i]} stones` + (at < line.length && line[at] === i + 1 ? ", pick this one" : ""));
    d.addEventListener("click", () => { if (at < line.length && line[at] === i + 1) { at++; showStep(); } });
    return d;
  });
  $("steps").hidden = false;
  $("step-label").textContent = at < line.length ? `Pick ${at + 1} of ${line.length}: pit ${line[at]}` : `Done: ${b ? b.store : store} in the store`;
  $("prev").disabled = at === 0; $("next").disabled = at >= line.length;
}

// What the link asks of the Solve page: its rules and board.
async function solveFromUrl(q) {
  // The link's rules by the engine's presets (an alias as its preset),
  // shown at once, before the engine's vocabulary has come.
  if (q.get("rules")) choosePreset($("rules"), q.get("rules"));
  if (!q.get("board")) return;
  try { const read = boardOfLink(q.get("board"), $("rules").value); setBoard(read instanceof Promise ? await read : read); }
  catch (e) { $("err-board").textContent = "The link's board: " + e.message; }
}

$("reset").addEventListener("click", reset);
$("size").addEventListener("input", () => readCount($("size"), 1, maxPits(), "Pits a side"));
$("stones").addEventListener("input", () => readCount($("stones"), 0, maxStones(), "Stones a pit"));
$("size").addEventListener("change", reset);
$("stones").addEventListener("change", reset);
$("use-paste").addEventListener("click", usePaste);
$("solve").addEventListener("click", () => solve("solve"));
$("find").addEventListener("click", () => solve("find"));
$("stop").addEventListener("click", () => controller && controller.abort());
$("prev").addEventListener("click", () => { if (at > 0) { at--; showStep(); } });
$("next").addEventListener("click", () => { if (at < line.length) { at++; showStep(); } });
$("rules").addEventListener("change", editBoard);
$("edit").addEventListener("click", () => { editBoard(); $("pit-1").focus(); });
reset();

register("solve", {
  query: () => `?page=solve&rules=${$("rules").value}&board=${boardLink({ pits, store, oppStore })}`,
  fromUrl: solveFromUrl,
});
