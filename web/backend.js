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
  // benches).
  let endgame = null, builder = null;
  const watchers = [], queue = [];
  function tell(state) { endgame = state; for (const f of watchers) f(state); }
  // Built in a worker of its own (endgame.js), one at a time (each holds
  // its database twice while it hands it on), each once: the engine asks
  // after each analysis that went without it, and a database being built
  // or waiting its turn is not asked for again. Stop does not end a build
  // (it is not the engine's).
  function buildEndgame(key) {
    if (builder) { if (builder.key !== key.name && !queue.some((k) => k.name === key.name)) queue.push(key); return; }
    builder = new Worker("endgame.js");
    builder.key = key.name;
    tell({ state: "building", share: 0 });
    builder.onmessage = (e) => {
      const m = e.data;
      if (m.state === "building") { tell(m); return; }
      builder.terminate(); builder = null;
      if (m.state === "ready") {
        theWorker().postMessage({ endgame: { key: m.key, bytes: m.bytes } }, [m.bytes]);
        tell({ state: "ready", key: m.key, built: m.memory });
      } else tell(m);
      if (queue.length) buildEndgame(queue.shift());
    };
    builder.onerror = (e) => {
      builder = null; tell({ state: "failed", error: e.message || "the builder failed" });
      if (queue.length) buildEndgame(queue.shift());
    };
    builder.postMessage({ key });
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
    // The endgame database's state (see above; always null under
    // `serve`, whose databases are the server's), and each change of it
    // to `f`.
    endgame: () => endgame,
    onEndgame: (f) => { watchers.push(f); },
  };
})();
