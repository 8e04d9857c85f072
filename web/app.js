// mancala-sweep web app: plain JavaScript, no framework, no outside requests.
"use strict";
const $ = (id) => document.getElementById(id);

// ---- the engine: every call goes through `request` (one JSON answer) or
// `stream` (progress documents, then the result). Both hand it to
// backend.js, which asks the server of `mancala-sweep serve` or the engine
// compiled to WebAssembly in a Web Worker; nothing in the pages calls fetch.
// A failure is an Error with the API's message, its `field` (so that the
// page can show it beside that field) and `status`; Stop (aborting
// `signal`) throws an AbortError and stops the search.
const request = (method, path, body, signal) => backend.call(method, path, body, signal);
const api = (method, path, body) => request(method, path, body);
// POST `path` + "/stream": `onProgress` gets each progress document while
// the search runs, then the result is returned (or the error thrown).
const stream = (path, body, signal, onProgress) => backend.stream(path, body, onProgress || (() => {}), signal);

// Put each error beside its field: the element `${prefix}err-${field}`
// when the page has one, else `fallback`. Clears the page's old errors.
// What a field refused as it was typed (marked data-typed) stays until
// the field is put right; the server's errors go at the next request.
function clearErrors(section) { section.querySelectorAll(".field-error:not([data-typed])").forEach((e) => { e.textContent = ""; }); }
function showError(section, prefix, e, fallback) {
  clearErrors(section);
  const el = e.field && $(prefix + "err-" + e.field);
  if (el) { el.textContent = e.message; delete el.dataset.typed; } else fallback.textContent = e.message;
}

// A whole number in lo..hi typed in `input`, or null with the reason beside
// it (the element its aria-describedby names) and the field marked invalid.
// Letters, "-3", "2.7", "1e3" and blanks are refused, never read as numbers.
function readCount(input, lo, hi, what) {
  const err = $(input.getAttribute("aria-describedby"));
  const t = input.value.trim();
  const ok = /^\d+$/.test(t) && Number(t) >= lo && Number(t) <= hi;
  input.setAttribute("aria-invalid", String(!ok));
  if (ok) { if (err.dataset.typed) { err.textContent = ""; delete err.dataset.typed; } }
  else { err.textContent = `${what}: a whole number from ${lo} to ${hi}` + (t ? ` ("${t}" is not one).` : " (it is blank)."); err.dataset.typed = "1"; }
  return ok ? Number(t) : null;
}
// Put `v` in a count field, which is then right.
function setField(input, v) {
  input.value = v; input.setAttribute("aria-invalid", "false");
  const err = $(input.getAttribute("aria-describedby"));
  if (err.dataset.typed) { err.textContent = ""; delete err.dataset.typed; }
}
// The fields of `section` refused as typed, first one first.
const invalidFields = (section) => [...section.querySelectorAll('input[aria-invalid="true"]')].filter((e) => !e.closest("[hidden]"));

// ---- pages ----
const PAGES = ["analyze", "solve", "puzzles", "play", "atlas"];
let page = "analyze";
// The page and its position are in the link (`?page=solve&rules=&board=`,
// `?page=puzzles&collection=&grade=&puzzle=`, `?page=play[&game=ID]`; the
// Analyze page's own link has no `page`), so that a reload or Back brings
// them back. `push`: a new entry in the history (a tab pressed).
function showPage(name, push) {
  const was = page;
  page = name;
  if (push && was !== name) pageUrl(true);
  document.querySelectorAll("nav button").forEach((o) => {
    if (o.dataset.page === name) o.setAttribute("aria-current", "page"); else o.removeAttribute("aria-current");
  });
  for (const p of PAGES) $("page-" + p).hidden = p !== name;
  if (name !== "analyze") stopAnalysis();
  if (name === "analyze") anShown();
  if (name === "puzzles" && !collections) loadCollections();
  if (name === "atlas" && !atlas) loadAtlas();
  if (name === "play" && !game && !gBusy) resumeGame().then((ok) => { if (!ok) newGame(); });
}
document.querySelectorAll("nav button").forEach((b) => b.addEventListener("click", () => showPage(b.dataset.page, true)));

// The link of the page shown now (Analyze writes its own with saveUrl).
function pageQuery() {
  if (page === "solve") return `?page=solve&rules=${$("rules").value}&board=${boardLink({ pits, store, oppStore })}`;
  if (page === "puzzles") {
    if (!collections || !current) return "?page=puzzles";
    return `?page=puzzles&collection=${encodeURIComponent(current.collection)}&grade=${$("grade").value}&puzzle=${index + 1}`;
  }
  if (page === "play") return "?page=play" + (game && backend.engine === "server" ? `&game=${game.id}` : "");
  if (page === "atlas") return "?page=atlas";
  return anQuery();
}
function pageUrl(push) {
  const q = pageQuery();
  if (q !== location.search) history[push ? "pushState" : "replaceState"](null, "", q);
}
// Keep the shown page's link up to date (its position changed).
function keepUrl(name) { if (page === name) pageUrl(false); }

// What the link asks for on a page other than Analyze.
function solveFromUrl(q) {
  if (q.get("rules") && [...$("rules").options].some((o) => o.value === q.get("rules"))) $("rules").value = q.get("rules");
  if (q.get("board")) {
    try {
      const b = parseBoard(q.get("board"));
      n = b.n; setField($("size"), n); pits = b.pits; oppStore = b.oppStore; store = b.store; editBoard();
    } catch (e) { $("err-board").textContent = "The link's board: " + e.message; }
  }
}

// ---- board text: three rows (opponent's pits as seen, the stores, your
// pits), separated by "/" or new lines; "#" lines are comments; the store
// row may be left out. Returns {n, pits (1..2n in pit order), store,
// oppStore} or throws an Error that says what is wrong with the text (the
// server judges sizes and totals).
// Longer text than any board needs is refused before it is read, so that a
// stray paste of thousands of pits never holds up the page.
const MAX_BOARD_TEXT = 2000;
function parseBoard(text) {
  if (text.length > MAX_BOARD_TEXT) throw new Error(`That text is ${text.length.toLocaleString("en")} characters long: a board has at most 16 pits a side, and its text at most ${MAX_BOARD_TEXT.toLocaleString("en")} characters.`);
  const rows = text.split(/\/|\n/).map((r) => r.trim()).filter((r) => r && !r.startsWith("#"))
    .map((r) => r.split(/[\s,]+/));
  if (rows.length < 2 || rows.length > 3) throw new Error("Give two or three rows, like 4 4 4 / 0 0 / 4 4 4 (the stores may be left out).");
  for (const r of rows) for (const x of r) if (!/^\d+$/.test(x)) throw new Error(`"${x}" is not a count of stones: use whole numbers.`);
  const nums = rows.map((r) => r.map((x) => parseInt(x, 10)));
  const top = nums[0], bottom = nums[nums.length - 1], stores = nums.length === 3 ? nums[1] : [0, 0];
  if (top.length !== bottom.length) throw new Error(`The rows have ${top.length} and ${bottom.length} pits; they must match.`);
  if (stores.length !== 2) throw new Error("The middle row holds the two stores: the opponent's, then yours.");
  return { n: bottom.length, pits: bottom.concat(top.slice().reverse()), oppStore: stores[0], store: stores[1] };
}

// ---- board drawing: opponent's row on top (pit 2n .. n+1), own row below (1 .. n) ----
// cell(i) returns the element for pit index i (0-based pit number - 1).
// onStore(which), when given, makes the stores buttons ("store" or "opp-store").
function drawBoard(el, n, store, oppStore, cell, oppName, onStore) {
  el.innerHTML = "";
  el.style.gridTemplateColumns = `repeat(${n + 2}, minmax(1.6rem, 1fr))`;
  const put = (d, row, col) => { d.style.gridRow = row; d.style.gridColumn = col; el.appendChild(d); };
  const num = (k) => { const d = document.createElement("div"); d.className = "num"; d.textContent = k; return d; };
  const storeEl = (v, label, id, which) => {
    const d = document.createElement(onStore ? "button" : "div"); d.className = "store"; d.textContent = v;
    d.setAttribute("aria-label", label + " " + v); if (id) d.id = id;
    if (onStore) d.addEventListener("click", () => onStore(which));
    return d;
  };
  put(storeEl(oppStore, (oppName || "opponent") + "'s store", el.id + "-opp-store", "opp-store"), "2 / 4", "1");
  put(storeEl(store, "your store", el.id + "-store", "store"), "2 / 4", String(n + 2));
  // In the page's order (so Tab's and a screen reader's) the top row left
  // to right, then the bottom row: one row, then the other.
  for (let c = 0; c < n; c++) put(num(2 * n - c), "1", String(c + 2));
  for (let c = 0; c < n; c++) put(cell(2 * n - c - 1), "2", String(c + 2));
  for (let c = 0; c < n; c++) put(cell(c), "3", String(c + 2));
  for (let c = 0; c < n; c++) put(num(c + 1), "4", String(c + 2));
}

// ---- Solve ----
let pits = [], store = 0, oppStore = 0, n = 6, line = null, steps = null, at = 0, rules = "avalanche";

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
    const ok = /^\d+$/.test(t) && Number(t) <= 255;
    inp.setAttribute("aria-invalid", String(!ok));
    if (ok) pits[k - 1] = Number(t); else if (!first) first = `Pit ${k}: a whole number from 0 to 255` + (t ? ` ("${t}" is not one).` : " (it is blank).");
  });
  const err = $("err-board");
  if (first) { err.textContent = first; err.dataset.typed = "1"; } else if (err.dataset.typed) { err.textContent = ""; delete err.dataset.typed; }
  return !first;
}

// Back to the board as typed, editable (after a solve shows its line):
// the result and any position of the line go from the screen.
function editBoard() { clearResult(); drawSolve(); checkPits(); syncPaste(); keepUrl("solve"); }
// The paste field holds the board shown, as text: when the board changes
// another way (a count typed, the size, a link), the old text goes.
function syncPaste() { $("paste").value = boardText(); $("err-paste").textContent = ""; delete $("err-paste").dataset.typed; }

function clearResult() { line = null; steps = null; $("result").innerHTML = ""; $("steps").hidden = true; $("solve-error").textContent = ""; $("progress").textContent = ""; clearErrors($("page-solve")); }

function reset() {
  const k = readCount($("size"), 1, 16, "Pits a side"), s = readCount($("stones"), 0, 255, "Stones a pit");
  if (k === null || s === null) return;
  n = k; pits = Array(2 * n).fill(s); store = 0; oppStore = 0; clearResult(); drawSolve(); checkPits(); syncPaste(); keepUrl("solve");
}

function readSolvePaste() {
  const err = $("err-paste");
  try { const b = parseBoard($("paste").value); err.textContent = ""; delete err.dataset.typed; return b; }
  catch (e) { err.textContent = e.message; err.dataset.typed = "1"; return null; }
}
function usePaste() {
  if (!$("paste").value.trim()) { $("err-paste").textContent = "Paste or type a board first."; return; }
  const b = readSolvePaste();
  if (!b) return;
  n = b.n; setField($("size"), n);
  pits = b.pits; oppStore = b.oppStore; store = b.store; clearResult(); drawSolve(); checkPits(); syncPaste(); keepUrl("solve");
}

let controller = null;
// "1 turn", "26,286 turns": digits grouped, the noun in the right number.
function count(n, noun) { return `${Number(n).toLocaleString("en")} ${noun}${Number(n) === 1 ? "" : "s"}`; }

async function solve(kind) {
  // One search at a time: a second tap while one runs does nothing.
  if (controller) return;
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
    const doc = kind === "solve" ? await solveStream(body, controller.signal) : await fetchJson("/api/find", body, controller.signal);
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

async function fetchJson(path, body, signal) {
  return request("POST", path, body, signal);
}

async function showResult(doc, kind) {
  if (kind === "solve" && !doc.complete) { showStopped(doc); return; }
  line = kind === "solve" ? doc.optimal[0] : doc.line;
  const best = doc.best_store;
  // Every stone on the board, the opponent's store too (the search's
  // total_stones counts only those in play: the pits and your store).
  const onBoard = pits.reduce((a, b) => a + b, 0) + store + oppStore;
  const sweep = doc.sweep ? (oppStore ? ` — a <b>sweep</b>: every stone but the ${oppStore} in the opponent's store!` : " — a <b>sweep</b>!") : " (not a sweep)";
  $("result").innerHTML = `<p class="big">Best store: <b id="best">${best}</b> of the <span id="on-board">${onBoard}</span> stones on the board${sweep}</p>` +
    (kind === "solve" ? `<p>${count(doc.optimal_count, "optimal pick sequence")} of ${count(doc.turns_total, "turn")}.</p>` : `<p>${doc.exact ? "Proved best." : "Best found in " + doc.seconds.toFixed(1) + " s, not proved."}</p>`) +
    (line && line.length ? `<p>Pits to pick: <span class="line" id="line"></span></p>` : "<p>No pick is possible.</p>") +
    // This page answers "the most stones this turn"; a player in a game
    // wants the best turn for the game, which can differ (issue 32).
    `<p class="help" id="not-game">The most stones this turn, not always the best turn for the game: <a id="to-analyze" href="?rules=${rules}&board=${boardLink({ pits, store, oppStore })}&to=you">analyse this position for the game</a>.</p>`;
  $("to-analyze").addEventListener("click", (e) => {
    e.preventDefault();
    history.pushState(null, "", e.currentTarget.getAttribute("href"));
    anFromUrl();
    showPage("analyze");
  });
  if (!line || !line.length) return;
  const rep = await fetchJson("/api/replay", { board: boardText(), rules, picks: line });
  steps = rep.steps; at = 0; showStep();
}

// A solve that stopped before the end (the memory guard, or its time): why
// in plain words, the best store found so far kept on screen, and what to
// do, with Find (a good line in a moment) one tap away.
function showStopped(doc) {
  const memory = doc.stopped === "memory-limit", wasm = backend.engine === "wasm";
  const why = memory ? (wasm ? "This board needs more memory than this page may use (256 MiB)" : "This board needs more memory than the server lets one search use (its --max-memory)")
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

$("reset").addEventListener("click", reset);
$("size").addEventListener("input", () => readCount($("size"), 1, 16, "Pits a side"));
$("stones").addEventListener("input", () => readCount($("stones"), 0, 255, "Stones a pit"));
$("size").addEventListener("change", reset);
$("stones").addEventListener("change", reset);
$("paste").addEventListener("input", () => { if ($("paste").value.trim()) readSolvePaste(); else { $("err-paste").textContent = ""; delete $("err-paste").dataset.typed; } });
$("use-paste").addEventListener("click", usePaste);
$("solve").addEventListener("click", () => solve("solve"));
$("find").addEventListener("click", () => solve("find"));
$("stop").addEventListener("click", () => controller && controller.abort());
$("prev").addEventListener("click", () => { if (at > 0) { at--; showStep(); } });
$("next").addEventListener("click", () => { if (at < line.length) { at++; showStep(); } });
$("rules").addEventListener("change", editBoard);
$("edit").addEventListener("click", () => { editBoard(); $("pit-1").focus(); });
reset();

// ---- Puzzles ----
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
  // Each collection by its game's name (GamePigeon avalanche, GamePigeon
  // capture, any-hole), and the number of puzzles in it.
  $("collection").innerHTML = collections.map((c, i) => `<option value="${i}">${PRESETS[ruleKey(c.rules)] && c.name === ruleKey(c.rules) ? PRESETS[ruleKey(c.rules)] : c.name} (${c.count})</option>`).join("");
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
  if (page === "puzzles") pageUrl(push === true);
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

// ---- Play: a game against the computer, on the server's GameSession ----
// The page applies no rule: it sends the pit and draws what the server
// says happened, pick by pick.
let game = null, gBusy = false, gHint = [], gLast = null;
// The game from its start, for "Analyse this game": rules, size, who
// started and every pick played (as the server reported it).
let gRecord = null;
// The position at the start of each of the person's turns, kept with the
// game: the static site's engine ends with the page, and a game made again
// after a reload knows no turn before it, so Undo goes back through these.
let gStarts = [];
function noteStart(doc) {
  if (doc.over || doc.to_move !== "person") return;
  const last = doc.played.length ? doc.played[doc.played.length - 1].by : "computer";
  const top = gStarts[gStarts.length - 1];
  if (last !== "person" && (!top || top.board !== doc.position.board)) gStarts.push(doc.position);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function drawGame(pos, legal) {
  const gn = pos.pits.length / 2;
  drawBoard($("gboard"), gn, pos.store, pos.opponent_store, (i) => {
    const d = document.createElement("button");
    const k = i + 1, mine = legal.includes(k);
    d.className = "pit" + (gHint[0] === k ? " next" : "") + (gLast === k ? " last" : "") + (k > gn ? " theirs" : "");
    d.id = "gpit-" + k; d.textContent = pos.pits[i];
    d.disabled = gBusy || !mine;
    d.setAttribute("aria-label", `${k > gn ? "computer's " : ""}pit ${k}: ${pos.pits[i]} stones` + (gHint[0] === k ? ", the hint" : ""));
    d.addEventListener("click", () => gamePick(k));
    return d;
  }, "computer");
}

// "The computer is thinking… 3 s", the seconds counted while it thinks,
// against the most its level takes a turn when the level states one
// ("… 3 s of at most 15 s": `data-seconds` of the level's option, which
// the engine's agent for it, `analyze:15`, keeps); thinking(false) stops
// the count (its turn is shown, or an error).
let gThink = null;
function thinking(on, level) {
  if (!on) { if (gThink) { clearInterval(gThink.timer); gThink = null; } return; }
  const option = document.querySelector(`#g-level option[value="${level || (game && game.level) || ""}"]`);
  const most = option && option.dataset.seconds ? ` of at most ${option.dataset.seconds} s` : "";
  const say = () => { $("g-status").textContent = `The computer is thinking… ${Math.floor((Date.now() - gThink.start) / 1000)} s${most}`; };
  if (!gThink) gThink = { start: Date.now(), timer: setInterval(say, 250) };
  say();
}

function gameStatus() {
  if (!game) return;
  if (game.over || game.to_move !== "computer") thinking(false);
  if (game.over) {
    const r = game.result;
    const verdict = r.winner === "person" ? "You win" : r.winner === "computer" ? "The computer wins" : "A draw";
    $("g-status").textContent = `Game over: ${verdict}, ${r.person} to ${r.computer}${game.helped ? " (with hints)" : ""}.`;
  } else if (game.to_move === "person") {
    $("g-status").textContent = `Your turn (turn ${game.turn}): pick one of pits ${game.legal.join(", ")}.`;
  } else {
    thinking(true);
  }
  gameButtons();
}
function gameButtons() {
  if (!game) return;
  $("g-hint").disabled = gBusy || game.to_move !== "person" || game.over;
  $("g-undo").disabled = gBusy;
  $("g-analyze").disabled = gBusy;
}

function logPick(p) {
  const li = document.createElement("li");
  li.className = p.by;
  li.textContent = (p.by === "person" ? "You: " : "Computer: ") + p.said;
  const log = $("g-log");
  log.appendChild(li);
  // The newest pick in view inside the log, without scrolling the page.
  log.scrollTop = log.scrollHeight;
}

// Show the picks one at a time: the person's at once, the computer's with
// a pause before each, so that its turn can be followed.
async function showPlayed(doc, keepFocus) {
  for (const p of doc.played) {
    if (p.by === "computer") { thinking(false); $("g-status").textContent = "The computer is playing…"; await sleep(600); }
    gLast = p.pit_seen; logPick(p); drawGame(p.after, []);
    if (gRecord) gRecord.picks.push(p);
  }
  game = doc; gBusy = false; noteStart(doc);
  drawGame(doc.position, doc.legal); gameStatus(); saveGame(); keepUrl("play");
  // Keyboard players keep their place: focus goes back to a pit they may pick.
  const first = $("gboard").querySelector(".pit:not(:disabled)");
  if (first && keepFocus) first.focus();
}

// The last request's failure, for a caller that can mend it.
let gFailed = null;
async function gameCall(path, body, quiet) {
  gBusy = true; gFailed = null; $("g-error").textContent = ""; clearErrors($("page-play"));
  if (game) { drawGame(game.position, []); gameButtons(); }
  try { return await api("POST", path, body); }
  catch (e) { gFailed = e; if (!quiet) showError($("page-play"), "g-", e, $("g-error")); return null; }
  finally { gBusy = false; }
}

async function newGame() {
  const pitsN = readCount($("g-pits"), 1, 16, "Pits a side"), stonesN = readCount($("g-stones"), 0, 255, "Stones a pit");
  if (pitsN === null || stonesN === null) { (pitsN === null ? $("g-pits") : $("g-stones")).focus(); return; }
  const body = { rules: $("g-rules").value, level: $("g-level").value, person: $("g-person").value,
    pits: pitsN, stones: stonesN, seed: Math.floor(Math.random() * 1e9) };
  if (window.MANCALA_SEED != null) body.seed = window.MANCALA_SEED;
  thinking(false);
  // The new game's board, empty log and status at once, before the engine
  // answers (with the computer first, its turn can take seconds): the old
  // game's are kept aside, and come back if the new game is refused.
  const old = { game, log: [...$("g-log").children], hint: gHint, last: gLast };
  game = null; $("g-log").innerHTML = ""; gHint = []; gLast = null;
  gBusy = true; $("g-hint").disabled = $("g-undo").disabled = $("g-analyze").disabled = true;
  drawGame({ pits: Array(2 * pitsN).fill(stonesN), store: 0, opponent_store: 0 }, []);
  if (body.person === "second") thinking(true, body.level); else $("g-status").textContent = "A new game…";
  const doc = await gameCall("/api/game/new", body);
  thinking(false);
  if (!doc) {
    game = old.game; $("g-log").replaceChildren(...old.log); gHint = old.hint; gLast = old.last;
    if (game) { drawGame(game.position, game.legal); gameStatus(); } else $("g-status").textContent = "";
    return;
  }
  gHint = []; gLast = null; gStarts = [];
  gRecord = { rules: body.rules, stones: body.stones, person: body.person, picks: [], broken: false };
  await showPlayed(doc);
}

// The person's pick is played alone ("reply": false) and drawn at once;
// when it passed the turn, the computer's turn is asked for next
// (/reply), its seconds counted on the status line meanwhile.
async function gamePick(k, again) {
  if (!game || gBusy) return;
  const keepFocus = $("gboard").contains(document.activeElement);
  gHint = []; gLast = k;
  const doc = await gameCall(`/api/game/${game.id}/pick`, { pit: k, reply: false }, !again);
  if (!doc && gFailed && gFailed.status === 404 && !again) {
    // The game is gone (the server dropped it; on the static site, Stop
    // ended the engine and its games): made again at the position kept,
    // and the pick played there.
    saveGame(); game = null;
    if (await resumeGame("The game was lost (the engine was restarted or the game dropped); it goes on from the same position.")) return gamePick(k, true);
    showError($("page-play"), "g-", gFailed, $("g-error"));
    return;
  }
  if (!doc && gFailed && !again) showError($("page-play"), "g-", gFailed, $("g-error"));
  if (!doc) { drawGame(game.position, game.legal); gameStatus(); return; }
  gBusy = true;
  await showPlayed(doc, keepFocus && doc.to_move === "person");
  if (doc.to_move !== "computer") return;
  const rep = await gameCall(`/api/game/${game.id}/reply`);
  thinking(false);
  if (!rep) {
    // The computer did not answer: the server took the person's turn back.
    const now = await api("GET", `/api/game/${game.id}`).catch(() => null);
    if (now) {
      game = now; gLast = null;
      const li = document.createElement("li"); li.textContent = "Taken back: the computer did not answer."; $("g-log").appendChild(li);
      undoRecord(now);
    }
    drawGame(game.position, game.legal); gameStatus();
    return;
  }
  gBusy = true;
  await showPlayed(rep, keepFocus);
}

$("g-new").addEventListener("click", newGame);
$("g-pits").addEventListener("input", () => readCount($("g-pits"), 1, 16, "Pits a side"));
$("g-stones").addEventListener("input", () => readCount($("g-stones"), 0, 255, "Stones a pit"));
// The button pressed keeps the focus through its request (it is disabled
// meanwhile, which sends the focus to the page's body), or, when it cannot
// be pressed again, the first pit the person may pick.
function refocus(button) {
  if (document.activeElement && document.activeElement !== document.body) return;
  const to = !button.disabled ? button : $("gboard").querySelector(".pit:not(:disabled)");
  if (to) to.focus();
}
$("g-hint").addEventListener("click", async () => {
  if (!game) return;
  const doc = await gameCall(`/api/game/${game.id}/hint`);
  if (!doc) { gameStatus(); refocus($("g-hint")); return; }
  game = doc; gHint = doc.hint || []; drawGame(doc.position, doc.legal); gameStatus(); saveGame();
  $("g-status").textContent = gHint.length ? `Hint: pick pit ${gHint.join(", then ")}.` : "No hint now.";
  refocus($("g-hint"));
});
$("g-undo").addEventListener("click", async () => {
  if (!game) return;
  let doc = await gameCall(`/api/game/${game.id}/undo`);
  if (doc && !doc.undone && !doc.over) {
    // A game made again after a reload: back to the start of this turn
    // (mid-turn) or of the one before, from the starts kept.
    const top = gStarts.length - (gStarts.length && gStarts[gStarts.length - 1].board === doc.position.board ? 2 : 1);
    const to = gStarts[top];
    if (to) {
      const again = await gameCall("/api/game/new", gameAt(game.preset || $("g-rules").value, game.level || $("g-level").value, to, true));
      if (again) doc = { ...again, undone: true };
    }
  }
  if (!doc) { gameStatus(); refocus($("g-undo")); return; }
  if (doc.undone) while (gStarts.length && gStarts[gStarts.length - 1].board !== doc.position.board) gStarts.pop();
  game = doc; gHint = []; gLast = null;
  if (doc.undone) { const li = document.createElement("li"); li.textContent = "Taken back."; $("g-log").appendChild(li); undoRecord(doc); }
  drawGame(doc.position, doc.legal); gameStatus(); saveGame();
  if (!doc.undone) $("g-status").textContent = "Nothing to take back. " + $("g-status").textContent;
  refocus($("g-undo"));
});

// ---- the game kept across a reload: in this browser's storage, with its
// log and record; under `serve` its id is in the link too. A reload asks
// the server for the game by its id; the static site's engine (its games
// end with the page) or a game the server has dropped is made again at the
// position kept, a new game there with the same rules and level.
const GAME_KEY = "mancala-sweep-game";
function saveGame() {
  if (!game) return;
  const log = [...$("g-log").children].map((li) => [li.className, li.textContent]);
  const keep = { engine: backend.engine, id: game.id, rules: game.preset || $("g-rules").value, level: game.level || "medium",
    position: game.position, to_move: game.to_move, over: game.over, helped: game.helped, log, record: gRecord, starts: gStarts };
  try { localStorage.setItem(GAME_KEY, JSON.stringify(keep)); } catch (e) { /* storage off */ }
}
// A new game's body: `rules` and `level`, at position `pos` (as a game
// document gives it), the person to move when `personMoves`. The mover's
// row is at the bottom of the board text, as a new game reads it.
function gameAt(rules, level, pos, personMoves) {
  const k = pos.pits.length / 2, mine = pos.pits.slice(0, k), theirs = pos.pits.slice(k);
  const [bottom, top, own, opp] = personMoves ? [mine, theirs, pos.store, pos.opponent_store] : [theirs, mine, pos.opponent_store, pos.store];
  return { rules, level, person: personMoves ? "first" : "second",
    board: `${top.slice().reverse().join(" ")} / ${opp} ${own} / ${bottom.join(" ")}`, seed: Math.floor(Math.random() * 1e9) };
}
async function resumeGame(why) {
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(GAME_KEY) || "null"); } catch (e) { kept = null; }
  if (kept && kept.engine !== backend.engine) kept = null;
  const id = new URLSearchParams(location.search).get("game") || (kept && kept.id);
  if (!id && !kept) return false;
  gBusy = true;
  let doc = null, again = false;
  if (id && backend.engine === "server") doc = await api("GET", `/api/game/${encodeURIComponent(id)}`).catch(() => null);
  if (!doc && kept && !kept.over && kept.position) {
    doc = await api("POST", "/api/game/new", gameAt(kept.rules, kept.level, kept.position, kept.to_move !== "computer")).catch(() => null);
    again = true;
  }
  gBusy = false;
  if (!doc) return false;
  $("g-log").innerHTML = "";
  if (kept && (again || kept.id === doc.id)) {
    for (const [cls, t] of kept.log || []) { const li = document.createElement("li"); li.className = cls; li.textContent = t; $("g-log").appendChild(li); }
    gRecord = kept.record || null; gStarts = kept.starts || [];
  } else { gRecord = null; gStarts = []; }
  if (again) { const li = document.createElement("li"); li.textContent = why || "Resumed after a reload, from the same position."; $("g-log").appendChild(li); }
  if (doc.preset && [...$("g-rules").options].some((o) => o.value === doc.preset)) $("g-rules").value = doc.preset;
  if (doc.level) $("g-level").value = doc.level;
  setField($("g-pits"), doc.pits_per_side);
  gHint = []; gLast = null;
  if (again && doc.played.length) { gBusy = true; await showPlayed(doc); }
  else { game = doc; drawGame(doc.position, doc.legal); gameStatus(); saveGame(); keepUrl("play"); }
  if (game.to_move === "computer") {
    const rep = await gameCall(`/api/game/${game.id}/reply`);
    thinking(false);
    if (rep) { gBusy = true; await showPlayed(rep); } else { drawGame(game.position, game.legal); gameStatus(); }
  }
  return true;
}

// Undo took back the person's turn in progress (their picks at the end of
// the record), or their last whole turn with the computer's reply. The
// record is checked against the board the server now shows; when they
// differ, "Analyse this game" gives the position now instead of the game.
function undoRecord(doc) {
  if (!gRecord) return;
  const ps = gRecord.picks, by = () => ps.length && ps[ps.length - 1].by;
  if (by() === "person") while (by() === "person") ps.pop();
  else { while (by() === "computer") ps.pop(); while (by() === "person") ps.pop(); }
  const now = ps.length ? ps[ps.length - 1].after.board : null;
  if (now !== doc.position.board && !(ps.length === 0 && doc.turn === 1)) gRecord.broken = true;
}

// ---- Atlas: the committed atlas.json, one table per rule set ----
let atlas = null;
const ruleKey = (r) => `${r.scope}-${r.relay ? "relay" : "norelay"}-${r.capture}`;
const PRESETS = { "own-relay-none": "GamePigeon avalanche", "own-norelay-kalah": "GamePigeon capture (Kalah)", "any-relay-none": "any-hole" };
// A rule set in a player's words: its game's name, or what its rules do.
function ruleWords(key) {
  if (PRESETS[key]) return PRESETS[key];
  const [scope, relay, capture] = key.split("-");
  return [scope === "any" ? "any pit" : "your pits",
    relay === "relay" ? "avalanche" : "no avalanche",
    capture === "kalah" ? "Kalah captures" : capture === "empty" ? "captures always" : "no captures"].join(", ");
}

async function loadAtlas() {
  try { atlas = await api("GET", "/api/atlas"); }
  catch (e) { $("a-detail").textContent = e.message; return; }
  const keys = [...new Set(atlas.cells.map((c) => ruleKey(c.rules)))];
  keys.sort((a, b) => (PRESETS[b] ? 1 : 0) - (PRESETS[a] ? 1 : 0) || a.localeCompare(b));
  $("a-rules").innerHTML = keys.map((k) => `<option value="${k}">${ruleWords(k)}</option>`).join("");
  $("a-rules").value = "own-relay-none";
  drawAtlas();
}

function drawAtlas() {
  const key = $("a-rules").value;
  const cells = atlas.cells.filter((c) => ruleKey(c.rules) === key);
  const pitsList = [...new Set(cells.map((c) => c.pits))].sort((a, b) => a - b);
  const stonesList = [...new Set(cells.map((c) => c.stones))].sort((a, b) => a - b);
  const t = $("atlas-table");
  t.innerHTML = "";
  const cap = document.createElement("caption");
  cap.textContent = "Best store (rows: pits a side; columns: stones a pit)";
  t.appendChild(cap);
  const head = t.insertRow();
  const corner = document.createElement("th"); corner.textContent = "pits \\ stones"; head.appendChild(corner);
  for (const s of stonesList) { const th = document.createElement("th"); th.scope = "col"; th.textContent = s; head.appendChild(th); }
  for (const p of pitsList) {
    const row = t.insertRow();
    const th = document.createElement("th"); th.scope = "row"; th.textContent = p; row.appendChild(th);
    for (const s of stonesList) {
      const td = row.insertCell();
      const c = cells.find((x) => x.pits === p && x.stones === s);
      if (!c) { td.textContent = "–"; continue; }
      const b = document.createElement("button");
      b.className = "cell" + (c.sweep ? " sweep" : "") + (c.exact ? "" : " bound");
      b.id = `acell-${p}-${s}`;
      b.textContent = (c.exact ? "" : "≥") + c.best_store + (c.sweep ? "★" : "");
      const share = c.total_stones ? c.best_store / c.total_stones : 0;
      b.style.background = `hsl(${Math.round(share * 120)}, 70%, ${85 - Math.round(share * 25)}%)`;
      b.setAttribute("aria-label", `${p} pits, ${s} stones: best store ${c.exact ? "" : "at least "}${c.best_store} of ${c.total_stones}`);
      const show = () => atlasDetail(c, b);
      b.addEventListener("click", show); b.addEventListener("focus", show); b.addEventListener("mouseenter", show);
      td.appendChild(b);
    }
  }
  $("a-detail").innerHTML = "<p>Choose a cell.</p>";
}

function atlasDetail(c, el) {
  document.querySelectorAll("#atlas-table .cell.chosen").forEach((x) => x.classList.remove("chosen"));
  el.classList.add("chosen");
  const num = (v) => v == null ? "not counted" : Number(v).toLocaleString();
  $("a-detail").innerHTML =
    `<p class="big">${c.pits} pits × ${c.stones} stones: best store <b id="a-best">${c.exact ? "" : "at least "}${c.best_store}</b> of ${c.total_stones}` +
    (c.sweep ? " — a <b>sweep</b>" : " (not a sweep)") + `</p>` +
    `<p>${c.exact ? "Exact: proved by a full search" : "At least this: found by a quick search, not proved"} in ${c.seconds.toFixed(2)} s. ` +
    `Optimal pick sequences: ${num(c.optimal_count)}; turns counted: ${num(c.turns_total)}; positions: ${num(c.positions)}.</p>` +
    `<p>Best line (${c.line.length} picks): <span class="line" id="a-line">${c.line.join(" ")}</span></p>`;
}

$("a-rules").addEventListener("change", drawAtlas);

// ---- Analyze: a position, and a game from it, with every turn of the
// player to move ranked for the whole game by the server's analysis (POST
// /api/analyze/stream). The page applies no rule of its own: a pick is
// played by a server game made at that position (POST /api/game/new, then
// /pick; its own computer, `random`, is never asked anything we keep), and
// the page draws what that game says happened.
//
// Positions are kept as you see them: pits 1..n yours (bottom row), n+1..2n
// the opponent's (top row, numbered as the board shows them), `store` yours,
// `oppStore` theirs, `mover` "you" or "opp" (null once the game is over).
// The server is asked from the mover's side: when the opponent is to move
// the board is turned round, and its answers are turned back.
const AN_RULES = { capture: "kalah", avalanche: "avalanche", kalah: "kalah", "any-hole": "any-hole" };
const AN = { rules: "capture", n: 6, line: [], states: [], at: 0, editing: false, sel: 0, nodes: null, busy: false };
let anCtl = null, anTimer = null, anSeq = 0, anDoc = null, anDocKey = null, anLoad = 0, anSession = null, anShownCells = null, anPending = false;

const other = (m) => (m === "you" ? "opp" : "you");
const cur = () => AN.states[AN.at];
const clonePos = (p) => ({ pits: p.pits.slice(), store: p.store, oppStore: p.oppStore, mover: p.mover, over: !!p.over, result: p.result || null });
const uniform = (n, s, mover) => ({ pits: Array(2 * n).fill(s), store: 0, oppStore: 0, mover, over: false, result: null });
const signed = (v) => (v > 0 ? "+" + v : String(v));
// Values in a player's words, as the terminal says them
// (src/format/words.rs), from the side of the player to move: "you" when
// it is you, "they" when it is the opponent.
const valueWords = (v, mover) => {
  const who = mover === "opp" ? "they" : "you";
  return v > 0 ? `${who} win by ${v}` : v < 0 ? `${who} lose by ${-v}` : "a draw";
};
// An estimate from your side: "about +3 for you", "about even".
const aboutWords = (vy) => (vy > 0 ? `about +${vy} for you` : vy < 0 ? `about +${-vy} for the opponent` : "about even");
const turnText = (t, mover) => t.exact ? valueWords(t.value, mover) : `${aboutWords(mover === "opp" ? -t.value : t.value)}, not proved`;
// The numbers behind a turn's words, for the details view.
const turnNumbers = (t) => t.exact ? "proved" : `between ${signed(t.low)} and ${signed(t.high)}; looked ${t.depth} turn${t.depth === 1 ? "" : "s"} ahead`;

// The board text from the mover's side: what the server is asked about.
function moverBoard(p) {
  const n = p.pits.length / 2, mine = p.pits.slice(0, n), theirs = p.pits.slice(n);
  const [bottom, top, own, opp] = p.mover === "opp" ? [theirs, mine, p.oppStore, p.store] : [mine, theirs, p.store, p.oppStore];
  return `${top.slice().reverse().join(" ")} / ${opp} ${own} / ${bottom.join(" ")}`;
}
// A pit number as the mover of p counts it, as the board shows it, and back
// (turning the board round is the same both ways).
function turnPit(p, k) {
  if (p.mover !== "opp") return k;
  const n = p.pits.length / 2;
  return ((k - 1 + n) % (2 * n)) + 1;
}
// A position the server gives from the mover of p's side, as you see it.
function fromMover(p, q) {
  const n = q.pits.length / 2;
  return p.mover === "opp"
    ? { pits: q.pits.slice(n).concat(q.pits.slice(0, n)), store: q.opponent_store, oppStore: q.store }
    : { pits: q.pits.slice(), store: q.store, oppStore: q.opponent_store };
}
const posKey = (p) => `${AN.rules} ${p.mover} ${moverBoard(p)}`;
// The board in a link: "top row / opponent's store, yours / bottom row", commas between counts.
function boardLink(p) {
  const n = p.pits.length / 2;
  return `${p.pits.slice(n).reverse().join(",")}/${p.oppStore},${p.store}/${p.pits.slice(0, n).join(",")}`;
}

// A request refused because the server is busy (429: every search place
// taken, for a moment while a stopped search winds down; 409: a game still
// busy) is tried again.
async function retryBusy(call) {
  for (let tries = 0; ; tries++) {
    try { return await call(); } catch (e) {
      if ((e.status === 429 || e.status === 409) && tries < 40) { await sleep(250); continue; }
      throw e;
    }
  }
}

// ---- picks, played by a server game at the position ----
function dropSession() {
  const s = anSession; anSession = null;
  if (s) request("DELETE", `/api/game/${s.id}`).catch(() => {});
}
// Pit k (as the board shows it) picked by the mover of p: the position after it.
async function playPick(p, k, again) {
  if (!anSession || anSession.key !== posKey(p)) {
    dropSession();
    const doc = await retryBusy(() => request("POST", "/api/game/new",
      { rules: AN_RULES[AN.rules], board: moverBoard(p), agent: "random", person: "first", seed: 1 }));
    anSession = { id: doc.id, key: posKey(p) };
  }
  let doc;
  try { doc = await retryBusy(() => request("POST", `/api/game/${anSession.id}/pick`, { pit: turnPit(p, k) })); }
  catch (e) {
    if (e.status === 404 && !again) { anSession = null; return playPick(p, k, true); } // the game expired
    // The server numbers the pits from the mover's side.
    if (e.field === "pit" && p.mover === "opp") e.message = `Pit ${k} is pit ${turnPit(p, k)} from the opponent's side: ${e.message}`;
    throw e;
  }
  const mine = doc.played[0];
  const q = { ...fromMover(p, mine.after), mover: p.mover, over: false, result: null };
  if (mine.outcome === "free-turn") { anSession.key = posKey(q); return q; }
  dropSession();
  if (mine.outcome === "turn-over") { q.mover = other(p.mover); return q; }
  // The game is over: its result, the person being the mover.
  const r = doc.result, flip = p.mover === "opp";
  const side = (w) => (w === "draw" ? "draw" : (w === "person") !== flip ? "you" : "opp");
  q.mover = null; q.over = true;
  q.result = { you: flip ? r.computer : r.person, opp: flip ? r.person : r.computer, winner: side(r.winner) };
  return q;
}

// Play pit k at the current place of the line: the line's own next pick
// is followed without asking again; another one starts a branch there.
async function advance(k) {
  if (AN.line[AN.at] === k && AN.states[AN.at + 1]) { AN.at++; return; }
  const q = await playPick(cur(), k);
  AN.line = AN.line.slice(0, AN.at).concat([k]);
  AN.states = AN.states.slice(0, AN.at + 1).concat([q]);
  AN.at++;
}

// The turns of the line: [{mover, from, to}] (indices into the picks).
function lineTurns() {
  const out = [];
  for (let i = 0; i < AN.line.length; i++) {
    const m = AN.states[i].mover, last = out[out.length - 1];
    if (last && last.mover === m && last.to === i) last.to = i + 1; else out.push({ mover: m, from: i, to: i + 1 });
  }
  return out;
}

// ---- drawing ----
function drawAn() {
  const p = cur(), n = AN.n, pg = $("page-analyze");
  if (!p) return;
  const live = anDoc && anDocKey === posKey(p) && !p.over && !AN.editing;
  const best = live ? turnPit(p, anDoc.turns[0].picks[0]) : null;
  const last = !AN.editing && AN.at > 0 ? AN.line[AN.at - 1] : null;
  const cells = p.pits.concat([p.store, p.oppStore]);
  const changed = (i) => anShownCells && anShownCells.length === cells.length && anShownCells[i] !== cells[i];
  drawBoard($("an-board"), n, p.store, p.oppStore, (i) => {
    const k = i + 1, d = document.createElement("button");
    const moverRow = p.mover && (k <= n) === (p.mover === "you");
    d.className = "pit" + (k > n ? " theirs" : "") + (moverRow && !AN.editing ? " mover" : "") +
      (best === k ? " next" : "") + (last === k ? " last" : "") + (AN.editing && AN.sel === i ? " sel" : "") + (changed(i) ? " changed" : "");
    d.id = "an-pit-" + k; d.textContent = p.pits[i];
    d.disabled = AN.busy || (!AN.editing && p.over);
    d.setAttribute("aria-label", `${k > n ? "opponent's " : ""}pit ${k}: ${p.pits[i]} stones` + (best === k ? ", the best pick" : "") + (AN.editing ? ", tap to change" : ""));
    d.addEventListener("click", () => anTap(k));
    return d;
  }, "opponent", AN.editing ? anSelectStore : undefined);
  for (const [which, i] of [["store", 2 * n], ["opp-store", 2 * n + 1]]) {
    const el = $("an-board-" + which);
    if (AN.editing && AN.sel === which) el.classList.add("sel");
    if (changed(i)) el.classList.add("changed");
  }
  anShownCells = cells;
  // Who is to move, or how the game ended.
  const freeTurn = AN.at > 0 && AN.states[AN.at - 1].mover === p.mover;
  let say;
  if (AN.editing) say = "Editing: tap a pit or a store to change it.";
  else if (p.over) {
    const r = p.result;
    say = `Game over: you ${r.you}, the opponent ${r.opp}: ` + (r.winner === "you" ? "you win." : r.winner === "opp" ? "the opponent wins." : "a draw.");
  } else if (p.mover === "you") say = freeTurn ? "You pick again (free turn)." : "You to move.";
  else say = (freeTurn ? "The opponent picks again (free turn)" : "The opponent to move") + ": tap the pit they pick (top row).";
  $("an-turn").textContent = say;
  $("an-text").textContent = p.over ? "(the game is over)" : moverBoard(p);
  // The count editor.
  $("an-count-row").hidden = !AN.editing;
  $("an-setup").hidden = !AN.editing;
  $("an-edit").setAttribute("aria-pressed", String(AN.editing));
  $("an-edit").textContent = AN.editing ? "Done editing" : "Edit board";
  if (AN.editing) $("an-count-label").textContent = AN.sel === "store" ? "Your store" : AN.sel === "opp-store" ? "Opponent's store" : `Pit ${AN.sel + 1}`;
  // The moves.
  const ol = $("an-moves"); ol.innerHTML = "";
  lineTurns().forEach((t, j) => {
    const li = document.createElement("li"), b = document.createElement("button");
    b.id = "an-move-" + (j + 1);
    b.className = "move" + (AN.at > t.from && AN.at <= t.to ? " current" : "") + (t.from >= AN.at ? " future" : "");
    b.textContent = `${t.mover === "you" ? "You" : "Opponent"}: ${AN.line.slice(t.from, t.to).join(" ")}`;
    b.disabled = AN.busy;
    b.addEventListener("click", () => goTo(t.to));
    li.appendChild(b); ol.appendChild(li);
  });
  if (!AN.line.length) ol.innerHTML = `<li class="none">None yet: tap a turn, or the pits picked.</li>`;
  const bounds = anBounds();
  $("an-first").disabled = $("an-back").disabled = AN.busy || AN.at === 0;
  $("an-fwd").disabled = AN.busy || !bounds.some((b) => b > AN.at);
  pg.classList.toggle("over", !!p.over);
}

// The places to step to: the start and the end of each turn.
const anBounds = () => [0].concat(lineTurns().map((t) => t.to));

function clearAnalysis(status) {
  anDoc = null;
  $("an-eval-fill").style.width = "50%";
  $("an-eval-text").textContent = "";
  $("an-best").textContent = ""; $("an-turns-title").textContent = ""; $("an-pv").textContent = ""; $("an-numbers").textContent = "";
  $("an-turns").innerHTML = ""; $("an-paging").hidden = true; anPage = null;
  $("an-status").textContent = status || "";
  $("an-longer").hidden = true; $("an-again").hidden = true;
}

// One analysis document of position p, drawn (`final`: the search ended).
function showAnalysis(doc, p, final) {
  anDoc = doc; anDocKey = posKey(p);
  const you = p.mover === "you", who = you ? "you" : "the opponent";
  const total = p.pits.reduce((a, b) => a + b, 0) + p.store + p.oppStore;
  // The bar: your share, from an even game in the middle to the whole board's lead at an end.
  const vy = you ? doc.value : -doc.value;
  const lean = total ? Math.sign(vy) * Math.sqrt(Math.min(1, Math.abs(vy) / total)) : 0;
  $("an-eval-fill").style.width = `${50 + 50 * lean}%`;
  // Proved best only when the first turn's value is proved and no other
  // turn can do better (the document's `answer`); otherwise the best so far.
  const provedBest = doc.answer ? doc.answer === "proved-best" : doc.exact;
  $("an-eval-text").textContent = provedBest ? (vy > 0 ? `You +${vy} with best play` : vy < 0 ? `Opponent +${-vy} with best play` : "Even with best play") : aboutWords(vy) + " (not proved yet)";
  const b = doc.turns[0], picks = b.picks.map((k) => turnPit(p, k));
  const tap = `${you ? "Tap" : "They tap"} <b id="an-best-pit">${picks[0]}</b>` + (picks.length > 1 ? `, then ${picks.slice(1).join(", ")}` : "");
  const value = `<span id="an-value" data-value="${b.value}" data-exact="${b.exact}">${turnText(b, p.mover)}</span>`;
  $("an-best").innerHTML = provedBest ? `${tap}: best, ${value} with best play.`
    : b.exact ? `${tap}, the best found so far: ${value} with best play. Other turns are not proved yet and might be better; think longer to be sure.`
    : `${tap}, probably: <span id="an-value" data-value="${b.value}" data-exact="false">${aboutWords(you ? b.value : -b.value)}</span>. Not proved yet; think longer to be sure.`;
  // A progress document may hold only the best turns (digest.js), with
  // the counts of all of them.
  const all = doc.turns_total || doc.turns.length;
  const proved = doc.turns_proved != null ? doc.turns_proved : doc.turns.filter((t) => t.exact).length;
  $("an-turns-title").textContent = `Turns for ${who}, best first (${proved.toLocaleString("en")} of ${all.toLocaleString("en")} proved); tap one to play it:`;
  drawTurns(doc, p);
  // The best line, a turn each, in the board's pit numbers.
  $("an-pv").textContent = "Best line: " + doc.principal_variation.map((t, j) => {
    const m = j % 2 === 0 ? p.mover : other(p.mover);
    return `${m === "you" ? "you" : "them"} ${t.map((k) => turnPit({ mover: m, pits: p.pits }, k)).join(" ")}`;
  }).join(" · ");
  const what = final ? (doc.stopped ? "Stopped" : "Done") : "Thinking";
  const ahead = doc.depth === 0 ? "the stores right after it" : `${doc.depth} turn${doc.depth === 1 ? "" : "s"} ahead`;
  $("an-status").textContent = doc.source === "book" ? `${what}: every turn proved before play began (the opening book).`
    : `${what}: ${proved.toLocaleString("en")} of ${count(all, "turn")} proved in ${doc.seconds.toFixed(1)} s${final ? "." : "…"}`;
  // The numbers behind the words, in the details view.
  $("an-numbers").textContent = doc.source === "book" ? "From the opening book: no search." :
    `The best turn: ${turnNumbers(b)}. ` + (proved < all ? `Each turn not proved was looked at to ${ahead} or more. ` : "") +
    `${doc.nodes.toLocaleString("en")} picks searched in ${doc.seconds.toFixed(1)} s.`;
  const sel = $("an-seconds");
  $("an-longer").hidden = !final || !!AN.nodes || proved === all || sel.selectedIndex === sel.options.length - 1;
  drawAn();
}

// The turns drawn: the best AN_TOP, or, after "Show all", one page of
// AN_PAGE at a time (anPage, from 0). A position can have tens of
// thousands of turns (24,324 at the avalanche start): drawn all at once,
// at every update, they froze the page for seconds. While the analysis
// runs, its progress holds the best 500 (digest.js), and the pages go as
// far as those; the answer reads the rest when a page asks (turnPage).
const AN_TOP = 10, AN_PAGE = 50;
let anPage = null;
function drawTurns(doc, p) {
  const all = doc.turns_total || doc.turns.length, have = doc.allTurns ? all : doc.turns.length;
  const pages = Math.ceil(have / AN_PAGE);
  if (anPage !== null) anPage = Math.min(anPage, pages - 1);
  const from = anPage === null ? 0 : anPage * AN_PAGE, to = Math.min(doc.turns.length, anPage === null ? AN_TOP : from + AN_PAGE);
  const ol = $("an-turns");
  while (ol.children.length > to - from) ol.lastChild.remove();
  while (ol.children.length < to - from) {
    const li = document.createElement("li"), btn = document.createElement("button");
    btn.className = "turn";
    btn.innerHTML = `<span class="picks"></span><span class="val"></span>`;
    btn.addEventListener("click", () => {
      const t = anDoc && anDoc.turns[Number(btn.dataset.rank) - 1];
      if (t) playTurn(t.picks.map((k) => turnPit(cur(), k)));
    });
    li.appendChild(btn); ol.appendChild(li);
  }
  for (let i = from; i < to; i++) {
    const t = doc.turns[i], btn = ol.children[i - from].firstChild;
    btn.id = "an-turn-" + (i + 1); btn.dataset.rank = i + 1;
    btn.classList.toggle("exact", t.exact); btn.classList.toggle("best", i === 0);
    btn.dataset.value = t.value; btn.dataset.exact = t.exact;
    btn.firstChild.textContent = t.picks.map((k) => turnPit(p, k)).join(" ");
    btn.lastChild.textContent = turnText(t, p.mover);
    btn.title = turnNumbers(t);
    btn.disabled = AN.busy;
  }
  // The paging: "Show all" when more turns than the best few; then a page at a time.
  const paged = anPage !== null;
  $("an-paging").hidden = all <= AN_TOP;
  $("an-all").hidden = paged;
  $("an-all").textContent = `Show all ${count(all, "turn")}`;
  $("an-few").hidden = !paged;
  $("an-few").textContent = `Show the best ${AN_TOP}`;
  $("an-prev").hidden = $("an-next").hidden = $("an-page").hidden = !paged || pages < 2;
  $("an-prev").disabled = !paged || anPage === 0;
  $("an-next").disabled = !paged || anPage >= pages - 1;
  $("an-page").textContent = paged ? `Turns ${(from + 1).toLocaleString("en")}–${to.toLocaleString("en")} of ${all.toLocaleString("en")}` : "";
}
// Another page of turns (null: the best few), drawn from the answer shown;
// a page past the best 500 the answer was cut to reads them all, once.
function turnPage(k) {
  anPage = k;
  const p = cur();
  if (!anDoc || anDocKey !== posKey(p)) return;
  if (k !== null && (k + 1) * AN_PAGE > anDoc.turns.length && anDoc.allTurns) {
    anDoc = { ...anDoc, turns: anDoc.allTurns() };
  }
  drawTurns(anDoc, p);
}

// ---- the analysis ----
function stopAnalysis(user) {
  clearTimeout(anTimer);
  if (anCtl) { if (!user) anSeq++; anCtl.abort(); if (!user) anCtl = null; }
  if (!user) $("an-stop").hidden = true;
}
const AN_DRAW_EVERY = 250;
function scheduleAnalysis(ms) { stopAnalysis(); anTimer = setTimeout(analyse, ms); }

async function analyse(keepErrors) {
  stopAnalysis();
  const p = cur();
  if (page !== "analyze" || !p || AN.busy) return;
  if (keepErrors !== true) anError({ message: "" });
  if (p.over) { clearAnalysis(); drawAn(); return; }
  if (AN.editing && invalidFields($("an-setup").parentElement).length) {
    clearAnalysis("Not analysed: put right the field marked in red first."); drawAn(); return;
  }
  const seq = ++anSeq, ctl = new AbortController(), key = posKey(p);
  anCtl = ctl;
  const body = { rules: AN_RULES[AN.rules], board: moverBoard(p) };
  if (AN.nodes) body.nodes = AN.nodes; else body.seconds = Number($("an-seconds").value);
  clearAnalysis("Thinking…"); drawAn();
  $("an-stop").hidden = false;
  // Progress is drawn at most every AN_DRAW_EVERY ms, the latest document
  // each time: the page stays free for taps while the engine thinks.
  let latest = null, done = false, drawn = 0;
  const onProgress = (doc) => {
    if (seq !== anSeq) return;
    if (!latest) {
      setTimeout(() => requestAnimationFrame(() => {
        if (seq === anSeq && !done && latest) { showAnalysis(latest, p, false); drawn = performance.now(); }
        latest = null;
      }), Math.max(0, drawn + AN_DRAW_EVERY - performance.now()));
    }
    latest = doc;
  };
  try {
    const doc = await retryBusy(() => stream("/api/analyze", body, ctl.signal, onProgress));
    done = true;
    if (seq === anSeq && posKey(cur()) === key) showAnalysis(doc, p, true);
  } catch (e) {
    done = true;
    if (seq !== anSeq) return;
    if (e.name === "AbortError") {
      if (latest) showAnalysis(latest, p, false);
      $("an-status").textContent = "Stopped: " + ($("an-status").textContent.replace(/^Thinking(: )?…?/, "").replace(/…$/, ".") || "no answer yet.");
      $("an-again").hidden = false;
    } else {
      $("an-status").textContent = "";
      anError(e);
    }
  } finally {
    if (seq === anSeq) { anCtl = null; $("an-stop").hidden = true; }
  }
}

// A server error beside its field (the fields of the analysis and of a
// pick), else under the buttons; what the editor refused as typed stays.
function anError(e) {
  for (const f of ["board", "rules", "seconds", "pit"]) $("an-err-" + f).textContent = "";
  $("an-error").textContent = "";
  const el = e.field && $("an-err-" + e.field);
  if (el && !el.closest("[hidden]")) el.textContent = e.message; else $("an-error").textContent = e.message;
}

// ---- playing ----
async function anTap(k) {
  if (AN.busy) return;
  if (AN.editing) { AN.sel = k - 1; syncCount(); drawAn(); return; }
  if (cur().over) return;
  await anPlay([k], false);
}
const playTurn = (picks) => anPlay(picks, true);

// Play picks (board numbers) one after another from the current place,
// each drawn before the next; then keep the line in the link and analyse.
async function anPlay(picks, animate) {
  if (AN.busy) return;
  AN.busy = true; AN.editing = false; stopAnalysis(); clearAnalysis("Playing…");
  anError({ message: "" });
  drawAn();
  let failed = false;
  try {
    for (let i = 0; i < picks.length; i++) {
      await advance(picks[i]);
      drawAn();
      if (animate && i + 1 < picks.length) await sleep(450);
    }
  } catch (e) {
    anError(e); failed = true;
  } finally {
    AN.busy = false;
  }
  saveUrl(true); drawAn(); analyse(failed);
}

function goTo(at) {
  if (AN.busy || at === AN.at) return;
  AN.at = at; anShownCells = null;
  saveUrl(true); drawAn(); analyse();
}

// ---- editing ----
// The position the editor changes: the one shown, which becomes the start
// of a new line (the moves after it are dropped).
function editable() {
  if (AN.line.length || AN.at) { AN.states = [clonePos(cur())]; AN.line = []; AN.at = 0; }
  const p = AN.states[0];
  if (p.over || !p.mover) { p.over = false; p.result = null; p.mover = $("an-mover").value; }
  return p;
}
function edited() { anDoc = null; clearAnalysis(); saveUrl(false); drawAn(); syncCount(); scheduleAnalysis(500); }
function setStart(p) {
  AN.n = p.pits.length / 2; AN.states = [p]; AN.line = []; AN.at = 0; anShownCells = null;
  if (typeof AN.sel === "number" && AN.sel >= 2 * AN.n) AN.sel = 0;
  setField($("an-pits"), AN.n);
  edited();
}
function anSelectStore(which) { AN.sel = which; syncCount(); drawAn(); }
function cellCount(p) { return AN.sel === "store" ? p.store : AN.sel === "opp-store" ? p.oppStore : p.pits[AN.sel]; }
function setCount(v) {
  const p = editable();
  if (AN.sel === "store") p.store = v; else if (AN.sel === "opp-store") p.oppStore = v; else p.pits[AN.sel] = v;
  edited();
}
function syncCount() { $("an-count").value = cellCount(cur()); readCount($("an-count"), 0, 255, "Stones"); }


$("an-edit").addEventListener("click", () => {
  if (AN.busy) return;
  AN.editing = !AN.editing;
  if (AN.editing) { $("an-mover").value = cur().mover || "you"; syncCount(); }
  drawAn();
  if (!AN.editing && (!anDoc || anDocKey !== posKey(cur()))) analyse();
});
$("an-done").addEventListener("click", () => $("an-edit").click());
$("an-count").addEventListener("input", () => { const v = readCount($("an-count"), 0, 255, "Stones"); if (v !== null && v !== cellCount(cur())) setCount(v); });
$("an-minus").addEventListener("click", () => { const v = cellCount(cur()); if (v > 0) setCount(v - 1); });
$("an-plus").addEventListener("click", () => { const v = cellCount(cur()); if (v < 255) setCount(v + 1); });
// Pits a side: checked as typed, a new start position once the field is left.
$("an-pits").addEventListener("input", () => readCount($("an-pits"), 1, 16, "Pits a side"));
$("an-pits").addEventListener("change", () => {
  const k = readCount($("an-pits"), 1, 16, "Pits a side");
  if (k === null || k === AN.n) return;
  const s = readCount($("an-stones"), 0, 255, "Stones a pit");
  setStart(uniform(k, s === null ? 0 : s, $("an-mover").value));
});
$("an-stones").addEventListener("input", () => readCount($("an-stones"), 0, 255, "Stones a pit"));
$("an-start").addEventListener("click", () => {
  const k = readCount($("an-pits"), 1, 16, "Pits a side"), s = readCount($("an-stones"), 0, 255, "Stones a pit");
  if (k !== null && s !== null) setStart(uniform(k, s, $("an-mover").value));
});
$("an-clear").addEventListener("click", () => {
  const k = readCount($("an-pits"), 1, 16, "Pits a side");
  if (k !== null) setStart(uniform(k, 0, $("an-mover").value));
});
$("an-mover").addEventListener("change", () => { editable().mover = $("an-mover").value; edited(); });
function readPaste() {
  const t = $("an-paste").value, err = $("an-err-paste");
  try { const b = t.trim() ? parseBoard(t) : null; err.textContent = ""; delete err.dataset.typed; return b; }
  catch (e) { err.textContent = e.message; err.dataset.typed = "1"; return null; }
}
$("an-paste").addEventListener("input", readPaste);
$("an-use").addEventListener("click", () => {
  const b = readPaste();
  if (!b) { if (!$("an-paste").value.trim()) $("an-err-paste").textContent = "Paste or type a board first."; return; }
  setStart({ pits: b.pits, store: b.store, oppStore: b.oppStore, mover: $("an-mover").value, over: false, result: null });
});
$("an-rules").addEventListener("change", () => {
  // Other rules, another game: the position shown starts a new line.
  AN.rules = $("an-rules").value;
  const p = clonePos(cur());
  if (p.over || !p.mover) { p.over = false; p.result = null; p.mover = "you"; }
  AN.states = [p]; AN.line = []; AN.at = 0;
  saveUrl(true); drawAn(); analyse();
});
$("an-seconds").addEventListener("change", analyse);
$("an-longer").addEventListener("click", () => { const s = $("an-seconds"); s.selectedIndex = Math.min(s.selectedIndex + 1, s.options.length - 1); analyse(); });
$("an-again").addEventListener("click", analyse);
$("an-stop").addEventListener("click", () => stopAnalysis(true));
$("an-all").addEventListener("click", () => { turnPage(0); $("an-few").focus(); });
$("an-few").addEventListener("click", () => { turnPage(null); $("an-all").focus(); });
$("an-prev").addEventListener("click", () => { if (anPage > 0) turnPage(anPage - 1); });
$("an-next").addEventListener("click", () => { if (anPage !== null) turnPage(anPage + 1); });
$("an-first").addEventListener("click", () => goTo(0));
$("an-back").addEventListener("click", () => { const b = anBounds().filter((x) => x < AN.at); if (b.length) goTo(b[b.length - 1]); });
$("an-fwd").addEventListener("click", () => { const b = anBounds().find((x) => x > AN.at); if (b !== undefined) goTo(b); });

// ---- the link: ?rules=R&board=TOP/STORES/BOTTOM&to=you|opp&line=PICKS&at=K[&nodes=N] ----
function anQuery() {
  const s = AN.states[0];
  let q = `?rules=${AN.rules}&board=${boardLink(s)}&to=${s.mover || "you"}`;
  if (AN.line.length) q += `&line=${AN.line.join(",")}`;
  if (AN.at !== AN.line.length) q += `&at=${AN.at}`;
  if (AN.nodes) q += `&nodes=${AN.nodes}`;
  return q;
}
function saveUrl(push) {
  const q = anQuery();
  if (q !== location.search) history[push ? "pushState" : "replaceState"](null, "", q);
}

// Read the position and the line from the link; the picks of the line are
// played again by the server (those in common with the line shown are kept).
async function anFromUrl() {
  // The link of another page says nothing of Analyze's position.
  const linked = new URLSearchParams(location.search), elsewhere = linked.get("page") && linked.get("page") !== "analyze";
  const token = ++anLoad, q = elsewhere ? new URLSearchParams("") : linked, pg = $("page-analyze");
  stopAnalysis(); clearErrors(pg); $("an-error").textContent = "";
  let rules = q.get("rules") || "capture";
  let linkError = false;
  if (!AN_RULES[rules]) { $("an-err-rules").textContent = `The link's rules "${rules}" are not known here; showing GamePigeon capture.`; rules = "capture"; linkError = true; }
  const mover = q.get("to") === "opp" ? "opp" : "you";
  let start = uniform(6, 4, mover);
  if (q.get("board")) {
    try { const b = parseBoard(q.get("board")); start = { pits: b.pits, store: b.store, oppStore: b.oppStore, mover, over: false, result: null }; }
    catch (e) { $("an-err-board").textContent = "The link's board: " + e.message; linkError = true; }
  }
  const line = (q.get("line") || "").split(",").filter((x) => x !== "").map((x) => (/^\d+$/.test(x) ? Number(x) : 0));
  const at = q.has("at") && /^\d+$/.test(q.get("at")) ? Number(q.get("at")) : line.length;
  AN.nodes = /^\d+$/.test(q.get("nodes") || "") ? Number(q.get("nodes")) : null;
  const same = AN.states.length && AN.rules === rules && boardLink(AN.states[0]) === boardLink(start) && AN.states[0].mover === mover;
  let keep = 0;
  if (same) while (keep < line.length && keep < AN.line.length && line[keep] === AN.line[keep]) keep++;
  else { AN.states = [start]; anShownCells = null; }
  AN.rules = rules; $("an-rules").value = rules;
  AN.n = AN.states[0].pits.length / 2; setField($("an-pits"), AN.n);
  AN.states = AN.states.slice(0, keep + 1); AN.line = line.slice(0, keep); AN.at = Math.min(at, keep);
  if (keep < line.length) {
    AN.busy = true; AN.editing = false; clearAnalysis("Playing the link's moves…"); drawAn();
    let i = keep;
    try {
      for (; i < line.length; i++) {
        AN.at = i;
        await advance(line[i]);
        if (token !== anLoad) return;
      }
    } catch (e) {
      if (token !== anLoad) return;
      $("an-error").textContent = `The link's pick ${i + 1} (pit ${line[i]}): ${e.message}`;
      linkError = true;
    } finally { if (token === anLoad) AN.busy = false; }
    AN.at = Math.min(at, AN.line.length);
  }
  drawAn();
  analyse(linkError);
}
window.addEventListener("popstate", () => {
  const q = new URLSearchParams(location.search), want = PAGES.includes(q.get("page")) ? q.get("page") : "analyze";
  if (want === "analyze") { anFromUrl(); if (page !== "analyze") showPage("analyze"); return; }
  if (want === "solve") solveFromUrl(q);
  if (want === "puzzles") puzzlesFromUrl(q);
  showPage(want);
});

// The Analyze page comes into view: draw it, and analyse what is not yet.
function anShown() {
  if (!cur() || AN.busy) return;
  drawAn();
  if (!anDoc || anDocKey !== posKey(cur())) analyse();
}

// ---- "Analyse this game" on the Play page: the game from its start with
// every pick (as the person sees it), or, when the record was lost, its
// position now.
$("g-analyze").addEventListener("click", () => {
  if (!game || !gRecord) return;
  const r = gRecord, n = game.pits_per_side;
  let q;
  if (!r.broken) {
    const row = Array(n).fill(r.stones).join(",");
    q = `?rules=${r.rules}&board=${row}/0,0/${row}&to=${r.person === "first" ? "you" : "opp"}`;
    if (r.picks.length) q += `&line=${r.picks.map((p) => p.pit_seen).join(",")}`;
  } else {
    const pos = game.position;
    const p = { pits: pos.pits, store: pos.store, oppStore: pos.opponent_store };
    q = `?rules=${r.rules}&board=${boardLink(p)}&to=${game.to_move === "computer" ? "opp" : "you"}`;
  }
  history.pushState(null, "", q);
  anFromUrl();
  showPage("analyze");
});

// ---- the endgame database (static site) ----
// Its state under the Analyze page's answer, in a few words: the site's
// engine builds it in the background after the first analysis that
// lacks it (backend.js), and the analyses after that use it.
function endgameWords(s) {
  if (s.state === "building") return `Endgame database: building, ${Math.floor(100 * s.share)}%. Answers use it once it is ready.`;
  if (s.state === "ready") return `Endgame database: ready (every position of up to ${s.key.stones} stones known exactly).`;
  return `Endgame database: not built (${s.error}). Answers go on without it.`;
}
backend.onEndgame((s) => { $("an-endgame").textContent = endgameWords(s); $("an-endgame").hidden = false; });

// ---- start ----
const startQ = new URLSearchParams(location.search), startPage = startQ.get("page");
AN.editing = !location.search || !!startPage;
anFromUrl();
syncCount();
updateTally();
if (PAGES.includes(startPage) && startPage !== "analyze") {
  if (startPage === "solve") solveFromUrl(startQ);
  showPage(startPage);
}
