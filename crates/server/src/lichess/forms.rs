//! What a request that begins a game says (a seek, a challenge, a game against
//! the built-in engine), as Lichess's clients send it: the variant, the time
//! control in either of Lichess's spellings, rated or not, the colour.

use qiyuan_table::TimeControl;
use serde::Deserialize;

use super::stream::{Error, Result};
use crate::registry::Games;

/// The fields of a seek, a challenge or `POST /api/challenge/ai`, as text.
#[derive(Debug, Default, Deserialize)]
pub(super) struct GameForm {
    /// A Lichess variant key (default `standard`).
    pub variant: Option<String>,
    /// `white`, `black` or `random`.
    pub color: Option<String>,
    pub rated: Option<String>,
    /// The built-in engine's level.
    pub level: Option<String>,
    /// A starting position (refused: not supported here).
    pub fen: Option<String>,
    /// Challenges: seconds.
    #[serde(rename = "clock.limit")]
    pub clock_limit: Option<String>,
    #[serde(rename = "clock.increment")]
    pub clock_increment: Option<String>,
    /// Seeks: minutes, and seconds of increment.
    pub time: Option<String>,
    pub increment: Option<String>,
    pub days: Option<String>,
}

/// A field that is a number (of at least 0); absent or empty: none.
fn number(value: Option<&String>, key: &str) -> Result<Option<f64>> {
    match value.map(|s| s.trim()).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) => s
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && *n >= 0.0)
            .map(Some)
            .ok_or_else(|| Error::bad(format!("{key}: a number"))),
    }
}

impl GameForm {
    /// The game the form names by Lichess variant key.
    pub(super) fn game(&self, games: &Games) -> Result<&'static str> {
        let key = self.variant.as_deref().unwrap_or("standard");
        games
            .all()
            .iter()
            .find(|g| g.api_variant.is_some_and(|v| v.key == key))
            .map(|g| g.name)
            .ok_or_else(|| Error::bad(format!("Unsupported variant {key}")))
    }

    pub(super) fn rated(&self) -> bool {
        self.rated
            .as_deref()
            .is_some_and(|v| v == "true" || v == "1")
    }

    /// A time control from `clock.limit` and `clock.increment` in seconds
    /// (challenges), or `time` in minutes and `increment` in seconds (seeks),
    /// or `days`; none: no clock.
    pub(super) fn time(&self) -> Result<TimeControl> {
        let limit = match number(self.clock_limit.as_ref(), "clock.limit")? {
            Some(s) => Some(s),
            None => number(self.time.as_ref(), "time")?.map(|m| m * 60.0),
        };
        let inc = match number(self.clock_increment.as_ref(), "clock.increment")? {
            Some(s) => Some(s),
            None => number(self.increment.as_ref(), "increment")?,
        };
        let t = match (limit, number(self.days.as_ref(), "days")?) {
            (Some(limit), _) => TimeControl::Fischer {
                base: (limit * 1000.0) as u64,
                increment: (inc.unwrap_or(0.0) * 1000.0) as u64,
            },
            (None, Some(days)) => TimeControl::Correspondence { days: days as u32 },
            (None, None) => TimeControl::None,
        };
        t.validate().map_err(Error::bad)?;
        Ok(t)
    }
}
