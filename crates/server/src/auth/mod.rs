//! Accounts: usernames, password hashes, session tokens, guests, client addresses,
//! origins and the limits on logins. Sessions are random tokens of which the store
//! keeps only the SHA-256; browsers carry them in a cookie, API clients as
//! `Authorization: Bearer`.

mod address_cap;
mod login_limiter;
mod origins;
mod passwords;
mod proxies;
mod rate_limit;
mod sessions;
mod usernames;

pub use crate::config::Network;
pub use address_cap::{AddressCap, CapGuard, too_many_sockets};
pub use login_limiter::{Attempt, LoginLimiter};
pub use origins::{bad_origin, origin_allowed};
pub use passwords::{Hashers, hash_password, validate_password, verify_password};
pub use proxies::{Proxies, address_key};
pub use rate_limit::{RateLimit, rate_limited};
pub use sessions::{
    COOKIE, bearer_token, clear_cookie, cookie_token, guest_name, hash_token, new_token,
    session_cookie, token_from_headers,
};
pub use usernames::{BadUsername, normalize_username, validate_username};
