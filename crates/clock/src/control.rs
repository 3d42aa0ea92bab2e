//! Time controls as plain values, their presets and their speed class.

use serde::{Deserialize, Serialize};

use crate::Millis;

const SECOND: Millis = 1_000;
const MINUTE: Millis = 60 * SECOND;
/// One day in milliseconds (correspondence time is counted in days).
pub const DAY: Millis = 24 * 60 * MINUTE;

/// A time control: how much time each seat has and what happens when it runs out.
///
/// Every variant is charged in milliseconds. "Flags" means the seat has run out of
/// time and loses (or draws, where the game says so); the moment a seat flags is
/// always `elapsed >= limit`, so a move made exactly on the deadline is too late.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeControl {
    /// No clock at all.
    None,
    /// The QQ clock (QQ游戏's 局时/步时/读秒).
    ///
    /// While game time (`game`, 局时) lasts it runs down, and each move must also be
    /// made within `per_move` (步时; 0 means no such limit). Once game time is gone,
    /// each move must be made within `countdown` (读秒), counted afresh every move.
    /// When game time runs out in the middle of a move, the count-down starts then
    /// and the move limit no longer applies: a move that starts with game time `R`
    /// flags at `per_move` if `per_move < R`, else at `R + countdown`.
    Qq {
        game: Millis,
        per_move: Millis,
        countdown: Millis,
    },
    /// Fischer: a base time and an increment added after each move.
    Fischer { base: Millis, increment: Millis },
    /// Japanese byo-yomi: main time, then `periods` periods of `period` each. A move
    /// made within a period keeps it; a period is used up only by overstepping it,
    /// and the seat flags when it oversteps the last one.
    ByoYomi {
        main: Millis,
        periods: u32,
        period: Millis,
    },
    /// Canadian overtime: main time, then `moves` moves within each `period`. When the
    /// moves are made the period starts afresh; running out of a period flags. The
    /// move during which main time runs out is the first move of the first period.
    Canadian {
        main: Millis,
        moves: u32,
        period: Millis,
    },
    /// Correspondence: each move must be made within `days` days.
    Correspondence { days: u32 },
}

/// A speed class, as Lichess rates chess: by the estimated duration of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    UltraBullet,
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence,
}

impl Speed {
    pub fn as_str(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    /// The speed's name, Chinese and English, as a rating pool of it is called
    /// (the web client's `speed_*` words say the same): Lichess's Chinese names,
    /// so that 快棋 is the speed QQ's 快棋 preset plays at (rapid).
    pub fn label(self) -> (&'static str, &'static str) {
        match self {
            Speed::UltraBullet => ("超级子弹棋", "UltraBullet"),
            Speed::Bullet => ("子弹棋", "Bullet"),
            Speed::Blitz => ("超快棋", "Blitz"),
            Speed::Rapid => ("快棋", "Rapid"),
            Speed::Classical => ("慢棋", "Classical"),
            Speed::Correspondence => ("通讯棋", "Correspondence"),
        }
    }
}

/// The longest main time of a live game (a player's): 6 hours.
pub const LIVE_MAIN_MAX: Millis = 6 * 60 * MINUTE;
/// The longest per-move time, increment, period or count-down of a live game:
/// an hour.
pub const LIVE_STEP_MAX: Millis = 60 * MINUTE;

impl TimeControl {
    /// The QQ clock from minutes/minutes/seconds, as QQ's dialog shows them.
    pub const fn qq(game_min: u64, per_move_min: u64, countdown_s: u64) -> Self {
        TimeControl::Qq {
            game: game_min * MINUTE,
            per_move: per_move_min * MINUTE,
            countdown: countdown_s * SECOND,
        }
    }

    /// Fischer from minutes and seconds (`3+2`).
    pub const fn fischer(base_min: u64, increment_s: u64) -> Self {
        TimeControl::Fischer {
            base: base_min * MINUTE,
            increment: increment_s * SECOND,
        }
    }

    /// Byo-yomi from minutes, a period count and seconds per period.
    pub const fn byo_yomi(main_min: u64, periods: u32, period_s: u64) -> Self {
        TimeControl::ByoYomi {
            main: main_min * MINUTE,
            periods,
            period: period_s * SECOND,
        }
    }

    /// Canadian overtime from minutes, a move count and minutes per period.
    pub const fn canadian(main_min: u64, moves: u32, period_min: u64) -> Self {
        TimeControl::Canadian {
            main: main_min * MINUTE,
            moves,
            period: period_min * MINUTE,
        }
    }

    /// The estimated duration of one side's time in a game of 40 moves, in seconds
    /// (Lichess's `base + 40 × increment`). Per-move allowances that are a ceiling
    /// rather than a gift (读秒, byo-yomi periods) count 25 moves' worth, since few
    /// moves use all of them. `None` for no clock and correspondence.
    pub fn estimated_seconds(&self) -> Option<u64> {
        let s = |ms: Millis| ms / SECOND;
        match *self {
            TimeControl::None | TimeControl::Correspondence { .. } => None,
            TimeControl::Qq {
                game, countdown, ..
            } => Some(s(game) + 25 * s(countdown)),
            TimeControl::Fischer { base, increment } => Some(s(base) + 40 * s(increment)),
            TimeControl::ByoYomi { main, period, .. } => Some(s(main) + 25 * s(period)),
            TimeControl::Canadian {
                main,
                moves,
                period,
            } => Some(s(main) + 40 * s(period) / u64::from(moves.max(1))),
        }
    }

    /// The speed class (Lichess's thresholds on the estimated duration: under 30 s
    /// ultrabullet, under 3 min bullet, under 8 min blitz, under 25 min rapid).
    /// No clock counts as correspondence: nothing hurries the players.
    pub fn speed(&self) -> Speed {
        match self.estimated_seconds() {
            None => Speed::Correspondence,
            Some(s) if s < 30 => Speed::UltraBullet,
            Some(s) if s < 180 => Speed::Bullet,
            Some(s) if s < 480 => Speed::Blitz,
            Some(s) if s < 1500 => Speed::Rapid,
            Some(_) => Speed::Classical,
        }
    }

    /// The time a seat starts with on its main clock.
    pub fn initial_main(&self) -> Millis {
        match *self {
            TimeControl::None => 0,
            TimeControl::Qq { game, .. } => game,
            TimeControl::Fischer { base, .. } => base,
            TimeControl::ByoYomi { main, .. } => main,
            TimeControl::Canadian { main, .. } => main,
            TimeControl::Correspondence { days } => u64::from(days) * DAY,
        }
    }

    /// The QQ clock's 步时 when it is set: a limit on every single move, the
    /// first ones included ("每一步走棋必须在'步时'限定之内走完一步棋子", seed
    /// 002). A table runs such a clock from the first move on instead of its
    /// first-move timer.
    pub fn per_move_limit(&self) -> Option<Millis> {
        match *self {
            TimeControl::Qq { per_move, .. } if per_move > 0 => Some(per_move),
            _ => None,
        }
    }

    /// Whether the control can never flag.
    pub fn is_unlimited(&self) -> bool {
        matches!(self, TimeControl::None)
    }

    /// Whether the values make sense: something to play with, and a live game:
    /// a player's main time at most [`LIVE_MAIN_MAX`] (6 hours, a long Go
    /// game's), each move's, increment's or period's at most
    /// [`LIVE_STEP_MAX`] (an hour). Longer games are correspondence.
    pub fn validate(&self) -> Result<(), String> {
        let long = |name: &str, v: Millis| {
            if v > LIVE_MAIN_MAX {
                Err(format!(
                    "{name} is longer than 6 hours: play such a game by correspondence"
                ))
            } else {
                Ok(())
            }
        };
        let step = |name: &str, v: Millis| {
            if v > LIVE_STEP_MAX {
                Err(format!(
                    "{name} is longer than an hour: play such a game by correspondence"
                ))
            } else {
                Ok(())
            }
        };
        match *self {
            TimeControl::None => Ok(()),
            TimeControl::Qq {
                game,
                per_move,
                countdown,
            } => {
                long("game time", game)?;
                step("move time", per_move)?;
                step("count-down", countdown)?;
                if game == 0 && countdown == 0 {
                    return Err("the QQ clock needs game time or a count-down".into());
                }
                Ok(())
            }
            TimeControl::Fischer { base, increment } => {
                long("base time", base)?;
                step("increment", increment)?;
                if base == 0 {
                    return Err("Fischer needs a base time".into());
                }
                Ok(())
            }
            TimeControl::ByoYomi {
                main,
                periods,
                period,
            } => {
                long("main time", main)?;
                step("period", period)?;
                if periods > 100 {
                    return Err("at most 100 byo-yomi periods".into());
                }
                if main == 0 && (periods == 0 || period == 0) {
                    return Err("byo-yomi needs main time or periods".into());
                }
                Ok(())
            }
            TimeControl::Canadian {
                main,
                moves,
                period,
            } => {
                long("main time", main)?;
                step("period", period)?;
                if moves == 0 || period == 0 {
                    return Err("Canadian overtime needs moves and a period".into());
                }
                Ok(())
            }
            TimeControl::Correspondence { days } => {
                if days == 0 || days > 30 {
                    return Err("correspondence allows 1 to 30 days per move".into());
                }
                Ok(())
            }
        }
    }

    /// The control as a PGN `TimeControl` tag in the standard's forms (`600+5`,
    /// `1/86400`, `-`); `?` for a clock the standard has no form for (QQ,
    /// byo-yomi, Canadian), whose settings a record writes in a tag of its own
    /// (`qiyuan_game::RecordTime::pgn_detail_tag`).
    pub fn pgn(&self) -> String {
        let s = |ms: Millis| ms / SECOND;
        match *self {
            TimeControl::None => "-".into(),
            TimeControl::Fischer { base, increment } => {
                if increment == 0 {
                    format!("{}", s(base))
                } else {
                    format!("{}+{}", s(base), s(increment))
                }
            }
            TimeControl::Correspondence { days } => format!("1/{}", u64::from(days) * 86_400),
            TimeControl::Qq { .. } | TimeControl::ByoYomi { .. } | TimeControl::Canadian { .. } => {
                "?".into()
            }
        }
    }
}

/// Named presets, the same for every game: QQ's quick (快棋) and match (比赛)
/// modes and the usual Fischer, byo-yomi and correspondence controls. The clock
/// knows nothing of games: a game's own presets (Go's byo-yomi quick mode,
/// Doudizhu's per-turn timer) are the server's registry's, which names these
/// where a game uses them as they are.
///
/// The QQ match mode is the seed's example, 30 min / 5 min / 3 min. The seeds give
/// no numbers for the quick mode; 10 min / 1 min / 30 s is what QQ's 快棋 rooms
/// commonly used for xiangqi and chess.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// 快棋: QQ 10 min / 1 min / 30 s.
    Quick,
    /// 比赛: QQ 30 min / 5 min / 3 min.
    Match,
    /// Fischer 1+0.
    Bullet,
    /// Fischer 3+2.
    Blitz,
    /// Fischer 10+5.
    Rapid,
    /// Fischer 30+20.
    Classical,
    /// Byo-yomi 10 min + 5×30 s (fast).
    ByoYomiFast,
    /// Byo-yomi 30 min + 5×30 s (normal).
    ByoYomiNormal,
    /// Byo-yomi 60 min + 5×60 s (slow).
    ByoYomiSlow,
    /// Canadian 20 min + 25 moves / 10 min (club).
    CanadianClub,
    /// Correspondence, 3 days per move.
    Correspondence,
}

impl Preset {
    /// The preset's control.
    pub fn control(self) -> TimeControl {
        match self {
            Preset::Quick => TimeControl::qq(10, 1, 30),
            Preset::Match => TimeControl::qq(30, 5, 180),
            Preset::Bullet => TimeControl::fischer(1, 0),
            Preset::Blitz => TimeControl::fischer(3, 2),
            Preset::Rapid => TimeControl::fischer(10, 5),
            Preset::Classical => TimeControl::fischer(30, 20),
            Preset::ByoYomiFast => TimeControl::byo_yomi(10, 5, 30),
            Preset::ByoYomiNormal => TimeControl::byo_yomi(30, 5, 30),
            Preset::ByoYomiSlow => TimeControl::byo_yomi(60, 5, 60),
            Preset::CanadianClub => TimeControl::canadian(20, 25, 10),
            Preset::Correspondence => TimeControl::Correspondence { days: 3 },
        }
    }

    /// The preset's name in the protocol (its serde name): `quick`, `byo_yomi_fast`.
    pub fn key(self) -> &'static str {
        match self {
            Preset::Quick => "quick",
            Preset::Match => "match",
            Preset::Bullet => "bullet",
            Preset::Blitz => "blitz",
            Preset::Rapid => "rapid",
            Preset::Classical => "classical",
            Preset::ByoYomiFast => "byo_yomi_fast",
            Preset::ByoYomiNormal => "byo_yomi_normal",
            Preset::ByoYomiSlow => "byo_yomi_slow",
            Preset::CanadianClub => "canadian_club",
            Preset::Correspondence => "correspondence",
        }
    }

    /// The preset's name as the table's dialog shows it, Chinese and English.
    pub fn label(self) -> (&'static str, &'static str) {
        match self {
            Preset::Quick => ("快棋", "Quick"),
            Preset::Match => ("比赛", "Match"),
            Preset::Bullet => ("子弹棋", "Bullet"),
            Preset::Blitz => ("超快棋 3+2", "Blitz"),
            Preset::Rapid => ("快棋 10+5", "Rapid"),
            Preset::Classical => ("慢棋", "Classical"),
            Preset::ByoYomiFast => ("读秒 快", "Byo-yomi, fast"),
            Preset::ByoYomiNormal => ("读秒", "Byo-yomi"),
            Preset::ByoYomiSlow => ("读秒 慢", "Byo-yomi, slow"),
            Preset::CanadianClub => ("加拿大读秒", "Canadian"),
            Preset::Correspondence => ("通讯棋", "Correspondence"),
        }
    }

    pub const ALL: [Preset; 11] = [
        Preset::Quick,
        Preset::Match,
        Preset::Bullet,
        Preset::Blitz,
        Preset::Rapid,
        Preset::Classical,
        Preset::ByoYomiFast,
        Preset::ByoYomiNormal,
        Preset::ByoYomiSlow,
        Preset::CanadianClub,
        Preset::Correspondence,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_clocks_are_bounded() {
        let hours = |h: u64| h * 60 * MINUTE;
        assert!(TimeControl::fischer(360, 60).validate().is_ok());
        let long = TimeControl::Fischer {
            base: hours(6) + 1,
            increment: 0,
        };
        assert!(long.validate().unwrap_err().contains("correspondence"));
        let year = TimeControl::Fischer {
            base: 366 * DAY,
            increment: 0,
        };
        assert!(year.validate().is_err());
        let slow_moves = TimeControl::Qq {
            game: hours(1),
            per_move: hours(1) + 1,
            countdown: 0,
        };
        assert!(slow_moves.validate().is_err());
        assert!(TimeControl::Correspondence { days: 3 }.validate().is_ok());
    }

    #[test]
    fn speeds_follow_lichess_thresholds() {
        assert_eq!(TimeControl::fischer(1, 0).speed(), Speed::Bullet);
        assert_eq!(TimeControl::fischer(3, 2).speed(), Speed::Blitz);
        assert_eq!(TimeControl::fischer(5, 0).speed(), Speed::Blitz);
        assert_eq!(TimeControl::fischer(10, 0).speed(), Speed::Rapid);
        assert_eq!(TimeControl::fischer(15, 10).speed(), Speed::Rapid);
        assert_eq!(TimeControl::fischer(20, 10).speed(), Speed::Classical);
        assert_eq!(TimeControl::fischer(30, 0).speed(), Speed::Classical);
        assert_eq!(
            TimeControl::Fischer {
                base: 15_000,
                increment: 0
            }
            .speed(),
            Speed::UltraBullet
        );
        assert_eq!(
            TimeControl::Correspondence { days: 2 }.speed(),
            Speed::Correspondence
        );
        assert_eq!(TimeControl::qq(30, 5, 180).speed(), Speed::Classical);
        assert_eq!(TimeControl::qq(10, 1, 30).speed(), Speed::Rapid);
    }

    #[test]
    fn presets_validate() {
        for p in Preset::ALL {
            assert_eq!(p.control().validate(), Ok(()), "{p:?}");
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(
                json,
                format!("\"{}\"", p.key()),
                "the key is the serde name"
            );
        }
        assert_eq!(
            Preset::Match.control(),
            TimeControl::Qq {
                game: 30 * MINUTE,
                per_move: 5 * MINUTE,
                countdown: 3 * MINUTE
            }
        );
    }

    #[test]
    fn only_the_qq_move_time_limits_every_move() {
        assert_eq!(TimeControl::qq(10, 1, 30).per_move_limit(), Some(MINUTE));
        assert_eq!(TimeControl::qq(10, 0, 30).per_move_limit(), None);
        // A turn clock (Doudizhu's presets): only 读秒, so no move time.
        let turn = TimeControl::Qq {
            game: 0,
            per_move: 0,
            countdown: 20 * SECOND,
        };
        assert_eq!(turn.per_move_limit(), None);
        assert_eq!(TimeControl::fischer(3, 2).per_move_limit(), None);
        assert_eq!(TimeControl::byo_yomi(10, 3, 30).per_move_limit(), None);
        assert_eq!(TimeControl::None.per_move_limit(), None);
    }

    #[test]
    fn serde_shape() {
        let json = serde_json::to_string(&TimeControl::fischer(3, 2)).unwrap();
        assert_eq!(json, r#"{"kind":"fischer","base":180000,"increment":2000}"#);
        let back: TimeControl = serde_json::from_str(&json).unwrap();
        assert_eq!(back, TimeControl::fischer(3, 2));
        assert_eq!(TimeControl::fischer(3, 2).pgn(), "180+2");
        assert_eq!(TimeControl::qq(10, 1, 30).pgn(), "?");
    }

    #[test]
    fn presets_play_in_the_pool_of_their_name() {
        // The 快棋 preset is rated in the pool called 快棋; each Fischer preset
        // names the speed it plays at first.
        let speed = |p: Preset| p.control().speed();
        assert_eq!(speed(Preset::Quick).label().0, Preset::Quick.label().0);
        assert_eq!(speed(Preset::Match), Speed::Classical);
        for p in [
            Preset::Bullet,
            Preset::Blitz,
            Preset::Rapid,
            Preset::Classical,
            Preset::Correspondence,
        ] {
            let (zh, en) = p.label();
            assert!(zh.starts_with(speed(p).label().0), "{p:?}: {zh}");
            assert!(en.starts_with(speed(p).label().1), "{p:?}: {en}");
        }
    }
}
