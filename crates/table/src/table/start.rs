//! Starting a game: the game built from the agreed settings (a standard
//! start, a loaded position or record (读入), or a deal from a secret), the
//! start itself, and the rematch that starts the next one with seats moved on.

use qiyuan_clock::{Clock, Millis};
use qiyuan_game::{Game, Seat, Secret, Setup, Turn};

use super::{K, R, Table, empty_clock, refuse};
use crate::state::{GameState, Status};
use crate::types::{Event, Settings, SettingsError, TableConfig, TableRefusal, UserId};

impl<G: Game> Table<G> {
    pub(super) fn start_game(&mut self, now: Millis) -> R {
        if self.config.tournament && self.state.games > 0 {
            return refuse(K::NotAllowed, "a tournament table plays one game");
        }
        let number = self.state.games + 1;
        let mut settings = self.state.proposal.settings.clone();
        if self.config.tournament {
            settings.takebacks = false;
        }
        let Built {
            game,
            options,
            setup,
            preloaded,
            preloaded_displays,
        } = build_game::<G>(
            &settings,
            &self.proposed,
            &self.config,
            number,
            self.offered,
        )
        .map_err(|m| TableRefusal::new(K::BadSettings, m))?;
        if let Setup::Secret(secret) = setup {
            // The entry of the command that started the game keeps the secret.
            self.dealt = Some(secret);
        }
        self.preview = None;
        let n = self.seats_n as usize;
        let players: Vec<UserId> = self
            .state
            .seats
            .iter()
            .map(|s| s.user.clone().unwrap_or_default())
            .collect();
        let clock = Clock::new(settings.time, n);
        // A game from a position someone chose (读入) does not count: the chooser
        // may know it too well, and in Doudizhu would know every hand.
        let rated = settings.rated && settings.setup == Setup::Standard;
        self.state.games = number;
        self.state.status = Status::Playing;
        for s in &mut self.state.seats {
            s.ready = false;
            s.rematch = false;
            s.swap_with = None;
            // Absence counts from the start of the game, not from before it.
            if s.absent_since.is_some() {
                s.absent_since = Some(now);
            }
        }
        self.cuts += 1;
        self.state.game = Some(GameState {
            number,
            settings: settings.clone(),
            setup,
            preloaded,
            preloaded_displays,
            players: players.clone(),
            started_at: now,
            actions: Vec::new(),
            clock,
            acted: vec![false; n],
            turn_since: now,
            draw: None,
            last_offer_by: None,
            offered_at: vec![None; n],
            takeback: None,
            takeback_blocked: vec![false; n],
            outcome: None,
            rated,
            ended_at: None,
            end_detail: None,
            fouls: vec![0; n],
            violations: vec![0; n],
            warnings: vec![0; n],
            paused_at: None,
        });
        let turn = game.turn();
        self.game = Some(game);
        self.options = Some(options);
        // Only a clock with a per-move limit runs before the first move.
        self.run_clock(&turn, now);
        let mut events = vec![Event::Started {
            game: number,
            players,
            settings,
            clock: self.clock_view(now).unwrap_or_else(|| empty_clock(now)),
        }];
        // A loaded position may already be decided.
        if let Some(outcome) = self.game.as_ref().and_then(|g| g.outcome()) {
            events.extend(self.end(outcome, false, now)?);
        }
        Ok(events)
    }

    pub(super) fn rematch(&mut self, user: &str, now: Millis) -> R {
        let seat = self.seated(user)?;
        if self.config.tournament {
            return refuse(
                K::NotAllowed,
                "a tournament table plays one game: no rematch",
            );
        }
        if self.state.status != Status::Over {
            return refuse(K::NotAllowed, "a rematch follows a finished game");
        }
        if self.state.seats[seat.index()].rematch {
            return refuse(K::NotAllowed, "you asked already");
        }
        // An opponent who left the table cannot be asked (QQ and Lichess offer no
        // rematch then); whoever sits down next starts a new game the usual way.
        if self.state.seats.iter().any(|s| s.user.is_none()) {
            return refuse(
                K::NotAllowed,
                "a seat is empty: nobody to play a rematch with",
            );
        }
        self.state.seats[seat.index()].rematch = true;
        let mut events = vec![Event::RematchOffered { seat }];
        let all = self
            .state
            .seats
            .iter()
            .all(|s| s.user.is_some() && s.rematch);
        if all {
            // Colours change: every user moves one seat on (seat 0 gets the user
            // who sat last), which for two seats is a swap.
            self.state.seats.rotate_right(1);
            for s in &mut self.state.seats {
                s.accepted = Some(self.state.proposal.id);
                s.ready = true;
            }
            if self.seats_n == 2 {
                events.push(Event::Swapped {
                    a: Seat::FIRST,
                    b: Seat::SECOND,
                });
            } else {
                for (i, s) in self.state.seats.iter().enumerate() {
                    if let Some(u) = &s.user {
                        events.push(Event::Sat {
                            seat: Seat(i as u8),
                            user: u.clone(),
                        });
                    }
                }
            }
            events.extend(self.start_game(now)?);
        }
        Ok(events)
    }
}

/// Whether `settings` load a position or a record (读入) rather than start
/// from the game's standard setup.
pub(super) fn loads_position(settings: &Settings) -> bool {
    matches!(settings.setup, Setup::Position(_))
}

/// The secret the settings are checked with before a game starts (a proposal, a
/// new table): the game built from it is thrown away, never played.
pub(super) const TRIAL: Secret = Secret([0; 32]);

/// The setup game `number` starts from: the agreed one, or for a game that draws
/// randomness and a standard start, the secret on offer. Without one, a table
/// from before secrets deals from a seed derived from its `deal_seed` (as it
/// always did, so that its logs replay); any other table cannot start the game.
fn game_setup<G: Game>(
    settings: &Settings,
    config: &TableConfig,
    number: u32,
    secret: Option<Secret>,
) -> Result<Setup, String> {
    match (&settings.setup, secret, config.deal_seed) {
        (Setup::Standard, Some(secret), _) if G::RANDOM => Ok(Setup::Secret(secret)),
        (Setup::Standard, None, Some(seed)) if G::RANDOM => {
            Ok(Setup::Seed(splitmix(seed ^ u64::from(number))))
        }
        (Setup::Standard, None, None) if G::RANDOM => {
            Err("no secret to deal from: the server offers one with each command".into())
        }
        (setup, _, _) => Ok(setup.clone()),
    }
}

/// SplitMix64: spreads a legacy table seed into one seed per game.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A game built from settings, with its options, the setup it started from and
/// the actions loaded from a record.
pub(super) struct Built<G: Game> {
    pub(super) game: G,
    options: G::Options,
    setup: Setup,
    preloaded: Vec<(Seat, String)>,
    preloaded_displays: Vec<String>,
}

/// The settings' options as the game's own type: `null` is the defaults.
pub(super) fn parse_options<G: Game>(settings: &Settings) -> Result<G::Options, SettingsError> {
    if settings.options.is_null() {
        return Ok(G::Options::default());
    }
    serde_json::from_value(settings.options.clone()).map_err(|e| SettingsError::Options {
        game: G::NAME,
        message: e.to_string(),
    })
}

pub(super) fn build_game<G: Game>(
    settings: &Settings,
    options: &G::Options,
    config: &TableConfig,
    number: u32,
    secret: Option<Secret>,
) -> Result<Built<G>, String> {
    let options = options.clone();
    let setup = game_setup::<G>(settings, config, number, secret)?;
    let new_error = match G::new(&options, &setup) {
        Ok(game) => {
            return Ok(Built {
                game,
                options,
                setup,
                preloaded: Vec::new(),
                preloaded_displays: Vec::new(),
            });
        }
        Err(e) => e.message,
    };
    // Not a position: perhaps a whole record (读入), to go on from its end.
    let Setup::Position(record) = &setup else {
        return Err(new_error);
    };
    let Ok((setup, actions)) = G::load(&options, record) else {
        return Err(new_error);
    };
    if setup.is_random() {
        return Err("a record cannot choose the deal".into());
    }
    let mut game = G::new(&options, &setup).map_err(|e| e.message)?;
    let mut preloaded = Vec::with_capacity(actions.len());
    let mut preloaded_displays = Vec::with_capacity(actions.len());
    for (i, action) in actions.into_iter().enumerate() {
        let Turn::Seat(seat) = game.turn() else {
            return Err(format!("the record goes on after move {i}"));
        };
        let effects = game
            .act(seat, &action)
            .map_err(|r| format!("move {} of the record: {r}", i + 1))?;
        preloaded.push((seat, effects.canonical));
        preloaded_displays.push(effects.display);
    }
    if game.outcome().is_some() {
        return Err("the recorded game is already over".into());
    }
    Ok(Built {
        game,
        options,
        setup,
        preloaded,
        preloaded_displays,
    })
}
