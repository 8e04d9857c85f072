//! The web API against the real server on a random local port: every
//! endpoint, bad input, the limits, and cancellation when a client hangs up.

use mancala_sweep::web::{self, Config};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// Start the server on 127.0.0.1:0 in a thread of its own; its address.
fn start(config: Config) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            web::serve(listener, config).await.unwrap();
        });
    });
    rx.recv().unwrap()
}

fn config() -> Config {
    Config {
        collections: web::committed_collections().unwrap(),
        ..Config::default()
    }
}

fn send(addr: SocketAddr, method: &str, path: &str, body: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    s
}

/// (status, JSON body) of one request.
fn call(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, serde_json::Value) {
    let mut s = send(addr, method, path, body);
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let status: u16 = text[9..12].parse().unwrap();
    let body = &text[text.find("\r\n\r\n").unwrap() + 4..];
    let json = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {text}"));
    (status, json)
}

#[test]
fn solve_answers_as_the_command_line() {
    let addr = start(config());
    let (status, doc) = call(
        addr,
        "POST",
        "/api/solve",
        r#"{"rules":"avalanche","pits":6,"stones":4,"limit":2}"#,
    );
    assert_eq!(status, 200);
    assert_eq!(doc["format"], "mancala-sweep-solve/1");
    assert_eq!(doc["best_store"], 43);
    assert_eq!(doc["optimal_count"], "2");
    assert_eq!(doc["optimal"][0][0], 6);
    // The same document as the library gives the command line.
    let board = mancala_sweep::Board::uniform(6, 4).unwrap();
    let s =
        mancala_sweep::solve(&board, mancala_sweep::Rules::AVALANCHE, &Default::default()).unwrap();
    let mut ours: serde_json::Value =
        serde_json::to_value(mancala_sweep::format::SolveJson::new(&s, 1)).unwrap();
    let mut theirs = doc.clone();
    for d in [&mut ours, &mut theirs] {
        for k in ["seconds", "threads", "optimal", "listed"] {
            d.as_object_mut().unwrap().remove(k);
        }
    }
    assert_eq!(ours, theirs);
}

#[test]
fn replay_find_and_puzzles() {
    let addr = start(config());
    let (status, doc) = call(
        addr,
        "POST",
        "/api/replay",
        r#"{"board":"4 4 4 4 4 4 / 0 0 / 4 4 4 4 4 4","picks":[6,3]}"#,
    );
    assert_eq!(status, 200, "{doc}");
    assert_eq!(doc["format"], "mancala-sweep-replay/1");
    assert_eq!(doc["steps"].as_array().unwrap().len(), 2);
    let (status, doc) = call(
        addr,
        "POST",
        "/api/find",
        r#"{"pits":6,"stones":4,"seconds":1}"#,
    );
    assert_eq!(status, 200, "{doc}");
    assert_eq!(doc["format"], "mancala-sweep-find/1");
    let (status, doc) = call(addr, "GET", "/api/puzzles", "");
    assert_eq!(status, 200);
    let c = &doc["collections"][0];
    let (name, id) = (
        c["name"].as_str().unwrap(),
        c["puzzles"][0]["id"].as_str().unwrap(),
    );
    let (status, p) = call(addr, "GET", &format!("/api/puzzles/{name}/{id}"), "");
    assert_eq!(status, 200);
    let solution: Vec<u64> = p["puzzle"]["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let check = format!("/api/puzzles/{name}/{id}/check");
    let (status, doc) = call(addr, "POST", &check, &format!("{{\"picks\":{solution:?}}}"));
    assert_eq!(status, 200, "{doc}");
    assert_eq!(doc["outcome"], "solved");
    let (_, doc) = call(addr, "POST", &check, r#"{"picks":[],"hint":true}"#);
    assert_eq!(doc["hint"], solution[0]);
    let (status, doc) = call(addr, "GET", "/api/puzzles/nope/x", "");
    assert_eq!(status, 404);
    assert!(doc["error"].as_str().unwrap().contains("nope"));
}

#[test]
fn bad_input_is_one_line_of_json_with_400() {
    let addr = start(config());
    for body in [
        r#"{"rules":"bogus"}"#,
        r#"{"pits":99}"#,
        r#"{"board":"1 2 3"}"#,
        r#"{"colour":"red"}"#,
        "not json",
        r#"{"limit":100000}"#,
    ] {
        let (status, doc) = call(addr, "POST", "/api/solve", body);
        assert_eq!(status, 400, "{body}: {doc}");
        let msg = doc["error"].as_str().unwrap();
        assert!(!msg.is_empty() && !msg.contains('\n'), "{body}: {msg}");
    }
    let (status, _) = call(addr, "POST", "/api/replay", r#"{"picks":[0]}"#);
    assert_eq!(status, 400);
}

#[test]
fn a_body_over_the_limit_is_413() {
    let addr = start(config());
    let big = format!("{{\"board\":\"{}\"}}", " ".repeat(100_000));
    let (status, doc) = call(addr, "POST", "/api/solve", &big);
    assert_eq!(status, 413);
    assert!(doc["error"].as_str().unwrap().contains("limit"));
}

#[test]
fn one_solve_too_many_is_429_and_a_hang_up_cancels() {
    let addr = start(Config {
        max_solves: 1,
        ..config()
    });
    // A solve that takes far longer than this test.
    let long = send(addr, "POST", "/api/solve", r#"{"pits":8,"stones":6}"#);
    std::thread::sleep(Duration::from_millis(300));
    let (status, doc) = call(addr, "POST", "/api/solve", r#"{"pits":2,"stones":1}"#);
    assert_eq!(status, 429, "{doc}");
    assert!(doc["error"].as_str().unwrap().contains("busy"));
    // Hanging up stops the long solve and frees its place.
    drop(long);
    let start = Instant::now();
    loop {
        let (status, _) = call(addr, "POST", "/api/solve", r#"{"pits":2,"stones":1}"#);
        if status == 200 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the long solve was not cancelled"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
