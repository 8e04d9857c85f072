// The endgame databases kept across visits on the static site, in the
// browser's IndexedDB (read by the engine's worker, written by the
// builder's): one record a database, under the name the engine gives it,
// and "last", the name of the one loaded last, which a fresh engine takes
// at once. Every call settles to undefined when there is no store
// (a private window may have none): the database is then built again on
// the next visit.
"use strict";

const store = (() => {
  const open = () => new Promise((ok, fail) => {
    const r = indexedDB.open("mancala-sweep", 1);
    r.onupgradeneeded = () => r.result.createObjectStore("endgame");
    r.onsuccess = () => ok(r.result);
    r.onerror = () => fail(r.error);
  });
  async function run(mode, f) {
    try {
      const db = await open();
      return await new Promise((ok, fail) => {
        const t = db.transaction("endgame", mode), req = f(t.objectStore("endgame"));
        t.oncomplete = () => { db.close(); ok(req.result); };
        t.onerror = t.onabort = () => { db.close(); fail(t.error); };
      });
    } catch (e) { return undefined; }
  }
  return {
    get: (name) => run("readonly", (s) => s.get(name)),
    put: (name, value) => run("readwrite", (s) => s.put(value, name)),
  };
})();
