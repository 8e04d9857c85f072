// mancala-sweep web app: plain JavaScript in ES modules, no framework, no
// build step, no outside requests. This module starts the pages; each
// page is a module of its own (analyze.js, solve.js, puzzles.js, play.js,
// atlas.js, review.js) over the shared ones: fields.js (fields and their errors),
// calls.js (the engine's requests, through backend.js), board.js (the
// board text read by the engine, its limits, the board drawn) and url.js
// (the pages and their links). mode.js and backend.js are plain scripts
// that run before it.
import { startAnalyze } from "./analyze.js";
import "./solve.js";
import "./puzzles.js";
import "./play.js";
import "./atlas.js";
import "./review.js";
import { PAGES, fromUrl, showPage, shownPage, startOn } from "./url.js";

document.querySelectorAll("nav button").forEach((b) => b.addEventListener("click", () => showPage(b.dataset.page, true)));

// Back and Forward: the page the link names, at the link's position.
window.addEventListener("popstate", () => {
  const q = new URLSearchParams(location.search), want = PAGES.includes(q.get("page")) ? q.get("page") : "analyze";
  if (want === "analyze") { fromUrl("analyze", q); if (shownPage() !== "analyze") showPage("analyze"); return; }
  if (want === "solve" || want === "puzzles") fromUrl(want, q);
  showPage(want);
});

// ---- start ----
const startQ = new URLSearchParams(location.search), startPage = startQ.get("page");
const elsewhere = PAGES.includes(startPage) && startPage !== "analyze";
if (elsewhere) startOn(startPage);
// Analyze opens ready to play, its answer first: editing the board is a
// mode the player asks for (Edit board).
startAnalyze(false);
if (elsewhere) {
  if (startPage === "solve") fromUrl("solve", startQ);
  showPage(startPage);
}
