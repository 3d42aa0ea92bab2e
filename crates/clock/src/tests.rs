use super::*;

const S: Millis = 1_000;
const M: Millis = 60 * S;

/// Plays a move of `took` ms for the running seat starting at `*t`, then starts
/// `next`. Returns the press result.
fn mv(c: &mut Clock, t: &mut Millis, took: Millis, next: usize) -> Result<(), Flagged> {
    *t += took;
    c.press(*t, 0)?;
    c.start(next, *t);
    Ok(())
}

#[test]
fn qq_move_over_move_time_loses_while_game_time_remains() {
    // The seed's example: 30 min / 5 min / 3 min.
    let mut c = Clock::new(TimeControl::qq(30, 5, 180), 2);
    let mut t = 0;
    c.start(0, t);
    mv(&mut c, &mut t, 4 * M + 59 * S, 1).unwrap();
    assert_eq!(c.seat(0).unwrap().main, 25 * M + S);
    // Seat 1 takes 5 minutes exactly: flagged.
    assert_eq!(c.flag_time(), Some(t + 5 * M));
    assert_eq!(c.flagged(t + 5 * M - 1), None);
    assert_eq!(c.flagged(t + 5 * M), Some(1));
    let err = mv(&mut c, &mut t, 5 * M, 0).unwrap_err();
    assert_eq!(err.seat, 1);
    assert!(c.seat(1).unwrap().flagged);
}

#[test]
fn qq_countdown_after_game_time_is_gone() {
    let mut c = Clock::new(TimeControl::qq(30, 5, 180), 2);
    let mut t = 0;
    c.start(0, t);
    // Seat 0 uses its 30 minutes in seven moves of 4.5 min (31.5 min in all: the
    // last move runs 1.5 min into the count-down, still within 3 min).
    for _ in 0..7 {
        mv(&mut c, &mut t, 4 * M + 30 * S, 1).unwrap();
        mv(&mut c, &mut t, S, 0).unwrap();
    }
    assert_eq!(c.seat(0).unwrap().main, 0);
    // Now every move has 3 minutes, counted afresh; 5 minutes no longer applies.
    assert_eq!(c.view(t).seats[0].move_left, Some(3 * M));
    assert!(c.view(t).seats[0].overtime);
    mv(&mut c, &mut t, 2 * M + 59 * S, 1).unwrap();
    mv(&mut c, &mut t, S, 0).unwrap();
    assert_eq!(c.flag_time(), Some(t + 3 * M));
    let err = mv(&mut c, &mut t, 3 * M, 1).unwrap_err();
    assert_eq!(err, Flagged { seat: 0, at: t });
}

#[test]
fn qq_game_time_running_out_mid_move_starts_the_countdown() {
    let mut c = Clock::new(TimeControl::qq(30, 5, 180), 2);
    let mut t = 0;
    c.start(0, t);
    for _ in 0..6 {
        mv(&mut c, &mut t, 4 * M + 50 * S, 1).unwrap();
        mv(&mut c, &mut t, S, 0).unwrap();
    }
    // 60 s of game time left: the move may last 60 s + 180 s, more than 5 min? No:
    // 240 s < 300 s, so the count-down decides.
    assert_eq!(c.seat(0).unwrap().main, M);
    assert_eq!(c.flag_time(), Some(t + 4 * M));
}

#[test]
fn fischer_adds_the_increment() {
    let mut c = Clock::new(TimeControl::fischer(3, 2), 2);
    let mut t = 1_000_000;
    c.start(0, t);
    mv(&mut c, &mut t, 10 * S, 1).unwrap();
    assert_eq!(c.seat(0).unwrap().main, 3 * M - 10 * S + 2 * S);
    mv(&mut c, &mut t, 500, 0).unwrap();
    assert_eq!(c.seat(1).unwrap().main, 3 * M - 500 + 2 * S);
    assert_eq!(c.flag_time(), Some(t + 3 * M - 8 * S));
    assert_eq!(c.view(t + 30 * S).seats[0].main, 3 * M - 38 * S);
}

#[test]
fn byo_yomi_periods_are_used_only_by_overstepping() {
    let mut c = Clock::new(TimeControl::byo_yomi(1, 3, 30), 2);
    let mut t = 0;
    c.start(0, t);
    // 50 s of 60 s main.
    mv(&mut c, &mut t, 50 * S, 1).unwrap();
    mv(&mut c, &mut t, S, 0).unwrap();
    // 10 s main + 25 s: inside the first period, which is kept.
    mv(&mut c, &mut t, 35 * S, 1).unwrap();
    assert_eq!(c.seat(0).unwrap().main, 0);
    assert_eq!(c.seat(0).unwrap().periods, 3);
    mv(&mut c, &mut t, S, 0).unwrap();
    // 29.999 s: period kept.
    mv(&mut c, &mut t, 30 * S - 1, 1).unwrap();
    assert_eq!(c.seat(0).unwrap().periods, 3);
    mv(&mut c, &mut t, S, 0).unwrap();
    // 45 s: one period overstepped.
    mv(&mut c, &mut t, 45 * S, 1).unwrap();
    assert_eq!(c.seat(0).unwrap().periods, 2);
    mv(&mut c, &mut t, S, 0).unwrap();
    // 61 s: two more gone... which is all of them: 2 × 30 s ≤ 61 s.
    assert_eq!(c.flag_time(), Some(t + 60 * S));
    let err = mv(&mut c, &mut t, 61 * S, 1).unwrap_err();
    assert_eq!(err.seat, 0);
}

#[test]
fn canadian_moves_within_the_period() {
    let mut c = Clock::new(TimeControl::canadian(1, 3, 1), 2);
    let mut t = 0;
    c.start(0, t);
    // Main time runs out during this move, 10 s into the first period; it is the
    // first of three moves.
    mv(&mut c, &mut t, 70 * S, 1).unwrap();
    let s = *c.seat(0).unwrap();
    assert!(s.overtime);
    assert_eq!((s.moves_left, s.period_left), (2, 50 * S));
    mv(&mut c, &mut t, S, 0).unwrap();
    mv(&mut c, &mut t, 20 * S, 1).unwrap();
    mv(&mut c, &mut t, S, 0).unwrap();
    // Third move of the period: 30 s left; made in 29 s, the period restarts.
    assert_eq!(c.flag_time(), Some(t + 30 * S));
    mv(&mut c, &mut t, 29 * S, 1).unwrap();
    let s = *c.seat(0).unwrap();
    assert_eq!((s.moves_left, s.period_left), (3, 60 * S));
    mv(&mut c, &mut t, S, 0).unwrap();
    mv(&mut c, &mut t, 59 * S, 1).unwrap();
    mv(&mut c, &mut t, S, 0).unwrap();
    assert!(mv(&mut c, &mut t, S, 1).is_err());
}

#[test]
fn correspondence_resets_every_move() {
    let mut c = Clock::new(TimeControl::Correspondence { days: 2 }, 2);
    let mut t = 0;
    c.start(0, t);
    mv(&mut c, &mut t, 47 * 60 * M, 1).unwrap();
    mv(&mut c, &mut t, S, 0).unwrap();
    assert_eq!(c.flag_time(), Some(t + 2 * DAY));
}

#[test]
fn no_clock_never_flags() {
    let mut c = Clock::new(TimeControl::None, 3);
    let mut t = 0;
    c.start(0, t);
    assert_eq!(c.flag_time(), None);
    mv(&mut c, &mut t, 1_000 * DAY, 1).unwrap();
    assert_eq!(c.flagged(t + 1_000 * DAY), None);
}

#[test]
fn lag_is_compensated_from_a_capped_quota() {
    let mut c = Clock::new(TimeControl::fischer(3, 0), 2);
    let q = c.seat(0).unwrap().lag;
    assert_eq!((q.gain, q.quota, q.max), (1_000, 3_000, 7_000));
    c.start(0, 0);
    // Reported lag 500 ms: all of it forgiven.
    let p = c.press(10 * S, 500).unwrap().unwrap();
    assert_eq!((p.charged, p.compensated), (9_500, 500));
    assert_eq!(c.seat(0).unwrap().lag.quota, 3_000 - 500 + 1_000);
    // Compensation never exceeds the reported lag, nor the quota.
    c.start(0, 20 * S);
    let p = c.press(30 * S, 100_000).unwrap().unwrap();
    assert_eq!(p.compensated, 3_500);
    assert_eq!(c.seat(0).unwrap().lag.quota, 1_000);
    // Nor the move's time.
    c.start(0, 40 * S);
    let p = c.press(40 * S + 300, 800).unwrap().unwrap();
    assert_eq!((p.charged, p.compensated), (0, 300));
    // The quota is capped.
    for i in 0..20 {
        c.start(0, 50 * S + i);
        c.press(50 * S + i, 0).unwrap();
    }
    assert_eq!(c.seat(0).unwrap().lag.quota, 7_000);
    // Faster games earn less.
    let q = LagQuota::for_control(&TimeControl::fischer(1, 0));
    assert_eq!((q.gain, q.quota, q.max), (600, 1_800, 4_200));
    let q = LagQuota::for_control(&TimeControl::Fischer {
        base: 15_000,
        increment: 0,
    });
    assert_eq!(q.gain, 350);
}

#[test]
fn flag_check_waits_for_the_last_compensated_lag() {
    let mut c = Clock::new(TimeControl::fischer(1, 0), 2);
    c.start(0, 0);
    c.press(S, 400).unwrap();
    c.start(0, S);
    // 60 s - 0.6 s... main is 60 s - 0.6 s; grace 400 ms.
    assert_eq!(c.flag_time(), Some(S + 60 * S - 600 + 400));
}

#[test]
fn pause_keeps_the_move_time_and_downtime_is_not_charged() {
    let mut c = Clock::new(TimeControl::qq(10, 1, 30), 2);
    c.start(0, 0);
    c.pause(20 * S);
    assert!(c.is_paused());
    assert_eq!(c.flag_time(), None);
    c.resume(100 * S);
    assert_eq!(c.flag_time(), Some(100 * S + 40 * S));
    // The server went down at 110 s and came back at 500 s.
    c.credit_downtime(110 * S, 500 * S);
    assert_eq!(c.flag_time(), Some(500 * S + 30 * S));
    c.press(510 * S, 0).unwrap();
    assert_eq!(c.seat(0).unwrap().main, 10 * M - 40 * S);
}

#[test]
fn stop_charges_without_increment() {
    let mut c = Clock::new(TimeControl::fischer(3, 2), 2);
    c.start(1, 0);
    c.stop(5 * S).unwrap();
    assert_eq!(c.seat(1).unwrap().main, 3 * M - 5 * S);
    assert_eq!(c.seat(1).unwrap().moves, 0);
    assert_eq!(c.running(), None);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn control() -> impl Strategy<Value = TimeControl> {
        prop_oneof![
            Just(TimeControl::None),
            (1u64..600_000, 0u64..600_000, 0u64..60_000).prop_map(|(g, p, c)| {
                TimeControl::Qq {
                    game: g,
                    per_move: p,
                    countdown: c,
                }
            }),
            (1u64..600_000, 0u64..10_000).prop_map(|(b, i)| TimeControl::Fischer {
                base: b,
                increment: i
            }),
            (0u64..600_000, 1u32..5, 1u64..60_000).prop_map(|(m, n, p)| TimeControl::ByoYomi {
                main: m,
                periods: n,
                period: p
            }),
            (0u64..600_000, 1u32..5, 1u64..60_000).prop_map(|(m, n, p)| TimeControl::Canadian {
                main: m,
                moves: n,
                period: p
            }),
        ]
    }

    proptest! {
        /// A move flags exactly when it reaches the flag time, whatever the control.
        #[test]
        fn press_flags_iff_flag_time_reached(
            control in control(),
            moves in proptest::collection::vec(0u64..200_000, 1..40),
        ) {
            let mut c = Clock::new(control, 2);
            let mut t = 0;
            let mut seat = 0;
            c.start(seat, t);
            for took in moves {
                let deadline = c.flag_time();
                t += took;
                let r = c.press(t, 0);
                match deadline {
                    Some(d) if t >= d => { prop_assert!(r.is_err()); break; }
                    _ => prop_assert!(r.is_ok()),
                }
                seat = 1 - seat;
                c.start(seat, t);
            }
        }
    }
}

#[test]
fn lag_estimate_follows_its_samples_and_caps_them() {
    let mut e = LagEstimate::default();
    assert_eq!(e.mean(), None);
    e.record(300);
    assert_eq!(e.mean(), Some(300));
    // The first samples weigh 1/n: the mean of 300 and 320 after two.
    e.record(320);
    assert_eq!(e.mean(), Some(310));
    for _ in 0..50 {
        e.record(100);
    }
    assert_eq!(e.mean(), Some(100));
    assert_eq!(e.deviation(), Some(0));
    // One absurd sample counts as the cap, and only by its weight.
    e.record(1_000_000);
    let capped = 100.0 + (1.0 - LagEstimate::DECAY) * (LagEstimate::MAX_SAMPLE as f64 - 100.0);
    assert_eq!(e.mean(), Some(capped.round() as Millis));
    assert_eq!(e.samples(), 53);
}

#[test]
fn a_claimed_huge_lag_gains_only_the_quota() {
    // 1+0: a gain of 0.6 s, a first quota of 1.8 s, at most 4.2 s.
    let mut c = Clock::new(
        TimeControl::Fischer {
            base: 60 * S,
            increment: 0,
        },
        2,
    );
    let q0 = c.seat(0).unwrap().lag;
    assert_eq!((q0.gain, q0.quota, q0.max), (600, 1_800, 4_200));
    let mut t = 0;
    let mut forgiven = 0;
    for _ in 0..20 {
        c.start(0, t);
        t += 1_000;
        let p = c.press(t, 10_000).unwrap().unwrap();
        forgiven += p.compensated;
    }
    // The first quota once, then a gain a move.
    assert!(forgiven <= q0.quota + 20 * q0.gain, "{forgiven}");
    // 1.8 s, 1.4 s, 1.0 s of quota pay for whole seconds; then 0.6 s a move.
    assert_eq!(forgiven, 3 * 1_000 + 17 * 600);
}

#[test]
fn the_limit_a_move_runs_against_is_named() {
    // QQ 1 min / 20 s / 10 s: 步时 while 局时 is longer, then 局时 plus 读秒, then 读秒.
    let mut c = Clock::new(TimeControl::qq(1, 0, 10), 2);
    assert_eq!(c.limit_kind(0), Some(TimeLimit::Countdown));
    c = Clock::new(
        TimeControl::Qq {
            game: M,
            per_move: 20 * S,
            countdown: 10 * S,
        },
        2,
    );
    let mut t = 0;
    c.start(0, t);
    assert_eq!(c.limit_kind(0), Some(TimeLimit::Move));
    mv(&mut c, &mut t, 19 * S, 1).unwrap();
    mv(&mut c, &mut t, S, 0).unwrap();
    mv(&mut c, &mut t, 19 * S, 1).unwrap();
    mv(&mut c, &mut t, S, 0).unwrap();
    // 22 s of 局时 left: more than 步时, still 步时.
    assert_eq!(c.limit_kind(0), Some(TimeLimit::Move));
    mv(&mut c, &mut t, 19 * S, 1).unwrap();
    mv(&mut c, &mut t, S, 0).unwrap();
    // 3 s left: the move runs into 读秒.
    assert_eq!(c.limit_kind(0), Some(TimeLimit::Countdown));
    // No 读秒: 局时 itself flags.
    let c = Clock::new(TimeControl::qq(1, 0, 0), 2);
    assert_eq!(c.limit_kind(0), Some(TimeLimit::Main));
    assert_eq!(
        Clock::new(TimeControl::fischer(3, 2), 2).limit_kind(1),
        Some(TimeLimit::Main)
    );
    assert_eq!(Clock::new(TimeControl::None, 2).limit_kind(0), None);
    let byo = TimeControl::ByoYomi {
        main: M,
        periods: 3,
        period: 30 * S,
    };
    assert_eq!(Clock::new(byo, 2).limit_kind(0), Some(TimeLimit::Overtime));
}

#[test]
fn an_expired_turn_uses_its_time_but_flags_nobody() {
    // A turn over its move time (步时): the move time is charged, the game
    // time's rest stays, no flag.
    let mut c = Clock::new(TimeControl::qq(30, 5, 180), 2);
    c.start(0, 0);
    assert_eq!(c.expire(5 * M), Some(0));
    assert_eq!(c.running(), None);
    let s = c.seat(0).unwrap();
    assert!(!s.flagged);
    assert_eq!(s.main, 25 * M + 1);
    // A per-turn countdown alone (Doudizhu's presets): each turn has it afresh.
    let per_turn = TimeControl::Qq {
        game: 0,
        per_move: 0,
        countdown: 20 * S,
    };
    let mut c = Clock::new(per_turn, 3);
    c.start(1, 0);
    c.expire(20 * S);
    assert!(!c.seat(1).unwrap().flagged);
    c.start(1, 20 * S);
    assert_eq!(c.flag_time(), Some(40 * S));
    // Nothing runs: nothing to expire.
    let mut c = Clock::new(per_turn, 3);
    assert_eq!(c.expire(0), None);
}

#[test]
fn an_arbiter_adds_and_removes_main_time_and_the_flag_follows() {
    let mut c = Clock::new(
        TimeControl::Fischer {
            base: 5 * M,
            increment: 0,
        },
        2,
    );
    let mut t = 0;
    c.start(0, t);
    mv(&mut c, &mut t, M, 1).unwrap();
    // Seat 1 is running with 5 minutes: two more for it, one less for seat 0.
    c.adjust(1, (2 * M) as i64);
    c.adjust(0, -((M) as i64));
    assert_eq!(c.seat(0).unwrap().main, 3 * M);
    let grace = c.seat(1).unwrap().lag.grace();
    assert_eq!(c.flag_time(), Some(t + 7 * M + grace));
    // Removing more than is left leaves none: the running seat flags at once.
    c.adjust(1, -((60 * M) as i64));
    assert_eq!(c.seat(1).unwrap().main, 0);
    assert_eq!(c.flagged(t + grace), Some(1));
    // A paused clock does not flag; resumed, it does.
    c.pause(t);
    assert_eq!(c.flag_time(), None);
    c.resume(t + 10 * M);
    assert_eq!(c.flagged(t + 10 * M + grace), Some(1));
    c.set_main(1, 4 * M);
    assert_eq!(c.flag_time(), Some(t + 10 * M + 4 * M + grace));
}
