//! A socket's lag as the tables see it: the round trip of the server's
//! WebSocket pings and the lag its client reports. The socket layer feeds the
//! meter (pings out, pongs in); a table reads it for the seats' connection
//! indicator and for each move's lag compensation.

use std::sync::Mutex;

use qiyuan_table::Millis;
use qiyuan_table::clock::LagEstimate;

/// One socket's lag: the round trip of the server's WebSocket pings (each
/// carries when it was sent, in microseconds of this process's monotonic clock;
/// only the answer to the ping outstanding counts, once), kept as a running
/// estimate ([`LagEstimate`]), and the lag its client last reported (`ping`'s
/// `lag`). A move's lag is the larger of the two, the report capped at
/// [`LagEstimate::MAX_SAMPLE`]; the clock's quota bounds what it is worth.
#[derive(Debug, Default)]
pub struct LagMeter {
    inner: Mutex<LagInner>,
    /// Whether the socket is at a table (watches or plays): only then is its
    /// lag wanted, and its pings frequent (see `ws`, `QUIET_PING_EVERY`).
    at_table: std::sync::atomic::AtomicBool,
}

#[derive(Debug, Default)]
struct LagInner {
    rtt: LagEstimate,
    /// The payload of the ping not yet answered.
    outstanding: Option<u64>,
    /// The client's last report.
    reported: Option<u64>,
    /// Several nodes: the round trip the socket's own node measured, for the
    /// stand-in of another node's socket at a table here (see
    /// [`LagMeter::relay`]).
    relayed: Option<Millis>,
}

/// Microseconds since this process first asked.
fn monotonic_micros() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let start = START.get_or_init(std::time::Instant::now);
    u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX)
}

impl LagMeter {
    fn lock(&self) -> std::sync::MutexGuard<'_, LagInner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The socket is at a table now, or at none any more.
    pub fn set_at_table(&self, at: bool) {
        self.at_table
            .store(at, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the socket is at a table (its lag is wanted).
    pub fn at_table(&self) -> bool {
        self.at_table.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The payload of a new ping, which becomes the one outstanding.
    pub fn ping(&self) -> [u8; 8] {
        let stamp = monotonic_micros();
        self.lock().outstanding = Some(stamp);
        stamp.to_be_bytes()
    }

    /// A pong arrived: if it answers the ping outstanding, its round trip is a
    /// sample. Anything else (an unsolicited pong, a payload never sent) is
    /// ignored.
    pub fn pong(&self, payload: &[u8]) {
        let Ok(bytes) = <[u8; 8]>::try_from(payload) else {
            return;
        };
        let stamp = u64::from_be_bytes(bytes);
        let mut inner = self.lock();
        if inner.outstanding != Some(stamp) {
            return;
        }
        inner.outstanding = None;
        let rtt_ms = (monotonic_micros().saturating_sub(stamp) + 500) / 1000;
        inner.rtt.record(rtt_ms);
    }

    /// The client reported its lag (`ping`'s `lag`).
    pub fn report(&self, lag: u64) {
        self.lock().reported = Some(lag.min(LagEstimate::MAX_SAMPLE));
    }

    /// The measured round trip, once there is a sample (or the one relayed
    /// from the socket's node).
    pub fn rtt(&self) -> Option<Millis> {
        let inner = self.lock();
        inner.rtt.mean().or(inner.relayed)
    }

    /// What another node needs to judge this socket's moves: the measured
    /// round trip and the client's last report.
    pub fn estimate(&self) -> (Option<Millis>, Option<u64>) {
        let inner = self.lock();
        (inner.rtt.mean().or(inner.relayed), inner.reported)
    }

    /// Several nodes: another node's socket, standing in at a table here, takes
    /// the estimate its own node measured ([`LagMeter::estimate`]), so that the
    /// connection indicator and the compensation are as for a socket here.
    pub fn relay(&self, rtt: Option<Millis>, reported: Option<u64>) {
        let mut inner = self.lock();
        inner.relayed = rtt.map(|r| r.min(LagEstimate::MAX_SAMPLE));
        if let Some(r) = reported {
            inner.reported = Some(r.min(LagEstimate::MAX_SAMPLE));
        }
    }

    /// The lag of a move from this socket: the measured round trip or the
    /// client's report (this move's, else its last), whichever is larger, the
    /// report capped.
    pub fn for_move(&self, reported: Option<u64>) -> Millis {
        let inner = self.lock();
        let reported = reported
            .or(inner.reported)
            .unwrap_or(0)
            .min(LagEstimate::MAX_SAMPLE);
        inner
            .rtt
            .mean()
            .or(inner.relayed)
            .unwrap_or(0)
            .max(reported)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_outstanding_ping_is_a_sample_and_reports_are_capped() {
        let meter = LagMeter::default();
        assert_eq!(meter.rtt(), None);
        assert_eq!(meter.for_move(None), 0);
        // A pong nobody asked for, or not 8 bytes: nothing.
        meter.pong(&42u64.to_be_bytes());
        meter.pong(b"short");
        assert_eq!(meter.rtt(), None);
        let payload = meter.ping();
        std::thread::sleep(std::time::Duration::from_millis(5));
        meter.pong(&payload);
        let rtt = meter.rtt().expect("a sample");
        assert!((5..1_000).contains(&rtt), "{rtt}");
        assert!(rtt > 0);
        // The same pong again counts no more.
        meter.pong(&payload);
        assert_eq!(meter.lock().rtt.samples(), 1);
        // A move's lag: the larger of the measured and the reported, the
        // report capped; a move's own report first, else the last ping's.
        assert_eq!(meter.for_move(Some(0)), rtt);
        assert_eq!(meter.for_move(Some(50_000)), LagEstimate::MAX_SAMPLE);
        meter.report(2_000);
        assert_eq!(meter.for_move(None), 2_000.max(rtt));
        assert_eq!(meter.for_move(Some(1)), rtt);
    }
}
