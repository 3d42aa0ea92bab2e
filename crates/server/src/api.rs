//! The JSON API for tables and games, and records at `/game/{id}.pgn`.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use qiyuan_store::{GameRow, Store};
use qiyuan_table::Settings;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::oneshot;

use crate::App;
use crate::cluster::Cluster;
use crate::error::{ApiError, ApiResult, Json, Query};
use crate::live::TableSummary;
use crate::live::{self, TableHandle, TableMsg, UserInfo};
use crate::protocol::CreateTable;
use crate::registry::Games;

pub async fn health(State(app): State<Arc<App>>) -> Json<Value> {
    Json(json!({
        "ok": true,
        "store": app.store.backend(),
        "tables": app.tables.len(),
        "games": app.games.names(),
    }))
}

/// `GET /api/games`: the descriptor of every game hosted here (see
/// [`crate::registry::Descriptor`]), in the order the lobby lists them.
pub async fn games(State(app): State<Arc<App>>) -> Json<Value> {
    Json(serde_json::to_value(app.games.all()).unwrap_or(Value::Null))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyQuery {
    /// List the tables whose id comes after this one (the last of the previous page).
    #[serde(default)]
    after: Option<String>,
    /// At most this many (and never more than `lobby_page_size`).
    #[serde(default)]
    limit: Option<usize>,
}

/// `GET /api/lobby/{game}?after=ID&limit=N`: one page of the room's tables, in id
/// order; a full page means there may be more after its last id.
pub async fn lobby(
    State(app): State<Arc<App>>,
    Path(game): Path<String>,
    Query(q): Query<LobbyQuery>,
) -> ApiResult<Json<Vec<TableSummary>>> {
    if app.games.get(&game).is_none() {
        return Err(ApiError::not_found(format!("no game {game:?} here")));
    }
    let page = app.config.lobby_page_size;
    let limit = match q.limit {
        Some(0) => return Err(ApiError::bad_request("bad_query", "limit is at least 1")),
        Some(n) => n.min(page),
        None => page,
    };
    Ok(Json(app.lobby.tables(&game, q.after.as_deref(), limit).0))
}

#[derive(Debug, Deserialize)]
pub struct LeaderboardQuery {
    pub limit: Option<i64>,
}

/// The most points (积分) for life in a game that keeps them, most first.
pub async fn leaderboard(
    State(app): State<Arc<App>>,
    Path(game): Path<String>,
    Query(q): Query<LeaderboardQuery>,
) -> ApiResult<Json<Value>> {
    let Some(desc) = app.games.get(&game).filter(|g| g.points) else {
        return Err(ApiError::not_found(format!(
            "no game {game:?} keeping points here"
        )));
    };
    let limit = match q.limit {
        Some(n) if n < 1 => return Err(ApiError::bad_request("bad_query", "limit is at least 1")),
        Some(n) => n.min(100),
        None => 20,
    };
    let rows = app.store.points_leaderboard(desc.name, limit).await?;
    let players: Vec<Value> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "rank": i + 1,
                "user": r.username,
                "points": r.points,
                "title": desc.points_title(r.points),
                "hands": r.hands,
            })
        })
        .collect();
    Ok(Json(json!({"game": desc.name, "players": players})))
}

/// Creates a table for `user` (shared by HTTP and WebSocket).
pub async fn create_table(
    env: &Arc<live::Env>,
    user: &UserInfo,
    c: CreateTable,
) -> ApiResult<TableHandle> {
    let Some(game) = env.games.get(&c.game) else {
        return Err(ApiError::bad_request(
            "unknown_game",
            format!("no game {:?} here", c.game),
        ));
    };
    if c.rated && user.guest {
        return Err(ApiError::forbidden(
            "guest_rated",
            "guests play casual games only",
        ));
    }
    let time = c.time.unwrap_or_else(|| game.default_time());
    time.validate()
        .map_err(|e| ApiError::bad_request("bad_settings", e))?;
    let settings = Settings {
        time,
        options: c.options,
        setup: match c.setup {
            Some(setup) if setup.is_random() => {
                return Err(ApiError::bad_request(
                    "bad_settings",
                    "deals are the server's to draw",
                ));
            }
            Some(setup) => setup,
            None => qiyuan_game::Setup::Standard,
        },
        rated: c.rated,
        takebacks: c.takebacks,
    };
    live::create_for(env, &c.game, settings, Some(user), c.seat, c.invite_only).await
}

pub async fn create_table_http(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(c): Json<CreateTable>,
) -> ApiResult<Response> {
    let user = app.accounts.require_user(&headers).await?;
    let info = UserInfo {
        id: user.id,
        username: user.username,
        guest: user.guest,
    };
    let seat = c.seat;
    let username = info.username.clone();
    let handle = create_table(&app.live, &info, c).await?;
    // As the WebSocket's `create` does: the creator sits at `seat` (without a
    // connection there: they are away until a page of theirs opens the table).
    if let Some(seat) = seat {
        let sit = qiyuan_table::Command::Sit {
            user: username,
            seat,
        };
        if let Err(reason) = handle.internal(vec![sit]).await? {
            return Err(ApiError::bad_request("sit_refused", reason));
        }
    }
    Ok((
        StatusCode::CREATED,
        Json(json!({"table": handle.id, "invite": format!("/table/{}", handle.id)})),
    )
        .into_response())
}

/// A stored game as lists show it.
#[derive(Debug, Serialize)]
pub struct GameSummary {
    pub id: String,
    pub table: String,
    pub game: String,
    pub status: qiyuan_store::GameStatus,
    pub rated: bool,
    pub started_at: i64,
    pub ended_at: Option<i64>,
    pub players: Vec<qiyuan_store::Player>,
    pub result: Option<Value>,
    pub settings: Value,
}

impl GameSummary {
    pub fn from_row(row: &GameRow) -> Self {
        GameSummary {
            id: row.id.clone(),
            table: row.table_id.clone(),
            game: row.game.clone(),
            status: row.status,
            rated: row.rated,
            started_at: row.started_at,
            ended_at: row.ended_at,
            players: row.players.clone(),
            result: row
                .result
                .as_deref()
                .and_then(|r| serde_json::from_str(r).ok()),
            settings: serde_json::from_str(&row.settings).unwrap_or(Value::Null),
        }
    }
}

/// Where a live table is found by id: on this node, or with several nodes
/// at the local proxy of the node that owns it.
#[derive(Clone)]
pub struct TableFinder {
    pub tables: Arc<live::Registry>,
    /// Several nodes; `None`: this is the only node.
    pub cluster: Option<Arc<Cluster>>,
}

impl TableFinder {
    /// Table `id`'s address, if it is live anywhere.
    pub async fn get(&self, id: &str) -> Option<TableHandle> {
        if let Some(handle) = self.tables.get(id) {
            return Some(handle);
        }
        self.cluster.as_ref()?.route(id).await
    }
}

async fn ask<T>(
    handle: &TableHandle,
    make: impl FnOnce(oneshot::Sender<T>) -> TableMsg,
) -> Option<T> {
    let (tx, rx) = oneshot::channel();
    handle.tx.send(make(tx)).await.ok()?;
    rx.await.ok()
}

/// `403 board_sealed` for a table playing a duplicate event's board that some
/// table has not finished (docs/card-events.md): its game, log, replay and
/// record are shown to nobody until the board is published.
pub async fn unsealed(store: &dyn Store, id: &str) -> Result<(), ApiError> {
    let table_id = id.split('-').next().unwrap_or(id);
    if store.sealed_table(table_id).await?.is_some() {
        return Err(ApiError::forbidden(
            "board_sealed",
            "this board is shown once every table has played it",
        ));
    }
    Ok(())
}

/// `GET /api/game/{id}`: a table or game. For a live table, `state` is the table
/// as a spectator sees it now; `games` lists the games stored for it.
pub async fn game(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    unsealed(&*app.store, &id).await?;
    let table_id = id.split('-').next().unwrap_or(&id).to_string();
    let live_state = match app.table(&table_id).await {
        Some(handle) => ask(&handle, |reply| TableMsg::Snapshot { reply }).await,
        None => None,
    };
    let stored = app.store.game(&id).await?;
    let table = app.store.table(&table_id).await?;
    if live_state.is_none() && stored.is_none() && table.is_none() {
        return Err(ApiError::not_found(format!("no game or table {id}")));
    }
    let games: Vec<GameSummary> = app
        .store
        .games_of_table(&table_id)
        .await?
        .iter()
        .map(GameSummary::from_row)
        .collect();
    Ok(Json(json!({
        "id": id,
        "table": table_id,
        "game": table.as_ref().map(|t| t.game.clone()),
        "open": table.as_ref().map(|t| t.open),
        "live": live_state.is_some(),
        "state": live_state,
        "stored": stored.as_ref().map(GameSummary::from_row),
        "games": games,
    })))
}

#[derive(Debug, Deserialize)]
pub struct LogQuery {
    #[serde(default)]
    after: i64,
}

/// `GET /api/game/{id}/log?after=N`: the table's history, every accepted command
/// with its time and version. The stored entries also hold each Doudizhu hand's
/// deal secret; only the command is shown, never the secret.
pub async fn game_log(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<LogQuery>,
) -> ApiResult<Json<Value>> {
    unsealed(&*app.store, &id).await?;
    let table_id = id.split('-').next().unwrap_or(&id).to_string();
    if app.store.table(&table_id).await?.is_none() {
        return Err(ApiError::not_found(format!("no table {table_id}")));
    }
    let entries: Vec<Value> = app
        .store
        .log(&table_id, q.after)
        .await?
        .into_iter()
        .map(|e| {
            let command = serde_json::from_str::<qiyuan_table::LogEntry>(&e.entry)
                .ok()
                .and_then(|entry| serde_json::to_value(entry.command).ok());
            json!({"v": e.version, "at": e.at, "command": command})
        })
        .collect();
    Ok(Json(json!({"table": table_id, "entries": entries})))
}

/// `GET /api/game/{id}/replay`: game `{id}` ply by ply for the replay viewer,
/// replayed from the table's stored log with the game's rules: the positions
/// (`positions[0]` before the first ply, then one after each) as the game's own
/// views, and each ply's notations. A game that hides information is served only
/// once it is over (`403 hidden_while_playing` before), with one view per seat,
/// so every hand shows, as in the record.
pub async fn game_replay(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    unsealed(&*app.store, &id).await?;
    let (table_id, number) = match id.split_once('-') {
        Some((table, n)) => match n.parse::<u32>() {
            Ok(n) if n >= 1 => (table, n),
            _ => return Err(ApiError::not_found(format!("no game {id}"))),
        },
        None => (id.as_str(), 1),
    };
    let Some(table) = app.store.table(table_id).await? else {
        return Err(ApiError::not_found(format!("no game {id}")));
    };
    let Some(desc) = app.games.get(&table.game) else {
        return Err(ApiError::not_found(format!(
            "no game {:?} here",
            table.game
        )));
    };
    let config: qiyuan_table::TableConfig =
        serde_json::from_str(&table.config).map_err(ApiError::internal)?;
    let log = app
        .store
        .log(table_id, 0)
        .await?
        .iter()
        .map(|e| serde_json::from_str::<qiyuan_table::LogEntry>(&e.entry))
        .collect::<Result<Vec<_>, _>>()
        .map_err(ApiError::internal)?;
    let replay_desc = desc.clone();
    let replayed =
        tokio::task::spawn_blocking(move || replay_desc.replay_game(config, &log, number))
            .await
            .map_err(ApiError::internal)?
            .map_err(ApiError::internal)?;
    let Some(replay) = replayed else {
        return Err(ApiError::not_found(format!("no game {id}")));
    };
    let finished = replay.outcome.is_some();
    if desc.hides_information && !finished {
        return Err(ApiError::forbidden(
            "hidden_while_playing",
            format!("the {} game is shown once it is over", desc.name),
        ));
    }
    // The game's own id: `{table}` for the first game, `{table}-{n}` after.
    let game_id = if number == 1 {
        table_id.to_string()
    } else {
        format!("{table_id}-{number}")
    };
    let mut body = serde_json::to_value(&replay).map_err(ApiError::internal)?;
    if let Value::Object(map) = &mut body {
        map.insert("id".into(), json!(game_id));
        map.insert("table".into(), json!(table_id));
        map.insert("game".into(), json!(desc.name));
        map.insert("finished".into(), json!(finished));
        map.insert(
            "record".into(),
            json!(format!("/game/{game_id}.{}", desc.record.extension)),
        );
    }
    Ok(Json(body))
}

/// A Doudizhu record without a `seed`: records stored before each hand had a
/// secret of its own named the seed its deals came from, from which later hands
/// of the table could be computed. The deals themselves stay.
fn without_seed(text: String) -> String {
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(mut map)) if map.contains_key("seed") => {
            map.remove("seed");
            serde_json::to_string_pretty(&Value::Object(map)).unwrap_or(text)
        }
        _ => text,
    }
}

/// `GET /game/{id}.pgn` (or `.sgf`, `.json`): the record of a finished game from
/// the store, or of the live game as it stands.
pub async fn record(State(app): State<Arc<App>>, Path(file): Path<String>) -> ApiResult<Response> {
    let finder = TableFinder {
        tables: app.tables.clone(),
        cluster: app.cluster.clone(),
    };
    record_of(&*app.store, &app.games, &finder, &file).await
}

/// The record `file` (`{id}.{ext}`) as [`record`] serves it: the stored
/// game's, or the live game's as it stands.
pub async fn record_of(
    store: &dyn Store,
    games: &Games,
    finder: &TableFinder,
    file: &str,
) -> ApiResult<Response> {
    let Some((id, ext)) = file.rsplit_once('.') else {
        return Err(ApiError::not_found("ask for /game/{id}.pgn"));
    };
    unsealed(store, id).await?;
    let stored = store.game(id).await?;
    let file_name = stored.as_ref().map(|g| {
        let mut players = g.players.clone();
        players.sort_by_key(|p| p.seat);
        let levels = games
            .get(&g.game)
            .map_or(&[][..], |d| d.bot_levels.as_slice());
        // Computer players by their names (电脑（3级）), as the record names them.
        let ids: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
        let names = crate::bots::record_names(&ids, levels);
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        record_file_name(&g.game, &names, g.started_at, ext)
    });
    let text = match stored.as_ref().and_then(|g| g.record.clone()) {
        Some(record) => Some((stored.map(|g| g.game).unwrap_or_default(), record)),
        None => {
            let (table_id, number) = match id.split_once('-') {
                Some((table, n)) => (table, n.parse::<u32>().ok().filter(|&n| n > 1)),
                None => (id, Some(1)),
            };
            let live = match (finder.get(table_id).await, number) {
                (Some(handle), Some(number)) => {
                    ask(&handle, |reply| TableMsg::Record { number, reply })
                        .await
                        .flatten()
                }
                _ => None,
            };
            match live {
                // A record shows every hand: not while they are being played.
                Some((game, _, false)) if games.get(&game).is_some_and(|g| g.hides_information) => {
                    return Err(ApiError::forbidden(
                        "hidden_while_playing",
                        format!("the {game} record is shown once the hand is over"),
                    ));
                }
                Some((game, text, _)) => Some((game, text)),
                None => None,
            }
        }
    };
    let Some((game, text)) = text else {
        return Err(ApiError::not_found(format!("no record for {id}")));
    };
    // A record of a game this server does not host (its feature is off) is not
    // served: the server cannot tell what it would hide.
    let Some(desc) = games.get(&game) else {
        return Err(ApiError::not_found(format!("no game {game:?} here")));
    };
    let want = desc.record.extension;
    if ext != want {
        return Err(ApiError::not_found(format!("{game} records are .{want}")));
    }
    let text = if desc.hides_information {
        without_seed(text)
    } else {
        text
    };
    let file_name = file_name.unwrap_or_else(|| record_file_name(&game, &[], 0, want));
    let disposition = content_disposition(&file_name);
    Ok((
        [
            (header::CONTENT_TYPE, desc.record.mime.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// A record's file name: `qiyuan-chess-alice-vs-bob-2026-12-01.pgn` (players by
/// seat, the UTC day the game started); characters a file name should not hold
/// become `_`.
pub(crate) fn record_file_name(game: &str, players: &[&str], started_at: i64, ext: &str) -> String {
    let safe = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let mut name = format!("qiyuan-{}", safe(game));
    if !players.is_empty() {
        let players: Vec<String> = players.iter().map(|p| safe(p)).collect();
        name.push('-');
        name.push_str(&players.join("-vs-"));
    }
    if started_at > 0 {
        let day = qiyuan_game::UtcDateTime::from_unix_millis(started_at as u64).iso_date();
        name.push('-');
        name.push_str(&day);
    }
    format!("{name}.{}", safe(ext))
}

/// `attachment` with the name, plain ASCII in `filename` and, for names beyond
/// ASCII (Chinese user names), the exact name in `filename*` (RFC 6266, 5987).
fn content_disposition(file_name: &str) -> String {
    let ascii: String = file_name
        .chars()
        .map(|c| if c.is_ascii() { c } else { '_' })
        .collect();
    if ascii == file_name {
        return format!("attachment; filename=\"{ascii}\"");
    }
    let encoded: String = file_name
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_files_are_named_by_game_players_and_day() {
        // 2026-12-01T07:26:15Z
        let at = 1_796_109_975_000;
        assert_eq!(
            record_file_name("chess", &["alice", "bob"], at, "pgn"),
            "qiyuan-chess-alice-vs-bob-2026-12-01.pgn"
        );
        assert_eq!(
            record_file_name("doudizhu", &["a", "b/c", "d e"], at, "json"),
            "qiyuan-doudizhu-a-vs-b_c-vs-d_e-2026-12-01.json"
        );
        assert_eq!(record_file_name("go", &[], 0, "sgf"), "qiyuan-go.sgf");
        assert_eq!(
            content_disposition("qiyuan-go-a-vs-b.sgf"),
            "attachment; filename=\"qiyuan-go-a-vs-b.sgf\""
        );
        // A Chinese name: ASCII in filename, the exact name in filename*.
        assert_eq!(
            content_disposition(&record_file_name("xiangqi", &["棋手", "bob"], at, "pgn")),
            "attachment; filename=\"qiyuan-xiangqi-__-vs-bob-2026-12-01.pgn\"; \
             filename*=UTF-8''qiyuan-xiangqi-%E6%A3%8B%E6%89%8B-vs-bob-2026-12-01.pgn"
        );
    }

    #[test]
    fn a_stored_record_is_served_without_its_seed() {
        let old = r#"{"game": "doudizhu", "seed": 1234567, "deal": {"bottom": ["3s"]}}"#;
        let served: serde_json::Value = serde_json::from_str(&without_seed(old.into())).unwrap();
        assert!(served.get("seed").is_none(), "{served}");
        assert_eq!(served["deal"]["bottom"][0], "3s", "the deal stays");
        let new = r#"{"game": "doudizhu", "deal": {}}"#;
        assert_eq!(
            without_seed(new.into()),
            new,
            "a record without a seed is as stored"
        );
        assert_eq!(without_seed("not json".into()), "not json");
    }
}
