// What the site's benches share: a plain static file server for a built
// site, chromedriver (/usr/bin/chromedriver, Debian's chromium-driver)
// on a free loopback port with headless Chromium sessions, Chromium's
// DevTools commands sent through it, and the machine's line for the
// tables. Everything started ends with the bench's process.
import { createServer } from "node:http";
import { readFileSync, existsSync } from "node:fs";
import { execFileSync, spawn } from "node:child_process";
import { join, extname } from "node:path";
import net from "node:net";

// A free loopback port.
export const free = () => new Promise((ok) => { const s = net.createServer().listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => ok(p)); }); });
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const ends = [];
process.on("exit", () => { for (const end of ends) end(); });
process.on("uncaughtException", (e) => { console.error(e); process.exit(1); });
process.on("unhandledRejection", (e) => { console.error(e); process.exit(1); });
// Ends `child` with the bench, whatever happens.
export function endWithBench(child) { ends.push(() => child.kill()); return child; }

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json", ".svg": "image/svg+xml" };
// Serves the folder `site` as any static host would; its address.
export async function serveSite(site) {
  const port = await free();
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname).replace(/^\/+/, "") || "index.html";
    const file = join(site, path);
    if (path.includes("..") || !existsSync(file)) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { "Content-Type": TYPES[extname(file)] || "application/octet-stream" });
    res.end(readFileSync(file));
  }).listen(port, "127.0.0.1");
  // It never keeps the bench running once the bench is done.
  server.unref();
  const close = () => { server.closeAllConnections(); server.close(); };
  ends.push(close);
  return { url: `http://127.0.0.1:${port}/`, close };
}

// chromedriver, started; `wd(method, path, body)` is one WebDriver
// command (its value, or an Error with its message).
export async function chromedriver() {
  const port = await free();
  const driver = endWithBench(spawn("/usr/bin/chromedriver", [`--port=${port}`], { stdio: "ignore" }));
  async function wd(method, path, body) {
    for (let i = 0; ; i++) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { "Content-Type": "application/json" }, body: body && JSON.stringify(body) });
        const doc = await r.json();
        if (doc.value && doc.value.error) throw new Error(`${path}: ${doc.value.message || doc.value.error}`);
        return doc.value;
      } catch (e) { if (i > 50 || !/fetch failed/.test(e.message)) throw e; await sleep(100); }
    }
  }
  // A new headless Chromium (a new profile: a first visit) `width` px
  // wide, with long script and load timeouts; its session id.
  async function session(width, height = 900) {
    const caps = { capabilities: { alwaysMatch: { "goog:chromeOptions": { binary: "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars"] } } } };
    const s = (await wd("POST", "/session", caps)).sessionId;
    // A phone's width (the start flag's window cannot be under 500 px;
    // this can).
    await wd("POST", `/session/${s}/window/rect`, { width, height });
    await wd("POST", `/session/${s}/timeouts`, { script: 600000, pageLoad: 120000, implicit: 0 });
    return s;
  }
  return {
    wd,
    session,
    end: (s) => wd("DELETE", `/session/${s}`),
    go: (s, url) => wd("POST", `/session/${s}/url`, { url }),
    // A DevTools command (Emulation.setCPUThrottlingRate and the like).
    cdp: (s, cmd, params) => wd("POST", `/session/${s}/goog/cdp/execute`, { cmd, params }),
    // A script in the page: `sync` returns its value, `async` calls its
    // last argument with it.
    sync: (s, script, args = []) => wd("POST", `/session/${s}/execute/sync`, { script, args }),
    async: (s, script, args = []) => wd("POST", `/session/${s}/execute/async`, { script, args }),
    close: () => driver.kill(),
  };
}

// The machine, for a table's first line: CPU, cores, load, Chromium, node.
export function machine() {
  const info = readFileSync("/proc/cpuinfo", "utf8");
  const cpu = info.match(/model name\s*:\s*(.*)/)[1].trim(), cores = info.match(/^processor/gm).length;
  const chromium = execFileSync("/usr/bin/chromium", ["--version"], { stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  return `machine: ${cpu}, ${cores} cores, load average ${load} at the end; ${chromium}; node ${process.version}; ${new Date().toISOString().slice(0, 10)}`;
}
