//! The other ways an API game begins: a seek (`POST /api/board/seek`, quick
//! pairing in the lobby's own queue, so that an API seek pairs with a web
//! player's) and a game against the built-in engine (`POST
//! /api/challenge/ai`, the server's `play_computer`).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use qiyuan_game::Seat;
use qiyuan_table::TimeControl;
use serde::{Deserialize, Serialize};

use super::Api;
use super::events::{Source, started};
use super::feed::{api_conn, snapshot};
use super::forms::GameForm;
use super::games::{Kind, variant_of};
use super::hub::until_revoked;
use super::state::{Variant, color, speed_of};
use super::stream::{Error, Result, form, keepalive, ndjson};
use crate::App;
use crate::live::TableMsg;
use crate::protocol::{Colour, LevelKey, PlayComputer, Seek};

/// The lobby's word that a seek was paired, among what the seeker's
/// connection gets: the table it was seated at.
#[derive(Deserialize)]
#[serde(tag = "t", content = "d")]
enum Paired {
    #[serde(rename = "paired")]
    Paired { table: String },
}

/// `POST /api/board/seek`: streams keep-alive newlines until paired, then
/// ends (the game's `gameStart` comes on the event stream). Only real-time
/// seeks; the lobby pairs seeks of the same game, time control and rating.
/// (The lobby's pairing takes the `App`; the rest is the API's.)
pub async fn seek(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response> {
    let api = app.api.clone();
    let caller = api.caller(&headers).await?;
    Kind::Board.check(&caller)?;
    let f: GameForm = form(&headers, &body)?;
    let game = f.game(&api.games)?;
    let time = f.time()?;
    if !matches!(time, TimeControl::Fischer { .. }) {
        return Err(Error::bad(
            "Only real-time seeks (time and increment) are supported",
        ));
    }
    let rated = f.rated();
    if rated && caller.user.guest {
        return Err(Error::forbidden("Guests play casual games only"));
    }
    let (conn, mut rx) = api_conn(Some(caller.info()));
    let conn_id = conn.id;
    crate::lobby::seek(
        &app.live,
        &app.lobby,
        app.cluster.as_ref(),
        conn,
        Seek {
            game: game.to_string(),
            time,
            rated,
        },
    )
    .await?;
    Ok(ndjson(move |lines| async move {
        let every = keepalive(&api.config);
        let mut beat = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        let revoked = until_revoked(&api.hub, &*api.store, &caller.token_hash);
        tokio::pin!(revoked);
        let paired = loop {
            tokio::select! {
                msg = rx.recv() => {
                    let Some(text) = msg else { break None };
                    if let Ok(Paired::Paired { table }) = serde_json::from_str(text.as_str()) {
                        break Some(table);
                    }
                }
                _ = beat.tick() => if !lines.keepalive().await { break None },
                _ = &mut revoked => break None,
                _ = lines.closed() => break None,
            }
        };
        let handle = match paired {
            Some(t) => api.tables.get(&t).await,
            None => None,
        };
        match handle {
            Some(handle) => {
                started(&api, &handle, Source::Lobby).await;
                // The seek's connection leaves the table: the game stream is
                // the player's connection from now on.
                let _ = handle.tx.send(TableMsg::Closed { conn: conn_id }).await;
            }
            None => {
                api.lobby.cancel_seeks(conn_id);
                if let Some(cluster) = &api.cluster {
                    cluster.cancel_seek(conn_id).await;
                }
            }
        }
        if let Some(cluster) = &api.cluster {
            cluster.forget_local(conn_id);
        }
    }))
}

/// A game's `status` in Lichess's game JSON.
#[derive(Debug, Serialize)]
struct GameStatus {
    id: u32,
    name: &'static str,
}

/// Lichess's answer to `POST /api/challenge/ai`: the game made.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct AiGame {
    id: String,
    variant: Option<Variant>,
    speed: &'static str,
    perf: &'static str,
    rated: bool,
    fen: Option<String>,
    turns: u32,
    source: Source,
    status: GameStatus,
    created_at: u64,
    player: &'static str,
}

/// `POST /api/challenge/ai` (`level` 1–8, `clock.limit`, `clock.increment`,
/// `days`, `color`, `variant`): a game against the built-in engine, as
/// `play_computer` makes it → Lichess's game JSON.
pub async fn challenge_ai(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    caller
        .require("challenge:write")
        .or_else(|_| caller.require("board:play"))?;
    let f: GameForm = form(&headers, &body)?;
    let game = f.game(&api.games)?;
    let level = f.level.clone().unwrap_or_else(|| "1".into());
    let time = f.time()?;
    let colour = match f.color.as_deref() {
        Some("white") => Colour::Seat(Seat(0)),
        Some("black") => Colour::Seat(Seat(1)),
        _ => Colour::Named("random".into()),
    };
    let (conn, _rx) = api_conn(Some(caller.info()));
    let req = PlayComputer {
        game: game.to_string(),
        level: Some(LevelKey(level)),
        colour: Some(colour),
        time: Some(time),
        options: serde_json::Value::Null,
        setup: None,
        private: false,
    };
    let (handle, seat) = crate::computer::play(&api.live, &conn, req)
        .await
        .map_err(Error::from)?;
    started(&api, &handle, Source::Ai).await;
    let now = snapshot(&handle, Some(caller.info())).await?;
    let speed = now.game.as_ref().map_or("unlimited", |g| speed_of(&g.time));
    Ok(axum::Json(AiGame {
        id: handle.id,
        variant: variant_of(&api.games, game).map(|v| Variant::of(&v)),
        speed,
        perf: speed,
        rated: false,
        fen: now.game.and_then(|g| g.fen),
        turns: 0,
        source: Source::Ai,
        status: GameStatus {
            id: 20,
            name: "started",
        },
        created_at: now.at,
        player: color(seat.index()),
    })
    .into_response())
}
