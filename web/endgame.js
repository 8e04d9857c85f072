// The static site's endgame database builder: a Web Worker of its own, so
// that building (seconds for the first database, minutes of one core for
// the larger one) never holds up the engine's answers. It runs the
// engine's module (wasm/src/endgame.rs), sends the share done now and
// then, keeps the bytes in the browser's store (store.js) for later
// visits, and hands them to the page, which gives them to the engine.
//
// A database already in the store is handed on at once. One built on a
// smaller one (`from`: its name in the store) goes a layer a call, each
// layer kept in the store as it is finished (under the database's own
// name, and as "last", the one a fresh engine takes), so that the page
// can end this worker at any time (Stop) and a later visit goes on from
// the last layer kept. The bytes never stay in the module's memory: it
// reads them through the import `input` and writes them through
// `output`, and WebAssembly memory never shrinks.
//
// Message in: {key, from} (key: {name, rules, pits, stones}).
// Messages out: {state: "start", stones} (what the store held to build
// on), {state: "building", share, stones, of} (stones: the layer
// being built), {state: "kept", stones, memory} after each layer kept,
// then {state: "ready", key, bytes, memory} (bytes: an ArrayBuffer,
// transferred; key.stones: what it holds; memory: the bytes the build's
// module held at most) or {state: "failed", error}.
"use strict";
importScripts("store.js");

const dec = new TextDecoder(), enc = new TextEncoder();
let exports = null, feed = null, chunks = [], saved = null;

const imports = {
  mancala_sweep: {
    now_ms: () => performance.now(),
    event: (ptr, len) => {
      const t = dec.decode(new Uint8Array(exports.memory.buffer, ptr, len)), cut = t.indexOf("\n");
      const kind = t.slice(0, cut), doc = JSON.parse(t.slice(cut + 1));
      if (kind === "endgame") postMessage({ state: "building", share: doc.share, stones: doc.stones, of: doc.of });
      else if (kind === "endgame-saved") { saved = join(chunks); chunks = []; }
    },
    input: (ptr, len) => {
      if (!feed) return 0;
      const n = Math.min(len, feed.bytes.length - feed.at);
      new Uint8Array(exports.memory.buffer, ptr, n).set(feed.bytes.subarray(feed.at, feed.at + n));
      feed.at += n;
      return n;
    },
    output: (ptr, len) => { chunks.push(new Uint8Array(exports.memory.buffer, ptr, len).slice()); },
  },
};

// The pieces of a file as one ArrayBuffer.
function join(pieces) {
  const out = new Uint8Array(pieces.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of pieces) { out.set(p, at); at += p.length; }
  return out.buffer;
}

// The stones a database's bytes hold, from its first line.
function stonesOf(bytes) {
  const head = dec.decode(new Uint8Array(bytes, 0, Math.min(4096, bytes.byteLength)));
  return JSON.parse(head.split("\n")[0]).stones;
}

// One call of the module: builds `key.stones` on `base` (an ArrayBuffer
// or null); the file it wrote.
function buildOnce(key, base) {
  feed = base ? { bytes: new Uint8Array(base), at: 0 } : null;
  saved = null;
  const req = enc.encode(JSON.stringify(Object.assign({}, key, { base: base ? base.byteLength : 0 })));
  const ptr = exports.alloc(req.length);
  new Uint8Array(exports.memory.buffer, ptr, req.length).set(req);
  const len = exports.endgame_build(ptr, req.length);
  feed = null;
  const out = dec.decode(new Uint8Array(exports.memory.buffer, exports.answer(), len)), cut = out.indexOf("\n");
  if (out.slice(0, cut) !== "200") throw new Error(JSON.parse(out.slice(cut + 1)).error);
  if (!saved) throw new Error("the build wrote no file");
  return saved;
}

onmessage = async (e) => {
  const { key, from } = e.data;
  try {
    const m = await WebAssembly.instantiateStreaming(fetch("mancala_sweep.wasm"), imports);
    exports = m.instance.exports;
    let have = await store.get(key.name);
    if (!have && from) have = await store.get(from);
    let stones = have ? stonesOf(have) : 0;
    postMessage({ state: "start", stones });
    if (stones < key.stones && !have) {
      have = buildOnce(key, null);
      stones = key.stones;
      await store.put(key.name, have);
      await store.put("last", key.name);
    }
    while (stones < key.stones) {
      have = buildOnce(Object.assign({}, key, { stones: stones + 1, of: key.stones }), have);
      stones += 1;
      await store.put(key.name, have);
      await store.put("last", key.name);
      postMessage({ state: "kept", stones, memory: exports.memory.buffer.byteLength });
    }
    const memory = exports.memory.buffer.byteLength;
    exports = null;
    postMessage({ state: "ready", key: Object.assign({}, key, { stones }), bytes: have, memory }, [have]);
  } catch (err) {
    postMessage({ state: "failed", error: err.message });
  }
};
