// Under `serve`: a Web Worker that reads one streamed request's
// server-sent events for the page (backend.js), so that the page's own
// thread never reads a whole progress document. An analysis's progress
// holds every turn (24,324 at the avalanche start, 2.4 MB of JSON); here
// it is read and cut to what the page draws (digest.js), and the page gets
// that. The result goes to the page as its text. Ending this worker
// (Stop) drops the request, and the server stops the search.
//
// Message in: {url, body} (body: the JSON text).
// Messages out: {event: "progress", data} (the digest), then
// {event: "result", data, text} (the digest, and the whole text when they
// differ), or {event: "error", status, text} (the error document's text;
// status 0 for an "error" event, or when no document).
"use strict";
importScripts("digest.js");

onmessage = async (e) => {
  const { url, body } = e.data;
  try {
    const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
    if (!res.ok) { postMessage({ event: "error", status: res.status, text: await res.text() }); return; }
    const reader = res.body.getReader(), dec = new TextDecoder();
    let buf = "", from = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) { postMessage({ event: "error", status: 0, text: JSON.stringify({ error: "the server closed the stream before the result" }) }); return; }
      buf += dec.decode(value, { stream: true });
      let cut;
      // Look for the end of an event only in what came since the last look.
      while ((cut = buf.indexOf("\n\n", Math.max(0, from - 1))) >= 0) {
        const block = buf.slice(0, cut); buf = buf.slice(cut + 2); from = 0;
        let event = "message", data = "";
        for (const l of block.split("\n")) {
          if (l.startsWith("event:")) event = l.slice(6).trim();
          else if (l.startsWith("data:")) data += l.slice(5).trim();
        }
        if (!data) continue;
        if (event === "progress") postMessage({ event, data: digest(JSON.parse(data)) });
        else if (event === "result") {
          const doc = JSON.parse(data), small = digest(doc);
          postMessage({ event, data: small, text: small === doc ? undefined : data });
          return;
        }
        else if (event === "error") { postMessage({ event, status: 0, text: data }); return; }
      }
      from = buf.length;
    }
  } catch (err) {
    postMessage({ event: "error", status: 0, text: JSON.stringify({ error: "the stream failed: " + err.message }) });
  }
};
