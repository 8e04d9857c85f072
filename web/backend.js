// Where the pages' API requests go: the server of `mancala-sweep serve`
// (HTTP, server-sent events for streams), or, on the static site, the
// engine compiled to WebAssembly in a Web Worker (engine.js). mode.js says
// which: `serve` gives {engine: "server"}, the site's build writes
// {engine: "wasm"}. Both answer the same paths with the same documents.
"use strict";

const backend = (() => {
  const wasm = (window.MANCALA_SWEEP || {}).engine === "wasm";

  // The error a page shows: the document's message, and its field.
  function failure(doc, status) {
    const err = new Error((doc && doc.error) || "the engine answered " + status);
    err.field = doc && doc.field; err.status = status;
    return err;
  }

  // An answer cut to its best turns by a worker (digest.js), with its
  // whole text: `allTurns()` reads every turn, when a page asks for them.
  function whole(doc, text) {
    if (text !== undefined && doc) Object.defineProperty(doc, "allTurns", { value: () => JSON.parse(text).turns });
    return doc;
  }

  // ---- the server ----
  async function httpCall(method, path, body, signal) {
    const opts = { method, signal };
    if (body !== undefined) { opts.headers = { "Content-Type": "application/json" }; opts.body = JSON.stringify(body); }
    const res = await fetch(path, opts);
    let doc = null;
    try { doc = await res.json(); } catch (e) { /* not JSON */ }
    if (!res.ok) throw failure(doc, res.status);
    return doc || {};
  }

  // Server-sent events, read in a worker of their own (stream.js), which
  // hands on each progress document cut to what the page draws
  // (digest.js), then the result; Stop ends the worker, and with it the
  // request.
  // A worker is started ahead, ready (its scripts loaded) for the next
  // stream, so that a stream's answer comes as fast as a plain request's.
  let spare = null;
  function streamWorker() {
    const w = spare || new Worker("stream.js");
    spare = new Worker("stream.js");
    return w;
  }
  function httpStream(path, body, onProgress, signal) {
    if (signal && signal.aborted) return Promise.reject(new DOMException("stopped", "AbortError"));
    return new Promise((resolve, reject) => {
      const w = streamWorker();
      const end = () => w.terminate();
      if (signal) signal.addEventListener("abort", () => { end(); reject(new DOMException("stopped", "AbortError")); }, { once: true });
      w.onmessage = (e) => {
        const m = e.data;
        if (m.event === "progress") { onProgress(m.data); return; }
        end();
        if (m.event === "result") { resolve(whole(m.data, m.text)); return; }
        let doc = null;
        try { doc = JSON.parse(m.text); } catch (err) { /* not JSON */ }
        reject(failure(doc, m.status));
      };
      w.onerror = (e) => { end(); reject(new Error("the stream failed: " + (e.message || "unknown error"))); };
      w.postMessage({ url: new URL(path, location.href).href, body: JSON.stringify(body) });
    });
  }

  // ---- the worker ----
  let worker = null, next = 1;
  const pending = new Map();
  function theWorker() {
    if (worker) return worker;
    worker = new Worker("engine.js");
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.event === "endgame-wanted") { buildEndgame(m.key); return; }
      if (m.event === "endgame") { tell(m.data); return; }
      const p = pending.get(m.id);
      if (!p) return;
      if (m.event) { if (p.onProgress) p.onProgress(m.data); return; }
      pending.delete(m.id);
      if (m.status === 0) { p.reject(new Error(m.error)); return; }
      const doc = whole(m.data, m.text);
      if (m.status >= 200 && m.status < 300) p.resolve(doc); else p.reject(failure(doc, m.status));
    };
    worker.onerror = (e) => {
      for (const p of pending.values()) p.reject(new Error("the engine failed: " + (e.message || "unknown error")));
      pending.clear(); worker = null;
    };
    return worker;
  }
  // ---- the endgame database (static site) ----
  // Its state for the pages: null (none asked for yet), {state:
  // "building", share}, {state: "ready", key} or {state: "failed", error}
  // (with the bytes the builder's or the engine's module held, for the
  // benches); and the larger one's, built on it after (`larger()`): null,
  // {state: "building", share, stones, of, seconds, from, kept}
  // (seconds: about how many are left, once known; from: the stones the
  // store held to build on; kept: the last layer kept), {state: "ready", key, memory},
  // {state: "stopped", share} or {state: "failed", error}.
  let endgame = null, larger = null, builder = null, persisted = false;
  const watchers = [], queue = [], asked = new Set();
  function tell(state) { endgame = state; for (const f of watchers) f(endgame, larger); }
  function tellLarger(state) { larger = state; for (const f of watchers) f(endgame, larger); }
  // The most stones of the larger database of `pits` pits a side, for
  // the browser tests, which set it in the site's mode.js (a larger
  // database takes minutes): none unless set.
  function largerCap(pits) { const c = window.MANCALA_SWEEP && window.MANCALA_SWEEP.largerStones; return (c && c[pits]) || 0; }
  // Asked for by the engine after each analysis that could use a
  // database it does not hold: the first database, then the larger one
  // on it. Each rules and board once a visit (the builder finds what the
  // store holds and goes on from it); one build at a time, each in a
  // worker of its own (endgame.js). Stop does not end a build (it is not
  // the engine's); stopLarger() ends the larger one's.
  function buildEndgame(key) {
    const board = JSON.stringify([key.rules, key.pits]);
    if (asked.has(board)) return;
    asked.add(board);
    const then = () => {
      const l = key.larger;
      if (!l || (larger && larger.state === "stopped")) return;
      const cap = largerCap(key.pits), stones = cap ? Math.min(cap, l.stones) : l.stones;
      if (stones <= key.stones) return;
      startBuilder({ name: l.name, rules: key.rules, pits: key.pits, stones }, key.name, true);
    };
    startBuilder({ name: key.name, rules: key.rules, pits: key.pits, stones: key.stones }, null, false, then);
  }
  function startBuilder(key, from, isLarger, then) {
    // Positions of a database of `stones` stones on `key.pits` pits a
    // side (at most that many over 2n pits): a layer kept counts for its
    // share.
    const positions = (stones) => { let c = 1; for (let i = 1; i <= 2 * key.pits; i++) c = c * (stones + i) / i; return c; };
    if (builder) { queue.push([key, from, isLarger, then]); return; }
    builder = new Worker("endgame.js");
    builder.isLarger = isLarger;
    const started = performance.now();
    let first = null;
    if (isLarger) {
      // Kept even when the browser is short of room, where it allows.
      if (!persisted && navigator.storage && navigator.storage.persist) { persisted = true; navigator.storage.persist().catch(() => {}); }
      tellLarger({ state: "building", share: 0, of: key.stones });
    } else tell({ state: "building", share: 0 });
    // The larger one (`then`) only on a first one that is ready.
    const next = (ok) => { builder = null; if (ok && then) then(); if (queue.length) startBuilder(...queue.shift()); };
    builder.onmessage = (e) => {
      const m = e.data;
      if (m.state === "start") { if (isLarger) tellLarger(Object.assign({}, larger, { from: m.stones })); return; }
      if (m.state === "building" || m.state === "kept") {
        if (!isLarger) { if (m.state === "building") tell(m); return; }
        if (m.state === "kept") { tellLarger(Object.assign({}, larger, { kept: m.stones, memory: m.memory, share: Math.max(larger.share || 0, positions(m.stones) / positions(key.stones)) })); return; }
        // The time left, from this visit's pace, once it has gone a while.
        const now = performance.now();
        if (!first || m.share < first.share) first = { share: m.share, t: now };
        const gone = m.share - first.share, seconds = gone > 0.01 && now - first.t > 3000 ? (now - first.t) / 1000 * (1 - m.share) / gone : null;
        tellLarger(Object.assign({}, larger, { state: "building", share: m.share, stones: m.stones, of: m.of, seconds }));
        return;
      }
      builder.terminate();
      if (m.state === "ready") {
        theWorker().postMessage({ endgame: { key: m.key, bytes: m.bytes } }, [m.bytes]);
        if (isLarger) tellLarger({ state: "ready", key: m.key, memory: m.memory, seconds: (performance.now() - started) / 1000, from: larger && larger.from });
        else tell({ state: "ready", key: m.key, built: m.memory });
      } else if (isLarger) tellLarger(m); else tell(m);
      next(m.state === "ready");
    };
    builder.onerror = (e) => {
      const m = { state: "failed", error: e.message || "the builder failed" };
      if (isLarger) tellLarger(m); else tell(m);
      next(false);
    };
    builder.postMessage({ key, from });
  }
  // Ends the larger database's build; the layers it kept stay in the
  // store, and the next visit goes on from them.
  function stopLarger() {
    if (!builder || !builder.isLarger) return;
    builder.terminate(); builder = null;
    tellLarger(Object.assign({ share: 0 }, larger, { state: "stopped" }));
    if (queue.length) startBuilder(...queue.shift());
  }

  // Stop: the engine runs one search at a time and cannot be interrupted
  // from outside, so the worker ends and every request on it with it, at
  // once; a fresh one starts loading the engine straight away, ready for
  // the next request.
  function stopWorker() {
    if (!worker) return;
    worker.terminate(); worker = null;
    for (const p of pending.values()) p.reject(new DOMException("stopped", "AbortError"));
    pending.clear();
    theWorker();
  }
  // Quick requests (a board text read, the limits) go to the engine when
  // it has nothing to do, else to an engine of their own, started when
  // first needed, which never searches: they are answered at once while
  // the engine thinks.
  const QUICK = ["/api/board", "/api/limits"];
  let quick = null;
  const quickPending = new Map();
  function quickWorker() {
    if (quick) return quick;
    quick = new Worker("engine.js?quick");
    quick.onmessage = (e) => {
      const m = e.data, p = quickPending.get(m.id);
      if (!p || m.event) return;
      quickPending.delete(m.id);
      if (m.status === 0) p.reject(new Error(m.error));
      else if (m.status >= 200 && m.status < 300) p.resolve(m.data); else p.reject(failure(m.data, m.status));
    };
    quick.onerror = (e) => {
      for (const p of quickPending.values()) p.reject(new Error("the engine failed: " + (e.message || "unknown error")));
      quickPending.clear(); quick = null;
    };
    return quick;
  }
  function quickCall(method, path, body) {
    return new Promise((resolve, reject) => {
      const id = next++;
      quickPending.set(id, { resolve, reject });
      quickWorker().postMessage({ id, method, path, body: body === undefined ? "" : JSON.stringify(body) });
    });
  }
  function workerCall(method, path, body, signal, onProgress) {
    if (signal && signal.aborted) return Promise.reject(new DOMException("stopped", "AbortError"));
    // The atlas is a file of the site, not a computation.
    if (method === "GET" && path === "/api/atlas") return fetch("atlas/atlas.json").then((r) => r.json());
    if (QUICK.includes(path) && pending.size) return quickCall(method, path, body);
    return new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject, onProgress });
      if (signal) signal.addEventListener("abort", stopWorker, { once: true });
      theWorker().postMessage({ id, method, path, body: body === undefined ? "" : JSON.stringify(body) });
    });
  }

  // The engine is fetched and compiled in its worker from the start, while
  // the page draws itself, not when the first request comes; under
  // `serve`, the first stream's worker is started.
  if (wasm) theWorker(); else spare = new Worker("stream.js");

  // Offline after the first visit, on the static site (serve needs none).
  // Registered once the page has loaded and settled: its install fetches
  // every file again (the engine too), which would otherwise compete with
  // the first visit's own load.
  if (wasm && "serviceWorker" in navigator) {
    window.addEventListener("load", () => setTimeout(() => navigator.serviceWorker.register("sw.js").catch(() => {}), 3000));
  }

  return {
    engine: wasm ? "wasm" : "server",
    // One request: its document, or an Error with .field and .status.
    call: (method, path, body, signal) => (wasm ? workerCall(method, path, body, signal) : httpCall(method, path, body, signal)),
    // A streamed request (path without "/stream"): progress documents to
    // onProgress, then the result.
    stream: (path, body, onProgress, signal) => (wasm ? workerCall("POST", path + "/stream", body, signal, onProgress) : httpStream(path + "/stream", body, onProgress, signal)),
    // The endgame database's state and the larger one's (see above;
    // always null under `serve`, whose databases are the server's), each
    // change of them to `f` (both states), and Stop for the larger one.
    endgame: () => endgame,
    larger: () => larger,
    stopLarger,
    onEndgame: (f) => { watchers.push(f); },
  };
})();
