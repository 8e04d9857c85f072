# Serve a built site folder with `python3 -m http.server` under a sub-path
# (as GitHub Pages serves https://USER.github.io/REPO/), load it in headless
# Chromium (chromedriver), solve the avalanche opening, and print what the
# page says and every file it loaded. The README's hosting walkthrough.
#   python3 site/check-host.py SITE_DIR
import json, os, shutil, socket, subprocess, sys, tempfile, time, urllib.request

site = sys.argv[1]
def free():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p
root = tempfile.mkdtemp()
os.symlink(os.path.abspath(site), os.path.join(root, "mancala-sweep"))
hp, dp = free(), free()
http = subprocess.Popen([sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", root, str(hp)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
drv = subprocess.Popen(["/usr/bin/chromedriver", f"--port={dp}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def req(method, path, body=None):
    for i in range(50):
        try:
            r = urllib.request.Request(f"http://127.0.0.1:{dp}" + path, method=method, data=None if body is None else json.dumps(body).encode(), headers={"Content-Type": "application/json"})
            v = json.load(urllib.request.urlopen(r, timeout=120))["value"]
            return v
        except urllib.error.URLError:
            time.sleep(0.1)
    raise SystemExit("chromedriver did not answer")
try:
    caps = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--window-size=390,900"]}}}}
    s = req("POST", "/session", caps)["sessionId"]
    url = f"http://127.0.0.1:{hp}/mancala-sweep/"
    req("POST", f"/session/{s}/url", {"url": url})
    js = lambda script: req("POST", f"/session/{s}/execute/sync", {"script": script, "args": []})
    js("document.querySelector('button[data-page=solve]').click(); document.getElementById('solve').click();")
    t0 = time.time()
    while not js("return !!document.getElementById('best')") and time.time() - t0 < 30:
        time.sleep(0.2)
    out = js("return {engine: backend.engine, best: document.getElementById('best').textContent, result: document.getElementById('result').innerText, requests: performance.getEntriesByType('resource').map(e => e.name.replace(location.origin, ''))}")
    print(f"served by: python3 -m http.server, at {url}")
    print(json.dumps(out, indent=1))
    req("DELETE", f"/session/{s}")
finally:
    drv.kill(); http.kill(); shutil.rmtree(root)
