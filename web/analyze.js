// The Analyze page: a position, and a game from it, with every turn of the
// player to move ranked for the whole game by the engine's analysis (POST
// /api/analyze/stream). The page applies no rule of its own: a pick is
// played by an engine game made at that position (POST /api/game/new, then
// /pick; its own computer, `random`, is never asked anything we keep), and
// the page draws what that game says happened.
/* global backend */
import { $, clearErrors, clearTyped, count, invalidFields, readCount, sayTyped, setField } from "./fields.js";
import { request, retryBusy, sleep, stream } from "./calls.js";
import { boardLink, boardOfLink, choosePreset, drawBoard, LIMITS, pasteField, preset, rulesLabel, tooLong } from "./board.js";
import { register, shownPage } from "./url.js";
import { openReview, reviewedTurn } from "./review.js";

// Positions are kept as you see them: pits 1..n yours (bottom row), n+1..2n
// the opponent's (top row, numbered as the board shows them), `store` yours,
// `oppStore` theirs, `mover` "you" or "opp" (null once the game is over).
// The server is asked from the mover's side: when the opponent is to move
// the board is turned round, and its answers are turned back.
// `rules` is a rules word the engine reads (GET /api/limits): a preset's
// name, or a link's alias (`?rules=capture`), kept as the link gave it.
const AN_DEFAULT_RULES = "kalah";
// The preset's name of the rules shown (an alias as its preset).
const anPreset = () => (preset(AN.rules) || { name: AN.rules }).name;
const AN = { rules: AN_DEFAULT_RULES, n: 6, line: [], states: [], at: 0, editing: false, sel: 0, nodes: null, busy: false };
// What the review said of the turn a Review link opened (`review=K`):
// {at, prefix (the line up to it), text, best (the better turn's first
// pit, as the board shows it)}, drawn while the line is at that place.
let anReview = null;
let anCtl = null, anTimer = null, anSeq = 0, anDoc = null, anDocKey = null, anLoad = 0, anSession = null, anShownCells = null, anPending = false;

const other = (m) => (m === "you" ? "opp" : "you");
const cur = () => AN.states[AN.at];
const clonePos = (p) => ({ pits: p.pits.slice(), store: p.store, oppStore: p.oppStore, mover: p.mover, over: !!p.over, result: p.result || null });
const uniform = (n, s, mover) => ({ pits: Array(2 * n).fill(s), store: 0, oppStore: 0, mover, over: false, result: null });
const signed = (v) => (v > 0 ? "+" + v : String(v));
// Values in a player's words, as the terminal says them
// (crates/format/src/words.rs), from the side of the player to move: "you" when
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
      { rules: AN.rules, board: moverBoard(p), agent: "random", person: "first", seed: 1 }));
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
  const rv = anReview && !AN.editing && AN.at === anReview.at && AN.line.slice(0, AN.at).join(",") === anReview.prefix ? anReview : null;
  $("an-review").hidden = !rv; $("an-review").textContent = rv ? rv.text : "";
  const best = live ? turnPit(p, anDoc.turns[0].picks[0]) : rv ? rv.best : null;
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
  else say = (freeTurn ? "The opponent goes again (free turn)" : "The opponent to move") + ": tap the pit they pick (top row).";
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
  $("an-review-game").hidden = AN.editing || !reviewGame().turns.length;
  $("an-review-game").disabled = AN.busy;
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
  const said = final && you ? engineSays(doc, b, tap) : null;
  $("an-best").innerHTML = said ? said : provedBest ? `${tap}: best, ${value} with best play.`
    : b.exact ? `${tap}, the best found so far: ${value} with best play. Other turns are not proved yet and might be better; ${final ? "think longer to be sure" : "still thinking"}.`
    : `${tap}, probably: <span id="an-value" data-value="${b.value}" data-exact="false">${aboutWords(you ? b.value : -b.value)}</span>. Not proved yet; ${final ? "think longer to be sure" : "still thinking"}.`;
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
  if (anRun) { anRun.proved = proved; anRun.all = all; }
  $("an-status").textContent = doc.source === "book" ? `${what}: every turn proved in advance (a table that comes with the app).`
    : final || !anRun ? `${what}: ${proved.toLocaleString("en")} of ${count(all, "turn")} proved in ${final && anRun && anRun.goOn ? ranFor() : doc.seconds.toFixed(1)} s${final ? "." : "…"}`
    : thinkingLine();
  // The numbers behind the words, in the details view.
  $("an-numbers").textContent = doc.source === "book" ? "Worked out in advance (a table that comes with the app): no search." :
    `The best turn: ${turnNumbers(b)}. ` + (proved < all ? `Each turn not proved was looked at to ${ahead} or more. ` : "") +
    `${doc.nodes.toLocaleString("en")} picks searched in ${doc.seconds.toFixed(1)} s.`;
  const sel = $("an-seconds");
  serverEndgame();
  $("an-longer").hidden = !final || !!AN.nodes || proved === all || sel.selectedIndex === sel.options.length - 1 || (!!anRun && anRun.budget >= AN_GO_ON);
  drawAn();
}

// The answer in the engine's words (`says_parts`, the sentence of `says`
// in parts, crates/format/src/words.rs), with the page's own tap (the
// board's pit numbers, the pit lit) and the value marked: for a finished
// answer to your turn. The engine speaks from the mover's side of an
// answer it has finished, so the opponent's turn ("They tap …") and an
// answer still coming ("still thinking") keep the page's own sentence; so
// does a document without the parts (null).
function engineSays(doc, b, tap) {
  const parts = doc.says_parts;
  if (!parts || typeof parts.template !== "string") return null;
  const esc = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const value = `<span id="an-value" data-value="${b.value}" data-exact="${b.exact}">${esc(parts.value)}</span>`;
  return esc(parts.template).replace("{tap}", tap).replace("{value}", value);
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
  $("an-prev").hidden = $("an-next").hidden = $("an-page").hidden = $("an-jump").hidden = $("an-go").hidden = !paged || pages < 2;
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
  if (anCtl && anRun && anRun.detach) {
    // A step of going on, on the static site's engine: left to end by
    // itself (within AN_STEP s), its answer not drawn, the engine kept.
    anSeq++; anCtl = null;
    if (user) { $("an-status").textContent = stoppedLine(); $("an-again").hidden = false; }
    $("an-stop").hidden = true;
    return;
  }
  if (anCtl) { if (!user) anSeq++; anCtl.abort(); if (!user) anCtl = null; }
  else if (user) {
    // Nothing of this page's runs (an analysis about to start, or one
    // another call already ended): a Stop still ends the wait it shows.
    const st = $("an-status");
    if (/^Thinking/.test(st.textContent)) st.textContent = "Stopped: " + (st.textContent.replace(/^Thinking(: )?…?/, "").replace(/…$/, ".") || "no answer yet.");
    $("an-stop").hidden = true; $("an-again").hidden = false;
  }
  if (!user) $("an-stop").hidden = true;
}
const AN_DRAW_EVERY = 250;
// The analysis running: its start on the page's clock, its budget in
// seconds (null for a budget of picks) and the counts last drawn. The
// status line counts its seconds every quarter second from the page's
// own clock, so that it moves while the engine is deep in one turn and
// sends nothing, and a Stop says the time it really ran.
let anRun = null;
const ranFor = () => ((performance.now() - anRun.t0) / 1000).toFixed(1);
function thinkingLine() {
  const t = (performance.now() - anRun.t0) / 1000;
  const of = anRun.budget && t <= anRun.budget ? ` of ${anRun.budget} s` : "";
  return anRun.all == null ? `Thinking… ${ranFor()} s${of}`
    : `Thinking: ${anRun.proved.toLocaleString("en")} of ${count(anRun.all, "turn")} proved, ${ranFor()} s${of}…`;
}
function stoppedLine() {
  return `Stopped after ${ranFor()} s` + (anRun.all == null ? ": no answer yet." : `: ${anRun.proved.toLocaleString("en")} of ${count(anRun.all, "turn")} proved.`);
}
function scheduleAnalysis(ms) { stopAnalysis(); anTimer = setTimeout(analyze, ms); }

// The budget the page goes on thinking to, by itself, when the first
// answer is not proved: the Think menu's longest.
const AN_GO_ON = 30;
// The static site's engine answers one request at a time, and ending a
// request ends its worker (its warm table with it; the next request waits
// for a fresh one). So there the page goes on in steps of AN_STEP seconds
// on the engine's kept solver (whose table carries each step's work to
// the next), and a tap or a Stop lets the step in progress end by itself.
// Under `serve` it goes on in one request, which a tap ends at once.
const AN_STEP = backend.engine === "wasm" ? 2 : null;
// After a first answer not yet proved, the page goes on thinking by
// itself up to AN_GO_ON seconds (the answer shown stays until a better
// one comes; Stop ends it), so that "probably" turns into "best" with no
// tap. Not for a budget of picks (the answer of a link that names one is
// meant to repeat) nor after a Stop.
function goesOn(doc, run) {
  const more = run.goOn ? (performance.now() - run.t0) / 1000 < AN_GO_ON - 0.2 : run.budget != null && run.budget < AN_GO_ON;
  return !AN.nodes && !doc.stopped && doc.answer !== "proved-best" && doc.source !== "book" && more;
}

async function analyze(keepErrors, goOn) {
  stopAnalysis();
  const p = cur();
  if (shownPage() !== "analyze" || !p || AN.busy) return;
  if (keepErrors !== true) anError({ message: "" });
  if (p.over) { clearAnalysis(); drawAn(); return; }
  if (AN.editing && invalidFields($("an-setup").parentElement).length) {
    clearAnalysis("Not analyzed: put right the field marked in red first."); drawAn(); return;
  }
  const seq = ++anSeq, ctl = new AbortController(), key = posKey(p);
  anCtl = ctl;
  serverEndgame();
  const body = { rules: AN.rules, board: moverBoard(p) };
  // Going on, the answer shown stays until one as deep comes (a fresh
  // search starts shallow), and so do its counts; the seconds count from
  // the first answer's start, against AN_GO_ON.
  const floor = goOn && anDoc ? anDoc.depth : -1, had = anRun || {};
  const keep = goOn && anDoc && anDocKey === key;
  const t0 = goOn && had.t0 ? had.t0 : performance.now();
  if (AN.nodes) body.nodes = AN.nodes;
  else if (!goOn) body.seconds = Number($("an-seconds").value);
  else body.seconds = AN_STEP ? Math.max(0.5, Math.min(AN_STEP, AN_GO_ON - (performance.now() - t0) / 1000)) : AN_GO_ON;
  if (!keep) { clearAnalysis(); drawAn(); }
  const run = anRun = { t0, budget: goOn ? AN_GO_ON : body.seconds || null, proved: goOn ? had.proved : null, all: goOn ? had.all : null,
    goOn: !!goOn, detach: !!goOn && !!AN_STEP };
  // The answer kept, said again as one still being thought about.
  if (keep) showAnalysis(anDoc, p, false);
  $("an-status").textContent = thinkingLine();
  const tick = setInterval(() => {
    if (seq !== anSeq || anRun !== run) { clearInterval(tick); return; }
    if (/^Thinking/.test($("an-status").textContent)) $("an-status").textContent = thinkingLine();
  }, 250);
  $("an-stop").hidden = false;
  // Progress is drawn at most every AN_DRAW_EVERY ms, the latest document
  // each time: the page stays free for taps while the engine thinks.
  let latest = null, done = false, drawn = 0;
  const onProgress = (doc) => {
    if (seq !== anSeq) return;
    if (!latest) {
      setTimeout(() => requestAnimationFrame(() => {
        if (seq === anSeq && !done && latest && (latest.exact || latest.depth >= floor)) { showAnalysis(latest, p, false); drawn = performance.now(); }
        latest = null;
      }), Math.max(0, drawn + AN_DRAW_EVERY - performance.now()));
    }
    latest = doc;
  };
  try {
    const doc = await retryBusy(() => stream("/api/analyze", body, ctl.signal, onProgress));
    done = true;
    if (seq === anSeq && posKey(cur()) === key) {
      // An answer that goes on is drawn once, by the run that goes on.
      if (goesOn(doc, run)) { anDoc = doc; anDocKey = key; setTimeout(() => { if (seq === anSeq && !anCtl) analyze(true, true); }, 0); }
      else showAnalysis(doc, p, true);
    }
  } catch (e) {
    done = true;
    if (seq !== anSeq) return;
    if (e.name === "AbortError") {
      if (latest && (latest.exact || latest.depth >= floor)) showAnalysis(latest, p, false);
      $("an-status").textContent = stoppedLine();
      $("an-again").hidden = false;
    } else {
      $("an-status").textContent = "";
      anError(e);
    }
  } finally {
    clearInterval(tick);
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
  const wrong = wrongTap(cur(), k);
  anError({ message: "" });
  if (wrong) { $("an-err-pit").textContent = wrong; return; }
  await anPlay([k], false);
}
// A tap the game cannot play, in a player's words with what to do
// instead (the engine's own refusal, in its words, stays for anything
// else); null for a pit the mover may pick.
function wrongTap(p, k) {
  const n = p.pits.length / 2, yours = k <= n, row = (who) => who === "you" ? "your row, at the bottom" : "the opponent's row, at the top";
  if (yours !== (p.mover === "you")) {
    const whose = yours ? "yours" : "the opponent's";
    return `Pit ${k} is ${whose}, but it is ${p.mover === "you" ? "your" : "the opponent's"} turn: tap a pit in ${row(p.mover)}` +
      (p.mover === "you" ? "." : ", the one they picked.") +
      ` If it is really ${p.mover === "you" ? "the opponent's" : "your"} turn, go ◀ Back to the turn missed, or use Edit board to say who moves.`;
  }
  if (p.pits[k - 1] === 0) return `Pit ${k} is empty: tap a pit with stones in it.`;
  return null;
}
const playTurn = (picks) => anPlay(picks, true);

// Play picks (board numbers) one after another from the current place,
// each drawn before the next; then keep the line in the link and analyze.
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
  saveUrl(true); drawAn(); analyze(failed);
}

function goTo(at) {
  if (AN.busy || at === AN.at) return;
  AN.at = at; anShownCells = null;
  saveUrl(true); drawAn(); analyze();
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
function syncCount() { if (!cur()) return; $("an-count").value = cellCount(cur()); readCount($("an-count"), 0, LIMITS.max_stones_in_play, "Stones"); }


$("an-edit").addEventListener("click", () => {
  if (AN.busy || !cur()) return;
  AN.editing = !AN.editing;
  if (AN.editing) { $("an-mover").value = cur().mover || "you"; syncCount(); }
  drawAn();
  if (!AN.editing && (!anDoc || anDocKey !== posKey(cur()))) analyze();
});
$("an-done").addEventListener("click", () => $("an-edit").click());
$("an-count").addEventListener("input", () => { const v = readCount($("an-count"), 0, LIMITS.max_stones_in_play, "Stones"); if (v !== null && v !== cellCount(cur())) setCount(v); });
$("an-minus").addEventListener("click", () => { const v = cellCount(cur()); if (v > 0) setCount(v - 1); });
$("an-plus").addEventListener("click", () => { const v = cellCount(cur()); if (LIMITS.max_stones_in_play == null || v < LIMITS.max_stones_in_play) setCount(v + 1); });
// Pits a side: checked as typed, a new start position once the field is left.
$("an-pits").addEventListener("input", () => readCount($("an-pits"), 1, LIMITS.max_pits_per_side, "Pits a side"));
$("an-pits").addEventListener("change", () => {
  const k = readCount($("an-pits"), 1, LIMITS.max_pits_per_side, "Pits a side");
  if (k === null || k === AN.n) return;
  const s = readCount($("an-stones"), 0, LIMITS.max_stones_in_play, "Stones a pit");
  setStart(uniform(k, s === null ? 0 : s, $("an-mover").value));
});
$("an-stones").addEventListener("input", () => readCount($("an-stones"), 0, LIMITS.max_stones_in_play, "Stones a pit"));
$("an-start").addEventListener("click", () => {
  const k = readCount($("an-pits"), 1, LIMITS.max_pits_per_side, "Pits a side"), s = readCount($("an-stones"), 0, LIMITS.max_stones_in_play, "Stones a pit");
  if (k !== null && s !== null) setStart(uniform(k, s, $("an-mover").value));
});
$("an-clear").addEventListener("click", () => {
  const k = readCount($("an-pits"), 1, LIMITS.max_pits_per_side, "Pits a side");
  if (k !== null) setStart(uniform(k, 0, $("an-mover").value));
});
$("an-mover").addEventListener("change", () => { editable().mover = $("an-mover").value; edited(); });
// The paste field, read by the engine as it is typed; Use puts its board
// on the page, or says beside the board why the engine refuses it.
const paste = pasteField($("an-paste"), $("an-err-paste"), () => AN.rules);
$("an-use").addEventListener("click", async () => {
  const t = $("an-paste").value;
  if (!t.trim()) { $("an-err-paste").textContent = "Paste or type a board first."; return; }
  const long = tooLong(t);
  if (long) { sayTyped($("an-err-paste"), long); return; }
  let b;
  try { b = await paste.read(); }
  catch (e) { clearTyped($("an-err-paste")); $("an-err-board").textContent = e.message; return; }
  setStart({ pits: b.pits, store: b.store, oppStore: b.oppStore, mover: $("an-mover").value, over: false, result: null });
});
$("an-rules").addEventListener("change", () => {
  // Other rules, another game: the position shown starts a new line.
  AN.rules = $("an-rules").value;
  const p = clonePos(cur());
  if (p.over || !p.mover) { p.over = false; p.result = null; p.mover = "you"; }
  AN.states = [p]; AN.line = []; AN.at = 0;
  saveUrl(true); drawAn(); analyze();
});
$("an-seconds").addEventListener("change", analyze);
$("an-longer").addEventListener("click", () => { const s = $("an-seconds"); s.selectedIndex = Math.min(s.selectedIndex + 1, s.options.length - 1); analyze(); });
$("an-again").addEventListener("click", analyze);
$("an-stop").addEventListener("click", () => stopAnalysis(true));
$("an-all").addEventListener("click", () => { turnPage(0); $("an-few").focus(); });
$("an-few").addEventListener("click", () => { turnPage(null); $("an-all").focus(); });
$("an-prev").addEventListener("click", () => { if (anPage > 0) turnPage(anPage - 1); });
$("an-next").addEventListener("click", () => { if (anPage !== null) turnPage(anPage + 1); });
// Go to turn K: the page of fifty that holds it.
function goToTurn() {
  if (!anDoc) return;
  const all = anDoc.turns_total || anDoc.turns.length, have = anDoc.allTurns ? all : anDoc.turns.length;
  const k = readCount($("an-goto"), 1, have, "Turn");
  if (k === null) return;
  turnPage(Math.floor((k - 1) / AN_PAGE));
  const b = $("an-turn-" + k);
  if (b) b.focus();
}
$("an-go").addEventListener("click", goToTurn);
$("an-goto").addEventListener("keydown", (e) => { if (e.key === "Enter") goToTurn(); });
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
  // The link's rules word, checked against the engine's presets once
  // they have come (a word they lack is read again then: the "limits"
  // listener below); the link is read at once, before them.
  const word = q.get("rules") || AN_DEFAULT_RULES, known = !LIMITS.presets || preset(word);
  let rules = known ? word : AN_DEFAULT_RULES;
  let linkError = false;
  if (!known) { $("an-err-rules").textContent = `The link's rules "${word}" are not known here; showing ${rulesLabel(AN_DEFAULT_RULES)}.`; linkError = true; }
  const mover = q.get("to") === "opp" ? "opp" : "you";
  let start = uniform(6, 4, mover);
  if (q.get("board")) {
    // The page's own link is read at once (no await: Back shows its
    // position before anything else runs); another text by the engine.
    try { const read = boardOfLink(q.get("board"), rules), b = read instanceof Promise ? await read : read; start = { pits: b.pits, store: b.store, oppStore: b.oppStore, mover, over: false, result: null }; }
    catch (e) { if (token === anLoad) $("an-err-board").textContent = "The link's board: " + e.message; linkError = true; }
    // A newer link was read meanwhile.
    if (token !== anLoad) return;
  }
  const line = (q.get("line") || "").split(",").filter((x) => x !== "").map((x) => (/^\d+$/.test(x) ? Number(x) : 0));
  const at = q.has("at") && /^\d+$/.test(q.get("at")) ? Number(q.get("at")) : line.length;
  AN.nodes = /^\d+$/.test(q.get("nodes") || "") ? Number(q.get("nodes")) : null;
  const same = AN.states.length && AN.rules === rules && boardLink(AN.states[0]) === boardLink(start) && AN.states[0].mover === mover;
  let keep = 0;
  if (same) while (keep < line.length && keep < AN.line.length && line[keep] === AN.line[keep]) keep++;
  else { AN.states = [start]; anShownCells = null; }
  AN.rules = rules; choosePreset($("an-rules"), rules);
  AN.n = AN.states[0].pits.length / 2; setField($("an-pits"), AN.n);
  AN.states = AN.states.slice(0, keep + 1); AN.line = line.slice(0, keep); AN.at = Math.min(at, keep);
  syncCount();
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
  anReview = linkedReview(q);
  drawAn();
  analyze(linkError);
}
// The review's words for the turn a Review link opened (`review=K`, at
// the place before turn K), from the review kept in this browser.
function linkedReview(q) {
  const k = /^\d+$/.test(q.get("review") || "") ? Number(q.get("review")) : 0, t = k && reviewedTurn(k), p = cur();
  if (!t || !p || p.over) return null;
  const best = t.best.map((x) => turnPit(p, x));
  return { at: AN.at, prefix: AN.line.slice(0, AN.at).join(","), best: best[0] || null,
    text: `Review, turn ${k}: ${t.player} played ${t.seen.join(" ")}: ${t.says}.` + (best.length ? ` The best turn here: ${best.join(", then ")}.` : "") };
}
// The game of the line, for the Review page: the start from the first
// mover's side, each whole turn's picks as its mover numbers them and as
// the board shows them.
function reviewGame() {
  const s = AN.states[0], turns = [], seen = [], all = lineTurns();
  // A turn still going on (its mover picks again) is not reviewed yet.
  const end = AN.states[AN.line.length];
  if (all.length && end && !end.over && end.mover === all[all.length - 1].mover) all.pop();
  for (const t of all) {
    const picks = AN.line.slice(t.from, t.to);
    seen.push(picks);
    turns.push(picks.map((k) => turnPit(AN.states[t.from], k)));
  }
  const first = s.mover !== "opp";
  return {
    source: "analyze", rules: anPreset(), board: moverBoard(s), you: first ? "first" : "second",
    players: first ? { first: "you", second: "the opponent" } : { first: "the opponent", second: "you" },
    turns, seen, link: { rules: AN.rules, board: boardLink(s), to: s.mover || "you" },
  };
}
$("an-review-game").addEventListener("click", () => { const g = reviewGame(); if (g.turns.length && !AN.busy) openReview(g); });
// The Analyze page comes into view: draw it, and analyze what is not yet.
function anShown() {
  if (!cur() || AN.busy) return;
  serverEndgame();
  drawAn();
  if (!anDoc || anDocKey !== posKey(cur())) analyze();
}

// ---- the endgame database (static site) ----
// Its state under the Analyze page's answer, in a few words: the site's
// engine builds it in the background after the first analysis that
// lacks it (backend.js), and the analyses after that use it.
// Then the stronger one, built on it (as large as a phone's memory
// allows), with how far it is, about how long it has left, and Stop.
function endgameWords(s, l) {
  if (!s) s = { state: "building", share: 0 };
  if (s.state === "building") return `Table of endings: being made on this device, ${Math.floor(100 * s.share)}%. Once it is ready, positions near the end of a game are answered exactly and at once.`;
  if (s.state !== "ready") return `Table of endings: not made (${s.error}). Answers are still right, but take longer to prove near the end of a game.`;
  const ready = `Table of endings: ready. Positions with ${s.key.stones} stones or fewer left in the pits are answered exactly and at once.`;
  if (!l || l.state === "ready") return ready;
  if (l.state === "building") {
    const left = l.seconds == null ? "" : l.seconds < 90 ? `, about ${Math.max(1, Math.round(l.seconds / 10) * 10)} s left` : `, about ${Math.round(l.seconds / 60)} min left`;
    return `${ready} A stronger one (${l.of} stones) is being made on this device: ${Math.floor(100 * l.share)}%${left}. Once it is ready, far more answers of the middle game are proved best.`;
  }
  if (l.state === "stopped") return `${ready} The stronger one was stopped at ${Math.floor(100 * l.share)}%; it goes on from there on your next visit.`;
  return `${ready} The stronger one could not be made (${l.error}).`;
}
backend.onEndgame((s, l) => {
  $("an-endgame").textContent = endgameWords(s, l);
  $("an-endgame").hidden = false;
  $("an-larger").hidden = !(l && l.state === "building");
});
$("an-larger-stop").addEventListener("click", () => backend.stopLarger());
// Under `serve`, the databases it read at start (GET /api/limits): when
// none is there for the board shown, the page says so and how to make
// one (`game analyze` makes the one of its rules and size in the cache,
// which `serve` reads when it starts).
// A board of at most 16 stones needs none: its analysis proves it whole.
function serverEndgame() {
  if (backend.engine !== "server" || !Array.isArray(LIMITS.endgames) || !cur()) return;
  const rules = anPreset(), small = cur().pits.reduce((a, b) => a + b, 0) <= 16;
  const has = small || LIMITS.endgames.some((d) => d.rules === rules && d.pits_per_side === AN.n);
  $("an-endgame").hidden = has;
  if (!has) $("an-endgame").textContent = `No table of endings on this computer for ${rulesLabel(AN.rules)} with ${AN.n} pits a side: answers near the end of a game take longer to prove. ` +
    `To make one (seconds to half a minute, once), run mancala-sweep game analyze --rules ${rules} --board "…" with a board of this size in a terminal, then start mancala-sweep serve again.`;
}

window.addEventListener("limits", serverEndgame);
// A link's rules read before the engine's presets came, and not one of
// them: the link read again, to say so and show the default rules.
window.addEventListener("limits", () => { if (!preset(AN.rules)) anFromUrl(); });

// The browser tests start an analysis themselves.
window.analyze = analyze;

register("analyze", {
  shown: anShown,
  left: stopAnalysis,
  query: anQuery,
  fromUrl: anFromUrl,
});

// The page's start: editing the board (a first visit, or a link of
// another page) or analyzing the link's position.
export function startAnalyze(editing) {
  AN.editing = editing;
  anFromUrl();
  syncCount();
}
