use super::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// One call of [`build`] as the builder's worker makes it: the key, the
/// base's bytes, and the file written back.
fn build_layer(key: &Value, base: &[u8]) -> (Vec<u8>, Value, usize) {
    let mut key = key.clone();
    key["base"] = json!(base.len());
    let events = Arc::new(AtomicUsize::new(0));
    let seen = events.clone();
    let (mut file, saves) = (Vec::new(), std::cell::RefCell::new(Vec::new()));
    let answer = build(
        key.to_string().as_bytes(),
        &mut &base[..],
        move |e: &Value| {
            assert!(e["share"].as_f64().unwrap() <= 1.0);
            seen.fetch_add(1, Ordering::Relaxed);
        },
        &mut |piece: &[u8]| file.extend_from_slice(piece),
        &|s: &Value| saves.borrow_mut().push(s["stones"].as_u64()),
    );
    let (status, doc) = std::str::from_utf8(&answer)
        .unwrap()
        .split_once('\n')
        .unwrap();
    let doc: Value = serde_json::from_str(doc).unwrap();
    assert_eq!(status, "200", "{doc}");
    assert_eq!(saves.borrow().len(), 1, "one file, whole, a call");
    (file, doc, events.load(Ordering::Relaxed))
}

/// The key of [`load`] for the database `k` names, `len` bytes long.
fn load_key(k: &Value, len: usize) -> Vec<u8> {
    let mut k = k.clone();
    k["bytes"] = json!(len);
    k.to_string().into_bytes()
}

/// Asked for by the capture start (with the larger one after it), built
/// and loaded, then given to an analysis of its board; the larger one
/// built on it a layer a call, as the page does, is the same file as the
/// native build in one go (a second path to every value) and replaces
/// it, a smaller one is refused beside it; a key of rules without a
/// database, too many stones, or bytes cut short are refused.
#[test]
fn a_wanted_database_is_built_loaded_and_used_then_a_larger_one_on_it() {
    assert_eq!(larger_stones(Rules::KALAH, 6), Some(20));
    assert!(
        EndgameDb::build_bytes_for(6, 20) <= WORK_MEMORY
            && EndgameDb::packed_bytes_for(6, 22) > MAX_MEMORY,
        "20 stones build within the page's memory, 22 would not fit it"
    );
    assert!(
        EndgameDb::bytes_for(6, 21) > LARGER_POSITIONS,
        "21 stones are past the positions the site builds"
    );
    let game = GameState::start(6, 4, Rules::KALAH).unwrap();
    assert!(for_game(&game).is_none());
    want(&game);
    let key = take_wanted().expect("asked for");
    assert!(take_wanted().is_none(), "asked for once");
    assert_eq!(
        (key["pits"].as_u64(), key["stones"].as_u64()),
        (Some(6), Some(16))
    );
    assert_eq!(key["larger"]["stones"], 20);
    // A smaller board keeps the test quick: the same key, 3 pits.
    let mut small = key.clone();
    small["pits"] = json!(3);
    small["stones"] = json!(8);
    let (bytes, doc, events) = build_layer(&small, &[]);
    assert_eq!(doc, json!({"stones": 8, "complete": true}));
    let _ = events;
    let loaded = load(&load_key(&small, bytes.len()), &mut &bytes[..]).expect("loaded");
    assert_eq!(loaded["stones"], 8);
    let small_game = GameState::start(3, 3, Rules::KALAH).unwrap();
    assert_eq!(for_game(&small_game).map(|d| d.stones()), Some(8));

    // The larger, a layer a call on the last file kept, to 12 stones.
    let mut file = bytes.clone();
    let mut larger = small.clone();
    larger["of"] = json!(12);
    for t in 9..=12 {
        larger["stones"] = json!(t);
        let (next, doc, _) = build_layer(&larger, &file);
        assert_eq!(doc, json!({"stones": t, "complete": true}));
        file = next;
    }
    let never = AtomicBool::new(false);
    let native = EndgameDb::build(Rules::KALAH, 3, 12, 1, 1 << 30, &never, |_, _| {})
        .unwrap()
        .unwrap();
    let mut native_bytes = Vec::new();
    native.write_to(&mut native_bytes).unwrap();
    assert!(file == native_bytes, "the native build's file, every value");
    larger["stones"] = json!(12);
    load(&load_key(&larger, file.len()), &mut &file[..]).expect("the larger one");
    let game13 = GameState::start(3, 5, Rules::KALAH).unwrap();
    assert_eq!(for_game(&game13).map(|d| d.stones()), Some(12));
    let kept = load(&load_key(&small, bytes.len()), &mut &bytes[..]).unwrap();
    assert_eq!(
        (kept["stones"].as_u64(), kept["kept"].as_bool()),
        (Some(12), Some(true)),
        "a smaller one beside the larger"
    );
    assert_eq!(for_game(&game13).map(|d| d.stones()), Some(12));
    // The analysis with the larger one gives the solver's value without.
    let budget = mancala_sweep::game::Budget::Nodes(50_000_000);
    let with = api::analysis(
        &game13,
        budget,
        MAX_MEMORY,
        for_game(&game13).as_ref(),
        &never,
        None,
    )
    .unwrap();
    let without = api::analysis(&game13, budget, MAX_MEMORY, None, &never, None).unwrap();
    assert_eq!(with["exact"], true);
    assert_eq!(with["value"], without["value"]);

    refuses_what_it_cannot_take(&larger, &file);
}

/// The refusals of [`a_wanted_database_is_built_loaded_and_used_then_a_larger_one_on_it`],
/// after the larger database (`larger`'s key, its `file`) is loaded: bytes
/// cut short, too many stones, and rules without a database. A step of
/// its own, as none of them changes what is loaded.
fn refuses_what_it_cannot_take(larger: &Value, file: &[u8]) {
    let short = load(
        &load_key(larger, file.len() - 1),
        &mut &file[..file.len() - 1],
    );
    assert!(short.is_err());
    let mut over = larger.clone();
    over["stones"] = json!(127);
    let answer = build(
        over.to_string().as_bytes(),
        &mut &[][..],
        |_| {},
        &mut |_| {},
        &|_| {},
    );
    assert!(String::from_utf8(answer).unwrap().starts_with("400\n"));
    let any = json!({"rules": {"scope": "any", "relay": false, "capture": "kalah"}, "pits": 6});
    let answer = build(
        any.to_string().as_bytes(),
        &mut &[][..],
        |_| {},
        &mut |_| {},
        &|_| {},
    );
    assert!(String::from_utf8(answer).unwrap().starts_with("400\n"));
}
