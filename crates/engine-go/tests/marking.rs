//! The engine's judgement of life and death at the end of play (what the
//! hall's computer players accept a marking by: `Engine::estimate`), against
//! GNU Go 3.8's `final_status_list dead` on the shared games
//! (`../shared/data/go-gnugo`, GNU Go against itself to two passes, Chinese
//! rules, komi 7.5), and against the rules crate's first suggestion.

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use qiyuan_engine_go::Engine;
use qiyuan_go::{Point, SgfGame, suggest_dead};

fn games() -> Vec<(String, SgfGame, BTreeSet<Point>)> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/go-gnugo"
    ));
    let mut names: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e} (see shared/data/README.md)", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "the GNU Go games in {}", dir.display());
    names
        .into_iter()
        .map(|path| {
            let game = SgfGame::parse(&fs::read_to_string(&path).unwrap()).unwrap();
            let dead = fs::read_to_string(path.with_extension("dead"))
                .unwrap()
                .split_whitespace()
                .map(|v| Point::from_gtp(v).unwrap())
                .collect();
            (
                path.file_name().unwrap().to_string_lossy().into(),
                game,
                dead,
            )
        })
        .collect()
}

#[test]
fn the_engine_judges_life_and_death_as_gnu_go_does_in_most_games() {
    let stop = AtomicBool::new(false);
    let all = games();
    let (mut engine_agrees, mut suggestion_agrees, mut playouts_agree) = (0, 0, 0);
    let (mut engine_wrong_stones, mut suggestion_wrong_stones) = (0, 0);
    for (name, game, want) in &all {
        let mut engine = Engine::new(game.size, game.komi.unwrap_or(7.5), 1).unwrap();
        for p in &game.black_setup {
            engine
                .play(qiyuan_go::Color::Black, qiyuan_go::Move::Place(*p))
                .unwrap();
        }
        for (c, m) in &game.moves {
            engine
                .play(*c, *m)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        let estimated: BTreeSet<Point> = engine.estimate(400, &stop).dead.into_iter().collect();
        let judged: BTreeSet<Point> = engine.judge_dead(400, &stop).into_iter().collect();
        let suggested: BTreeSet<Point> = suggest_dead(engine.board()).into_iter().collect();
        playouts_agree += usize::from(estimated == *want);
        engine_agrees += usize::from(judged == *want);
        suggestion_agrees += usize::from(suggested == *want);
        engine_wrong_stones += judged.symmetric_difference(want).count();
        suggestion_wrong_stones += suggested.symmetric_difference(want).count();
        if judged != *want {
            eprintln!(
                "{name}: the engine's judgement differs from GNU Go at {:?}",
                judged
                    .symmetric_difference(want)
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
            );
        }
    }
    eprintln!(
        "{} games: the engine's judgement agrees with GNU Go in {engine_agrees} \
         ({engine_wrong_stones} stones differ in all), its playouts alone in {playouts_agree}, \
         the rules crate's suggestion in {suggestion_agrees} ({suggestion_wrong_stones} stones)",
        all.len()
    );
    // The computer's judgement decides what it accepts: it must be right
    // nearly always, and no worse than the first suggestion.
    assert!(
        engine_agrees * 10 >= all.len() * 9,
        "{engine_agrees}/{} agree",
        all.len()
    );
    assert!(engine_wrong_stones <= suggestion_wrong_stones);
}
