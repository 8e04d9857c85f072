// The pages and their links. Each page module registers what the shell
// needs of it: what to do when it is shown (`shown`) or left (`left`),
// its link's query (`query`) and how it reads a link (`fromUrl`). The
// page and its position are in the link (`?page=solve&rules=&board=`,
// `?page=puzzles&collection=&grade=&puzzle=`, `?page=play[&game=ID]`,
// `?page=review` (the game kept in this browser);
// the Analyze page's own link has no `page`), so that a reload or Back
// brings them back.
import { $ } from "./fields.js";

export const PAGES = ["analyze", "solve", "puzzles", "play", "atlas", "review"];
const pages = {};
let page = "analyze";

// Page `name`'s hooks: {shown, left, query, fromUrl}, each optional.
export function register(name, hooks) { pages[name] = hooks; }
// The page shown now.
export const shownPage = () => page;
// The page the link opens, before anything is drawn: the Analyze page
// then starts no analysis that the page shown would stop at once (on the
// static site, a Stop ends the engine while it loads).
export function startOn(name) { page = name; }

// Show page `name`. `push`: a new entry in the history (a tab pressed).
export function showPage(name, push) {
  const was = page;
  page = name;
  if (push && was !== name) pageUrl(true);
  document.querySelectorAll("nav button").forEach((o) => {
    if (o.dataset.page === name) o.setAttribute("aria-current", "page"); else o.removeAttribute("aria-current");
  });
  for (const p of PAGES) $("page-" + p).hidden = p !== name;
  for (const p of PAGES) if (p !== name && pages[p] && pages[p].left) pages[p].left();
  if (pages[name] && pages[name].shown) pages[name].shown();
}

// The link of the page shown now.
function pageQuery() {
  const hooks = pages[page];
  return hooks && hooks.query ? hooks.query() : `?page=${page}`;
}
export function pageUrl(push) {
  const q = pageQuery();
  if (q !== location.search) history[push ? "pushState" : "replaceState"](null, "", q);
}
// Keep the shown page's link up to date (its position changed).
export function keepUrl(name) { if (page === name) pageUrl(false); }

// Page `name` reads link `q` (its own part of it).
export function fromUrl(name, q) { if (pages[name] && pages[name].fromUrl) return pages[name].fromUrl(q); }

// Open the Analyze page at link `q` (a position, a line), as a new entry
// in the history.
export function openAnalyze(q) {
  history.pushState(null, "", q);
  fromUrl("analyze", new URLSearchParams(location.search));
  showPage("analyze");
}
