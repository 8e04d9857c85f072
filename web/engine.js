// The static site's engine: a Web Worker that answers the pages' API
// requests with mancala-sweep compiled to WebAssembly (wasm/src/lib.rs),
// so that a search never freezes the page. Stop ends this worker; the page
// starts a new one for the next request.
//
// Messages in: {id, method, path, body} (body: the JSON text).
// Messages out: {id, event: "progress", data} while a /stream request
// runs (the document cut to what the page draws: digest.js), then
// {id, status, data, text} (the answer, and its whole JSON text when data
// is its digest), or {id, status: 0, error} when the engine could not
// load.
"use strict";
importScripts("digest.js");

let engine = null, current = 0;
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
  },
}).then((m) => { engine = m.instance; });

onmessage = async (e) => {
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
};
