//! Passwords: what may be set, their argon2id hashes, and the few threads that
//! compute them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use argon2::password_hash::{Output, ParamsString, SaltString};
use argon2::{Argon2, PasswordHash};
use axum::http::StatusCode;
use tokio::sync::{Semaphore, oneshot};

use crate::error::{ApiError, ApiResult};

/// The fewest characters a password has; the register page says and checks
/// the same (`web/src/pages/names.ts`).
pub const PASSWORD_MIN: usize = 8;

/// Passwords: at least [`PASSWORD_MIN`] characters, at most 200 (hashing cost
/// is bounded).
pub fn validate_password(password: &str) -> Result<(), &'static str> {
    match password.chars().count() {
        0..PASSWORD_MIN => Err("a password has at least 8 characters"),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_have_eight_characters() {
        assert!(validate_password("1234567").is_err());
        assert!(validate_password("12345678").is_ok());
        // Characters, not bytes: eight Chinese characters are eight.
        assert!(validate_password("一二三四五六七八").is_ok());
        assert!(validate_password("一二三四五六七").is_err());
        assert!(validate_password(&"x".repeat(201)).is_err());
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
}
