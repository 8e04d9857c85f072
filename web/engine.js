// The static site's engine: a Web Worker that answers the pages' API
// requests with mancala-sweep compiled to WebAssembly (wasm/src/lib.rs),
// so that a search never freezes the page. Stop ends this worker; the page
// starts a new one for the next request.
//
// Messages in: {id, method, path, body} (body: the JSON text), or
// {endgame: {key, bytes}}: an endgame database the page had built
// (endgame.js), taken between two requests.
// Messages out: {id, event: "progress", data} while a /stream request
// runs (the document cut to what the page draws: digest.js), then
// {id, status, data, text} (the answer, and its whole JSON text when data
// is its digest), or {id, status: 0, error} when the engine could not
// load; and {event: "endgame-wanted", key} when an analysis could use a
// database the engine does not hold (the page builds it, or finds it in
// the store), {event: "endgame", data: {state: "ready", key, memory}}
// once the engine holds one (key.stones: what it holds, which may be a
// larger one it kept; memory: the bytes its module holds then).
"use strict";
importScripts("digest.js", "store.js");

let engine = null, current = 0, feed = null;
const enc = new TextEncoder(), dec = new TextDecoder();

function text(ptr, len) {
  return dec.decode(new Uint8Array(engine.exports.memory.buffer, ptr, len));
}

const ready = WebAssembly.instantiateStreaming(fetch("mancala_sweep.wasm"), {
  mancala_sweep: {
    now_ms: () => performance.now(),
    event: (ptr, len) => {
      const t = text(ptr, len), cut = t.indexOf("\n");
      postMessage({ id: current, event: t.slice(0, cut), data: digest(JSON.parse(t.slice(cut + 1))) });
    },
    // A database's bytes, read by the engine a megabyte at a time from
    // here, so that they are never held twice in its memory.
    input: (ptr, len) => {
      if (!feed) return 0;
      const n = Math.min(len, feed.bytes.length - feed.at);
      new Uint8Array(engine.exports.memory.buffer, ptr, n).set(feed.bytes.subarray(feed.at, feed.at + n));
      feed.at += n;
      return n;
    },
    output: () => {},
  },
}).then((m) => { engine = m.instance; });

// Hands the engine the endgame database `bytes` of `key` (wasm/src/endgame.rs).
function takeEndgame(key, bytes) {
  const head = enc.encode(JSON.stringify(Object.assign({}, key, { bytes: bytes.byteLength })));
  const ptr = engine.exports.alloc(head.length);
  new Uint8Array(engine.exports.memory.buffer, ptr, head.length).set(head);
  feed = { bytes: new Uint8Array(bytes), at: 0 };
  const n = engine.exports.endgame_load(ptr, head.length), answer = text(engine.exports.answer(), n);
  feed = null;
  const cut = answer.indexOf("\n"), doc = JSON.parse(answer.slice(cut + 1));
  postMessage({ event: "endgame", data: answer.startsWith("200\n") ? { state: "ready", key: Object.assign({}, key, { stones: doc.stones }), memory: engine.exports.memory.buffer.byteLength }
    : { state: "failed", error: doc.error } });
}

// The database the last analysis could use, asked of the page (which
// builds it, or finds it in the store, and knows what is under way).
function wanted() {
  const len = engine.exports.wanted();
  if (len) postMessage({ event: "endgame-wanted", key: JSON.parse(text(engine.exports.answer(), len)) });
}

// The page's quick engine (`engine.js?quick`: board texts and limits,
// never a search) needs no endgame database.
const quick = location.search === "?quick";

// A fresh engine (a new visit, or after Stop) takes the database loaded
// last at once, without holding up the first request: the store is read
// while that request runs, and the database taken after it.
if (!quick) ready.then(async () => {
  const name = await store.get("last"), bytes = name && await store.get(name);
  const key = bytes && JSON.parse(new TextDecoder().decode(new Uint8Array(bytes, 0, Math.min(4096, bytes.byteLength))).split("\n")[0]);
  if (key) takeEndgame({ name, rules: key.rules, pits: key.pits_per_side, stones: key.stones }, bytes);
}).catch(() => {});

onmessage = async (e) => {
  if (e.data.endgame) {
    try { await ready; } catch (err) { return; }
    takeEndgame(e.data.endgame.key, e.data.endgame.bytes);
    return;
  }
  const { id, method, path, body } = e.data;
  try { await ready; } catch (err) {
    postMessage({ id, status: 0, error: "the engine did not load: " + err.message });
    return;
  }
  current = id;
  const req = enc.encode(method + " " + path + "\n" + (body || ""));
  const ptr = engine.exports.alloc(req.length);
  new Uint8Array(engine.exports.memory.buffer, ptr, req.length).set(req);
  let answer;
  try {
    const len = engine.exports.call(ptr, req.length);
    answer = text(engine.exports.answer(), len);
  } catch (err) {
    // A trap (out of memory, a bug): the module cannot be trusted again.
    postMessage({ id, status: 500, data: { format: "mancala-sweep-web-error/1", error: "the engine stopped: " + err.message } });
    close();
    return;
  }
  const cut = answer.indexOf("\n"), json = answer.slice(cut + 1), doc = JSON.parse(json), data = digest(doc);
  postMessage({ id, status: Number(answer.slice(0, cut)), data, text: data === doc ? undefined : json });
  if (!quick) wanted();
};
