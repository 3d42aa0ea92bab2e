//! Accounts: usernames, password hashes, session tokens, guests, client addresses,
//! origins and the limits on logins. Sessions are random tokens of which the store
//! keeps only the SHA-256; browsers carry them in a cookie, API clients as
//! `Authorization: Bearer`.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use argon2::password_hash::{Output, ParamsString, SaltString};
use argon2::{Argon2, PasswordHash};
use axum::http::{HeaderMap, StatusCode, header};
use rand::Rng;
use sha2::{Digest, Sha256};
use tokio::sync::{Semaphore, oneshot};
use unicode_normalization::UnicodeNormalization;
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

use crate::error::{ApiError, ApiResult};

/// The session cookie's name.
pub const COOKIE: &str = "qiyuan_session";

/// Why a username cannot be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadUsername {
    #[error("a username has 3 to 20 characters (2 to 20 in Han characters)")]
    Length,
    #[error("a username starts with a letter")]
    Start,
    #[error("a username holds letters, digits, '_' and '-' only")]
    Character,
    #[error("a username may not hold invisible, filler or unusual characters")]
    Restricted,
    #[error(
        "a username is written in one script (Latin, Cyrillic, …; Han may go with Latin, kana or Hangul)"
    )]
    MixedScript,
    #[error("usernames beginning with 'guest' are kept for guests")]
    Reserved,
}

/// A username as it is kept: NFKC-normalised, so that fullwidth `ａｄｍｉｎ` and
/// mathematical bold letters become plain `admin`. Validate this form.
pub fn normalize_username(name: &str) -> String {
    name.trim().nfkc().collect()
}

/// Checks a (normalised) username: 3 to 20 characters (2 to 20 wholly in Han
/// characters, so 王伟 is fine), letters (any script, so 棋手小王 is fine),
/// digits, `_` and `-`, beginning with a letter; only characters
/// Unicode TS #39 allows in identifiers (no fillers such as U+3164, no invisible
/// ones); one script, or the mixes of Han that CJK names use ("highly
/// restrictive"); not posing as a guest, even through look-alike letters.
pub fn validate_username(name: &str) -> Result<(), BadUsername> {
    let count = name.chars().count();
    if !(min_length(name)..=20).contains(&count) {
        return Err(BadUsername::Length);
    }
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return Err(BadUsername::Character);
    }
    let letters: String = name.chars().filter(|c| *c != '_' && *c != '-').collect();
    if !letters
        .chars()
        .all(GeneralSecurityProfile::identifier_allowed)
    {
        return Err(BadUsername::Restricted);
    }
    if !name.chars().next().is_some_and(char::is_alphabetic) {
        return Err(BadUsername::Start);
    }
    if letters.detect_restriction_level() > RestrictionLevel::HighlyRestrictive {
        return Err(BadUsername::MixedScript);
    }
    static GUEST: OnceLock<String> = OnceLock::new();
    let guest = GUEST.get_or_init(|| qiyuan_store::username_skeleton("guest"));
    if qiyuan_store::username_skeleton(name).starts_with(guest.as_str())
        || name.to_lowercase().starts_with("guest")
    {
        return Err(BadUsername::Reserved);
    }
    Ok(())
}

/// The fewest characters a username has: 3, or 2 for a name written wholly in
/// Han characters, as most Chinese names are (王伟).
fn min_length(name: &str) -> usize {
    // Han alone belongs to all three CJK writing systems; Common characters
    // (digits, `_`) belong to every script.
    let han = |c: char| {
        let set = unicode_security::mixed_script::AugmentedScriptSet::for_char(c);
        set.hanb && set.jpan && set.kore && !set.is_all()
    };
    if name.chars().all(han) { 2 } else { 3 }
}

/// Passwords: at least 6 characters, at most 200 (hashing cost is bounded).
pub fn validate_password(password: &str) -> Result<(), &'static str> {
    match password.chars().count() {
        0..6 => Err("a password has at least 6 characters"),
        201.. => Err("a password has at most 200 characters"),
        _ => Ok(()),
    }
}

/// The most argon2 memory a stored hash may ask for (256 MiB); ours use 19 MiB.
const MAX_BLOCKS: usize = 256 * 1024;

thread_local! {
    /// This thread's argon2 memory, kept between hashes. Allocating 19 MiB per
    /// hash and freeing it leaves glibc holding far more than the hashes in use
    /// (its mmap threshold grows and freed heaps are not trimmed); reusing one
    /// block per hasher thread bounds the memory at hashers × 19 MiB.
    static BLOCKS: std::cell::RefCell<Vec<argon2::Block>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// argon2 of `password` and `salt` into `out`, in this thread's memory.
fn argon2_into(argon: &Argon2, password: &[u8], salt: &[u8], out: &mut [u8]) -> argon2::Result<()> {
    BLOCKS.with(|blocks| {
        let mut blocks = blocks.borrow_mut();
        let need = argon.params().block_count();
        if blocks.len() < need {
            blocks.resize(need, argon2::Block::default());
        }
        argon.hash_password_into_with_memory(password, salt, out, &mut blocks[..need])
    })
}

/// An argon2id hash (default parameters: 19 MiB, 2 passes) in PHC string form.
/// Slow by design: call it off the async threads (see [`Hashers`]).
pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    let argon = Argon2::default();
    let fail = |e: &dyn std::fmt::Display| anyhow::anyhow!("cannot hash password: {e}");
    let mut salt_buf = [0u8; 64];
    let salt_bytes = salt
        .as_salt()
        .decode_b64(&mut salt_buf)
        .map_err(|e| fail(&e))?;
    let output = Output::init_with(argon2::Params::DEFAULT_OUTPUT_LEN, |out| {
        argon2_into(&argon, password.as_bytes(), salt_bytes, out)
            .map_err(|_| argon2::password_hash::Error::Crypto)
    })
    .map_err(|e| fail(&e))?;
    let phc = PasswordHash {
        algorithm: argon2::Algorithm::Argon2id.ident(),
        version: Some(argon2::Version::V0x13.into()),
        params: ParamsString::try_from(argon.params()).map_err(|e| fail(&e))?,
        salt: Some(salt.as_salt()),
        hash: Some(output),
    };
    Ok(phc.to_string())
}

/// Whether `password` matches a PHC argon2 hash (compared in constant time).
pub fn verify_password(password: &str, hash: &str) -> bool {
    let Ok(phc) = PasswordHash::new(hash) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (phc.salt, phc.hash) else {
        return false;
    };
    let Ok(algorithm) = argon2::Algorithm::try_from(phc.algorithm) else {
        return false;
    };
    let version = match phc.version.map(argon2::Version::try_from) {
        None => argon2::Version::default(),
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    let Ok(params) = argon2::Params::try_from(&phc) else {
        return false;
    };
    if params.block_count() > MAX_BLOCKS {
        return false;
    }
    let argon = Argon2::new(algorithm, version, params);
    let mut salt_buf = [0u8; 64];
    let Ok(salt_bytes) = salt.decode_b64(&mut salt_buf) else {
        return false;
    };
    let computed = Output::init_with(expected.len(), |out| {
        argon2_into(&argon, password.as_bytes(), salt_bytes, out)
            .map_err(|_| argon2::password_hash::Error::Crypto)
    });
    computed.is_ok_and(|c| c == expected)
}

/// A new session token: 32 random bytes from the OS's CSPRNG, hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill(&mut bytes);
    hex(&bytes)
}

/// What the store keeps of a token: its SHA-256, hex. A database backup holds no
/// live login.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A guest's name: `Guest-` and six random digits and letters.
pub fn guest_name() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    let tail: String = (0..6)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect();
    format!("Guest-{tail}")
}

/// The session token a request carries: a bearer token, else the cookie.
pub fn token_from_headers(headers: &HeaderMap) -> Option<String> {
    bearer_token(headers).or_else(|| cookie_token(headers))
}

/// The `Authorization: Bearer` token, if any.
pub fn bearer_token(headers: &HeaderMap) -> Option<String> {
    let auth = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let token = auth.strip_prefix("Bearer ")?;
    Some(token.trim().to_string())
}

/// The session cookie's token, if any.
pub fn cookie_token(headers: &HeaderMap) -> Option<String> {
    for cookies in headers.get_all(header::COOKIE) {
        let Ok(cookies) = cookies.to_str() else {
            continue;
        };
        for pair in cookies.split(';') {
            if let Some((name, value)) = pair.trim().split_once('=')
                && name == COOKIE
            {
                return Some(value.to_string());
            }
        }
    }
    None
}

/// The `Set-Cookie` value for a session.
pub fn session_cookie(token: &str, max_age: Duration, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        max_age.as_secs()
    )
}

/// The `Set-Cookie` value that ends a session in the browser.
pub fn clear_cookie() -> String {
    format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0")
}

/// A key's failed logins and the attempts under way.
#[derive(Debug, Default)]
struct Failures {
    /// Failures within the last [`MEMORY`], oldest first.
    times: VecDeque<Instant>,
    /// Attempts admitted and not yet decided: they count as failures until they
    /// succeed, so that a burst cannot pass the limit while its hashes run.
    pending: u32,
}

/// How long failures are remembered (and so how far the waits grow).
const MEMORY: Duration = Duration::from_secs(3600);
const MINUTE: Duration = Duration::from_secs(60);

/// Failed logins per key — a (username, address) pair and an address — each with
/// its limit per minute. Only failures count, so a player who types the password
/// right is never slowed, and a username's owner elsewhere is never locked out by
/// an attacker's failures. Past the limit a key waits a minute after its last
/// failure; each further `limit` failures within the hour doubles that wait, up
/// to an hour.
///
/// Admission and counting are one step ([`LoginLimiter::begin`]): an admitted
/// attempt counts against the limit until it is decided.
#[derive(Debug, Default)]
pub struct LoginLimiter {
    keys: Mutex<HashMap<String, Failures>>,
}

/// One admitted login attempt, counted until decided: [`Attempt::failed`] keeps
/// it as a failure, [`Attempt::succeeded`] returns it and makes the keys marked
/// `reset_on_success` forget their failures; dropped undecided (the server was
/// busy, the client went away) it is just returned.
#[must_use]
pub struct Attempt<'a> {
    limiter: &'a LoginLimiter,
    keys: Vec<(String, bool)>,
    outcome: Outcome,
}

#[derive(Debug, Clone, Copy)]
enum Outcome {
    Undecided,
    Failed(Instant),
    Succeeded,
}

impl Attempt<'_> {
    pub fn failed(mut self, now: Instant) {
        self.outcome = Outcome::Failed(now);
    }

    pub fn succeeded(mut self) {
        self.outcome = Outcome::Succeeded;
    }
}

impl Drop for Attempt<'_> {
    fn drop(&mut self) {
        let mut keys = self.limiter.lock();
        for (key, reset) in &self.keys {
            if let Some(f) = keys.get_mut(key) {
                f.pending = f.pending.saturating_sub(1);
                match self.outcome {
                    Outcome::Failed(at) => f.times.push_back(at),
                    Outcome::Succeeded if *reset => f.times.clear(),
                    _ => {}
                }
            }
        }
    }
}

/// The wait a key with `n` failures in memory must observe after its last one.
fn growing_wait(n: usize, limit: u32) -> Duration {
    let limit = limit.max(1) as usize;
    if n < limit {
        return Duration::ZERO;
    }
    let strikes = (n / limit - 1).min(6) as u32;
    (MINUTE * 2u32.pow(strikes)).min(MEMORY)
}

impl LoginLimiter {
    pub fn new() -> Self {
        LoginLimiter::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Failures>> {
        self.keys.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Admits an attempt if no key is over its limit at `now`, counting it at
    /// once; else says how long to wait. `keys`: (key, limit per minute, whether
    /// a success clears the key's failures).
    pub fn begin(&self, keys: &[(&str, u32, bool)], now: Instant) -> Result<Attempt<'_>, Duration> {
        let mut map = self.lock();
        if map.len() > 100_000 {
            // Bounded memory under a flood of names: forget what is over.
            map.retain(|_, f| {
                f.pending > 0
                    || f.times
                        .back()
                        .is_some_and(|t| now.duration_since(*t) < MEMORY)
            });
        }
        let mut wait = Duration::ZERO;
        for (key, limit, _) in keys {
            let Some(f) = map.get_mut(*key) else { continue };
            while f
                .times
                .front()
                .is_some_and(|t| now.duration_since(*t) >= MEMORY)
            {
                f.times.pop_front();
            }
            let cap = (*limit as usize).max(1) * 8;
            while f.times.len() > cap {
                f.times.pop_front();
            }
            let recent = f
                .times
                .iter()
                .filter(|t| now.duration_since(**t) < MINUTE)
                .count();
            if recent + f.pending as usize >= *limit as usize {
                let oldest = f.times.iter().find(|t| now.duration_since(**t) < MINUTE);
                let left = oldest.map_or(Duration::from_secs(1), |t| {
                    MINUTE.saturating_sub(now.duration_since(*t))
                });
                wait = wait.max(left.max(Duration::from_secs(1)));
            }
            if let Some(last) = f.times.back() {
                let left =
                    growing_wait(f.times.len(), *limit).saturating_sub(now.duration_since(*last));
                wait = wait.max(left);
            }
        }
        if !wait.is_zero() {
            return Err(wait);
        }
        for (key, _, _) in keys {
            map.entry(key.to_string()).or_default().pending += 1;
        }
        Ok(Attempt {
            limiter: self,
            keys: keys
                .iter()
                .map(|(k, _, reset)| (k.to_string(), *reset))
                .collect(),
            outcome: Outcome::Undecided,
        })
    }
}

/// Events per key (an address) within a sliding window: guests created, accounts
/// registered. A limit of 0 admits everything.
#[derive(Debug)]
pub struct RateLimit {
    limit: u32,
    window: Duration,
    hits: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl RateLimit {
    pub fn new(limit: u32, window: Duration) -> Self {
        RateLimit {
            limit,
            window,
            hits: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one event for `key` if under the limit; else how long to wait.
    pub fn hit(&self, key: &str, now: Instant) -> Result<(), Duration> {
        if self.limit == 0 {
            return Ok(());
        }
        let mut hits = self.hits.lock().unwrap_or_else(|e| e.into_inner());
        if hits.len() > 100_000 {
            let window = self.window;
            hits.retain(|_, t| t.back().is_some_and(|t| now.duration_since(*t) < window));
        }
        let times = hits.entry(key.to_string()).or_default();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= self.window)
        {
            times.pop_front();
        }
        if times.len() >= self.limit as usize {
            let first = times.front().copied().unwrap_or(now);
            return Err(self.window.saturating_sub(now.duration_since(first)));
        }
        times.push_back(now);
        Ok(())
    }
}

/// `429 rate_limited` with a `Retry-After`.
pub fn rate_limited(what: &str, wait: Duration) -> ApiError {
    let secs = wait.as_secs() + 1;
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        format!("{what}; try again in {secs} s"),
    )
    .retry_after(secs)
}

/// The password hashers: a few threads of their own, so that at most
/// `password_hashes_at_once` argon2 computations (19 MiB each) run at once and
/// their memory is reused rather than spread over the runtime's blocking
/// threads. A request waits for a free one at most `queue`, then gets `429 busy`.
pub struct Hashers {
    slots: Arc<Semaphore>,
    queue: Duration,
    jobs: std::sync::mpsc::Sender<Box<dyn FnOnce() + Send>>,
    /// Password verifications done (tests and metrics read it).
    pub verifications: AtomicU64,
}

impl Hashers {
    pub fn new(at_once: usize, queue: Duration) -> Self {
        let at_once = at_once.max(1);
        let (jobs, rx) = std::sync::mpsc::channel::<Box<dyn FnOnce() + Send>>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..at_once {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("qiyuan-hash-{i}"))
                .spawn(move || {
                    loop {
                        let job = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        match job {
                            Ok(job) => job(),
                            Err(_) => break,
                        }
                    }
                });
            if let Err(e) = spawned {
                tracing::error!("cannot start a password hasher: {e}");
            }
        }
        Hashers {
            slots: Arc::new(Semaphore::new(at_once)),
            queue,
            jobs,
            verifications: AtomicU64::new(0),
        }
    }

    /// Runs `work` on a hasher, waiting for a free one at most the queue time.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> ApiResult<T> {
        let permit =
            match tokio::time::timeout(self.queue, self.slots.clone().acquire_owned()).await {
                Ok(Ok(permit)) => permit,
                Ok(Err(e)) => return Err(ApiError::internal(e)),
                Err(_) => {
                    return Err(ApiError::new(
                        StatusCode::TOO_MANY_REQUESTS,
                        "busy",
                        "the server is checking many passwords; try again in a moment",
                    )
                    .retry_after(1));
                }
            };
        let (tx, rx) = oneshot::channel();
        let job: Box<dyn FnOnce() + Send> = Box::new(move || {
            let out = work();
            // The slot is free only when the work is done, even if the request
            // that asked for it has gone.
            drop(permit);
            let _ = tx.send(out);
        });
        self.jobs
            .send(job)
            .map_err(|_| ApiError::internal("the password hashers are gone"))?;
        rx.await
            .map_err(|_| ApiError::internal("a password hasher failed"))
    }

    /// Verifies a password against a stored hash (or, for an unknown user, a
    /// dummy one, so that both take the same time).
    pub async fn verify(&self, password: String, hash: Option<String>) -> ApiResult<bool> {
        self.verifications.fetch_add(1, Ordering::Relaxed);
        self.run(move || match hash {
            Some(hash) => verify_password(&password, &hash),
            None => {
                let _ = verify_password(&password, dummy_hash());
                false
            }
        })
        .await
    }

    pub async fn hash(&self, password: String) -> ApiResult<String> {
        self.run(move || hash_password(&password))
            .await?
            .map_err(ApiError::internal)
    }
}

fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| hash_password("not a password of anyone's").unwrap_or_default())
}

/// An address or a network (`10.0.0.0/8`, `fd00::/8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Network {
    addr: IpAddr,
    prefix: u8,
}

impl Network {
    pub fn parse(text: &str) -> Result<Network, String> {
        let (addr, prefix) = match text.trim().split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (text.trim(), None),
        };
        let addr: IpAddr = addr
            .parse()
            .map_err(|_| format!("{text:?} is not an address or network"))?;
        let addr = addr.to_canonical();
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("{text:?}: the prefix is 0 to {max}"))?,
            None => max,
        };
        Ok(Network { addr, prefix })
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// The reverse proxies whose forwarding headers are believed.
#[derive(Debug, Clone, Default)]
pub struct Proxies(Vec<Network>);

impl Proxies {
    /// From the configured list; entries that do not parse were refused by
    /// [`crate::Config::check`].
    pub fn new(list: &[String]) -> Self {
        Proxies(list.iter().filter_map(|p| Network::parse(p).ok()).collect())
    }

    pub fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|n| n.contains(ip))
    }

    /// The client's address: the peer's, unless the peer is a trusted proxy; then
    /// the right-most address of `X-Forwarded-For` that is not a trusted proxy
    /// (entries left of it could be made up by the client).
    pub fn client_ip(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.trusts(peer) {
            return peer;
        }
        let hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .collect();
        let mut client = peer;
        for hop in hops.iter().rev() {
            match hop.trim().parse::<IpAddr>() {
                Ok(ip) => {
                    client = ip.to_canonical();
                    if !self.trusts(client) {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
        client
    }

    /// Whether a trusted proxy says the client came over https.
    pub fn says_https(&self, peer: IpAddr, headers: &HeaderMap) -> bool {
        self.trusts(peer)
            && headers
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
                .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
    }
}

/// The key under which an address is limited: the address, or for IPv6 its /64
/// (one subscriber's usual allocation).
pub fn address_key(ip: IpAddr) -> String {
    match ip.to_canonical() {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}

/// Whether a request's `Origin` is the site's own (same host as the request's
/// `Host`, http or https) or one of `allowed`. No `Origin` (a program, not a
/// browser page) is fine; `null` (sandboxed or file pages) is not.
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let origin = origin.trim().trim_end_matches('/');
    if allowed
        .iter()
        .any(|a| a.trim().trim_end_matches('/').eq_ignore_ascii_case(origin))
    {
        return true;
    }
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
        .is_some_and(|o| o.eq_ignore_ascii_case(host.trim()))
}

/// Connections open per client address, each held by a [`CapGuard`].
#[derive(Debug, Default)]
pub struct AddressCap {
    max: u32,
    counts: Mutex<HashMap<String, u32>>,
}

/// One counted connection; dropping it frees the place.
#[derive(Debug)]
pub struct CapGuard {
    cap: Arc<AddressCap>,
    key: String,
}

impl AddressCap {
    /// At most `max` per address; 0 = no cap.
    pub fn new(max: u32) -> Arc<Self> {
        Arc::new(AddressCap {
            max,
            counts: Mutex::new(HashMap::new()),
        })
    }

    /// Counts a connection from `ip`, or `None` if the address has its `max`.
    pub fn enter(self: &Arc<Self>, ip: IpAddr) -> Option<CapGuard> {
        if self.max == 0 {
            return Some(CapGuard {
                cap: self.clone(),
                key: String::new(),
            });
        }
        let key = address_key(ip);
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let n = counts.entry(key.clone()).or_default();
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(CapGuard {
            cap: self.clone(),
            key,
        })
    }

    /// Connections counted for `ip` now.
    pub fn count(&self, ip: IpAddr) -> u32 {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.get(&address_key(ip)).copied().unwrap_or(0)
    }
}

impl Drop for CapGuard {
    fn drop(&mut self) {
        if self.key.is_empty() {
            return;
        }
        let mut counts = self.cap.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = counts.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.remove(&self.key);
            }
        }
    }
}

/// `429 too_many_sockets`.
pub fn too_many_sockets(max: u32) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_sockets",
        format!("at most {max} connections from one address at once"),
    )
}

/// `403 bad_origin`.
pub fn bad_origin() -> ApiError {
    ApiError::forbidden(
        "bad_origin",
        "requests from another site's pages are refused",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str) -> Result<(), BadUsername> {
        validate_username(&normalize_username(name))
    }

    #[test]
    fn usernames() {
        assert!(check("magnus").is_ok());
        assert!(check("棋手小王").is_ok());
        assert!(check("Hou_Yifan-2").is_ok());
        assert!(check("Иван").is_ok(), "one script, not Latin, is fine");
        assert!(check("王Wang").is_ok(), "Han with Latin is a usual CJK mix");
        assert_eq!(check("ab"), Err(BadUsername::Length));
        assert_eq!(check(&"a".repeat(21)), Err(BadUsername::Length));
        // Two characters suffice in Han alone.
        assert!(check("王伟").is_ok());
        assert_eq!(check("王"), Err(BadUsername::Length));
        assert_eq!(check("王a"), Err(BadUsername::Length));
        assert_eq!(check("ゆき"), Err(BadUsername::Length));
        assert_eq!(check("王_"), Err(BadUsername::Length));
        assert_eq!(check("1abc"), Err(BadUsername::Start));
        assert_eq!(check("a b c"), Err(BadUsername::Character));
        assert_eq!(check("a<script>"), Err(BadUsername::Character));
        assert_eq!(check("GuestX1"), Err(BadUsername::Reserved));
        // Cyrillic а among Latin letters.
        assert_eq!(check("\u{430}dmin"), Err(BadUsername::MixedScript));
        // The Hangul filler looks like nothing.
        assert_eq!(check("ad\u{3164}min"), Err(BadUsername::Restricted));
        assert_eq!(
            check("\u{3164}\u{3164}\u{3164}"),
            Err(BadUsername::Restricted)
        );
        // Zero-width joiners are not letters.
        assert_eq!(check("ad\u{200d}min"), Err(BadUsername::Character));
        // Guests, by look: Cyrillic е, fullwidth letters.
        assert_eq!(check("gu\u{435}st1"), Err(BadUsername::MixedScript));
        assert_eq!(check("ｇｕｅｓｔ1"), Err(BadUsername::Reserved));
        assert_eq!(check("guest_"), Err(BadUsername::Reserved));
        // Fullwidth and mathematical bold letters are plain letters once normalised.
        assert_eq!(normalize_username("ａｄｍｉｎ"), "admin");
        assert_eq!(
            normalize_username("\u{1d41a}\u{1d41d}\u{1d426}\u{1d422}\u{1d427}"),
            "admin"
        );
    }

    #[test]
    fn passwords_hash_and_verify() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let h = hash_password("secret1").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_password("secret1", &h));
        assert!(!verify_password("secret2", &h));
        assert!(!verify_password("secret1", "not a hash"));
        // The same format as the argon2 crate's own, both ways.
        let theirs = Argon2::default()
            .hash_password(
                b"secret1",
                &SaltString::generate(&mut argon2::password_hash::rand_core::OsRng),
            )
            .unwrap()
            .to_string();
        assert!(verify_password("secret1", &theirs));
        assert!(!verify_password("secret3", &theirs));
        let ours = PasswordHash::new(&h).unwrap();
        assert!(Argon2::default().verify_password(b"secret1", &ours).is_ok());
    }

    #[test]
    fn tokens_come_from_bearer_or_cookie_and_are_kept_hashed() {
        let mut h = HeaderMap::new();
        h.insert("cookie", "a=b; qiyuan_session=xyz".parse().unwrap());
        assert_eq!(token_from_headers(&h).as_deref(), Some("xyz"));
        h.insert("authorization", "Bearer abc".parse().unwrap());
        assert_eq!(token_from_headers(&h).as_deref(), Some("abc"));
        assert_eq!(new_token().len(), 64);
        assert_ne!(new_token(), new_token());
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn the_limiter_counts_attempts_under_way_and_forgets_after_a_minute() {
        let l = LoginLimiter::new();
        let t0 = Instant::now();
        let key = [("u:bob", 3, true)];
        // Three at once are admitted, the fourth is not: they count while pending.
        let a: Vec<_> = (0..3).map(|_| l.begin(&key, t0).unwrap()).collect();
        assert!(l.begin(&key, t0).is_err());
        for attempt in a {
            attempt.failed(t0);
        }
        assert!(l.begin(&key, t0).is_err());
        assert!(l.begin(&[("u:alice", 3, true)], t0).is_ok());
        assert!(l.begin(&key, t0 + Duration::from_secs(61)).is_ok());
    }

    #[test]
    fn waits_grow_and_a_success_clears_its_key() {
        let l = LoginLimiter::new();
        let mut t = Instant::now();
        let key = [("k", 2, true)];
        l.begin(&key, t).unwrap().failed(t);
        l.begin(&key, t).unwrap().failed(t);
        // Past the limit, each failure is followed by a wait that doubles every
        // `limit` failures.
        let mut waits = Vec::new();
        for _ in 0..5 {
            let wait = l.begin(&key, t).err().unwrap();
            waits.push(wait.as_secs());
            t += wait;
            l.begin(&key, t).unwrap().failed(t);
        }
        assert_eq!(waits, [60, 60, 120, 120, 240]);
        t += l.begin(&key, t).err().unwrap();
        // Undecided changes nothing; a success forgets the pair's failures.
        drop(l.begin(&key, t).unwrap());
        assert!(l.begin(&key, t).is_ok(), "nothing was counted");
        l.begin(&key, t).unwrap().succeeded();
        l.begin(&key, t).unwrap().failed(t);
        assert!(l.begin(&key, t).is_ok());
    }

    #[test]
    fn rate_limits_per_key() {
        let r = RateLimit::new(2, Duration::from_secs(3600));
        let t0 = Instant::now();
        assert!(r.hit("a", t0).is_ok());
        assert!(r.hit("a", t0).is_ok());
        assert!(r.hit("a", t0).is_err());
        assert!(r.hit("b", t0).is_ok());
        assert!(r.hit("a", t0 + Duration::from_secs(3600)).is_ok());
        assert!(
            RateLimit::new(0, Duration::from_secs(1))
                .hit("a", t0)
                .is_ok()
        );
    }

    #[test]
    fn forwarded_addresses_only_from_trusted_proxies() {
        let proxies = Proxies::new(&["10.0.0.0/8".into(), "::1".into()]);
        let mut h = HeaderMap::new();
        h.insert(
            "x-forwarded-for",
            "6.6.6.6, 1.2.3.4, 10.0.0.7".parse().unwrap(),
        );
        let proxy: IpAddr = "10.1.2.3".parse().unwrap();
        let stranger: IpAddr = "8.8.8.8".parse().unwrap();
        assert_eq!(proxies.client_ip(proxy, &h).to_string(), "1.2.3.4");
        assert_eq!(proxies.client_ip(stranger, &h), stranger);
        let local: IpAddr = "::1".parse().unwrap();
        assert_eq!(proxies.client_ip(local, &h).to_string(), "1.2.3.4");
        assert!(!Proxies::default().trusts(local));
        assert!(Network::parse("10.0.0.0/33").is_err());
        assert!(
            Network::parse("::ffff:10.0.0.1")
                .unwrap()
                .contains("10.0.0.1".parse().unwrap())
        );
        assert_eq!(
            address_key("2001:db8:1:2:3:4:5:6".parse().unwrap()),
            "2001:db8:1:2::/64"
        );
    }

    #[test]
    fn origins() {
        let mut h = HeaderMap::new();
        assert!(origin_allowed(&h, &[]), "no Origin: not a browser page");
        h.insert("host", "play.example:8080".parse().unwrap());
        h.insert("origin", "http://play.example:8080".parse().unwrap());
        assert!(origin_allowed(&h, &[]));
        h.insert("origin", "https://evil.example".parse().unwrap());
        assert!(!origin_allowed(&h, &[]));
        assert!(origin_allowed(&h, &["https://evil.example/".into()]));
        h.insert("origin", "null".parse().unwrap());
        assert!(!origin_allowed(&h, &[]));
    }
}
