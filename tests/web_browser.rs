//! The web app in headless Chromium (Debian's `chromium` and
//! `chromium-driver`), clicked through as a person would. A missing
//! chromedriver fails the test: a browser test that skips proves nothing.

use fantoccini::{ClientBuilder, Locator};
use mancala_sweep::web::{self, Config};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Keep a screenshot for the README when `MANCALA_SWEEP_SCREENSHOTS` is
/// set, so that an ordinary test run leaves the tree as it was.
fn shot(name: &str, png: Vec<u8>) {
    if std::env::var_os("MANCALA_SWEEP_SCREENSHOTS").is_some() {
        std::fs::create_dir_all("docs/web").unwrap();
        std::fs::write(format!("docs/web/{name}"), png).unwrap();
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_in_chromium() {
    assert!(
        std::path::Path::new(CHROMEDRIVER).exists(),
        "{CHROMEDRIVER} is missing: apt-get install -y chromium chromium-driver (as .ci/run does)"
    );
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
    c.find(Locator::Id("solve"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let best = c.wait().for_element(Locator::Id("best")).await.unwrap();
    assert_eq!(best.text().await.unwrap(), "43");
    let lit = c
        .wait()
        .for_element(Locator::Css(".pit.next"))
        .await
        .unwrap();
    assert_eq!(lit.attr("id").await.unwrap().as_deref(), Some("pit-6"));
    shot("solve-desktop.png", c.screenshot().await.unwrap());

    // Puzzles: a hint, a right line, a wrong pick.
    c.find(Locator::Css("button[data-page=puzzles]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.wait().for_element(Locator::Id("ppit-1")).await.unwrap();
    c.find(Locator::Id("hint"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let hinted = c
        .wait()
        .for_element(Locator::Css("#pboard .pit.next"))
        .await
        .unwrap();
    assert_eq!(hinted.attr("id").await.unwrap().as_deref(), Some("ppit-3"));
    for p in [3, 1, 3] {
        c.find(Locator::Id(&format!("ppit-{p}")))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let msg = c
        .find(Locator::Id("puzzle-msg"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(msg.starts_with("Solved"), "{msg}");
    std::fs::write(
        "docs/web/puzzles-desktop.png",
        c.screenshot().await.unwrap(),
    )
    .unwrap();
    c.find(Locator::Id("retry"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    c.find(Locator::Id("ppit-1"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let msg = c
        .find(Locator::Id("puzzle-msg"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(msg.contains("Taken back"), "{msg}");

    // Phone width.
    c.set_window_size(360, 800).await.unwrap();
    c.find(Locator::Css("button[data-page=solve]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    shot("solve-360.png", c.screenshot().await.unwrap());

    // Nothing went anywhere but this server.
    let names = c
        .execute("return performance.getEntriesByType('resource').map(e => e.name).concat([location.href]);", vec![])
        .await
        .unwrap();
    for name in names.as_array().unwrap() {
        let name = name.as_str().unwrap();
        assert!(name.starts_with(&url), "a request went to {name}");
    }
    c.close().await.unwrap();
    let _ = std::fs::remove_dir_all(profile);
}
