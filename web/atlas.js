// The Atlas page: the committed atlas.json, one table per rule set, and
// the rule sets in a player's words (the Puzzles page names its
// collections with them too).
import { $, count } from "./fields.js";
import { api } from "./calls.js";
import { register } from "./url.js";
import { LIMITS, limitsReady } from "./board.js";

let atlas = null;
export const ruleKey = (r) => `${r.scope}-${r.relay ? "relay" : "norelay"}-${r.capture}`;
// The label of the engine's preset with these rules (GET /api/limits),
// or null when no preset has them.
export function presetLabel(key) {
  const p = (LIMITS.presets || []).find((x) => ruleKey(x.rules) === key);
  return p ? p.label : null;
}
// A rule set in a player's words: its game's name, or what its rules do.
function ruleWords(key) {
  if (presetLabel(key)) return presetLabel(key);
  const [scope, relay, capture] = key.split("-");
  return [scope === "any" ? "any pit" : "your pits",
    relay === "relay" ? "avalanche" : "no avalanche",
    ((LIMITS.captures || []).find((c) => c.name === capture) || { label: capture }).label].join(", ");
}

async function loadAtlas() {
  try { atlas = await api("GET", "/api/atlas"); }
  catch (e) { $("a-detail").textContent = e.message; return; }
  await limitsReady;
  const keys = [...new Set(atlas.cells.map((c) => ruleKey(c.rules)))];
  keys.sort((a, b) => (presetLabel(b) ? 1 : 0) - (presetLabel(a) ? 1 : 0) || a.localeCompare(b));
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
    `<p class="big">${count(c.pits, "pit")} a side, ${count(c.stones, "stone")} a pit: best store <b id="a-best">${c.exact ? "" : "at least "}${c.best_store}</b> of ${c.total_stones}` +
    (c.sweep ? " — every stone, a <b>sweep</b>" : "") + `</p>` +
    `<p>${c.exact ? "Exact: proved by a full search" : "At least this: found by a quick search, not proved"} in ${c.seconds.toFixed(2)} s. ` +
    `Optimal pick sequences: ${num(c.optimal_count)}; turns counted: ${num(c.turns_total)}; positions: ${num(c.positions)}.</p>` +
    `<p>Best line (${c.line.length} picks): <span class="line" id="a-line">${c.line.join(" ")}</span></p>`;
}

$("a-rules").addEventListener("change", drawAtlas);

register("atlas", {
  shown: () => { if (!atlas) loadAtlas(); },
  query: () => "?page=atlas",
});
