// The static site's service worker: the site works offline after the
// first visit. The first-load files are stored at install; every later
// GET asks the network first (so that a new build is seen at once) and
// falls back to the stored copy when there is no network.
"use strict";
const CACHE = "mancala-sweep-site";
const FIRST = ["./", "index.html", "app.css", "app.js", "backend.js", "mode.js", "engine.js", "mancala_sweep.wasm"];

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FIRST)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (e) => {
  if (e.request.method !== "GET") return;
  e.respondWith(
    fetch(e.request)
      .then((res) => {
        if (res.ok) { const copy = res.clone(); caches.open(CACHE).then((c) => c.put(e.request, copy)); }
        return res;
      })
      .catch(() => caches.match(e.request).then((hit) => hit || Response.error())),
  );
});
