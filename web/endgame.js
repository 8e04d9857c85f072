// The static site's endgame database builder: a Web Worker of its own, so
// that building (a few seconds to a minute of one core) never holds up the
// engine's answers. It runs the engine's module (wasm/src/endgame.rs),
// sends the share done after each layer, keeps the bytes in the browser's
// store (store.js) for later visits, and hands them to the page, which
// gives them to the engine.
//
// Message in: {key} (the engine's key of the database it asked for).
// Messages out: {state: "building", share}, then {state: "ready", key,
// bytes, memory} (bytes: an ArrayBuffer, transferred; memory: the bytes
// the build's module held) or {state: "failed", error}.
"use strict";
importScripts("store.js");

const dec = new TextDecoder();

onmessage = async (e) => {
  const { key } = e.data;
  let exports = null;
  try {
    const m = await WebAssembly.instantiateStreaming(fetch("mancala_sweep.wasm"), {
      mancala_sweep: {
        now_ms: () => performance.now(),
        event: (ptr, len) => {
          const t = dec.decode(new Uint8Array(exports.memory.buffer, ptr, len)), cut = t.indexOf("\n");
          postMessage({ state: "building", share: JSON.parse(t.slice(cut + 1)).share });
        },
      },
    });
    exports = m.instance.exports;
    const req = new TextEncoder().encode(JSON.stringify(key));
    const ptr = exports.alloc(req.length);
    new Uint8Array(exports.memory.buffer, ptr, req.length).set(req);
    const len = exports.endgame_build(ptr, req.length);
    const out = new Uint8Array(exports.memory.buffer, exports.answer(), len);
    const cut = out.indexOf(10), status = dec.decode(out.subarray(0, cut));
    if (status !== "200") throw new Error(JSON.parse(dec.decode(out.subarray(cut + 1))).error);
    const bytes = out.slice(cut + 1).buffer, memory = exports.memory.buffer.byteLength;
    exports = null;
    await store.put(key.name, bytes);
    await store.put("last", key.name);
    postMessage({ state: "ready", key, bytes, memory }, [bytes]);
  } catch (err) {
    postMessage({ state: "failed", error: err.message });
  }
};
