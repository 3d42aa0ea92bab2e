//! Play the computer (人机对弈) in one message: `play_computer` names the game,
//! the computer player's level, the player's colour and the clock; the server
//! creates a casual table, seats the player and computer players at every other
//! seat, and the game starts at once (the bots are ready by themselves, see
//! [`crate::bots::chore`]). Takebacks are allowed, and the bots grant them.
//! The table is the player's (it counts towards the tables one person holds,
//! `max_tables_per_user`), and the lobby does not list it (a game against
//! the computer: [`TableSummary::against_computer`](crate::live::TableSummary::against_computer)).

use std::sync::Arc;

use qiyuan_game::Seat;
use qiyuan_table::{Command, Settings};

use crate::error::ApiError;
use crate::live::{self, Conn, Env, TableHandle, TableKind};
use crate::protocol::{Colour, PlayComputer};

/// Creates the table, seats everyone and starts the game; returns the table and
/// the player's seat. The socket is subscribed to the table afterwards by the
/// caller (so that it gets the ack first, then the table's state).
pub async fn play(
    env: &Arc<Env>,
    conn: &Conn,
    req: PlayComputer,
) -> Result<(TableHandle, Seat), ApiError> {
    let user = conn.user.clone().ok_or_else(ApiError::unauthorized)?;
    let game = env.games.get(&req.game).ok_or_else(|| {
        ApiError::bad_request("unknown_game", format!("no game {:?} here", req.game))
    })?;
    if game.bot_levels.is_empty() {
        return Err(ApiError::bad_request(
            "no_bots",
            format!("there are no computer players for {}", game.name),
        ));
    }
    let level = match &req.level {
        None => &game.bot_levels[0],
        Some(key) => game
            .bot_levels
            .iter()
            .find(|l| l.key == key.0)
            .ok_or_else(|| {
                ApiError::bad_request(
                    "bad_level",
                    format!(
                        "no computer player {:?} for {}; its levels are {}",
                        key.0,
                        game.name,
                        game.bots.join(", ")
                    ),
                )
            })?,
    };
    let seat = match &req.colour {
        Some(Colour::Seat(s)) if s.0 < game.seats => *s,
        Some(Colour::Seat(s)) => {
            return Err(ApiError::bad_request(
                "bad_seat",
                format!(
                    "{} has seats 0 to {}, not {}",
                    game.name,
                    game.seats - 1,
                    s.0
                ),
            ));
        }
        Some(Colour::Named(name)) if name != "random" => {
            game.seat_named(name).ok_or_else(|| {
                ApiError::bad_request(
                    "bad_seat",
                    format!(
                        "{name:?} is not a side in {}; say first, second, random or one of {}",
                        game.name,
                        game.seat_names.join(", ")
                    ),
                )
            })?
        }
        _ => {
            use rand::Rng;
            Seat(rand::thread_rng().gen_range(0..game.seats))
        }
    };
    let time = req.time.unwrap_or_else(|| game.default_time());
    time.validate()
        .map_err(|e| ApiError::bad_request("bad_settings", e))?;
    let settings = Settings {
        time,
        options: req.options.clone(),
        setup: req.setup.clone().unwrap_or(qiyuan_game::Setup::Standard),
        rated: false,
        takebacks: true,
    };
    let kind = if req.private {
        TableKind::Private
    } else {
        TableKind::Public
    };
    let handle = live::create_started(env, game.name, settings, &user, kind).await?;
    let mut cmds = vec![Command::Sit {
        user: user.username.clone(),
        seat,
    }];
    for s in (0..game.seats).map(Seat).filter(|&s| s != seat) {
        cmds.push(Command::Sit {
            user: crate::bots::new_name(&level.key),
            seat: s,
        });
    }
    cmds.push(Command::Ready {
        user: user.username.clone(),
        proposal: None,
    });
    handle
        .internal(cmds)
        .await?
        .map_err(|e| ApiError::bad_request("bad_settings", e))?;
    Ok((handle, seat))
}
