// The board: its text read by the engine (POST /api/board, the grammar
// and the bounds every endpoint applies), the engine's limits, the board
// drawn, and the board in a link.
import { request } from "./calls.js";
import { clearTyped, sayTyped } from "./fields.js";

// The bounds of a board as the engine checks them (GET /api/limits):
// pits a side, stones in the pits and the mover's store, the length of
// a board text. Every module that checks a count reads them here. They
// come while the page is already in use (on the static site, once its
// quick engine has loaded): until then a field is checked against its
// lower bound only, and the engine, which checks every request, says
// what is over the upper one.
export const LIMITS = {};
// The same document carries the engine's vocabulary, so that the pages
// hold no copy of it: the rule presets (name, aliases such as capture =
// kalah, a player's label, the rules), the computer's levels (name,
// label, seconds a turn) and the memory a search may hold on this
// back-end (`max_memory`).
// Asked again when the answer does not come (on the static site, a Stop
// at the start ends the engine with the request). A "limits" event on
// the window says they came, for what a page draws from them;
// `limitsReady` resolves then (or once every try has failed).
let limitsCame;
export const limitsReady = new Promise((resolve) => { limitsCame = resolve; });
function askLimits(tries) {
  request("GET", "/api/limits").then((doc) => { Object.assign(LIMITS, doc); fillVocabulary(); limitsCame(); window.dispatchEvent(new Event("limits")); },
    () => { if (tries > 1) setTimeout(() => askLimits(tries - 1), 200); else limitsCame(); });
}
askLimits(10);

// The preset a rules word names (its name or an alias), or null: the
// engine's own reading of `?rules=` and of a select's value.
export function preset(word) {
  return (LIMITS.presets || []).find((p) => p.name === word || p.aliases.includes(word)) || null;
}
// Show the rules `word` (a preset's name or alias) in a presets select at
// once, as a link read at start asks: by its preset once the vocabulary
// has come; before, as it is, until fillVocabulary lists the presets and
// keeps it by its preset. False when the engine names no such preset.
export function choosePreset(select, word) {
  if (LIMITS.presets) {
    const p = preset(word);
    if (p) select.value = p.name;
    return !!p;
  }
  if (![...select.options].some((o) => o.value === word)) select.add(new Option(word, word));
  select.value = word;
  return true;
}
// A rules word in a player's words ("GamePigeon capture"), or the word
// itself when the engine names no such preset.
export const rulesLabel = (word) => (preset(word) || { label: word }).label;

// The selects that list the presets (`data-vocab="presets"`) and the
// levels (`data-vocab="levels"`, each with its seconds a turn in
// `data-seconds`), built from the engine's vocabulary; the HTML holds
// one fallback option each, the page's default, until it comes. A
// select keeps the option it had (a rules word by its preset).
function fillVocabulary() {
  const esc = (t) => String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
  const fill = (select, options) => {
    const was = (preset(select.value) || { name: select.value }).name;
    select.innerHTML = options.join("");
    if ([...select.options].some((o) => o.value === was)) select.value = was;
  };
  for (const s of document.querySelectorAll('select[data-vocab="presets"]'))
    fill(s, (LIMITS.presets || []).map((p) => `<option value="${esc(p.name)}">${esc(p.label)}</option>`));
  for (const s of document.querySelectorAll('select[data-vocab="levels"]'))
    fill(s, (LIMITS.levels || []).map((l) => `<option value="${esc(l.name)}"${l.seconds ? ` data-seconds="${l.seconds}"` : ""}>${esc(l.label)}</option>`));
}

// A text longer than any board needs is refused at once, before it is
// sent, so that a stray paste of thousands of pits never holds up the
// page: the reason, or null when the text is short enough.
export function tooLong(text) {
  if (LIMITS.max_board_text == null || text.length <= LIMITS.max_board_text) return null;
  return `That text is ${text.length.toLocaleString("en")} characters long: a board has at most ${LIMITS.max_pits_per_side} pits a side, and its text at most ${LIMITS.max_board_text.toLocaleString("en")} characters.`;
}

// A board text read by the engine for `rules`: {n, pits (1..2n in pit
// order), store, oppStore}, or an Error naming its field ("board") with
// the engine's reason.
export async function readBoard(text, rules) {
  const long = tooLong(text);
  if (long) throw Object.assign(new Error(long), { field: "board" });
  const doc = await request("POST", "/api/board", { board: text, rules });
  return { n: doc.pits_per_side, pits: doc.pits, store: doc.store, oppStore: doc.opponent_store };
}

// The board in a link: "top row / opponent's store, yours / bottom row",
// commas between counts.
export function boardLink(p) {
  const n = p.pits.length / 2;
  return `${p.pits.slice(n).reverse().join(",")}/${p.oppStore},${p.store}/${p.pits.slice(0, n).join(",")}`;
}

// The board of a link as boardLink writes it ("4,4,4/0,0/4,4,4"), read
// at once so that a page opened from its link shows its position
// straight away; null for any other text (a link written by hand), which
// the engine reads (boardOfLink). The engine checks the board's bounds
// with every request made on it, as for a board typed.
function linkBoard(text) {
  const m = /^(\d+(?:,\d+)*)\/(\d+),(\d+)\/(\d+(?:,\d+)*)$/.exec(text);
  if (!m) return null;
  const top = m[1].split(",").map(Number), bottom = m[4].split(",").map(Number);
  if (top.length !== bottom.length) return null;
  return { n: bottom.length, pits: bottom.concat(top.reverse()), oppStore: Number(m[2]), store: Number(m[3]) };
}
// The board of link text `text` (as readBoard gives it): at once when the
// page wrote it, else as the engine reads it for `rules`.
export const boardOfLink = (text, rules) => linkBoard(text) || readBoard(text, rules);

// ---- board drawing: opponent's row on top (pit 2n .. n+1), own row below (1 .. n) ----
// cell(i) returns the element for pit index i (0-based pit number - 1).
// onStore(which), when given, makes the stores buttons ("store" or "opp-store").
export function drawBoard(el, n, store, oppStore, cell, oppName, onStore) {
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

// A paste field whose text the engine reads as it is typed, its reason
// beside the field (`err`) when it refuses it; `rules()` names the rules.
// `read()` gives the board of the text now, or throws the engine's
// refusal: at once when the text was read as it was typed.
export function pasteField(input, err, rules) {
  let seq = 0, checked = null;
  input.addEventListener("input", () => {
    const t = input.value, mine = ++seq;
    checked = null;
    if (!t.trim()) { clearTyped(err); return; }
    const long = tooLong(t);
    if (long) { sayTyped(err, long); return; }
    readBoard(t, rules()).then((board) => ({ board }), (error) => ({ error })).then((r) => {
      if (mine !== seq) return;
      checked = { text: t, ...r };
      if (r.error) sayTyped(err, r.error.message); else clearTyped(err);
    });
  });
  return {
    read() {
      const t = input.value;
      if (checked && checked.text === t) return checked.error ? Promise.reject(checked.error) : Promise.resolve(checked.board);
      return readBoard(t, rules());
    },
  };
}
