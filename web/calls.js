// The engine: every call goes through `request` (one JSON answer) or
// `stream` (progress documents, then the result). Both hand it to
// backend.js, which asks the server of `mancala-sweep serve` or the engine
// compiled to WebAssembly in a Web Worker; nothing in the pages calls fetch.
// A failure is an Error with the API's message, its `field` (so that the
// page can show it beside that field) and `status`; Stop (aborting
// `signal`) throws an AbortError and stops the search.
/* global backend */

export const request = (method, path, body, signal) => backend.call(method, path, body, signal);
export const api = (method, path, body) => request(method, path, body);
// POST `path` + "/stream": `onProgress` gets each progress document while
// the search runs, then the result is returned (or the error thrown).
export const stream = (path, body, signal, onProgress) => backend.stream(path, body, onProgress || (() => {}), signal);

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A request refused because the server is busy (429: every search place
// taken, for a moment while a stopped search winds down; 409: a game still
// busy) is tried again.
export async function retryBusy(call) {
  for (let tries = 0; ; tries++) {
    try { return await call(); } catch (e) {
      if ((e.status === 429 || e.status === 409) && tries < 40) { await sleep(250); continue; }
      throw e;
    }
  }
}
