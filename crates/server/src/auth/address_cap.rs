//! Connections open per client address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;

use super::address_key;
use crate::error::ApiError;

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
