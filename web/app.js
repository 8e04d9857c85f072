// mancala-sweep web app: plain JavaScript, no framework, no outside requests.
"use strict";
const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
    signal: body && body.signal,
  });
  let doc;
  try { doc = await res.json(); } catch (e) { doc = { error: "the server answered " + res.status }; }
  if (!res.ok) throw new Error(doc.error || ("HTTP " + res.status));
  return doc;
}

// ---- pages ----
document.querySelectorAll("nav button").forEach((b) => b.addEventListener("click", () => {
  document.querySelectorAll("nav button").forEach((o) => o.removeAttribute("aria-current"));
  b.setAttribute("aria-current", "page");
  for (const p of ["solve", "puzzles", "play"]) $("page-" + p).hidden = p !== b.dataset.page;
  if (b.dataset.page === "puzzles" && !collections) loadCollections();
}));

// ---- board drawing: opponent's row on top (pit 2n .. n+1), own row below (1 .. n) ----
// cell(i) returns the element for pit index i (0-based pit number - 1).
function drawBoard(el, n, store, oppStore, cell) {
  el.innerHTML = "";
  el.style.gridTemplateColumns = `repeat(${n + 2}, minmax(1.6rem, 1fr))`;
  const put = (d, row, col) => { d.style.gridRow = row; d.style.gridColumn = col; el.appendChild(d); };
  const num = (k) => { const d = document.createElement("div"); d.className = "num"; d.textContent = k; return d; };
  const storeEl = (v, label, id) => {
    const d = document.createElement("div"); d.className = "store"; d.textContent = v;
    d.setAttribute("aria-label", label + " " + v); if (id) d.id = id; return d;
  };
  put(storeEl(oppStore, "opponent's store"), "2 / 4", "1");
  put(storeEl(store, "your store", el.id + "-store"), "2 / 4", String(n + 2));
  for (let c = 0; c < n; c++) {
    const top = 2 * n - c, bottom = c + 1;
    put(num(top), "1", String(c + 2));
    put(cell(top - 1), "2", String(c + 2));
    put(cell(bottom - 1), "3", String(c + 2));
    put(num(bottom), "4", String(c + 2));
  }
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
    inp.type = "number"; inp.min = 0; inp.max = 255; inp.value = pits[i];
    inp.className = "pit" + (highlight === i + 1 ? " next" : "");
    inp.id = "pit-" + (i + 1);
    inp.setAttribute("aria-label", "pit " + (i + 1));
    inp.addEventListener("change", () => { pits[i] = Math.max(0, parseInt(inp.value || "0", 10)); clearResult(); });
    return inp;
  });
}

function clearResult() { line = null; steps = null; $("result").innerHTML = ""; $("steps").hidden = true; $("solve-error").textContent = ""; }

function reset() {
  n = Math.min(16, Math.max(1, parseInt($("size").value || "6", 10)));
  const s = Math.max(0, parseInt($("stones").value || "4", 10));
  pits = Array(2 * n).fill(s); store = 0; oppStore = 0; clearResult(); drawSolve();
}

function usePaste() {
  const rows = $("paste").value.split(/\/|\n/).map((r) => r.trim()).filter((r) => r && !r.startsWith("#"))
    .map((r) => r.split(/[\s,]+/).map((x) => parseInt(x, 10)));
  if (rows.length < 2 || rows.some((r) => r.some(isNaN))) { $("solve-error").textContent = "Paste three rows like 4 4 4 / 0 0 / 4 4 4 (stores optional)."; return; }
  const top = rows[0], bottom = rows[rows.length - 1], stores = rows.length === 3 ? rows[1] : [0, 0];
  if (top.length !== bottom.length) { $("solve-error").textContent = `The rows have ${top.length} and ${bottom.length} pits; they must match.`; return; }
  n = bottom.length; $("size").value = n; pits = bottom.concat(top.slice().reverse());
  oppStore = stores[0] || 0; store = stores[1] || 0; clearResult(); drawSolve();
}

let controller = null;
async function solve(kind) {
  clearResult();
  rules = $("rules").value;
  $("result").textContent = kind === "find" ? "Searching…" : "Solving…";
  $("stop").hidden = false;
  controller = new AbortController();
  try {
    const doc = await fetchJson("/api/" + kind, { board: boardText(), rules, ...(kind === "solve" ? { limit: 1 } : {}) }, controller.signal);
    showResult(doc, kind);
  } catch (e) {
    $("result").textContent = "";
    $("solve-error").textContent = e.name === "AbortError" ? "Stopped." : e.message;
  } finally { $("stop").hidden = true; controller = null; }
}

async function fetchJson(path, body, signal) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
  let doc; try { doc = await res.json(); } catch (e) { doc = { error: "the server answered " + res.status }; }
  if (!res.ok) throw new Error(doc.error || ("HTTP " + res.status));
  return doc;
}

async function showResult(doc, kind) {
  if (kind === "solve" && !doc.complete) {
    $("result").innerHTML = `<p>The search stopped (${doc.stopped}) before the end${doc.best_store != null ? `; best so far ${doc.best_store}` : ""}. Try <b>Find</b> for a good line on a board this big.</p>`;
    return;
  }
  line = kind === "solve" ? doc.optimal[0] : doc.line;
  const best = doc.best_store;
  $("result").innerHTML = `<p class="big">Best store: <b id="best">${best}</b> of ${doc.total_stones} ${doc.sweep ? "— a <b>sweep</b>!" : "(not a sweep)"}</p>` +
    (kind === "solve" ? `<p>${doc.optimal_count} optimal pick sequences of ${doc.turns_total} turns.</p>` : `<p>${doc.exact ? "Proved best." : "Best found in " + doc.seconds.toFixed(1) + " s, not proved."}</p>`) +
    (line && line.length ? `<p>Pits to pick: <span class="line" id="line"></span></p>` : "<p>No pick is possible.</p>");
  if (!line || !line.length) return;
  const rep = await fetchJson("/api/replay", { board: boardText(), rules, picks: line });
  steps = rep.steps; at = 0; showStep();
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
$("size").addEventListener("change", reset);
$("stones").addEventListener("change", reset);
$("use-paste").addEventListener("click", usePaste);
$("solve").addEventListener("click", () => solve("solve"));
$("find").addEventListener("click", () => solve("find"));
$("stop").addEventListener("click", () => controller && controller.abort());
$("prev").addEventListener("click", () => { if (at > 0) { at--; showStep(); } });
$("next").addEventListener("click", () => { if (at < line.length) { at++; showStep(); } });
$("rules").addEventListener("change", clearResult);
reset();

// ---- Puzzles ----
let collections = null, puzzle = null, picks = [], current = null, streak = 0, solved = 0, failed = 0, hinted = null, index = 0;

async function loadCollections() {
  try {
    collections = (await api("GET", "/api/puzzles")).collections;
  } catch (e) { $("puzzle-msg").textContent = e.message; return; }
  $("collection").innerHTML = collections.map((c, i) => `<option value="${i}">${c.preset || c.name} (${c.count})</option>`).join("");
  index = 0; loadPuzzle();
}

function candidates() {
  const c = collections[$("collection").value];
  const g = parseInt($("grade").value, 10);
  return c.puzzles.filter((p) => !g || p.difficulty === g);
}

async function loadPuzzle() {
  const list = candidates();
  if (!list.length) { $("puzzle-msg").textContent = "No puzzle of this grade here."; return; }
  const c = collections[$("collection").value];
  const p = list[index % list.length];
  const doc = await api("GET", `/api/puzzles/${encodeURIComponent(c.name)}/${encodeURIComponent(p.id)}`);
  current = { collection: c.name, ...doc.puzzle };
  picks = []; hinted = null; puzzle = { pits: current.pits, store: current.store };
  $("puzzle-title").textContent = `Puzzle ${p.id} · grade ${current.difficulty} · reach ${current.goal_store} in your store this turn`;
  $("puzzle-msg").textContent = "";
  drawPuzzle();
}

function drawPuzzle(wrong) {
  const pn = current.pits.length / 2;
  drawBoard($("pboard"), pn, puzzle.store, current.opponent_store, (i) => {
    const d = document.createElement("button");
    d.className = "pit" + (hinted === i + 1 ? " next" : "") + (wrong === i + 1 ? " wrong" : "");
    d.id = "ppit-" + (i + 1); d.textContent = puzzle.pits[i];
    d.setAttribute("aria-label", `pit ${i + 1}: ${puzzle.pits[i]} stones`);
    d.addEventListener("click", () => pick(i + 1));
    return d;
  });
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
    if (streak) { streak = 0; }
    failed++; updateTally();
    setTimeout(() => { restore(); }, 1200);
    return;
  }
  picks = doc.picks;
  const last = doc.steps[doc.steps.length - 1];
  puzzle = { pits: last.pits, store: last.store };
  drawPuzzle();
  if (doc.outcome === "solved") {
    streak++; solved++; updateTally();
    $("puzzle-msg").textContent = `Solved: ${doc.store} in the store! Press Next puzzle.`;
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

function updateTally() { $("streak").textContent = streak; $("solved").textContent = solved; $("failed").textContent = failed; }

$("hint").addEventListener("click", async () => {
  if (!current) return;
  const doc = await check({ picks, hint: true });
  hinted = doc.hint; streak = 0; updateTally(); drawPuzzle();
  $("puzzle-msg").textContent = hinted ? `Hint: pick pit ${hinted}.` : "No hint from here: retry.";
});
$("retry").addEventListener("click", () => { picks = []; hinted = null; restore(); $("puzzle-msg").textContent = ""; });
$("show").addEventListener("click", () => { if (current) { streak = 0; updateTally(); $("puzzle-msg").textContent = "Solution: " + current.solution.join(" "); } });
$("next-puzzle").addEventListener("click", () => { index++; loadPuzzle(); });
$("collection").addEventListener("change", () => { index = 0; loadPuzzle(); });
$("grade").addEventListener("change", () => { index = 0; loadPuzzle(); });
