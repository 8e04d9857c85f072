// The static site's service worker: the site works offline after the
// first visit. The site's files are stored at install (the atlas too, so
// that its page opens offline though it was never opened online); every
// later GET asks the network first (so that a new build is seen at once)
// and falls back to the stored copy when there is no network.
//
// The pages put their state in the query (`?rules=…&line=6`,
// `?page=solve&board=…`), and every address with a query is the same
// file: a copy is kept and found by the address without its query, so
// that every link the app makes reloads offline, and the store holds one
// copy of each file however many links were visited.
"use strict";
const CACHE = "mancala-sweep-site";
const FIRST = ["./", "app.css", "app.js", "fields.js", "calls.js", "board.js", "url.js", "analyze.js", "solve.js", "puzzles.js", "play.js", "atlas.js", "review.js", "backend.js", "mode.js", "engine.js", "digest.js", "store.js", "endgame.js", "mancala_sweep.wasm", "atlas/atlas.json"];

// The address a copy is kept under: without its query or fragment; a page
// of the site ("./", "index.html", any link) under "./".
function key(request) {
  const url = new URL(request.url);
  url.search = ""; url.hash = "";
  if (request.mode === "navigate" || url.pathname.endsWith("/index.html")) url.pathname = url.pathname.replace(/index\.html$/, "");
  return url.href;
}

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FIRST)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (e) => {
  if (e.request.method !== "GET" || new URL(e.request.url).origin !== location.origin) return;
  const k = key(e.request);
  e.respondWith(
    fetch(e.request)
      .then((res) => {
        if (res.ok) { const copy = res.clone(); caches.open(CACHE).then((c) => c.put(k, copy)); }
        return res;
      })
      .catch(() => caches.match(k).then((hit) => hit || Response.error())),
  );
});
