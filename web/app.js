// mancala-sweep web app: plain JavaScript, no framework, no outside requests.
"use strict";
const $ = (id) => document.getElementById(id);

// Every API error is {"error": "...", "field"?: "..."}; the thrown Error
// carries the field so that the page can show the message beside it.
async function request(method, path, body, signal) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
    signal,
  });
  if (res.status === 204) return {};
  let doc;
  try { doc = await res.json(); } catch (e) { doc = { error: "the server answered " + res.status }; }
  if (!res.ok) {
    const err = new Error(doc.error || ("HTTP " + res.status));
    err.field = doc.field; err.status = res.status;
    throw err;
  }
  return doc;
}
const api = (method, path, body) => request(method, path, body);

// Put each error beside its field: the element `${prefix}err-${field}`
// when the page has one, else `fallback`. Clears the page's old errors.
function clearErrors(section) { section.querySelectorAll(".field-error").forEach((e) => { e.textContent = ""; }); }
function showError(section, prefix, e, fallback) {
  clearErrors(section);
  const el = e.field && $(prefix + "err-" + e.field);
  if (el) el.textContent = e.message; else fallback.textContent = e.message;
}

// ---- pages ----
document.querySelectorAll("nav button").forEach((b) => b.addEventListener("click", () => {
  document.querySelectorAll("nav button").forEach((o) => o.removeAttribute("aria-current"));
  b.setAttribute("aria-current", "page");
  for (const p of ["solve", "puzzles", "play", "atlas"]) $("page-" + p).hidden = p !== b.dataset.page;
  if (b.dataset.page === "puzzles" && !collections) loadCollections();
  if (b.dataset.page === "atlas" && !atlas) loadAtlas();
  if (b.dataset.page === "play" && !game && !gBusy) newGame();
}));

// ---- board drawing: opponent's row on top (pit 2n .. n+1), own row below (1 .. n) ----
// cell(i) returns the element for pit index i (0-based pit number - 1).
function drawBoard(el, n, store, oppStore, cell, oppName) {
  el.innerHTML = "";
  el.style.gridTemplateColumns = `repeat(${n + 2}, minmax(1.6rem, 1fr))`;
  const put = (d, row, col) => { d.style.gridRow = row; d.style.gridColumn = col; el.appendChild(d); };
  const num = (k) => { const d = document.createElement("div"); d.className = "num"; d.textContent = k; return d; };
  const storeEl = (v, label, id) => {
    const d = document.createElement("div"); d.className = "store"; d.textContent = v;
    d.setAttribute("aria-label", label + " " + v); if (id) d.id = id; return d;
  };
  put(storeEl(oppStore, (oppName || "opponent") + "'s store", el.id + "-opp-store"), "2 / 4", "1");
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

function clearResult() { line = null; steps = null; $("result").innerHTML = ""; $("steps").hidden = true; $("solve-error").textContent = ""; $("progress").textContent = ""; clearErrors($("page-solve")); }

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
    const body = { board: boardText(), rules, ...(kind === "solve" ? { limit: 1 } : {}) };
    const doc = kind === "solve" ? await solveStream(body, controller.signal) : await fetchJson("/api/find", body, controller.signal);
    $("progress").textContent = "";
    showResult(doc, kind);
  } catch (e) {
    $("result").textContent = ""; $("progress").textContent = "";
    if (e.name === "AbortError") $("solve-error").textContent = "Stopped.";
    else showError($("page-solve"), "", e, $("solve-error"));
  } finally { $("stop").hidden = true; controller = null; }
}

// POST /api/solve/stream: server-sent events read from fetch (so that
// Stop can abort it): "progress" events while the search runs, then one
// "result" (the /api/solve document) or "error".
async function solveStream(body, signal) {
  const res = await fetch("/api/solve/stream", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
  if (!res.ok) {
    let doc; try { doc = await res.json(); } catch (e) { doc = { error: "the server answered " + res.status }; }
    const err = new Error(doc.error); err.field = doc.field; throw err;
  }
  const reader = res.body.getReader(), dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the server closed the stream before the result");
    buf += dec.decode(value, { stream: true });
    let cut;
    while ((cut = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, cut); buf = buf.slice(cut + 2);
      let event = "message", data = "";
      for (const l of block.split("\n")) {
        if (l.startsWith("event:")) event = l.slice(6).trim();
        else if (l.startsWith("data:")) data += l.slice(5).trim();
      }
      if (!data) continue;
      const doc = JSON.parse(data);
      if (event === "progress") showProgress(doc);
      else if (event === "result") return doc;
      else if (event === "error") { const err = new Error(doc.error); err.field = doc.field; throw err; }
    }
  }
}

function showProgress(p) {
  const pass = p.phase === "forward" ? "Counting" : "Marking the best lines";
  $("progress").textContent = `${pass}: store ${p.store} of ${p.max_store}, ${p.positions.toLocaleString()} positions` +
    (p.best != null ? `, best so far ${p.best}` : "") + `, ${p.seconds.toFixed(1)} s`;
}

async function fetchJson(path, body, signal) {
  return request("POST", path, body, signal);
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

// ---- Play: a game against the computer, on the server's GameSession ----
// The page applies no rule: it sends the pit and draws what the server
// says happened, pick by pick.
let game = null, gBusy = false, gHint = [], gLast = null;
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

function gameStatus() {
  if (!game) return;
  if (game.over) {
    const r = game.result;
    const verdict = r.winner === "person" ? "You win" : r.winner === "computer" ? "The computer wins" : "A draw";
    $("g-status").textContent = `Game over: ${verdict}, ${r.person} to ${r.computer}${game.helped ? " (with hints)" : ""}.`;
  } else if (game.to_move === "person") {
    $("g-status").textContent = `Your turn (turn ${game.turn}): pick one of pits ${game.legal.join(", ")}.`;
  } else {
    $("g-status").textContent = "The computer is thinking…";
  }
  $("g-hint").disabled = gBusy || game.to_move !== "person";
  $("g-undo").disabled = gBusy;
}

function logPick(p) {
  const li = document.createElement("li");
  li.className = p.by;
  li.textContent = (p.by === "person" ? "You: " : "Computer: ") + p.said;
  $("g-log").appendChild(li);
  li.scrollIntoView({ block: "nearest" });
}

// Show the picks one at a time: the person's at once, the computer's with
// a pause before each, so that its turn can be followed.
async function showPlayed(doc, keepFocus) {
  for (const p of doc.played) {
    if (p.by === "computer") { $("g-status").textContent = "The computer is playing…"; await sleep(600); }
    gLast = p.pit_seen; logPick(p); drawGame(p.after, []);
  }
  game = doc; gBusy = false;
  drawGame(doc.position, doc.legal); gameStatus();
  // Keyboard players keep their place: focus goes back to a pit they may pick.
  const first = $("gboard").querySelector(".pit:not(:disabled)");
  if (first && keepFocus) first.focus();
}

async function gameCall(path, body) {
  gBusy = true; $("g-error").textContent = ""; clearErrors($("page-play"));
  if (game) { drawGame(game.position, []); gameStatus(); }
  try { return await api("POST", path, body); }
  catch (e) { showError($("page-play"), "g-", e, $("g-error")); return null; }
  finally { gBusy = false; }
}

async function newGame() {
  const pitsN = parseInt($("g-pits").value, 10), stonesN = parseInt($("g-stones").value, 10);
  const body = { rules: $("g-rules").value, level: $("g-level").value, person: $("g-person").value,
    pits: isNaN(pitsN) ? $("g-pits").value : pitsN, stones: isNaN(stonesN) ? $("g-stones").value : stonesN,
    seed: Math.floor(Math.random() * 1e9) };
  if (window.MANCALA_SEED != null) body.seed = window.MANCALA_SEED;
  $("g-status").textContent = body.person === "second" ? "The computer is thinking…" : "";
  const doc = await gameCall("/api/game/new", body);
  if (!doc) { if (game) { drawGame(game.position, game.legal); gameStatus(); } return; }
  $("g-log").innerHTML = ""; gHint = []; gLast = null;
  await showPlayed(doc);
}

async function gamePick(k) {
  if (!game || gBusy) return;
  const keepFocus = $("gboard").contains(document.activeElement);
  gHint = []; gLast = k;
  $("g-status").textContent = "The computer is thinking…";
  const doc = await gameCall(`/api/game/${game.id}/pick`, { pit: k });
  if (!doc) { drawGame(game.position, game.legal); gameStatus(); return; }
  gBusy = true;
  await showPlayed(doc, keepFocus);
}

$("g-new").addEventListener("click", newGame);
$("g-hint").addEventListener("click", async () => {
  if (!game) return;
  const doc = await gameCall(`/api/game/${game.id}/hint`);
  if (!doc) { gameStatus(); return; }
  game = doc; gHint = doc.hint || []; drawGame(doc.position, doc.legal); gameStatus();
  $("g-status").textContent = gHint.length ? `Hint: pick pit ${gHint.join(", then ")}.` : "No hint now.";
});
$("g-undo").addEventListener("click", async () => {
  if (!game) return;
  const doc = await gameCall(`/api/game/${game.id}/undo`);
  if (!doc) { gameStatus(); return; }
  game = doc; gHint = []; gLast = null;
  if (doc.undone) { const li = document.createElement("li"); li.textContent = "Taken back."; $("g-log").appendChild(li); }
  drawGame(doc.position, doc.legal); gameStatus();
  if (!doc.undone) $("g-status").textContent = "Nothing to take back. " + $("g-status").textContent;
});

// ---- Atlas: the committed atlas.json, one table per rule set ----
let atlas = null;
const ruleKey = (r) => `${r.scope}-${r.relay ? "relay" : "norelay"}-${r.capture}`;
const PRESETS = { "own-relay-none": "avalanche", "any-relay-none": "any-hole", "own-norelay-kalah": "kalah" };

async function loadAtlas() {
  try { atlas = await api("GET", "/api/atlas"); }
  catch (e) { $("a-detail").textContent = e.message; return; }
  const keys = [...new Set(atlas.cells.map((c) => ruleKey(c.rules)))];
  keys.sort((a, b) => (PRESETS[b] ? 1 : 0) - (PRESETS[a] ? 1 : 0) || a.localeCompare(b));
  $("a-rules").innerHTML = keys.map((k) => {
    const [scope, relay, capture] = k.split("-");
    return `<option value="${k}">${PRESETS[k] ? PRESETS[k] + ": " : ""}scope ${scope}, relay ${relay === "relay" ? "on" : "off"}, capture ${capture}</option>`;
  }).join("");
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
  $("a-map").src = `/atlas/${key}.svg`;
  $("a-map").alt = `Heat map of the best store share for ${$("a-rules").selectedOptions[0].textContent}`;
  $("a-caption").textContent = "The same table as a heat map (docs/atlas/" + key + ".svg).";
  $("a-detail").innerHTML = "<p>Choose a cell.</p>";
}

function atlasDetail(c, el) {
  document.querySelectorAll("#atlas-table .cell.chosen").forEach((x) => x.classList.remove("chosen"));
  el.classList.add("chosen");
  const num = (v) => v == null ? "not counted" : Number(v).toLocaleString();
  $("a-detail").innerHTML =
    `<p class="big">${c.pits} pits × ${c.stones} stones: best store <b id="a-best">${c.exact ? "" : "at least "}${c.best_store}</b> of ${c.total_stones}` +
    (c.sweep ? " — a <b>sweep</b>" : " (not a sweep)") + `</p>` +
    `<p>${c.exact ? "Exact, proved by " + c.method : "A lower bound found by " + c.method + ", not proved"} in ${c.seconds.toFixed(2)} s. ` +
    `Optimal pick sequences: ${num(c.optimal_count)}; turns counted: ${num(c.turns_total)}; positions: ${num(c.positions)}.</p>` +
    `<p>Best line (${c.line.length} picks): <span class="line" id="a-line">${c.line.join(" ")}</span></p>`;
}

$("a-rules").addEventListener("change", drawAtlas);
