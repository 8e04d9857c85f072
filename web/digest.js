// What the page draws of an analysis: the document with only its best
// DIGEST_TURNS turns, and the counts of all its turns and of those proved
// (`turns_total`, `turns_proved`). Made in a worker (the site's
// engine.js, serve's stream.js): a document holds every turn, 24,324 at
// the avalanche start (2.4 MB of JSON), and the page's own thread could
// take more than a tenth of a second to read or receive it whole. The
// answer's whole text goes with its digest, read by the page only when a
// page of turns past the best 500 is asked for. Documents that are not an
// analysis, or small ones, pass as they are.
"use strict";
const DIGEST_TURNS = 500;
function digest(doc) {
  if (!doc || !Array.isArray(doc.turns) || doc.turns.length <= DIGEST_TURNS) return doc;
  let proved = 0;
  for (const t of doc.turns) if (t.exact) proved++;
  return { ...doc, turns: doc.turns.slice(0, DIGEST_TURNS), turns_total: doc.turns.length, turns_proved: proved };
}
