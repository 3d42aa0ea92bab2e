//! The current (or last) game's record, with the site's headers: for the HTTP
//! download and for the stored game row at its end.

use qiyuan_game::{RecordMeta, UtcDateTime};
use qiyuan_table::{Millis, Status};

use super::actor::Live;

impl Live {
    /// The current game's record; `ratings` (by seat, before the game) for a
    /// rated game's `WhiteElo`/`BlackElo`.
    pub(super) fn record(&self, ratings: Vec<Option<i32>>) -> Option<String> {
        let gs = self.table.state().game.as_ref()?;
        let meta = RecordMeta {
            site: Some(self.env.rules.site.clone()),
            date: Some(date_of(gs.started_at)),
            start: Some(UtcDateTime::from_unix_millis(gs.started_at)),
            // Computer players by their names (电脑（3级）), not their ids,
            // and apart where several sit (电脑（普通）乙, 电脑（普通）丙).
            players: crate::bots::record_names(&gs.players, self.table.bot_levels()),
            ratings,
            event: Some(format!("{} table {}", self.env.rules.site, self.id)),
            ..RecordMeta::default()
        };
        self.table.record(meta)
    }

    /// The record of game `number`, if it is the live one or the last one
    /// played: the game's name, the record, and whether the game is over.
    pub(super) fn record_of(&self, number: u32) -> Option<(String, String, bool)> {
        let current = self.table.state().game.as_ref().map(|g| g.number);
        let record = self.record(Vec::new()).filter(|_| current == Some(number));
        let over = self.table.state().status != Status::Playing;
        record.map(|r| (self.table.game_name().to_string(), r, over))
    }
}

/// `YYYY.MM.DD` of a Unix time in milliseconds (civil-from-days, proleptic
/// Gregorian).
fn date_of(ms: Millis) -> String {
    let (y, m, d) = ymd_of(ms);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Year, month (1–12) and day of a Unix time in milliseconds (UTC).
pub(crate) fn ymd_of(ms: Millis) -> (i64, i64, i64) {
    let days = (ms / 86_400_000) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates() {
        assert_eq!(super::date_of(0), "1970.01.01");
        assert_eq!(super::date_of(1_700_000_000_000), "2023.11.14");
    }
}
