// The Play page: a game against the computer, on the engine's
// GameSession. The page applies no rule: it sends the pit and draws what
// the engine says happened, pick by pick.
/* global backend */
import { $, clearErrors, readCount, setField, showError } from "./fields.js";
import { api, sleep } from "./calls.js";
import { boardLink, drawBoard, LIMITS, limitsReady } from "./board.js";
import { keepUrl, openAnalyze, register } from "./url.js";
import { openReview } from "./review.js";

let game = null, gBusy = false, gHint = [], gLast = null;
// The game from its start, for "Analyze this game": rules, size, who
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
// ("… 3 s of at most 15 s": `data-seconds` of the level's option, the
// level's `seconds` in GET /api/limits, which the engine's agent for it
// keeps with time to spare for its stop); thinking(false) stops
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
  $("g-review").hidden = !reviewGame();
  $("g-review").disabled = gBusy;
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
  const pitsN = readCount($("g-pits"), 1, LIMITS.max_pits_per_side, "Pits a side"), stonesN = readCount($("g-stones"), 0, LIMITS.max_stones_in_play, "Stones a pit");
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
$("g-pits").addEventListener("input", () => readCount($("g-pits"), 1, LIMITS.max_pits_per_side, "Pits a side"));
$("g-stones").addEventListener("input", () => readCount($("g-stones"), 0, LIMITS.max_stones_in_play, "Stones a pit"));
// The button pressed keeps the focus through its request (it is disabled
// meanwhile, which sends the focus to the page's body), or, when it cannot
// be pressed again, the first pit the person may pick.
function refocus(button) {
  if (document.activeElement && document.activeElement !== document.body) return;
  const to = !button.disabled ? button : $("gboard").querySelector(".pit:not(:disabled)");
  if (to) to.focus();
}
// The hint: the best turn of an analysis of the position (the Analyze
// page's, 1.5 s at most, whatever the computer's level), with its value;
// the status counts the seconds meanwhile.
const HINT_SECONDS = 1.5;
$("g-hint").addEventListener("click", async () => {
  if (!game) return;
  const start = Date.now();
  const say = () => { $("g-status").textContent = `Looking for your best turn… ${((Date.now() - start) / 1000).toFixed(1)} s of at most ${HINT_SECONDS} s`; };
  say();
  const timer = setInterval(say, 100);
  const doc = await gameCall(`/api/game/${game.id}/hint`);
  clearInterval(timer);
  if (!doc) { gameStatus(); refocus($("g-hint")); return; }
  game = doc; gHint = doc.hint || []; drawGame(doc.position, doc.legal); gameStatus(); saveGame();
  $("g-status").textContent = gHint.length ? hintWords(gHint, doc.hint_value) : "No hint now.";
  refocus($("g-hint"));
});
// "Hint: tap 3, then 6: best, you win by 2."
function hintWords(picks, v) {
  const tap = `Hint: tap ${picks.join(", then ")}`;
  if (!v) return tap + ".";
  return v.answer === "proved-best" ? `${tap}: best, ${v.words}.` : `${tap}: the best found in ${v.seconds.toFixed(1)} s, ${v.words}.`;
}
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
  const keep = { engine: backend.engine, id: game.id, rules: game.preset || $("g-rules").value, level: game.level || LIMITS.default_level || $("g-level").value,
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
  // The rules and levels to show it under are the engine's.
  if (!LIMITS.presets) await limitsReady;
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
// differ, "Analyze this game" gives the position now instead of the game.
function undoRecord(doc) {
  if (!gRecord) return;
  const ps = gRecord.picks, by = () => ps.length && ps[ps.length - 1].by;
  if (by() === "person") while (by() === "person") ps.pop();
  else { while (by() === "computer") ps.pop(); while (by() === "person") ps.pop(); }
  const now = ps.length ? ps[ps.length - 1].after.board : null;
  if (now !== doc.position.board && !(ps.length === 0 && doc.turn === 1)) gRecord.broken = true;
}

// ---- "Analyze this game": the game from its start with every pick (as
// the person sees it), or, when the record was lost, its position now.
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
  openAnalyze(q);
});

// ---- "Review this game": the game from its start, each turn's picks
// (a player's picks until the other moves) as its mover numbers them and
// as the board shows them; none when the record was lost or no whole turn
// was played.
function reviewGame() {
  if (!game || !gRecord || gRecord.broken || !gRecord.picks.length) return null;
  const r = gRecord, n = game.pits_per_side, turns = [], seen = [];
  let last = null;
  for (const p of r.picks) {
    if (p.by === last) { turns[turns.length - 1].push(p.pit); seen[seen.length - 1].push(p.pit_seen); }
    else { turns.push([p.pit]); seen.push([p.pit_seen]); last = p.by; }
  }
  // A turn still going on (its player picks again) is not reviewed yet.
  if (!game.over && game.to_move === last) { turns.pop(); seen.pop(); }
  if (!turns.length) return null;
  const row = Array(n).fill(r.stones), first = r.person === "first";
  const computer = `the computer (${game.level || $("g-level").value})`;
  return {
    source: "play", rules: r.rules, board: `${row.join(" ")} / 0 0 / ${row.join(" ")}`,
    players: first ? { first: "you", second: computer } : { first: computer, second: "you" },
    you: first ? "first" : "second", turns, seen,
    link: { rules: r.rules, board: `${row.join(",")}/0,0/${row.join(",")}`, to: first ? "you" : "opp" },
  };
}
$("g-review").addEventListener("click", () => { const g = reviewGame(); if (g) openReview(g); });

// The browser tests read the game shown.
Object.defineProperty(window, "game", { get: () => game });

register("play", {
  shown: () => { if (!game && !gBusy) resumeGame().then((ok) => { if (!ok) newGame(); }); },
  query: () => "?page=play" + (game && backend.engine === "server" ? `&game=${game.id}` : ""),
});
