//! The bodies of qiyuan's fuzz targets, one function per target (each
//! `fuzz_targets/NAME.rs` calls `qiyuan_fuzz::NAME`). A target fails when the code
//! under test panics (a parser must return a typed error, never panic) or when a
//! property written here does not hold: what a parser accepts, the crate writes back
//! in a form it reads again; a refused action changes nothing; a canonical action
//! replays.
//!
//! Inputs are bytes; text parsers get them as UTF-8 with invalid sequences replaced,
//! so that no input is wasted.

use std::borrow::Cow;

use qiyuan_game::{Game, RecordMeta, Seat, Setup, Turn, Viewer};

fn text(data: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Chess FEN: `parse_fen`, and the game contract's setup from a position.
pub fn chess_fen(data: &[u8]) {
    use qiyuan_chess::shakmaty::{EnPassantMode, Position, fen::Fen};
    let t = text(data);
    if let Ok(pos) = qiyuan_chess::parse_fen(&t) {
        // What was accepted is written back as a FEN that reads as the same position.
        let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let again = qiyuan_chess::parse_fen(&fen)
            .unwrap_or_else(|e| panic!("{fen:?}, written from {t:?}, is refused: {e}"));
        assert_eq!(again.board(), pos.board(), "{fen:?} from {t:?}");
        assert_eq!(again.turn(), pos.turn(), "{fen:?} from {t:?}");
    }
    let _ = qiyuan_chess::ChessGame::new(&Default::default(), &Setup::Position(t.into_owned()));
}

/// Chess PGN import: every game of the input, each turned into a game.
pub fn chess_pgn(data: &[u8]) {
    for game in qiyuan_chess::pgn::read_games(data).take(64) {
        let Ok(game) = game else { continue };
        let _ = game.tag("Event");
        let _ = game.san_moves();
        let _ = game.uci_moves();
        let _ = game.to_game();
    }
    // The table's "load" of a record (first game, or a FEN), replayed as the table does.
    load_and_replay::<qiyuan_chess::ChessGame>(&text(data));
}

/// Xiangqi FEN, strict and relaxed; what is accepted is written back and read again.
pub fn xiangqi_fen(data: &[u8]) {
    use qiyuan_xiangqi::Position;
    let t = text(data);
    for read in [Position::from_fen, Position::from_fen_relaxed] {
        if let Ok(pos) = read(&t) {
            let fen = pos.fen();
            let again = Position::from_fen_relaxed(&fen)
                .unwrap_or_else(|e| panic!("{fen:?}, written from {t:?}, is refused: {e}"));
            assert!(again == pos, "{fen:?} from {t:?} reads as another position");
            let _ = pos.legal_moves();
            let _ = pos.insufficient_material();
        }
    }
    let _ = qiyuan_xiangqi::Xiangqi::new(&Default::default(), &Setup::Position(t.into_owned()));
}

/// ICCS, WXF and Chinese notation. The first line is a FEN (the start position when
/// it is not one); each of the next eight lines is read in each notation, and a move read is
/// formatted in every notation, which must read back as the same move, then played.
pub fn xiangqi_notation(data: &[u8]) {
    use qiyuan_xiangqi::{Notation, Position, notation};
    let t = text(data);
    let mut lines = t.lines();
    let mut pos = lines
        .next()
        .and_then(|l| Position::from_fen_relaxed(l).ok())
        .unwrap_or_default();
    for line in lines.take(8) {
        let _ = notation::parse_iccs_unchecked(line);
        let mut read = None;
        for n in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
            if let Ok(m) = n.parse(&pos, line) {
                assert!(pos.is_legal(m), "{line:?} read as illegal {m}");
                read = Some(m);
            }
        }
        if let Ok(m) = notation::parse_any(&pos, line) {
            read = Some(m);
        }
        if let Some(m) = read {
            for n in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
                let written = n.format(&pos, m);
                assert_eq!(
                    n.parse(&pos, &written),
                    Ok(m),
                    "{n:?} {written:?} for {m} at {}",
                    pos.fen()
                );
            }
            pos.play_unchecked(m);
        }
    }
}

/// Xiangqi PGN: `pgn::read`, and the table's load of a record, replayed.
pub fn xiangqi_pgn(data: &[u8]) {
    let t = text(data);
    if let Ok(record) = qiyuan_xiangqi::pgn::read(&t) {
        let mut pos = record.start.clone();
        for m in &record.moves {
            assert!(pos.is_legal(*m), "record move {m} is illegal");
            pos.play_unchecked(*m);
        }
    }
    load_and_replay::<qiyuan_xiangqi::Xiangqi>(&t);
}

/// SGF: the first game of a collection, its final position, its SGF written back
/// (which must read again), and the table's load of it, replayed.
pub fn go_sgf(data: &[u8]) {
    use qiyuan_go::SgfGame;
    let t = text(data);
    if let Ok(game) = SgfGame::parse(&t) {
        let _ = game.final_position();
        let written = game.to_sgf();
        if let Err(e) = SgfGame::parse(&written) {
            panic!("{written:?}, written from {t:?}, is refused: {e}");
        }
    }
    load_and_replay::<qiyuan_go::Go>(&t);
}

/// TRF-16 tournament files: read, and written back so that they read again.
pub fn swiss_trf(data: &[u8]) {
    use qiyuan_swiss::trf;
    let t = text(data);
    if let Ok(tournament) = trf::parse(&t) {
        let written = trf::write(&tournament);
        if let Err(e) = trf::parse(&written) {
            panic!("{written:?}, written from {t:?}, is refused: {e}");
        }
    }
}

/// Doudizhu cards: a card, a set of cards (classified as a play), and a deal as a
/// position (`h0/h1/h2/bottom`).
pub fn doudizhu_cards(data: &[u8]) {
    use qiyuan_doudizhu::{Card, Counts, Doudizhu, classify};
    let t = text(data);
    let _ = t.parse::<Card>();
    if let Ok(counts) = Counts::parse(&t) {
        let written = counts.to_string();
        assert_eq!(
            Counts::parse(&written),
            Ok(counts),
            "{written:?} from {t:?}"
        );
        if let Some(combo) = classify(counts) {
            let _ = combo.len();
            let _ = combo.beats(&combo);
        }
    }
    let _ = Doudizhu::new(&Default::default(), &Setup::Position(t.into_owned()));
}

/// The WebSocket envelope: any text frame.
pub fn protocol_envelope(data: &[u8]) {
    protocol_frame(&text(data));
}

/// Every client command: the first byte picks the message type (every type the
/// protocol knows), the rest is its `d`.
pub fn protocol_command(data: &[u8]) {
    use qiyuan_server::protocol::table_types;
    const OTHERS: &[&str] = &[
        "ping",
        "lobby.subscribe",
        "lobby.unsubscribe",
        "create",
        "seek",
        "seek.cancel",
        "watch",
        "unwatch",
    ];
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let i = usize::from(pick) % (OTHERS.len() + table_types().len());
    let t = OTHERS
        .get(i)
        .unwrap_or_else(|| &table_types()[i - OTHERS.len()]);
    let frame = format!(r#"{{"t":"{t}","id":7,"d":{}}}"#, text(rest));
    protocol_frame(&frame);
}

fn protocol_frame(frame: &str) {
    use qiyuan_server::protocol;
    match protocol::parse(frame) {
        Ok(request) => {
            let _ = format!("{:?}", request.msg);
        }
        Err((err, id)) => {
            // The error frame the server sends back is a valid envelope.
            let reply = protocol::error(&err, None, id.as_ref());
            let value: serde_json::Value = serde_json::from_str(&reply)
                .unwrap_or_else(|e| panic!("error frame {reply:?} is not JSON: {e}"));
            assert_eq!(value["t"], "error", "{reply}");
        }
    }
}

/// The server's configuration file (TOML).
pub fn config_toml(data: &[u8]) {
    let t = text(data);
    if let Ok(config) = qiyuan_server::Config::parse(&t) {
        let _ = config.database_url();
        let _ = config.check();
    }
}

/// The game contract, as a table drives it with a client's actions. The first byte
/// picks the game. The rest is lines: `options JSON` (the table's options, as a
/// client sends them in `create`), `setup TEXT` (a position), then up to 40
/// actions, each for the seat to act, or for seat N when written `@N action`.
///
/// Checked: nothing panics; a refused action changes nothing anyone can see; an
/// accepted action's canonical form is accepted the same way from the state before
/// (the table logs it and replays it); the game's record loads and replays.
pub fn game_actions(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let t = text(rest);
    match pick % 4 {
        0 => drive::<qiyuan_chess::ChessGame>(&t, Setup::Standard),
        1 => drive::<qiyuan_xiangqi::Xiangqi>(&t, Setup::Standard),
        2 => drive::<qiyuan_go::Go>(&t, Setup::Standard),
        _ => drive::<qiyuan_doudizhu::Doudizhu>(&t, Setup::Seed(u64::from(pick))),
    }
}

fn drive<G: Game>(t: &str, default_setup: Setup) {
    let mut lines = t.lines().peekable();
    let mut options = G::Options::default();
    let mut setup = default_setup;
    while let Some(line) = lines.peek() {
        if let Some(json) = line.strip_prefix("options ") {
            if let Ok(o) = serde_json::from_str(json) {
                options = o;
            }
        } else if let Some(position) = line.strip_prefix("setup ") {
            setup = Setup::Position(position.to_owned());
        } else {
            break;
        }
        lines.next();
    }
    let Ok(mut game) = G::new(&options, &setup) else {
        return;
    };
    let seen =
        |g: &G| serde_json::to_string(&g.view(Viewer::Spectator)).expect("a view serialises");
    for line in lines.take(40) {
        let (seat, action) = match line
            .strip_prefix('@')
            .and_then(|l| l.split_once(' '))
            .and_then(|(n, a)| Some((Seat(n.parse().ok()?), a)))
        {
            Some(explicit) => explicit,
            None => match game.turn() {
                Turn::Seat(s) => (s, line),
                Turn::All(seats) => (seats.first().copied().unwrap_or(Seat::FIRST), line),
                Turn::Over => break,
            },
        };
        let before = game.clone();
        match game.act(seat, action) {
            Err(_) => assert_eq!(
                seen(&game),
                seen(&before),
                "refused {action:?} changed the game"
            ),
            Ok(effects) => {
                let mut again = before;
                match again.act(seat, &effects.canonical) {
                    Ok(e) => assert_eq!(e.canonical, effects.canonical, "from {action:?}"),
                    Err(r) => panic!(
                        "canonical {:?} of {action:?} is refused: {r}",
                        effects.canonical
                    ),
                }
            }
        }
    }
    let _ = game.outcome();
    for seat in 0..game.seats() {
        let _ = game.legal_actions(Seat(seat));
        let _ = game.claims(Seat(seat));
    }
    let record = game.record(&RecordMeta::default());
    load_and_replay::<G>(&record);
}

/// The table's load of a record or position: what `load` accepts must replay.
fn load_and_replay<G: Game>(text: &str) {
    let options = G::Options::default();
    let Ok((setup, actions)) = G::load(&options, text) else {
        return;
    };
    let Ok(mut game) = G::new(&options, &setup) else {
        panic!("loaded setup {setup:?} is refused");
    };
    for action in actions {
        let seat = match game.turn() {
            Turn::Seat(s) => s,
            Turn::All(seats) => seats.first().copied().unwrap_or(Seat::FIRST),
            Turn::Over => panic!("loaded action {action:?} after the game is over"),
        };
        if let Err(r) = game.act(seat, &action) {
            panic!("loaded action {action:?} is refused: {r}");
        }
    }
}
