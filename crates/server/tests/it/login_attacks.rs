//! Logins under attack, through real HTTP against the real server: a burst of
//! wrong passwords for one account is verified at most `limit` times, the owner
//! still logs in from another address meanwhile, and `X-Forwarded-For` counts
//! only when it comes from a trusted proxy.

use std::sync::atomic::Ordering;

use serde_json::{Value, json};

use crate::common::*;

fn verifications(server: &TestServer) -> u64 {
    server
        .running
        .as_ref()
        .unwrap()
        .app
        .accounts
        .hashers
        .verifications
        .load(Ordering::Relaxed)
}

async fn login_from(
    http: &reqwest::Client,
    server: &TestServer,
    address: Option<&str>,
    username: &str,
    password: &str,
) -> (u16, Value) {
    let mut req = http
        .post(format!("{}/api/account/login", server.base))
        .json(&json!({"username": username, "password": password}));
    if let Some(address) = address {
        req = req.header("x-forwarded-for", address);
    }
    let r = req.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// 60 wrong passwords at once from one address: at most 10 are verified (the
/// limit is counted as attempts are admitted), the rest are refused at once; and
/// the owner, from elsewhere, logs in during the attack.
async fn a_burst_passes_no_more_than_the_limit_and_the_owner_gets_in(backend: Backend) {
    let server = start_with(backend, |c| {
        c.login_attempts_per_minute = 10;
        c.trusted_proxies = vec!["127.0.0.1".into()];
    })
    .await;
    server.register("victim").await;
    let before = verifications(&server);
    let http = reqwest::Client::new();
    let burst = (0..60).map(|i| {
        let http = http.clone();
        let server = &server;
        async move {
            login_from(
                &http,
                server,
                Some("203.0.113.5"),
                "victim",
                &format!("guess-{i}"),
            )
            .await
        }
    });
    // The owner logs in from home while the burst is under way.
    let owner = async {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        login_from(&http, &server, Some("198.51.100.7"), "victim", "secret-pw").await
    };
    let (answers, (owner_status, owner_body)) =
        tokio::join!(futures_util::future::join_all(burst), owner);
    assert_eq!(owner_status, 200, "{owner_body}");
    let wrong = answers.iter().filter(|(s, _)| *s == 401).count();
    let limited = answers.iter().filter(|(s, _)| *s == 429).count();
    assert_eq!(wrong + limited, 60, "{answers:?}");
    assert!(wrong <= 10, "{wrong} wrong passwords were checked");
    // The owner's login is one more verification.
    let checked = verifications(&server) - before - 1;
    assert!(
        checked <= 10,
        "{checked} of the attacker's passwords verified"
    );
    for (status, body) in &answers {
        if *status == 429 {
            assert!(
                ["rate_limited", "busy"].contains(&body["error"]["code"].as_str().unwrap()),
                "{body}"
            );
        }
    }

    // The attacker, even with the right password now, waits.
    let (status, body) =
        login_from(&http, &server, Some("203.0.113.5"), "victim", "secret-pw").await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"]["code"], "rate_limited");
    // The owner, at home, is not locked out.
    let (status, body) =
        login_from(&http, &server, Some("198.51.100.7"), "victim", "secret-pw").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["user"]["username"], "victim");
    // And from home a typo or two do not lock the owner out either.
    let (status, _) = login_from(&http, &server, Some("198.51.100.7"), "victim", "typo-pw").await;
    assert_eq!(status, 401);
    let (status, _) = login_from(&http, &server, Some("198.51.100.7"), "Victim", "secret-pw").await;
    assert_eq!(status, 200);
}

/// Without `trusted_proxies`, `X-Forwarded-For` is the client's say and is
/// ignored: an attacker cannot escape the limit by naming new addresses.
async fn forwarded_for_is_ignored_from_an_untrusted_peer(backend: Backend) {
    let server = start_with(backend, |c| c.login_attempts_per_minute = 3).await;
    server.register("victim").await;
    let http = reqwest::Client::new();
    for i in 0..3 {
        let fake = format!("192.0.2.{i}");
        let (status, _) = login_from(&http, &server, Some(&fake), "victim", "nope-nope").await;
        assert_eq!(status, 401);
    }
    let (status, body) =
        login_from(&http, &server, Some("192.0.2.99"), "victim", "nope-nope").await;
    assert_eq!(
        status, 429,
        "a new X-Forwarded-For from an untrusted peer changes nothing: {body}"
    );
    let (status, _) = login_from(&http, &server, None, "victim", "secret-pw").await;
    assert_eq!(status, 429, "the peer address is the one counted");
}

/// One address trying many usernames is limited as an address too.
async fn one_address_trying_many_names_is_limited(backend: Backend) {
    let server = start_with(backend, |c| {
        c.login_attempts_per_minute = 10;
        c.login_failures_per_address = 5;
        c.trusted_proxies = vec!["127.0.0.1".into()];
    })
    .await;
    server.register("owner").await;
    let http = reqwest::Client::new();
    for i in 0..5 {
        let (status, _) = login_from(
            &http,
            &server,
            Some("203.0.113.9"),
            &format!("user{i}"),
            "pw-pw-pw",
        )
        .await;
        assert_eq!(status, 401);
    }
    let (status, body) =
        login_from(&http, &server, Some("203.0.113.9"), "owner", "secret-pw").await;
    assert_eq!(status, 429, "{body}");
    let (status, _) = login_from(&http, &server, Some("203.0.113.10"), "owner", "secret-pw").await;
    assert_eq!(status, 200, "another address is not");
}

both!(
    a_burst_passes_no_more_than_the_limit_and_the_owner_gets_in,
    forwarded_for_is_ignored_from_an_untrusted_peer,
    one_address_trying_many_names_is_limited,
);
