//! The web app in headless Chromium (Debian's `chromium` and
//! `chromium-driver`), clicked through as a person would.
//!
//! This test has no harness, so what it prints is never captured: on a
//! machine without Chromium it says in one line that it skipped and how to
//! run it, and with `MANCALA_SWEEP_BROWSER=required` (which `.ci/run` sets
//! after installing Chromium) a missing browser fails it. When it runs it
//! says how many browser checks passed.

use fantoccini::{Client, ClientBuilder, Locator};
use mancala_sweep::server::{self, Config};
use std::net::SocketAddr;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The environment variable that makes the browser tests required.
const REQUIRED_VAR: &str = "MANCALA_SWEEP_BROWSER";

/// Checks passed so far (every `check!`, `check_eq!` and text waited for).
static CHECKS: AtomicUsize = AtomicUsize::new(0);

/// `assert!`, counted.
macro_rules! check {
    ($($t:tt)*) => {{
        assert!($($t)*);
        CHECKS.fetch_add(1, Ordering::Relaxed);
    }};
}

/// `assert_eq!`, counted.
macro_rules! check_eq {
    ($($t:tt)*) => {{
        assert_eq!($($t)*);
        CHECKS.fetch_add(1, Ordering::Relaxed);
    }};
}

mod web_review;

fn main() -> ExitCode {
    // `cargo test -- --list` and filters meant for other tests: nothing to do.
    if std::env::args().any(|a| a == "--list") {
        println!("the_pages_in_chromium: test");
        return ExitCode::SUCCESS;
    }
    let required = std::env::var(REQUIRED_VAR).is_ok_and(|v| v == "required");
    if !std::path::Path::new(CHROMEDRIVER).exists() {
        if required {
            eprintln!(
                "web_browser: FAILED: {CHROMEDRIVER} is missing and {REQUIRED_VAR}=required: apt-get install -y chromium chromium-driver (as .ci/run does)"
            );
            return ExitCode::FAILURE;
        }
        println!(
            "web_browser: SKIPPED, 0 browser checks ran: {CHROMEDRIVER} is missing. To run them: apt-get install -y chromium chromium-driver, then {REQUIRED_VAR}=required cargo test --release --test web_browser"
        );
        return ExitCode::SUCCESS;
    }
    let site = match static_site(required) {
        Ok(site) => site,
        Err(why) => {
            eprintln!("web_browser: FAILED: {why}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(the_pages_in_chromium(site.as_deref()));
    println!(
        "web_browser: {} browser checks passed in headless Chromium",
        CHECKS.load(Ordering::Relaxed)
    );
    ExitCode::SUCCESS
}

/// The static site built by `site/build.sh` into this test's folder, or
/// None, said in one line, where the WebAssembly target is missing (an
/// error when the browser tests are required).
fn static_site(required: bool) -> Result<Option<std::path::PathBuf>, String> {
    let sysroot = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("rustc: {e}"))?;
    let sysroot = String::from_utf8_lossy(&sysroot.stdout).trim().to_string();
    let target = std::path::Path::new(&sysroot).join("lib/rustlib/wasm32-unknown-unknown");
    if !target.exists() {
        let how = "rustup target add wasm32-unknown-unknown";
        if required {
            return Err(format!(
                "the WebAssembly target is missing and {REQUIRED_VAR}=required: {how} (as .ci/run does)"
            ));
        }
        println!(
            "web_browser: the static site SKIPPED: the WebAssembly target is missing. To test it: {how}"
        );
        return Ok(None);
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("site");
    let built = Command::new("bash")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/site/build.sh"))
        .arg(&dir)
        .status()
        .map_err(|e| format!("site/build.sh: {e}"))?;
    if !built.success() {
        return Err(format!("site/build.sh failed: {built}"));
    }
    // The larger endgame databases this walk builds, held to a few
    // seconds each (a phone's is minutes: 20 stones on 6 pits a side);
    // 3 pits a side gets the one `larger_database` stops and resumes.
    let mode = dir.join("mode.js");
    let mut text =
        std::fs::read_to_string(&mode).map_err(|e| format!("{}: {e}", mode.display()))?;
    text.push_str("window.MANCALA_SWEEP.largerStones = { 3: 40, 4: 17, 6: 17 };\n");
    std::fs::write(&mode, text).map_err(|e| format!("{}: {e}", mode.display()))?;
    Ok(Some(dir))
}

/// A plain static file server for `dir`, as any host would serve the site:
/// files and their types, nothing else (no API).
async fn serve_folder(dir: std::path::PathBuf) -> SocketAddr {
    let (addr, stop) = serve_folder_until(dir).await;
    // Never stopped: it serves until the test ends.
    std::mem::forget(stop);
    addr
}

/// [`serve_folder`], which stops when the sender is used (or dropped):
/// then it takes no more connections and closes its idle ones, as a host
/// out of reach would.
async fn serve_folder_until(
    dir: std::path::PathBuf,
) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    use axum::http::{header, StatusCode, Uri};
    use axum::response::IntoResponse;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let app = axum::Router::new().fallback(move |uri: Uri| {
        let dir = dir.clone();
        async move {
            let path = uri.path().trim_start_matches('/');
            let path = if path.is_empty() { "index.html" } else { path };
            let kind = match path.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript",
                Some("css") => "text/css",
                Some("wasm") => "application/wasm",
                Some("json") => "application/json",
                Some("svg") => "image/svg+xml",
                _ => "application/octet-stream",
            };
            match std::fs::read(dir.join(path))
                .ok()
                .filter(|_| !path.contains(".."))
            {
                Some(bytes) => ([(header::CONTENT_TYPE, kind)], bytes).into_response(),
                None => StatusCode::NOT_FOUND.into_response(),
            }
        }
    });
    tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = stopped.await;
            })
            .await
            .unwrap()
    });
    (addr, stop)
}

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

/// Chromedriver, and the browser it starts with the profile folder
/// `profile`: both stopped when the walk ends, a failed check's panic
/// included. Killing chromedriver alone left its Chromium running for
/// 100 minutes after a failed CI run, so the browser is found by its
/// profile folder, which only it names on its command line.
struct Driver {
    chromedriver: Child,
    profile: std::path::PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.chromedriver.kill();
        let _ = self.chromedriver.wait();
        let profile = self.profile.to_string_lossy().into_owned();
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            if String::from_utf8_lossy(&cmdline).contains(&profile) {
                // SAFETY: kill only sends a signal to a process of ours.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Keep a screenshot for the README when `MANCALA_SWEEP_SCREENSHOTS=1`,
/// so that an ordinary test run leaves the tree as it was.
async fn shot(c: &Client, name: &str) {
    if std::env::var("MANCALA_SWEEP_SCREENSHOTS").as_deref() == Ok("1") {
        let png = c.screenshot().await.unwrap();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/web");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), png).unwrap();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn start_server() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = Config {
        collections: server::committed_collections().unwrap(),
        pages: page,
        ..Config::default()
    };
    tokio::spawn(server::serve(listener, config));
    addr
}

/// The pages, embedded here as the binary embeds them (`src/pages.rs`):
/// the server crate answers with whatever pages it is lent.
#[derive(rust_embed::RustEmbed)]
#[folder = "web/"]
struct Pages;

fn page(path: &str) -> Option<std::borrow::Cow<'static, [u8]>> {
    Pages::get(path).map(|file| file.data)
}

/// The whole walk through the pages, at desktop and phone widths.
async fn the_pages_in_chromium(site: Option<&std::path::Path>) {
    let port = free_port();
    let profile = std::env::temp_dir().join(format!("mancala-sweep-chromium-{port}"));
    let _driver = Driver {
        chromedriver: Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
        profile: profile.clone(),
    };
    let addr = start_server().await;
    // Scroll bars laid over the page, as a phone's are: at 390 px the page
    // has the whole 390 px.
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": CHROMIUM,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", "--hide-scrollbars",
                     format!("--user-data-dir={}", profile.display()),
                     "--window-size=1200,900"]
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let mut client = None;
    for _ in 0..50 {
        match ClientBuilder::new(connector.clone())
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(c) => {
                client = Some(c);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    let c = client.expect("chromedriver answers");
    let url = format!("http://{addr}/");
    // `MANCALA_SWEEP_BROWSER_ONLY=phone`: issue 68's walk alone, on both
    // back-ends, while working on it (the whole walk takes minutes).
    // `MANCALA_SWEEP_BROWSER_ONLY=review-30`: issue 69's target measured
    // on the static site.
    if std::env::var("MANCALA_SWEEP_BROWSER_ONLY").as_deref() == Ok("review-30") {
        if let Some(dir) = site {
            let site = format!("http://{}/", serve_folder(dir.to_path_buf()).await);
            web_review::thirty_turns(&c, &site).await;
        }
        c.close().await.unwrap();
        let _ = std::fs::remove_dir_all(profile);
        return;
    }
    // `MANCALA_SWEEP_BROWSER_ONLY=review`: issue 69's review walk alone.
    if std::env::var("MANCALA_SWEEP_BROWSER_ONLY").as_deref() == Ok("review") {
        web_review::review_pages(&c, &url).await;
        if let Some(dir) = site {
            let site = format!("http://{}/", serve_folder(dir.to_path_buf()).await);
            web_review::review_pages(&c, &site).await;
        }
        c.close().await.unwrap();
        let _ = std::fs::remove_dir_all(profile);
        return;
    }
    // `MANCALA_SWEEP_BROWSER_ONLY=sitedb`: the static site's endgame
    // databases alone.
    if std::env::var("MANCALA_SWEEP_BROWSER_ONLY").as_deref() == Ok("sitedb") {
        if let Some(dir) = site {
            let site = format!("http://{}/", serve_folder(dir.to_path_buf()).await);
            endgame_database(&c, &site).await;
            larger_database(&c, &site).await;
        }
        c.close().await.unwrap();
        let _ = std::fs::remove_dir_all(profile);
        return;
    }
    if std::env::var("MANCALA_SWEEP_BROWSER_ONLY").as_deref() == Ok("phone") {
        phone_companion(&c, &url, addr).await;
        if let Some(dir) = site {
            let site = format!("http://{}/", serve_folder(dir.to_path_buf()).await);
            phone_companion(&c, &site, addr).await;
        }
        c.close().await.unwrap();
        let _ = std::fs::remove_dir_all(profile);
        return;
    }

    // The first page is Analyze.
    c.goto(&url).await.unwrap();
    check_eq!(
        attr(&c, "button[data-page=analyze]", "aria-current").await,
        "page"
    );

    // Solve: the avalanche opening is 43, and the first pit of the line is lit.
    click(&c, "button[data-page=solve]").await;
    click(&c, "#solve").await;
    check_eq!(text(&c, "#best").await, "43");
    // Counts in words a person reads: the noun's number, digits grouped;
    // Solve is free again after the search.
    let said = text(&c, "#result").await;
    check!(
        said.contains("2 optimal pick sequences of 26,286 turns."),
        "{said}"
    );
    check_eq!(attr(&c, "#solve", "disabled").await, "");
    check_eq!(id_of(&c, "#board .pit.next").await, "pit-6");
    // It says that this is this turn's most, not the game's best turn,
    // and links the position to the Analyze page.
    let said = text(&c, "#not-game").await;
    check!(
        said.contains("not always the best turn for the game"),
        "{said}"
    );
    let link = attr(&c, "#to-analyze", "href").await;
    check!(
        link.contains("rules=avalanche&board=4,4,4,4,4,4/0,0/4,4,4,4,4,4"),
        "{link}"
    );
    shot(&c, "solve-desktop.png").await;

    // An error beside the field that caused it: a board of 17 pits.
    retype(&c, "#paste", &format!("{0}/ 0 0 / {0}", "1 ".repeat(17))).await;
    click(&c, "#use-paste").await;
    click(&c, "#solve").await;
    let msg = text(&c, "#err-board").await;
    check!(msg.contains("17 pits a side"), "{msg}");
    check_eq!(text(&c, "#solve-error").await, "");

    // A big board: the search's progress shows while it runs, and Stop ends it.
    let paste = c.find(Locator::Id("paste")).await.unwrap();
    paste.clear().await.unwrap();
    paste
        .send_keys("6 6 6 6 6 6 6 6 / 0 0 / 6 6 6 6 6 6 6 6")
        .await
        .unwrap();
    click(&c, "#use-paste").await;
    click(&c, "#solve").await;
    wait_for_text(&c, "#progress", "positions").await;
    click(&c, "#stop").await;
    wait_for_text(&c, "#solve-error", "Stopped").await;
    click(&c, "#reset").await;

    // Puzzles: a hint, a right line, a wrong pick.
    click(&c, "button[data-page=puzzles]").await;
    c.wait().for_element(Locator::Id("ppit-1")).await.unwrap();
    click(&c, "#hint").await;
    check_eq!(id_of(&c, "#pboard .pit.next").await, "ppit-3");
    for p in [3, 1, 3] {
        click(&c, &format!("#ppit-{p}")).await;
        settle().await;
    }
    let msg = text(&c, "#puzzle-msg").await;
    check!(msg.starts_with("Solved"), "{msg}");
    shot(&c, "puzzles-desktop.png").await;
    click(&c, "#retry").await;
    settle().await;
    click(&c, "#ppit-1").await;
    settle().await;
    let msg = text(&c, "#puzzle-msg").await;
    check!(msg.contains("Taken back"), "{msg}");

    // Play: Kalah 6x4 against the default (medium) computer. Pit 3 ends in the store
    // (a free turn), pit 1 passes the turn and the computer answers.
    c.execute("window.MANCALA_SEED = 7;", vec![]).await.unwrap();
    click(&c, "button[data-page=play]").await;
    wait_for_text(&c, "#g-status", "Your turn").await;
    check_eq!(text(&c, "#gpit-3").await, "4");
    check_eq!(text(&c, "#gboard-store").await, "0");
    click(&c, "#gpit-3").await;
    wait_for_text(&c, "#g-status", "Your turn").await;
    check_eq!(text(&c, "#gboard-store").await, "1");
    check_eq!(text(&c, "#gpit-3").await, "0");
    // The computer's reply held back 2.5 s, as a slow level's would be:
    // meanwhile the person's pick is on the board and the status counts
    // the computer's seconds, never "Your turn".
    c.execute(
        "window.realCall = backend.call; backend.call = (m, p, b, s) => /\\/reply$/.test(p) ? new Promise((r) => setTimeout(r, 2500)).then(() => window.realCall(m, p, b, s)) : window.realCall(m, p, b, s);",
        vec![],
    )
    .await
    .unwrap();
    click(&c, "#gpit-1").await;
    wait_for_text(&c, "#g-status", "The computer is thinking").await;
    check_eq!(text(&c, "#gpit-1").await, "0");
    check_eq!(text(&c, "#gpit-2").await, "5");
    let log = text(&c, "#g-log").await;
    check!(log.contains("You:") && !log.contains("Computer:"), "{log}");
    check_eq!(attr(&c, "#gpit-2", "disabled").await, "true");
    wait_for_text(&c, "#g-status", "thinking… 1 s").await;
    let said = text(&c, "#g-status").await;
    check!(!said.contains("Your turn"), "{said}");
    c.execute("backend.call = window.realCall;", vec![])
        .await
        .unwrap();
    wait_for_text(&c, "#g-log", "Computer:").await;
    wait_for_text(&c, "#g-status", "Your turn").await;
    let log = text(&c, "#g-log").await;
    check!(log.starts_with("You:"), "{log}");
    // The board still holds 48 stones.
    let total = c
        .execute(
            "return [...document.querySelectorAll('#gboard .pit, #gboard .store')].reduce((s, e) => s + Number(e.textContent), 0);",
            vec![],
        )
        .await
        .unwrap();
    check_eq!(total.as_u64(), Some(48));
    shot(&c, "play-desktop.png").await;
    // A hint lights a pit; undo takes the whole turn back.
    click(&c, "#g-hint").await;
    let hinted = id_of(&c, "#gboard .pit.next").await;
    check!(hinted.starts_with("gpit-"), "{hinted}");
    click(&c, "#g-undo").await;
    wait_for_text(&c, "#g-log", "Taken back").await;
    wait_for_text(&c, "#g-status", "turn 1").await;
    for k in 1..=12 {
        check_eq!(text(&c, &format!("#gpit-{k}")).await, "4");
    }
    // Keyboard: Tab reaches a pit and Enter picks it.
    c.execute("document.getElementById('gpit-3').focus();", vec![])
        .await
        .unwrap();
    c.find(Locator::Id("gpit-3"))
        .await
        .unwrap()
        .send_keys("\u{E007}")
        .await
        .unwrap();
    wait_for_text(&c, "#g-log", "You: ").await;
    wait_for_text(&c, "#gboard-store", "1").await;
    settle().await;
    // The focus stays on the board for the next pick.
    let focused = c
        .execute("return document.activeElement.id;", vec![])
        .await
        .unwrap();
    check!(
        focused.as_str().unwrap_or("").starts_with("gpit-"),
        "focus went to {focused}"
    );

    // "Analyze this game": the game so far (pit 3, a free turn) opens on the
    // Analyze page, with the same board and the move in its list.
    let play_board = pit_counts(&c, "gpit").await;
    click(&c, "#g-analyze").await;
    wait_for_text(&c, "#an-moves", "You: 3").await;
    wait_for_text(&c, "#an-turn", "You pick again").await;
    check_eq!(pit_counts(&c, "an-pit").await, play_board);
    let search = c.execute("return location.search;", vec![]).await.unwrap();
    check_eq!(
        search.as_str(),
        Some("?rules=kalah&board=4,4,4,4,4,4/0,0/4,4,4,4,4,4&to=you&line=3")
    );

    // Atlas: the avalanche table; the 6x4 cell shows 43 and its line.
    click(&c, "button[data-page=atlas]").await;
    click(&c, "#acell-6-4").await;
    check_eq!(text(&c, "#a-best").await, "43");
    check!(text(&c, "#a-line").await.starts_with('6'));
    shot(&c, "atlas-desktop.png").await;

    // Phone width: every page fits.
    c.set_window_size(360, 800).await.unwrap();
    for page in ["analyze", "solve", "play", "atlas"] {
        click(&c, &format!("button[data-page={page}]")).await;
        settle().await;
        let wide = c
            .execute("return document.documentElement.scrollWidth;", vec![])
            .await
            .unwrap();
        check!(
            wide.as_u64().unwrap() <= 360,
            "{page} is {wide} px wide at 360"
        );
        shot(&c, &format!("{page}-360.png")).await;
    }

    // Analyze at 390 px: a whole game, the link, errors beside fields, Stop.
    analyze_page(&c, &url, addr).await;

    // The rough edges of issue 34 at 390 px.
    rough_edges(&c, &url, addr).await;

    // Issue 59, a phone player's: the avalanche start, a puzzle reached
    // again, a new game, every page at 390 px.
    phone_player(&c, &url).await;

    // Issue 68: the phone companion.
    phone_companion(&c, &url, addr).await;

    // Issue 69: a game reviewed.
    web_review::review_pages(&c, &url).await;

    // Nothing went anywhere but this server.
    only_from(&c, &url).await;

    // The static site: the same pages from a plain file server, answered by
    // the engine in WebAssembly; every value is checked against `serve`.
    if let Some(dir) = site {
        let site = format!("http://{}/", serve_folder(dir.to_path_buf()).await);
        c.set_window_size(390, 900).await.unwrap();
        c.goto(&site).await.unwrap();
        let engine = c.execute("return backend.engine;", vec![]).await.unwrap();
        check_eq!(engine, "wasm");
        click(&c, "button[data-page=solve]").await;
        click(&c, "#solve").await;
        check_eq!(text(&c, "#best").await, "43");
        // The showcase board runs in a tab of its own (its own worker, on
        // the other core) while the walk goes on in this one.
        let walk = c.window().await.unwrap();
        let showcase_tab = c.new_window(true).await.unwrap().handle;
        c.switch_to_window(showcase_tab.clone()).await.unwrap();
        c.goto(&format!(
            "{site}?page=solve&rules=any-hole&board=4,4,4,4,4,4/0,0/4,4,4,4,4,4"
        ))
        .await
        .unwrap();
        click(&c, "#solve").await;
        c.switch_to_window(walk.clone()).await.unwrap();
        analyze_page(&c, &site, addr).await;
        rough_edges(&c, &site, addr).await;
        phone_player(&c, &site).await;
        phone_companion(&c, &site, addr).await;
        endgame_database(&c, &site).await;
        larger_database(&c, &site).await;
        web_review::review_pages(&c, &site).await;
        only_from(&c, &site).await;
        offline(&c, dir).await;
        c.switch_to_window(showcase_tab).await.unwrap();
        showcase(&c, "more memory than this page may use (256 MiB)").await;
        only_from(&c, &site).await;
        c.close_window().await.unwrap();
        c.switch_to_window(walk).await.unwrap();
        println!(
            "web_browser: the static site answered in WebAssembly, from {}",
            dir.display()
        );
    }
    c.close().await.unwrap();
    let _ = std::fs::remove_dir_all(profile);
}

/// The showcase board, any-hole 2x6x4, solved with the back-end's default
/// memory guard: the search stops, the page says why (`why`) and what to
/// do in plain words, keeps the best store found so far, and Find gets 48
/// of 48.
async fn showcase(c: &Client, why: &str) {
    wait_js_for(
        c,
        "return !!document.getElementById('try-find') || !!document.getElementById('best');",
        120,
    )
    .await;
    let said = text(c, "#result").await;
    check!(said.contains(why) && said.contains("Press Find"), "{said}");
    check!(!said.contains("bucket") && !said.contains("GiB"), "{said}");
    let best: u64 = text(c, "#best-so-far").await.parse().unwrap();
    check!((30..48).contains(&best), "best so far {best}");
    shot(c, "solve-memory-390.png").await;
    click(c, "#try-find").await;
    wait_for_text(c, "#result", "48 stones").await;
    check_eq!(text(c, "#best").await, "48");
}

/// Issue 34's rough edges, as a phone player meets them (390 px).
async fn rough_edges(c: &Client, url: &str, addr: SocketAddr) {
    c.set_window_size(390, 900).await.unwrap();
    c.goto(url).await.unwrap();
    // What earlier walks kept in this browser (a game, the puzzle tally) goes.
    c.execute("localStorage.clear();", vec![]).await.unwrap();
    c.goto(url).await.unwrap();

    // Analyze: no analysis while a field of the editor is wrong (the
    // editor is a mode asked for: a first visit plays).
    click(c, "#an-edit").await;
    retype(c, "#an-pits", "2.7").await;
    let msg = text(c, "#an-err-pits").await;
    check!(
        msg.contains("a whole number from 1 to 16") && msg.contains("2.7"),
        "{msg}"
    );
    c.find(Locator::Css("#an-seconds option[value='5']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(c, "#an-status", "Not analyzed").await;
    retype(c, "#an-pits", "6").await;
    check_eq!(text(c, "#an-err-pits").await, "");

    // Solve: a pit that is not a count is refused as it is typed, with
    // what is allowed beside the board, and Solve refuses to run.
    click(c, "button[data-page=solve]").await;
    for bad in ["abc", "-3", "2.7", "1e3"] {
        retype(c, "#pit-1", bad).await;
        let msg = text(c, "#err-board").await;
        check!(
            msg.contains("Pit 1: a whole number from 0 to 255") && msg.contains(bad),
            "{bad}: {msg}"
        );
        check_eq!(attr(c, "#pit-1", "aria-invalid").await, "true");
    }
    click(c, "#solve").await;
    wait_for_text(c, "#solve-error", "Not solved").await;
    check_eq!(text(c, "#result").await, "");
    retype(c, "#pit-1", "4").await;
    check_eq!(text(c, "#err-board").await, "");
    // Pits a side: blank and negative said plainly beside the field.
    retype(c, "#size", "5").await;
    c.find(Locator::Css("#size"))
        .await
        .unwrap()
        .send_keys("\u{E003}")
        .await
        .unwrap();
    wait_for_text(c, "#err-pits", "it is blank").await;
    check!(text(c, "#err-pits")
        .await
        .contains("a whole number from 1 to 16"));
    retype(c, "#size", "-3").await;
    let msg = text(c, "#err-pits").await;
    check!(
        msg.contains("a whole number from 1 to 16") && msg.contains("-3"),
        "{msg}"
    );
    click(c, "#solve").await;
    wait_for_text(c, "#solve-error", "Not solved").await;
    retype(c, "#size", "6").await;
    click(c, "#reset").await;
    check_eq!(text(c, "#err-pits").await, "");
    // A paste of 50,000 pits is refused at once, before it is read.
    let took = c
        .execute(
            "const t0 = performance.now(); const e = document.getElementById('an-paste'); e.value = Array(25000).fill('4').join(' ') + ' / 0 0 / ' + Array(25000).fill('4').join(' '); e.dispatchEvent(new Event('input')); return performance.now() - t0;",
            vec![],
        )
        .await
        .unwrap();
    check!(took.as_f64().unwrap() < 500.0, "{took} ms");
    let msg = c
        .execute(
            "return document.getElementById('an-err-paste').textContent;",
            vec![],
        )
        .await
        .unwrap();
    check!(
        msg.as_str().unwrap().contains("at most 2,000 characters"),
        "{msg}"
    );
    c.execute(
        "const e = document.getElementById('paste'); e.value = Array(25000).fill('4').join(' ') + ' / 0 0 / ' + Array(25000).fill('4').join(' '); e.dispatchEvent(new Event('input'));",
        vec![],
    )
    .await
    .unwrap();
    click(c, "#use-paste").await;
    let msg = text(c, "#err-paste").await;
    check!(msg.contains("characters long"), "{msg}");
    check_eq!(pit_counts(c, "pit").await.len(), 12);

    // Tab goes along the top row, then the bottom row.
    c.execute("document.getElementById('pit-12').focus();", vec![])
        .await
        .unwrap();
    for want in ["pit-11", "pit-10"] {
        c.active_element()
            .await
            .unwrap()
            .send_keys("\u{E004}")
            .await
            .unwrap();
        check_eq!(active_id(c).await, want);
    }
    c.execute("document.getElementById('pit-7').focus();", vec![])
        .await
        .unwrap();
    c.active_element()
        .await
        .unwrap()
        .send_keys("\u{E004}")
        .await
        .unwrap();
    check_eq!(active_id(c).await, "pit-1");
    // The total counts every stone on the board, the opponent's store too.
    retype(c, "#paste", "0 0 0 / 5 0 / 1 1 1").await;
    click(c, "#use-paste").await;
    click(c, "#solve").await;
    check_eq!(text(c, "#on-board").await, "8");
    let said = text(c, "#result").await;
    check!(said.contains("of the 8 stones on the board"), "{said}");
    // To the end of the line, then other rules: the end position goes, and
    // the board as typed is back, editable.
    while attr(c, "#next", "disabled").await != "true" {
        click(c, "#next").await;
    }
    check_eq!(
        c.execute("return document.getElementById('pit-1').tagName;", vec![])
            .await
            .unwrap(),
        "BUTTON"
    );
    c.find(Locator::Css("#rules option[value=kalah]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    check_eq!(text(c, "#result").await, "");
    check_eq!(attr(c, "#steps", "hidden").await, "true");
    check_eq!(
        c.execute("return document.getElementById('pit-1').tagName;", vec![])
            .await
            .unwrap(),
        "INPUT"
    );
    check_eq!(
        c.execute("return document.getElementById('pit-1').value;", vec![])
            .await
            .unwrap(),
        "1"
    );
    // Solved again, then Edit board: the counts can be typed again.
    click(c, "#solve").await;
    c.wait().for_element(Locator::Id("best")).await.unwrap();
    click(c, "#edit").await;
    check_eq!(active_id(c).await, "pit-1");
    retype(c, "#pit-1", "2").await;
    // The paste field follows the board (it kept the text pasted before).
    let shown = c
        .execute(
            "return [document.getElementById('err-board').textContent, document.getElementById('result').textContent, document.getElementById('paste').value];",
            vec![],
        )
        .await
        .unwrap();
    check_eq!(shown, serde_json::json!(["", "", "0 0 0 / 5 0 / 2 1 1"]));

    puzzle_scores(c, addr).await;

    // Atlas: the rule sets in a player's words, no file or rule-flag names,
    // and the coloured table (the heat map) read at 390 px without zooming.
    click(c, "button[data-page=atlas]").await;
    c.wait()
        .for_element(Locator::Id("acell-6-4"))
        .await
        .unwrap();
    let options = text(c, "#a-rules").await;
    for name in ["GamePigeon avalanche", "GamePigeon capture", "any-hole"] {
        check!(options.contains(name), "{options}");
    }
    let shown = text(c, "#page-atlas").await + &options;
    for word in [
        "scope",
        "relay",
        "docs/",
        ".json",
        ".svg",
        "norelay",
        "proved by solve",
    ] {
        check!(!shown.contains(word), "{word:?} in {shown}");
    }
    let wide = c
        .execute("return document.documentElement.scrollWidth;", vec![])
        .await
        .unwrap();
    check!(
        wide.as_u64().unwrap() <= 390,
        "atlas is {wide} px wide at 390"
    );
    let font = c
        .execute(
            "return parseFloat(getComputedStyle(document.getElementById('acell-6-4')).fontSize);",
            vec![],
        )
        .await
        .unwrap();
    check!(font.as_f64().unwrap() >= 12.0, "cells in {font} px type");
    click(c, "#acell-6-4").await;
    check_eq!(text(c, "#a-best").await, "43");

    // Play: pits a side of -3 is refused beside the field, in plain words.
    click(c, "button[data-page=play]").await;
    wait_for_text(c, "#g-status", "Your turn").await;
    retype(c, "#g-pits", "-3").await;
    click(c, "#g-new").await;
    let msg = text(c, "#g-err-pits").await;
    check!(
        msg.contains("a whole number from 1 to 16") && !msg.contains("invalid type"),
        "{msg}"
    );
    retype(c, "#g-pits", "6").await;
    check_eq!(text(c, "#g-err-pits").await, "");
    // Hint and Undo keep the focus on the button pressed.
    click(c, "#g-hint").await;
    wait_js(c, "return !!document.querySelector('#gboard .pit.next');").await;
    check_eq!(active_id(c).await, "g-hint");
    click(c, "#g-undo").await;
    wait_for_text(c, "#g-status", "Nothing to take back").await;
    check_eq!(active_id(c).await, "g-undo");

    // The log of a long game is all on the page at 390 px, its numbers
    // (two digits) not cut at the left.
    let log = c
        .execute(
            "const l = document.getElementById('g-log'); for (let i = 0; i < 30; i++) { const li = document.createElement('li'); li.textContent = 'Computer: pit 12 (4 stones) → pit 3: the turn is over'; l.appendChild(li); } const r = [l.scrollHeight - l.clientHeight, parseFloat(getComputedStyle(l).paddingLeft)]; for (let i = 0; i < 30; i++) l.lastChild.remove(); return r;",
            vec![],
        )
        .await
        .unwrap();
    check!(log[0].as_f64().unwrap() <= 1.0, "the log is cut: {log}");
    check!(
        log[1].as_f64().unwrap() >= 36.0,
        "no room for the numbers: {log}"
    );

    // Issue 34 (3): `perfect` on Kalah 6x4, the computer first, answers
    // within the time its label states (the exact solver took 85 s for this
    // turn on one core, past `serve`'s 30 s), counting its seconds against
    // it meanwhile; the engine's agent is the analysis for those seconds.
    choose(c, "#g-level", "perfect").await;
    let label = text(c, "#g-level").await;
    check!(
        label.contains("perfect: best play, up to 15 s a turn"),
        "{label}"
    );
    choose(c, "#g-person", "second").await;
    click(c, "#g-new").await;
    wait_for_text(c, "#g-status", "s of at most 15 s").await;
    let started = std::time::Instant::now();
    wait_js_for(
        c,
        "return !!game && game.to_move === 'person' && game.played.length > 0;",
        60,
    )
    .await;
    // The wait above bounds a hang, not the speed: the time is printed,
    // and measured in benches/site-browser.mjs. (Before, the turn was
    // refused after `serve`'s 30 s and never came.)
    let took = started.elapsed();
    println!(
        "web_browser: perfect's first turn on Kalah 6x4 ({}): {:.1} s",
        c.execute("return backend.engine;", vec![]).await.unwrap(),
        took.as_secs_f64()
    );
    let agent = c
        .execute(
            "return [game.agent, document.querySelector('#g-level option[value=perfect]').dataset.seconds];",
            vec![],
        )
        .await
        .unwrap();
    check_eq!(agent, serde_json::json!(["analyze:13", "15"]));
    wait_for_text(c, "#g-status", "Your turn").await;
    shot(c, "play-perfect-390.png").await;
    // Back to the default level, the person first, for the walk on.
    choose(c, "#g-level", "medium").await;
    choose(c, "#g-person", "first").await;
    click(c, "#g-new").await;
    wait_for_text(c, "#g-status", "Your turn (turn 1)").await;

    reload_and_back(c).await;
}

/// The page and its position come back after a reload and with Back.
async fn reload_and_back(c: &Client) {
    let search = || async {
        c.execute("return location.search;", vec![])
            .await
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    };
    let shown = |page: &'static str| async move {
        attr(c, &format!("#page-{page}"), "hidden").await.is_empty()
    };
    // Solve: the board and the rules are in the link.
    click(c, "button[data-page=solve]").await;
    retype(c, "#paste", "1 2 3 / 0 0 / 4 5 6").await;
    click(c, "#use-paste").await;
    c.find(Locator::Css("#rules option[value=kalah]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    check_eq!(
        search().await,
        "?page=solve&rules=kalah&board=1,2,3/0,0/4,5,6"
    );
    c.refresh().await.unwrap();
    c.wait().for_element(Locator::Id("pit-6")).await.unwrap();
    check!(shown("solve").await);
    let values = c
        .execute("return [...document.querySelectorAll('#board input.pit')].map(e => e.id + '=' + e.value).sort().join(' ');", vec![])
        .await
        .unwrap();
    check_eq!(values, "pit-1=4 pit-2=5 pit-3=6 pit-4=3 pit-5=2 pit-6=1");
    check_eq!(
        c.execute("return document.getElementById('rules').value;", vec![])
            .await
            .unwrap(),
        "kalah"
    );
    // Puzzles: the collection and the puzzle; the tally is kept.
    click(c, "button[data-page=puzzles]").await;
    c.wait().for_element(Locator::Id("ppit-1")).await.unwrap();
    click(c, "#next-puzzle").await;
    wait_for_text(c, "#puzzle-title", "grade 2").await;
    click(c, "#next-puzzle").await;
    wait_for_text(c, "#puzzle-title", "grade 3").await;
    let title = text(c, "#puzzle-title").await;
    let tally = text(c, "#tally").await;
    let q = search().await;
    check!(
        q.starts_with("?page=puzzles&collection=") && q.ends_with("&puzzle=3"),
        "{q}"
    );
    c.refresh().await.unwrap();
    wait_for_text(c, "#puzzle-title", &title).await;
    check!(shown("puzzles").await);
    check_eq!(text(c, "#tally").await, tally);
    // Play: the game goes on after a reload, at the same position.
    click(c, "button[data-page=play]").await;
    wait_for_text(c, "#g-status", "Your turn").await;
    // The pick is drawn before the computer's reply (held back 1.5 s), on
    // either engine.
    c.execute(
        "window.realCall = backend.call; backend.call = (m, p, b, s) => /\\/reply$/.test(p) ? new Promise((r) => setTimeout(r, 1500)).then(() => window.realCall(m, p, b, s)) : window.realCall(m, p, b, s);",
        vec![],
    )
    .await
    .unwrap();
    let before = pit_counts(c, "gpit").await;
    click(c, "#gpit-1").await;
    wait_for_text(c, "#g-status", "The computer is thinking").await;
    check_eq!(text(c, "#gpit-1").await, "0");
    check!(pit_counts(c, "gpit").await != before);
    c.execute("backend.call = window.realCall;", vec![])
        .await
        .unwrap();
    wait_for_text(c, "#g-log", "Computer:").await;
    wait_for_text(c, "#g-status", "Your turn").await;
    let board = pit_counts(c, "gpit").await;
    let stores = (
        text(c, "#gboard-store").await,
        text(c, "#gboard-opp-store").await,
    );
    let q = search().await;
    let server = c.execute("return backend.engine;", vec![]).await.unwrap() == "server";
    check!(
        q.starts_with("?page=play") && q.contains("&game=") == server,
        "{q}"
    );
    c.refresh().await.unwrap();
    wait_for_text(c, "#g-status", "Your turn").await;
    check!(shown("play").await);
    check_eq!(pit_counts(c, "gpit").await, board);
    check_eq!(
        (
            text(c, "#gboard-store").await,
            text(c, "#gboard-opp-store").await
        ),
        stores
    );
    wait_for_text(c, "#g-log", "Computer:").await;
    // Undo after the reload takes back the turn played before it, on
    // either engine (the static site's engine started again with the page:
    // before, it had nothing to take back).
    click(c, "#g-undo").await;
    let start: Vec<String> = before.iter().map(u64::to_string).collect();
    wait_js(
        c,
        &format!(
            "return [...document.querySelectorAll('#gboard .pit')].sort((a, b) => a.id.slice(5) - b.id.slice(5)).map(e => e.textContent).join() === '{}';",
            start.join(",")
        ),
    )
    .await;
    let said = text(c, "#g-status").await;
    check!(said.starts_with("Your turn"), "{said}");
    // A game the engine lost (dropped by the server; on the static site,
    // Stop ends the engine) goes on from its position at the next pick.
    c.execute("backend.call('DELETE', '/api/game/' + game.id);", vec![])
        .await
        .unwrap();
    settle().await;
    let pit = id_of(c, "#gboard .pit:not(:disabled)").await;
    click(c, &format!("#{pit}")).await;
    wait_for_text(c, "#g-log", "it goes on from the same position").await;
    wait_for_text(c, "#g-status", "Your turn").await;
    check_eq!(text(c, "#g-error").await, "");
    let log = text(c, "#g-log").await;
    check!(
        log.ends_with("the turn is over") || log.contains("free turn"),
        "{log}"
    );
    let board = pit_counts(c, "gpit").await;
    // Back: from the Atlas to the game, then to the puzzle.
    click(c, "button[data-page=atlas]").await;
    check_eq!(search().await, "?page=atlas");
    c.back().await.unwrap();
    wait_js(c, "return !document.getElementById('page-play').hidden;").await;
    check_eq!(pit_counts(c, "gpit").await, board);
    c.back().await.unwrap();
    wait_js(c, "return !document.getElementById('page-puzzles').hidden;").await;
    wait_for_text(c, "#puzzle-title", &title).await;
}

/// Puzzles: each puzzle counted once, clean, with help or failed; Undo.
async fn puzzle_scores(c: &Client, addr: SocketAddr) {
    click(c, "button[data-page=puzzles]").await;
    c.wait().for_element(Locator::Id("ppit-1")).await.unwrap();
    let tally = || async { text(c, "#tally").await };
    // The first puzzle by its solution, alone: clean, the streak at 1.
    puzzle_picks(c, &[3, 1, 3]).await;
    wait_for_text(c, "#puzzle-msg", "Solved: ").await;
    check_eq!(
        tally().await,
        "Streak: 1 · solved 1 · with help 0 · failed 0"
    );
    // The next, by hints only: solved with help, the streak ended.
    click(c, "#next-puzzle").await;
    wait_for_text(c, "#puzzle-title", "grade 2").await;
    for _ in 0..20 {
        click(c, "#hint").await;
        let pit = id_of(c, "#pboard .pit.next").await;
        puzzle_picks(c, &[pit[5..].parse().unwrap()]).await;
        if text(c, "#puzzle-msg").await.starts_with("Solved") {
            break;
        }
    }
    wait_for_text(c, "#puzzle-msg", "Solved with help").await;
    check_eq!(
        tally().await,
        "Streak: 0 · solved 1 · with help 1 · failed 0"
    );
    // The third: two wrong picks make one failed puzzle, not two.
    click(c, "#next-puzzle").await;
    wait_for_text(c, "#puzzle-title", "grade 3").await;
    let info = c
        .execute(
            "return [current.collection, current.id, current.pits.length / 2, current.solution];",
            vec![],
        )
        .await
        .unwrap();
    let (name, id) = (info[0].as_str().unwrap(), info[1].as_str().unwrap());
    let solution: Vec<u64> = info[3]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let mut wrong = Vec::new();
    for k in 1..=info[2].as_u64().unwrap() {
        let doc = post(
            addr,
            &format!("/api/puzzles/{name}/{id}/check"),
            &format!(r#"{{"picks":[{k}]}}"#),
        )
        .await;
        if doc["why"].is_string() {
            wrong.push(k);
        }
    }
    check!(wrong.len() >= 2, "{wrong:?}");
    for k in &wrong[..2] {
        click(c, &format!("#ppit-{k}")).await;
        wait_for_text(c, "#puzzle-msg", "Taken back").await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
    }
    check_eq!(
        tally().await,
        "Streak: 0 · solved 1 · with help 1 · failed 1"
    );
    // Undo takes back one pick: the board is as at the start.
    let start = pit_counts(c, "ppit").await;
    check_eq!(attr(c, "#undo", "disabled").await, "true");
    click(c, &format!("#ppit-{}", solution[0])).await;
    wait_for_text(c, "#puzzle-msg", "Pick 1:").await;
    check!(pit_counts(c, "ppit").await != start);
    click(c, "#undo").await;
    wait_for_text(c, "#puzzle-msg", "Took back pit").await;
    check_eq!(pit_counts(c, "ppit").await, start);
    check_eq!(active_id(c).await, format!("ppit-{}", solution[0]));
    // By keyboard: Enter on a pit picks it and the focus stays on the board;
    // Undo keeps it while there is more to take back.
    c.active_element()
        .await
        .unwrap()
        .send_keys("\u{E007}")
        .await
        .unwrap();
    wait_for_text(c, "#puzzle-msg", "Pick 1:").await;
    check!(active_id(c).await.starts_with("ppit-"));
    c.execute(
        &format!("document.getElementById('ppit-{}').focus();", solution[1]),
        vec![],
    )
    .await
    .unwrap();
    c.active_element()
        .await
        .unwrap()
        .send_keys("\u{E007}")
        .await
        .unwrap();
    wait_for_text(c, "#puzzle-msg", "Pick 2:").await;
    click(c, "#undo").await;
    wait_for_text(c, "#puzzle-msg", "Took back pit").await;
    check_eq!(active_id(c).await, "undo");
    click(c, "#undo").await;
    wait_for_text(c, "#puzzle-msg", &format!("Took back pit {}", solution[0])).await;
    check_eq!(pit_counts(c, "ppit").await, start);
    // Solved after all: it moves from failed to with help.
    puzzle_picks(c, &solution).await;
    wait_for_text(c, "#puzzle-msg", "Solved with help").await;
    check_eq!(
        tally().await,
        "Streak: 0 · solved 1 · with help 2 · failed 0"
    );

    // The collections by their games' names, GamePigeon capture among
    // them; a capture puzzle from mid-game, solved by its solution.
    let options = text(c, "#collection").await;
    for name in ["GamePigeon avalanche", "GamePigeon capture", "any-hole"] {
        check!(options.contains(name), "{options}");
    }
    c.execute(
        "const s = document.getElementById('collection'); s.value = [...s.options].findIndex(o => o.text.startsWith('GamePigeon capture')); index = collections[s.value].puzzles.findIndex(p => p.id.startsWith('game-')); loadPuzzle();",
        vec![],
    )
    .await
    .unwrap();
    wait_for_text(c, "#puzzle-title", "mid-game").await;
    let solution = c.execute("return current.solution;", vec![]).await.unwrap();
    let solution: Vec<u64> = serde_json::from_value(solution).unwrap();
    puzzle_picks(c, &solution).await;
    wait_for_text(c, "#puzzle-msg", "Solved: ").await;
    c.execute(
        "document.getElementById('collection').value = '0'; index = 0; loadPuzzle();",
        vec![],
    )
    .await
    .unwrap();
    wait_for_text(c, "#puzzle-title", "grade 1 · a game's start").await;
}

/// Pick `pits` on the puzzle board one by one, each answered before the next.
async fn puzzle_picks(c: &Client, pits: &[u64]) {
    for p in pits {
        c.execute(
            "document.getElementById('puzzle-msg').textContent = '';",
            vec![],
        )
        .await
        .unwrap();
        click(c, &format!("#ppit-{p}")).await;
        wait_js(
            c,
            "return /^(Pick|Solved)/.test(document.getElementById('puzzle-msg').textContent);",
        )
        .await;
    }
}

/// The id of the element that has the focus ("" for the body).
async fn active_id(c: &Client) -> String {
    settle().await;
    c.execute("return document.activeElement.id;", vec![])
        .await
        .unwrap()
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// Every request of the page now went to `url` and nowhere else.
async fn only_from(c: &Client, url: &str) {
    let names = c
        .execute("return performance.getEntriesByType('resource').map(e => e.name).concat([location.href]);", vec![])
        .await
        .unwrap();
    for name in names.as_array().unwrap() {
        let name = name.as_str().unwrap();
        check!(name.starts_with(url), "a request went to {name}");
    }
}

/// The Analyze page at 390 px, as a phone player uses it: enter a small
/// position, play the best turn, tap the opponent's picks, to the end of the
/// game; every value shown is the one the API gives for that position.
async fn analyze_page(c: &Client, url: &str, addr: SocketAddr) {
    c.set_window_size(390, 900).await.unwrap();
    c.goto(url).await.unwrap();
    click(c, "button[data-page=analyze]").await;
    // Enter Kalah, 3 pits a side, 1 stone a pit, then a second stone in pit 2.
    if attr(c, "#an-edit", "aria-pressed").await != "true" {
        click(c, "#an-edit").await;
    }
    c.find(Locator::Css("#an-rules option[value=kalah]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    // Bad entries are refused beside their fields as they are typed.
    retype(c, "#an-pits", "17").await;
    let msg = text(c, "#an-err-pits").await;
    check!(msg.contains("1 to 16"), "{msg}");
    retype(c, "#an-pits", "3").await;
    check_eq!(text(c, "#an-err-pits").await, "");
    retype(c, "#an-stones", "1").await;
    click(c, "#an-start").await;
    click(c, "#an-pit-2").await;
    click(c, "#an-plus").await;
    check_eq!(pit_counts(c, "an-pit").await, vec![1, 2, 1, 1, 1, 1]);
    retype(c, "#an-count", "abc").await;
    let msg = text(c, "#an-err-count").await;
    check!(msg.contains("\"abc\" is not one"), "{msg}");
    check_eq!(text(c, "#an-pit-2").await, "2");
    retype(c, "#an-count", "2").await;
    check_eq!(text(c, "#an-err-count").await, "");
    click(c, "#an-done").await;
    check_eq!(text(c, "#an-text").await, "1 1 1 / 0 0 / 1 2 1");

    // The game, to its end: the best turn each time, the opponent's entered by
    // tapping their pits one pick at a time.
    let mut first_value = None;
    let mut picks = 0;
    loop {
        wait_js(
            c,
            "return /^Game over/.test(document.getElementById('an-turn').textContent) || /^Done/.test(document.getElementById('an-status').textContent);",
        )
        .await;
        let turn = text(c, "#an-turn").await;
        if turn.starts_with("Game over") {
            break;
        }
        let board = text(c, "#an-text").await;
        let api = post(
            addr,
            "/api/analyze",
            &serde_json::json!({"rules": "kalah", "board": board, "nodes": 100000}).to_string(),
        )
        .await;
        let shown: i64 = attr(c, "#an-value", "data-value").await.parse().unwrap();
        check_eq!(Some(shown), api["value"].as_i64(), "{board}");
        check_eq!(attr(c, "#an-value", "data-exact").await, "true");
        check_eq!(api["exact"].as_bool(), Some(true));
        // The value seen from you: the game's score at its end.
        let you = turn.starts_with("You");
        first_value.get_or_insert(if you { shown } else { -shown });
        let before = c.execute("return location.search;", vec![]).await.unwrap();
        if you {
            click(c, "#an-turn-1").await;
        } else {
            let best = text(c, "#an-best-pit").await;
            click(c, &format!("#an-pit-{best}")).await;
        }
        picks += 1;
        assert!(picks < 40, "the game never ended");
        settled(c).await;
        let after = c.execute("return location.search;", vec![]).await.unwrap();
        check!(before != after, "the line is not in the link: {after}");
    }
    // Both played their best: the final score is the first position's value.
    let turn = text(c, "#an-turn").await;
    let score: Vec<i64> = turn
        .split(|ch: char| !ch.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    check_eq!(
        Some(score[0] - score[1]),
        first_value,
        "{turn}: not the value of the start"
    );
    let moves = text(c, "#an-moves").await;
    check!(moves.contains("Opponent:"), "{moves}");

    // The link: a reload brings back the position and the whole line.
    let search = c.execute("return location.search;", vec![]).await.unwrap();
    c.refresh().await.unwrap();
    wait_for_text(c, "#an-turn", "Game over").await;
    check_eq!(text(c, "#an-turn").await, turn);
    check_eq!(text(c, "#an-moves").await, moves);
    let again = c.execute("return location.search;", vec![]).await.unwrap();
    check_eq!(again, search);
    // Back one turn with the page's button, then the browser's Back.
    click(c, "#an-back").await;
    wait_js(
        c,
        "return /^Done/.test(document.getElementById('an-status').textContent);",
    )
    .await;
    let turn_back = text(c, "#an-turn").await;
    check!(!turn_back.starts_with("Game over"), "{turn_back}");
    check!(text(c, "#an-moves .future").await.len() > 2);
    c.back().await.unwrap();
    wait_for_text(c, "#an-turn", "Game over").await;
    // Branch from the start: another first turn replaces the line.
    click(c, "#an-first").await;
    wait_js(
        c,
        "return /^Done/.test(document.getElementById('an-status').textContent);",
    )
    .await;
    let second = text(c, "#an-turn-2 .picks").await;
    click(c, "#an-turn-2").await;
    settled(c).await;
    check_eq!(text(c, "#an-moves").await, format!("You: {second}"));

    // A board the server refuses: its message beside the board.
    click(c, "#an-edit").await;
    let paste = c.find(Locator::Id("an-paste")).await.unwrap();
    paste.send_keys("200 1 1 / 0 0 / 100 1 1").await.unwrap();
    click(c, "#an-use").await;
    wait_for_text(c, "#an-err-board", "too many").await;
    check_eq!(text(c, "#an-error").await, "");
    // Stop: a long analysis of the Kalah 6x5 start is stopped with its
    // answer so far (6x4's opening is in the book, answered at once).
    c.goto(&format!(
        "{url}?rules=kalah&board=5,5,5,5,5,5/0,0/5,5,5,5,5,5&to=you"
    ))
    .await
    .unwrap();
    c.find(Locator::Css("#an-seconds option[value='30']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    // A progress event of the 30 s search has been drawn.
    wait_for_text(c, "#an-status", "Thinking:").await;
    click(c, "#an-stop").await;
    wait_for_text(c, "#an-status", "Stopped").await;
    check!(!c
        .find(Locator::Id("an-stop"))
        .await
        .unwrap()
        .is_displayed()
        .await
        .unwrap());
    // The answer so far stays: the ten turns of the Kalah 6x4 start, ranked.
    check_eq!(
        c.execute(
            "return document.querySelectorAll('#an-turns .turn').length;",
            vec![]
        )
        .await
        .unwrap()
        .as_u64(),
        Some(10)
    );
    check!(!text(c, "#an-value").await.is_empty());
    // The search stopped: its place is free for the next analysis.
    click(c, "#an-again").await;
    wait_for_text(c, "#an-status", "Thinking").await;
    click(c, "#an-stop").await;
    wait_for_text(c, "#an-status", "Stopped").await;

    // A budget too small to prove anything: the answer is the best so far,
    // said as such, never "best" (the README's capture board, a draw).
    c.goto(&format!(
        "{url}?rules=capture&board=3,0,1,5,4,4/9,6/4,0,2,3,4,3&to=you&nodes=3000"
    ))
    .await
    .unwrap();
    wait_js(
        c,
        "return /^Done/.test(document.getElementById('an-status').textContent);",
    )
    .await;
    let best = text(c, "#an-best").await;
    check!(
        !best.contains(": best,") && best.contains("think longer to be sure"),
        "{best}"
    );
    check!(
        text(c, "#an-eval-text").await.ends_with("(not proved yet)"),
        "the bar's words"
    );
    // The screenshot: the README's avalanche board, proved (a node budget,
    // so that it is the same every time).
    c.goto(&format!(
        "{url}?rules=avalanche&board=2,0,5,1,3,4/8,10/1,4,0,2,6,2&to=you&nodes=2000000"
    ))
    .await
    .unwrap();
    wait_js(
        c,
        "return /^Done/.test(document.getElementById('an-status').textContent);",
    )
    .await;
    check_eq!(text(c, "#an-value").await, "you win by 12");
    let best = text(c, "#an-best").await;
    check!(
        best.starts_with("Tap 5, then 2, 3, 6, 2: best, you win by 12 with best play."),
        "{best}"
    );
    check_eq!(text(c, "#an-turn-1 .picks").await, "5 2 3 6 2");
    c.execute(
        "window.scrollTo(0, document.querySelector('.an-grid').offsetTop - 8);",
        vec![],
    )
    .await
    .unwrap();
    shot(c, "analyze-390.png").await;
}

/// Wait until a pick or turn played on the Analyze page is drawn: the game
/// is over, or the next analysis has started.
async fn settled(c: &Client) {
    wait_js(
        c,
        "return /^Game over/.test(document.getElementById('an-turn').textContent) || /^(Thinking|Done)/.test(document.getElementById('an-status').textContent);",
    )
    .await;
}

/// One POST to the server; its JSON answer.
async fn post(addr: SocketAddr, path: &str, body: &str) -> serde_json::Value {
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let text = tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        text
    })
    .await
    .unwrap();
    let body = &text[text.find("\r\n\r\n").unwrap() + 4..];
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The pages' rules and level selects are the back-end's own vocabulary
/// (GET /api/limits, asked through the page's back-end: `serve` or the
/// site's engine): one option a preset, its name and label, and one a
/// level with its seconds; and that document names the library's
/// presets and levels (a second path).
async fn vocabulary_selects(c: &Client) {
    use mancala_sweep::game::Level;
    use mancala_sweep::rules::Preset;
    wait_js(
        c,
        "return !!document.querySelector('#g-level option[value=perfect]');",
    )
    .await;
    let doc = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             backend.call('GET', '/api/limits').then(done, (e) => done({ error: String(e) }));",
            vec![],
        )
        .await
        .unwrap();
    let presets: Vec<serde_json::Value> = Preset::ALL
        .iter()
        .map(|p| serde_json::json!([p.name(), p.label()]))
        .collect();
    let said: Vec<serde_json::Value> = doc["presets"]
        .as_array()
        .unwrap_or_else(|| panic!("{doc}"))
        .iter()
        .map(|p| serde_json::json!([p["name"], p["label"]]))
        .collect();
    check_eq!(said, presets);
    let options = |css: &str| {
        format!(
            "return [...document.querySelectorAll('{css} option')].map((o) => [o.value, o.text]);"
        )
    };
    for select in ["#an-rules", "#rules", "#g-rules"] {
        let shown = c.execute(&options(select), vec![]).await.unwrap();
        check_eq!(shown, serde_json::Value::from(said.clone()), "{select}");
    }
    let levels = c
        .execute(
            "return [...document.querySelectorAll('#g-level option')].map((o) => [o.value, o.text, o.dataset.seconds ? Number(o.dataset.seconds) : null]);",
            vec![],
        )
        .await
        .unwrap();
    let want: Vec<serde_json::Value> = doc["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| serde_json::json!([l["name"], l["label"], l["seconds"]]))
        .collect();
    check_eq!(levels, serde_json::Value::from(want));
    let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
    check_eq!(
        doc["levels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["name"].as_str().unwrap())
            .collect::<Vec<_>>(),
        names
    );
    // The memory cap: serve's --max-memory, the static site's 256 MiB.
    let engine = c.execute("return backend.engine;", vec![]).await.unwrap();
    let cap = if engine == "server" {
        Config::default().max_memory
    } else {
        256 << 20
    };
    check_eq!(doc["max_memory"].as_u64(), Some(cap), "{engine}");
    if engine == "wasm" {
        // The module's memory grows up to the cap and not a page past it
        // (the linker's --max-memory, wasm/build.rs).
        let grown = c
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 (async () => {
                   const mod = await WebAssembly.compileStreaming(fetch('mancala_sweep.wasm')), imports = {};
                   for (const i of WebAssembly.Module.imports(mod)) (imports[i.module] ||= {})[i.name] = () => 0;
                   const m = (await WebAssembly.instantiate(mod, imports)).exports.memory;
                   m.grow(arguments[0] / 65536 - m.buffer.byteLength / 65536);
                   let past = true;
                   try { m.grow(1); } catch (e) { past = false; }
                   return { at: m.buffer.byteLength, past };
                 })().then(done, (e) => done({ error: String(e) }));",
                vec![serde_json::json!(cap)],
            )
            .await
            .unwrap();
        check_eq!(grown["at"].as_u64(), Some(cap), "{grown}");
        check_eq!(grown["past"].as_bool(), Some(false), "{grown}");
    }
}

/// The stone counts of the pits `{prefix}-1` .. `{prefix}-2n`.
async fn pit_counts(c: &Client, prefix: &str) -> Vec<u64> {
    let counts = c
        .execute(
            &format!("return [...document.querySelectorAll('[id^={prefix}-]')].filter(e => /^{prefix}-\\d+$/.test(e.id)).sort((a, b) => a.id.slice({len}) - b.id.slice({len})).map(e => Number(e.textContent));", len = prefix.len() + 1),
            vec![],
        )
        .await
        .unwrap();
    counts
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

/// Replace the text of the input `css` with `keys`, as typed.
async fn retype(c: &Client, css: &str, keys: &str) {
    let e = c.find(Locator::Css(css)).await.unwrap();
    e.clear().await.unwrap();
    e.send_keys(keys).await.unwrap();
}

/// The attribute `name` of `css` (waiting for it to exist), or "".
async fn attr(c: &Client, css: &str, name: &str) -> String {
    c.wait()
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .attr(name)
        .await
        .unwrap()
        .unwrap_or_default()
}

/// Wait (up to 20 s) until the script `js` returns true.
async fn wait_js(c: &Client, js: &str) {
    wait_js_for(c, js, 20).await;
}

/// Wait (up to `seconds`) until the script `js` returns true.
async fn wait_js_for(c: &Client, js: &str, seconds: u64) {
    let start = std::time::Instant::now();
    loop {
        if c.execute(js, vec![]).await.unwrap().as_bool() == Some(true) {
            CHECKS.fetch_add(1, Ordering::Relaxed);
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(seconds),
            "never true: {js}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Choose the option `value` of the select `css`, as a person does.
async fn choose(c: &Client, css: &str, value: &str) {
    c.find(Locator::Css(&format!("{css} option[value='{value}']")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Let a click's request and redraw finish.
async fn settle() {
    tokio::time::sleep(Duration::from_millis(300)).await;
}

/// Click the element `css` (waiting for it to exist).
async fn click(c: &Client, css: &str) {
    c.wait()
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

/// The text of `css` (waiting for it to exist). A page that redraws
/// (the Analyze page replaces its rows as the analysis deepens) may
/// replace the element between finding it and reading it: then it is
/// found again, a few times at most.
async fn text(c: &Client, css: &str) -> String {
    for _ in 0..20 {
        let found = c
            .wait()
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"));
        match found.text().await {
            Ok(t) => return t,
            Err(fantoccini::error::CmdError::Standard(e))
                if e.error == fantoccini::error::ErrorStatus::StaleElementReference =>
            {
                tokio::time::sleep(Duration::from_millis(50)).await
            }
            Err(e) => panic!("{css}: {e}"),
        }
    }
    panic!("{css}: replaced 20 times while being read")
}

/// The id of the first element that matches `css`, once there is one.
async fn id_of(c: &Client, css: &str) -> String {
    c.wait()
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .attr("id")
        .await
        .unwrap()
        .unwrap_or_default()
}

/// Wait (up to 20 s) until the text of `css` contains `part`.
async fn wait_for_text(c: &Client, css: &str, part: &str) {
    let start = std::time::Instant::now();
    loop {
        let now = text(c, css).await;
        if now.contains(part) {
            CHECKS.fetch_add(1, Ordering::Relaxed);
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{css} never said {part:?}; it says {now:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// What a phone player sees at 390 px now: no sideways scroll, every tap
/// target at least 44 px, and the evaluation bar's labels whole. `what`
/// names the state in a failure.
async fn fits_at_390(c: &Client, what: &str) {
    let got = c
        .execute(
            r#"const bad = [];
            for (const e of document.querySelectorAll("nav button, main button, main select, main input")) {
              if (e.closest("[hidden]") || e.getClientRects().length === 0) continue;
              const r = e.getBoundingClientRect();
              if (r.width < 43.5 || r.height < 43.5) bad.push(`${e.id || e.className || e.tagName} ${r.width.toFixed(1)}x${r.height.toFixed(1)}`);
            }
            const clipped = [];
            for (const e of document.querySelectorAll(".evalbar .end")) {
              if (e.getClientRects().length === 0) continue;
              const r = e.getBoundingClientRect(), b = e.parentElement.getBoundingClientRect();
              if (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5 || e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
                clipped.push(`${e.textContent} ${JSON.stringify([r.left, r.right, r.top, r.bottom, b.left, b.right, b.top, b.bottom])}`);
            }
            return { wide: document.documentElement.scrollWidth, bad, clipped };"#,
            vec![],
        )
        .await
        .unwrap();
    check!(
        got["wide"].as_u64().unwrap() <= 390,
        "{what}: the page is {} px wide at 390",
        got["wide"]
    );
    check!(
        got["bad"].as_array().unwrap().is_empty(),
        "{what}: tap targets under 44 px: {}",
        got["bad"]
    );
    check!(
        got["clipped"].as_array().unwrap().is_empty(),
        "{what}: clipped: {}",
        got["clipped"]
    );
}

/// The long tasks seen since `watch_long_tasks` (ms), longest first.
async fn long_tasks(c: &Client) -> Vec<f64> {
    let v = c
        .execute(
            "return (window.__long || []).map((e) => e[1]).sort((a, b) => b - a);",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// From now on: every main-thread task over 50 ms (the browser's long-task
/// observer), and the moments the Analyze status first says "Thinking",
/// "Done" and "Stopped" (performance.now()).
async fn watch_long_tasks(c: &Client) {
    c.execute(
        r#"window.__long = []; window.__seen = {};
        if (window.__obs) window.__obs.disconnect();
        window.__obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); });
        window.__obs.observe({ type: "longtask" });
        const st = document.getElementById("an-status");
        if (window.__mut) window.__mut.disconnect();
        window.__mut = new MutationObserver(() => { const w = (st.textContent.match(/^(Thinking|Done|Stopped)/) || [])[1]; if (w && !window.__seen[w]) window.__seen[w] = performance.now(); });
        window.__mut.observe(st, { childList: true, characterData: true, subtree: true });
        window.__tap = null;
        document.addEventListener("click", (e) => { if (e.target.id === "an-stop") window.__tap = performance.now(); }, { capture: true });"#,
        vec![],
    )
    .await
    .unwrap();
}

/// Issue 59: the avalanche start (24,324 turns) on the Analyze page at
/// 390 px: the best ten turns drawn, the rest a page at a time; no
/// main-thread task over 100 ms while it thinks; Stop shown within 0.3 s.
async fn avalanche_start(c: &Client, url: &str) {
    c.set_window_size(390, 900).await.unwrap();
    c.goto(&format!("{url}?rules=avalanche")).await.unwrap();
    wait_js_for(
        c,
        "return /^Done/.test(document.getElementById('an-status').textContent);",
        60,
    )
    .await;
    // Think 1 s again, watched from its start (the first one also loaded
    // the engine and filled its tables).
    watch_long_tasks(c).await;
    c.execute("window.__t0 = performance.now(); analyze();", vec![])
        .await
        .unwrap();
    wait_js_for(c, "return !!window.__seen.Done;", 60).await;
    let took = c
        .execute("return window.__seen.Done - window.__t0;", vec![])
        .await
        .unwrap();
    let long = long_tasks(c).await;
    println!(
        "web_browser: the avalanche start, Think 1 s ({}): Done in {:.2} s, longest task {:.0} ms",
        c.execute("return backend.engine;", vec![]).await.unwrap(),
        took.as_f64().unwrap() / 1000.0,
        long.first().copied().unwrap_or(0.0)
    );
    check!(
        long.iter().all(|&ms| ms <= 100.0),
        "tasks over 100 ms: {long:?}"
    );
    check!(took.as_f64().unwrap() < 10_000.0, "Done after {took} ms");
    let rows = || async {
        c.execute(
            "return [...document.querySelectorAll('#an-turns .turn')].map((b) => b.id);",
            vec![],
        )
        .await
        .unwrap()
    };
    let ids = |from: usize, to: usize| {
        serde_json::json!((from..=to)
            .map(|k| format!("an-turn-{k}"))
            .collect::<Vec<_>>())
    };
    check_eq!(rows().await, ids(1, 10));
    check!(text(c, "#an-turns-title")
        .await
        .contains("of 24,324 proved"));
    check_eq!(text(c, "#an-all").await, "Show all 24,324 turns");
    fits_at_390(c, "the avalanche start, Done").await;
    // Show all: fifty at a time, Next and Previous, then the best ten again.
    click(c, "#an-all").await;
    check_eq!(rows().await, ids(1, 50));
    check_eq!(text(c, "#an-page").await, "Turns 1–50 of 24,324");
    click(c, "#an-next").await;
    check_eq!(rows().await, ids(51, 100));
    fits_at_390(c, "the avalanche start, turns 51-100").await;
    // Past the best 500 (what the page reads first), the rest are read.
    for _ in 0..9 {
        click(c, "#an-next").await;
    }
    check_eq!(text(c, "#an-page").await, "Turns 501–550 of 24,324");
    check_eq!(rows().await, ids(501, 550));
    for _ in 0..9 {
        click(c, "#an-prev").await;
    }
    click(c, "#an-prev").await;
    check_eq!(rows().await, ids(1, 50));
    click(c, "#an-few").await;
    check_eq!(rows().await, ids(1, 10));

    // Think 30 s on the avalanche start of 5 stones (4 stones' is in the
    // book, answered at once); Stop tapped 3 s in ends it at once.
    c.goto(&format!(
        "{url}?rules=avalanche&board=5,5,5,5,5,5/0,0/5,5,5,5,5,5&to=you"
    ))
    .await
    .unwrap();
    wait_js_for(
        c,
        "return /^Done/.test(document.getElementById('an-status').textContent);",
        60,
    )
    .await;
    watch_long_tasks(c).await;
    choose(c, "#an-seconds", "30").await;
    wait_for_text(c, "#an-status", "Thinking:").await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    click(c, "#an-stop").await;
    wait_for_text(c, "#an-status", "Stopped").await;
    let stop = c
        .execute("return window.__seen.Stopped - window.__tap;", vec![])
        .await
        .unwrap();
    let long = long_tasks(c).await;
    println!(
        "web_browser: Stop after 3 s of Think 30 s: shown in {:.0} ms, longest task {:.0} ms",
        stop.as_f64().unwrap(),
        long.first().copied().unwrap_or(0.0)
    );
    check!(stop.as_f64().unwrap() <= 300.0, "Stop took {stop} ms");
    check!(
        long.iter().all(|&ms| ms <= 100.0),
        "tasks over 100 ms: {long:?}"
    );
    check_eq!(rows().await, ids(1, 10));
    fits_at_390(c, "the avalanche start, stopped").await;
    // The engine is ready again: the next analysis runs.
    choose(c, "#an-seconds", "1").await;
    wait_js_for(
        c,
        "return /^Done/.test(document.getElementById('an-status').textContent);",
        60,
    )
    .await;
    // A turn of the second page plays that turn; the moves list holds
    // it, long as it may be, within the page.
    click(c, "#an-all").await;
    click(c, "#an-next").await;
    let picks = text(c, "#an-turn-51 .picks").await;
    click(c, "#an-turn-51").await;
    wait_for_text(c, "#an-moves", &format!("You: {picks}")).await;
    settled(c).await;
    fits_at_390(c, "a turn of the second page played").await;
}

/// Issue 59: after one visit, every address the app makes reloads with no
/// network (the static site's service worker). The addresses are those
/// the app wrote itself while the host was there; then the host stops.
async fn offline(c: &Client, dir: &std::path::Path) {
    let (addr, stop) = serve_folder_until(dir.to_path_buf()).await;
    let url = format!("http://{addr}/");
    c.set_window_size(390, 900).await.unwrap();
    c.goto(&url).await.unwrap();
    // The service worker is registered a few seconds after the first
    // load, stores the site, and takes the page.
    wait_js_for(c, "return !!navigator.serviceWorker.controller;", 60).await;
    let here = || async {
        c.execute("return location.href;", vec![])
            .await
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    };
    let mut links = Vec::new();
    // Analyze: a position and a line, as the page writes them.
    c.goto(&format!(
        "{url}?rules=avalanche&board=4,4,4,4,4,4/0,0/4,4,4,4,4,4&to=you&line=6"
    ))
    .await
    .unwrap();
    wait_for_text(c, "#an-moves", "You: 6").await;
    links.push((here().await, "#an-moves", "You: 6"));
    click(c, "button[data-page=solve]").await;
    retype(c, "#paste", "1 2 3 / 0 0 / 4 5 6").await;
    click(c, "#use-paste").await;
    links.push((here().await, "#paste", ""));
    click(c, "button[data-page=puzzles]").await;
    c.wait().for_element(Locator::Id("ppit-1")).await.unwrap();
    click(c, "#next-puzzle").await;
    wait_for_text(c, "#puzzle-title", "grade 2").await;
    links.push((here().await, "#puzzle-title", "grade 2"));
    click(c, "button[data-page=play]").await;
    wait_for_text(c, "#g-status", "Your turn").await;
    links.push((here().await, "#g-status", "Your turn"));
    click(c, "button[data-page=atlas]").await;
    links.push((here().await, "#a-rules", "GamePigeon avalanche"));
    // Review: a one-turn game followed on Analyze, reviewed.
    c.goto(&format!(
        "{url}?rules=capture&board=4,4,4,4,4,4/0,0/4,4,4,4,4,4&to=you&line=1"
    ))
    .await
    .unwrap();
    wait_for_text(c, "#an-moves", "You: 1").await;
    click(c, "#an-review-game").await;
    wait_for_text(c, "#rv-status", "Done: every turn graded").await;
    links.push((here().await, "#rv-game", "1 turn."));
    check!(links.iter().any(|(l, _, _)| l.contains("&line=6")));
    // The host goes away.
    stop.send(()).unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    for (link, css, part) in &links {
        c.goto(link).await.unwrap();
        check_eq!(&here().await, link);
        wait_for_text(c, css, part).await;
    }
    c.goto(&links[1].0).await.unwrap();
    wait_for_text(c, "#page-solve", "Solve").await;
    let board = c
        .execute("return document.getElementById('paste').value;", vec![])
        .await
        .unwrap();
    check_eq!(board, "1 2 3 / 0 0 / 4 5 6");
    // The engine answers offline too: the Atlas's table and a solve.
    c.goto(&links[4].0).await.unwrap();
    click(c, "#acell-6-4").await;
    check_eq!(text(c, "#a-best").await, "43");
    c.goto(&format!("{url}?page=solve")).await.unwrap();
    click(c, "#solve").await;
    check_eq!(text(c, "#best").await, "43");
    // And a review, again.
    c.goto(&links[5].0).await.unwrap();
    click(c, "#rv-start").await;
    wait_for_text(c, "#rv-status", "Done: every turn graded").await;
}

/// Issue 59: a puzzle counts once in the tally, however it is reached
/// again (a reload, Back, its link): solved again, the tally and the
/// streak stay as they were.
async fn puzzle_once(c: &Client, url: &str) {
    c.set_window_size(390, 900).await.unwrap();
    c.goto(&format!("{url}?page=puzzles")).await.unwrap();
    c.execute("localStorage.clear();", vec![]).await.unwrap();
    c.refresh().await.unwrap();
    c.wait().for_element(Locator::Id("ppit-1")).await.unwrap();
    let tally = || async { text(c, "#tally").await };
    let solve = || async {
        let solution = c.execute("return current.solution;", vec![]).await.unwrap();
        let solution: Vec<u64> = serde_json::from_value(solution).unwrap();
        puzzle_picks(c, &solution).await;
    };
    solve().await;
    wait_for_text(c, "#puzzle-msg", "Solved: ").await;
    let once = "Streak: 1 · solved 1 · with help 0 · failed 0";
    check_eq!(tally().await, once);
    fits_at_390(c, "a puzzle solved").await;
    // A reload, and the same puzzle solved again: counted before.
    c.refresh().await.unwrap();
    c.wait().for_element(Locator::Id("ppit-1")).await.unwrap();
    solve().await;
    wait_for_text(c, "#puzzle-msg", "counted before").await;
    check_eq!(tally().await, once);
    // The next puzzle, then Back to this one: a hint and a wrong pick on
    // it change nothing either.
    click(c, "#next-puzzle").await;
    wait_for_text(c, "#puzzle-title", "grade 2").await;
    c.back().await.unwrap();
    wait_for_text(c, "#puzzle-title", "grade 1").await;
    click(c, "#hint").await;
    wait_for_text(c, "#puzzle-msg", "Hint").await;
    solve().await;
    wait_for_text(c, "#puzzle-msg", "counted before").await;
    check_eq!(tally().await, once);
}

/// Issue 59: a new game, the computer first, clears the old game's board
/// and log at once, while the computer thinks (its answer held back).
async fn new_game_at_once(c: &Client, url: &str) {
    c.set_window_size(390, 900).await.unwrap();
    c.goto(&format!("{url}?page=play")).await.unwrap();
    wait_for_text(c, "#g-status", "Your turn").await;
    choose(c, "#g-level", "easy").await;
    choose(c, "#g-person", "first").await;
    click(c, "#g-new").await;
    wait_for_text(c, "#g-status", "Your turn (turn 1)").await;
    click(c, "#gpit-1").await;
    wait_for_text(c, "#g-log", "Computer:").await;
    wait_for_text(c, "#g-status", "Your turn").await;
    check!(pit_counts(c, "gpit").await != vec![4; 12]);
    fits_at_390(c, "a game in progress").await;
    c.execute(
        "window.realCall = backend.call; backend.call = (m, p, b, s) => /\\/new$/.test(p) ? new Promise((r) => setTimeout(r, 2500)).then(() => window.realCall(m, p, b, s)) : window.realCall(m, p, b, s);",
        vec![],
    )
    .await
    .unwrap();
    choose(c, "#g-person", "second").await;
    click(c, "#g-new").await;
    // At once: the start position, no pit to pick, an empty log.
    check_eq!(pit_counts(c, "gpit").await, vec![4; 12]);
    check_eq!(text(c, "#gboard-store").await, "0");
    check_eq!(text(c, "#gboard-opp-store").await, "0");
    check_eq!(text(c, "#g-log").await, "");
    check_eq!(attr(c, "#gpit-1", "disabled").await, "true");
    check!(text(c, "#g-status")
        .await
        .contains("The computer is thinking"));
    fits_at_390(c, "a new game, the computer thinking").await;
    c.execute("backend.call = window.realCall;", vec![])
        .await
        .unwrap();
    wait_for_text(c, "#g-log", "Computer:").await;
    wait_for_text(c, "#g-status", "Your turn").await;
    choose(c, "#g-person", "first").await;
    choose(c, "#g-level", "medium").await;
}

/// Issue 59 at 390 px: the pages in the states a phone player reaches,
/// none wider than the screen, every tap target 44 px or more.
async fn phone_pages(c: &Client, url: &str) {
    c.set_window_size(390, 900).await.unwrap();
    // Analyze, editing, with a long avalanche turn in its moves.
    c.goto(&format!("{url}?rules=avalanche&board=4,4,4,4,4,4/0,0/4,4,4,4,4,4&to=you&line=6,3,2,5,1,1,5,5,6,1,3,4,6,2,6,6,5,2,6,1,6,3,6,5,6,4")).await.unwrap();
    wait_for_text(c, "#an-moves", "You: 6 3 2 5 1 1").await;
    settled(c).await;
    fits_at_390(c, "Analyze, a long turn in the moves").await;
    c.execute(
        "document.getElementById('an-moves').scrollIntoView({ block: 'center' });",
        vec![],
    )
    .await
    .unwrap();
    shot(c, "analyze-long-turn-390.png").await;
    click(c, "#an-edit").await;
    fits_at_390(c, "Analyze, editing").await;
    click(c, "#an-pit-3").await;
    fits_at_390(c, "Analyze, a pit chosen to edit").await;
    // Solve: the board, the result and its steps.
    click(c, "button[data-page=solve]").await;
    fits_at_390(c, "Solve").await;
    click(c, "#reset").await;
    click(c, "#solve").await;
    check_eq!(text(c, "#best").await, "43");
    fits_at_390(c, "Solve, solved").await;
    shot(c, "solve-390.png").await;
    // Puzzles, Play, Atlas.
    click(c, "button[data-page=puzzles]").await;
    c.wait().for_element(Locator::Id("ppit-1")).await.unwrap();
    fits_at_390(c, "Puzzles").await;
    click(c, "button[data-page=play]").await;
    wait_for_text(c, "#g-status", "Your turn").await;
    fits_at_390(c, "Play").await;
    click(c, "button[data-page=atlas]").await;
    click(c, "#acell-6-4").await;
    fits_at_390(c, "Atlas, a cell chosen").await;
}

/// Issue 59 on one back-end, at 390 px.
async fn phone_player(c: &Client, url: &str) {
    avalanche_start(c, url).await;
    puzzle_once(c, url).await;
    new_game_at_once(c, url).await;
    phone_pages(c, url).await;
}

/// Issue 59: the static site's endgame database, at 390 px. A capture
/// board of 4 pits a side and 40 stones is opened: its analysis answers
/// without the database, asks for it, and the page builds it in the
/// background (4 pits: every position of up to 16 stones, 0.7 MB, under
/// a second), then the larger one on it, saying so in plain words. Once the page says it is ready,
/// analyses of three positions of 24 to 40 stones (answered with it) give
/// every turn the value `game analyze --no-cache` gives natively (no
/// database there: a second path), and the position's value is `game
/// solve --no-cache`'s.
async fn endgame_database(c: &Client, site: &str) {
    c.set_window_size(390, 900).await.unwrap();
    c.goto(&format!("{site}?rules=kalah&board=5,5,5,5/0,0/5,5,5,5"))
        .await
        .unwrap();
    wait_for_text(c, "#an-endgame", "Table of endings").await;
    wait_js_for(
        c,
        "const e = backend.endgame(), l = backend.larger(); return !!e && e.state === 'ready' && e.key.pits === 4 && e.key.stones === 17 && !!l && l.state === 'ready';",
        120,
    )
    .await;
    // The first database (16 stones), then the larger one on it (this
    // walk holds 4 pits a side to 17: see `static_site`).
    let said = text(c, "#an-endgame").await;
    check_eq!(
        said,
        "Table of endings: ready. Positions with 17 stones or fewer left in the pits are answered exactly and at once."
    );
    fits_at_390(c, "the endgame database ready").await;
    shot(c, "analyze-endgame-390.png").await;
    let bin = env!("CARGO_BIN_EXE_mancala-sweep");
    let native = |args: &[&str]| -> serde_json::Value {
        let out = Command::new(bin)
            .args(args)
            .args(["--rules", "kalah", "--no-cache", "--json", "-q"])
            .output()
            .expect("the binary runs");
        assert!(out.status.success(), "{args:?}: {out:?}");
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    // Each turn's picks and value, by picks: ties may rank either way.
    let turns = |doc: &serde_json::Value| -> Vec<(String, i64)> {
        let mut t: Vec<(String, i64)> = doc["turns"]
            .as_array()
            .expect("turns")
            .iter()
            .map(|t| (t["picks"].to_string(), t["value"].as_i64().expect("value")))
            .collect();
        t.sort();
        t
    };
    for board in [
        "3 4 2 5 / 6 8 / 4 1 3 2",
        "7 2 8 3 / 1 4 / 4 6 2 5",
        "6 4 5 7 / 2 3 / 3 5 4 6",
    ] {
        let page = c
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 backend.call('POST', '/api/analyze', { rules: 'kalah', board: arguments[0], seconds: 60 })
                   .then((a) => done(Object.assign(a, { turns: a.allTurns ? a.allTurns() : a.turns })), (e) => done({ error: String(e) }));",
                vec![board.into()],
            )
            .await
            .unwrap();
        check_eq!(page["exact"], true, "{board}: {page}");
        let analyzed = native(&["game", "analyze", "--board", board, "--seconds", "60"]);
        check!(
            analyzed["turns"]
                .as_array()
                .unwrap()
                .iter()
                .all(|t| t["exact"] == true),
            "{board}: the native analysis proves every turn"
        );
        check_eq!(turns(&page), turns(&analyzed), "{board}");
        let solved = native(&["game", "solve", "--board", board]);
        check_eq!(page["value"], solved["value"], "{board}");
    }
}

/// Issue 68's last point: the larger database, built on the first in
/// the background, stopped, kept and taken up again after a reload, then
/// used. Kalah on 3 pits a side, whose larger database this walk holds to
/// 40 stones (the site's mode.js, set by [`static_site`]): 9.4 million
/// positions, seconds a layer at most. The page says how far it is, with
/// Stop (screenshots at 390 and 1280 px while it builds); Stop keeps the
/// layers done, a reload goes on from the last one kept, and an analysis
/// of 30 stones is then proved at once with the value `game solve` gives
/// natively (a second path). Both modules stay within 256 MiB.
async fn larger_database(c: &Client, site: &str) {
    const MIB_256: f64 = 268_435_456.0;
    c.set_window_size(390, 844).await.unwrap();
    let url = format!("{site}?rules=kalah&board=4,4,4/0,0/4,4,4");
    c.goto(&url).await.unwrap();
    wait_js_for(
        c,
        "const l = backend.larger(); return !!l && l.state === 'building' && l.kept >= 20;",
        240,
    )
    .await;
    let said = text(c, "#an-endgame").await;
    check!(
        said.contains("A stronger one (40 stones) is being made on this device:"),
        "{said}"
    );
    check!(
        c.find(Locator::Css("#an-larger-stop"))
            .await
            .unwrap()
            .is_displayed()
            .await
            .unwrap(),
        "Stop is shown while it builds"
    );
    fits_at_390(c, "the larger database being made").await;
    c.execute(
        "document.querySelector('#an-endgame').scrollIntoView();",
        vec![],
    )
    .await
    .unwrap();
    shot(c, "analyze-larger-390.png").await;
    c.set_window_size(1280, 900).await.unwrap();
    shot(c, "analyze-larger-1280.png").await;
    c.set_window_size(390, 844).await.unwrap();
    click(c, "#an-larger-stop").await;
    let stopped = c.execute("return backend.larger();", vec![]).await.unwrap();
    check_eq!(stopped["state"], "stopped", "{stopped}");
    let kept = stopped["kept"].as_u64().expect("a layer kept");
    check!((20..40).contains(&kept), "{stopped}");
    wait_for_text(c, "#an-endgame", "The stronger one was stopped at").await;
    check!(
        c.find(Locator::Css("#an-larger"))
            .await
            .unwrap()
            .attr("hidden")
            .await
            .unwrap()
            .is_some(),
        "Stop is gone once stopped"
    );
    // A reload goes on from the last layer kept, and hands it over.
    c.goto(&url).await.unwrap();
    wait_js_for(
        c,
        "const l = backend.larger(); return !!l && l.state === 'ready';",
        240,
    )
    .await;
    let ready = c
        .execute("return [backend.larger(), backend.endgame()];", vec![])
        .await
        .unwrap();
    check_eq!(ready[0]["from"].as_u64(), Some(kept), "{ready}");
    check_eq!(ready[0]["key"]["stones"], 40, "{ready}");
    check!(
        ready[0]["memory"].as_f64().unwrap() <= MIB_256,
        "the builder's module: {ready}"
    );
    wait_js_for(
        c,
        "const e = backend.endgame(); return !!e && e.state === 'ready' && e.key.pits === 3 && e.key.stones === 40;",
        60,
    )
    .await;
    let engine = c
        .execute("return backend.endgame();", vec![])
        .await
        .unwrap();
    check!(
        engine["memory"].as_f64().unwrap() <= MIB_256,
        "the engine's module: {engine}"
    );
    wait_for_text(
        c,
        "#an-endgame",
        "Table of endings: ready. Positions with 40 stones or fewer",
    )
    .await;
    let board = "6 5 4 / 0 0 / 5 4 6";
    let page = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             backend.call('POST', '/api/analyze', { rules: 'kalah', board: arguments[0], seconds: 2 })
               .then(done, (e) => done({ error: String(e) }));",
            vec![board.into()],
        )
        .await
        .unwrap();
    check_eq!(page["exact"], true, "{page}");
    let out = Command::new(env!("CARGO_BIN_EXE_mancala-sweep"))
        .args([
            "game",
            "solve",
            "--board",
            board,
            "--rules",
            "kalah",
            "--no-cache",
            "--json",
            "-q",
        ])
        .output()
        .expect("the binary runs");
    let solved: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    check_eq!(page["value"], solved["value"], "{board}");
}

/// Issue 68, a phone player's companion at 390×844: the answer first,
/// taps that play, wrong taps in a player's words, a status that moves,
/// the hint as the best turn with its value, and Show all's jump.
async fn phone_companion(c: &Client, url: &str, addr: SocketAddr) {
    c.set_window_size(390, 844).await.unwrap();
    c.goto(url).await.unwrap();
    c.execute("localStorage.clear();", vec![]).await.unwrap();
    c.goto(url).await.unwrap();
    // A first visit: not editing; the best pit lit and the answer's first
    // line within the first screen, the pit the line names.
    wait_for_text(c, "#an-best", "Tap").await;
    check_eq!(attr(c, "#an-edit", "aria-pressed").await, "false");
    let best = text(c, "#an-best-pit").await;
    check_eq!(
        id_of(c, "#an-board .pit.next").await,
        format!("an-pit-{best}")
    );
    let screen = c
        .execute(
            "const b = (id) => document.querySelector(id).getBoundingClientRect().bottom; return [b('#an-board .pit.next'), b('#an-best'), window.innerHeight];",
            vec![],
        )
        .await
        .unwrap();
    let [pit, line, height] = [0, 1, 2].map(|i| screen[i].as_f64().unwrap());
    check!(
        pit <= height && line <= height,
        "first screen {height}: the lit pit ends at {pit}, the answer at {line}"
    );
    shot(c, "analyze-first-visit-390x844.png").await;
    vocabulary_selects(c).await;
    // This test's server read no endgame database: the page says so, and
    // what to do (the static site says how its own one is being made).
    if c.execute("return backend.engine;", vec![]).await.unwrap() == "server" {
        let said = text(c, "#an-endgame").await;
        check!(
            said.starts_with("No table of endings") && said.contains("game analyze"),
            "{said}"
        );
    }
    // The start's value is the analysis's, by the API (a second request).
    let api = post(
        addr,
        "/api/analyze",
        r#"{"rules":"kalah","board":"4 4 4 4 4 4 / 0 0 / 4 4 4 4 4 4","nodes":1000}"#,
    )
    .await;
    check_eq!(
        attr(c, "#an-value", "data-value").await,
        api["value"].to_string()
    );
    // The lit pit, tapped, is played (Kalah 6x4: pit 3 ends in the store).
    click(c, "#an-board .pit.next").await;
    wait_for_text(c, "#an-moves", &format!("You: {best}")).await;
    wait_js(
        c,
        "return /^Done/.test(document.getElementById('an-status').textContent);",
    )
    .await;
    check_eq!(attr(c, "#an-edit", "aria-pressed").await, "false");
    // Wrong taps: said in a player's words, nothing played.
    let before = c.execute("return location.search;", vec![]).await.unwrap();
    click(c, "#an-pit-9").await;
    let said = text(c, "#an-err-pit").await;
    check!(
        said.contains("Pit 9 is the opponent's") && said.contains("tap a pit in your row"),
        "{said}"
    );
    check!(!said.contains("scope"), "{said}");
    click(c, &format!("#an-pit-{best}")).await;
    wait_for_text(c, "#an-err-pit", &format!("Pit {best} is empty")).await;
    let after = c.execute("return location.search;", vec![]).await.unwrap();
    check_eq!(before, after);

    // A long think: the seconds move on the status line between the
    // engine's reports, and Stop says the time it ran.
    c.goto(&format!(
        "{url}?rules=kalah&board=5,5,5,5,5,5/0,0/5,5,5,5,5,5&to=you"
    ))
    .await
    .unwrap();
    choose(c, "#an-seconds", "30").await;
    wait_for_text(c, "#an-status", "of 30 s").await;
    let first = text(c, "#an-status").await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let later = text(c, "#an-status").await;
    check!(
        first != later && later.starts_with("Thinking"),
        "{first} / {later}"
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    click(c, "#an-stop").await;
    wait_for_text(c, "#an-status", "Stopped after").await;
    let stopped = text(c, "#an-status").await;
    let ran: f64 = stopped
        .trim_start_matches("Stopped after ")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    check!(ran >= 3.0, "{stopped}");

    // Show all's jump: the avalanche start's 24,324 turns, turn 1,234.
    c.goto(&format!("{url}?rules=avalanche")).await.unwrap();
    wait_js_for(
        c,
        "return /^Done/.test(document.getElementById('an-status').textContent);",
        60,
    )
    .await;
    // Clicked again should an answer drawn after "Done" (the site's engine
    // going on) put the best few back under the click.
    wait_js(
        c,
        "const all = document.getElementById('an-all'), jump = document.getElementById('an-jump'); if (jump.hidden && !all.hidden) all.click(); return !jump.hidden;",
    )
    .await;
    retype(c, "#an-goto", "1234").await;
    click(c, "#an-go").await;
    check_eq!(text(c, "#an-page").await, "Turns 1,201–1,250 of 24,324");
    check_eq!(id_of(c, "#an-turn-1234").await, "an-turn-1234");
    fits_at_390(c, "Show all, turn 1,234").await;
    let tall = c
        .execute(
            "return document.querySelector('#an-details summary').getBoundingClientRect().height;",
            vec![],
        )
        .await
        .unwrap();
    check!(tall.as_f64().unwrap() >= 44.0, "Details is {tall} px tall");

    // Play in GamePigeon's words; the hint at `hard` is the analysis's
    // best turn with its value, said while it is looked for, within 2 s.
    click(c, "button[data-page=play]").await;
    let rules = text(c, "#g-rules option[value=kalah]").await;
    check_eq!(rules, "GamePigeon capture");
    choose(c, "#g-level", "hard").await;
    click(c, "#g-new").await;
    wait_for_text(c, "#g-status", "Your turn").await;
    c.execute(
        "window.realCall = backend.call; backend.call = (m, p, b, s) => /\\/hint$/.test(p) ? new Promise((r) => setTimeout(r, 1000)).then(() => window.realCall(m, p, b, s)) : window.realCall(m, p, b, s);",
        vec![],
    )
    .await
    .unwrap();
    click(c, "#g-hint").await;
    wait_for_text(c, "#g-status", "Looking for your best turn").await;
    c.execute("backend.call = window.realCall;", vec![])
        .await
        .unwrap();
    wait_for_text(c, "#g-status", "Hint: tap").await;
    let said = text(c, "#g-status").await;
    let lit = id_of(c, "#gboard .pit.next").await;
    check_eq!(lit, format!("gpit-{best}"));
    let v = api["value"].as_i64().unwrap();
    let words = match v.signum() {
        1 => format!("you win by {v}"),
        -1 => format!("you lose by {}", -v),
        _ => "a draw".into(),
    };
    check!(
        said.starts_with(&format!("Hint: tap {best}"))
            && said.ends_with(&format!("best, {words}.")),
        "{said}"
    );
    shot(c, "play-hint-390x844.png").await;
    // Off the opening book (5 stones a pit), the hint still comes within
    // 2 s: the best found in its 1.5 s when not proved, said so.
    retype(c, "#g-stones", "5").await;
    click(c, "#g-new").await;
    wait_for_text(c, "#g-status", "Your turn").await;
    let asked = std::time::Instant::now();
    click(c, "#g-hint").await;
    wait_for_text(c, "#g-status", "Hint: tap").await;
    let took = asked.elapsed().as_secs_f64();
    println!(
        "web_browser: Play's hint at hard, the Kalah 6x5 start: {took:.2} s ({})",
        c.execute("return backend.engine;", vec![]).await.unwrap()
    );
    check!(took < 2.0, "the hint took {took:.2} s");
    let said = text(c, "#g-status").await;
    check!(
        said.contains(": best, ") || said.contains(": the best found in "),
        "{said}"
    );
    retype(c, "#g-stones", "4").await;
}
