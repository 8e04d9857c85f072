//! The web app in headless Chromium (Debian's `chromium` and
//! `chromium-driver`), clicked through as a person would.
//!
//! This test has no harness, so what it prints is never captured: on a
//! machine without Chromium it says in one line that it skipped and how to
//! run it, and with `MANCALA_SWEEP_BROWSER=required` (which `.ci/run` sets
//! after installing Chromium) a missing browser fails it. When it runs it
//! says how many browser checks passed.

use fantoccini::{Client, ClientBuilder, Locator};
use mancala_sweep::web::{self, Config};
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
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(the_pages_in_chromium());
    println!(
        "web_browser: {} browser checks passed in headless Chromium",
        CHECKS.load(Ordering::Relaxed)
    );
    ExitCode::SUCCESS
}

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
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
        collections: web::committed_collections().unwrap(),
        ..Config::default()
    };
    tokio::spawn(web::serve(listener, config));
    addr
}

/// The whole walk through the pages, at desktop and phone widths.
async fn the_pages_in_chromium() {
    let port = free_port();
    let _driver = Driver(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let addr = start_server().await;
    let profile = std::env::temp_dir().join(format!("mancala-sweep-chromium-{port}"));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": CHROMIUM,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", format!("--user-data-dir={}", profile.display()),
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

    // Solve: the avalanche opening is 43, and the first pit of the line is lit.
    c.goto(&url).await.unwrap();
    click(&c, "#solve").await;
    check_eq!(text(&c, "#best").await, "43");
    check_eq!(id_of(&c, ".pit.next").await, "pit-6");
    shot(&c, "solve-desktop.png").await;

    // An error beside the field that caused it: a board of 17 pits.
    c.find(Locator::Id("paste"))
        .await
        .unwrap()
        .send_keys(&format!("{0}/ 0 0 / {0}", "1 ".repeat(17)))
        .await
        .unwrap();
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
    click(&c, "#gpit-1").await;
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

    // Atlas: the avalanche table; the 6x4 cell shows 43 and its line.
    click(&c, "button[data-page=atlas]").await;
    click(&c, "#acell-6-4").await;
    check_eq!(text(&c, "#a-best").await, "43");
    check!(text(&c, "#a-line").await.starts_with('6'));
    let img_ok = c
        .execute(
            "const i = document.getElementById('a-map'); return i.complete && i.naturalWidth > 0;",
            vec![],
        )
        .await
        .unwrap();
    check_eq!(img_ok.as_bool(), Some(true), "the heat map did not load");
    shot(&c, "atlas-desktop.png").await;

    // Phone width: every page fits.
    c.set_window_size(360, 800).await.unwrap();
    for page in ["solve", "play", "atlas"] {
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

    // Nothing went anywhere but this server.
    let names = c
        .execute("return performance.getEntriesByType('resource').map(e => e.name).concat([location.href]);", vec![])
        .await
        .unwrap();
    for name in names.as_array().unwrap() {
        let name = name.as_str().unwrap();
        check!(name.starts_with(&url), "a request went to {name}");
    }
    c.close().await.unwrap();
    let _ = std::fs::remove_dir_all(profile);
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

/// The text of `css` (waiting for it to exist).
async fn text(c: &Client, css: &str) -> String {
    c.wait()
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .await
        .unwrap()
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
