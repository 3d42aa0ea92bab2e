//! Origins: a page of another site cannot use a visitor's cookie — `/ws` and
//! cookie-authenticated state changes from a foreign `Origin` are refused with
//! `403 bad_origin` — while the site's own pages, configured origins and bearer
//! clients are unaffected.

use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::common::*;

const EVIL: &str = "https://evil.example";

fn cookie(c: &Client) -> String {
    format!("qiyuan_session={}", c.token)
}

/// Opens `/ws` with these headers; the HTTP status of a refusal, or 101.
async fn ws_status(url: &str, headers: &[(&'static str, String)]) -> (u16, Option<Value>) {
    let mut req = url.into_client_request().unwrap();
    for (k, v) in headers {
        req.headers_mut().insert(*k, v.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((_, resp)) => (resp.status().as_u16(), None),
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            let body = resp
                .body()
                .as_ref()
                .and_then(|b| serde_json::from_slice(b).ok());
            (resp.status().as_u16(), body)
        }
        Err(e) => panic!("{e}"),
    }
}

async fn foreign_origins_are_refused(backend: Backend) {
    let server = start_with(backend, |c| {
        c.allowed_origins = vec!["https://friend.example".into()];
    })
    .await;
    let a = server.register("alice").await;
    let own = server.base.clone();

    // The WebSocket: a cookie from a foreign page is refused, typed.
    let (status, body) = ws_status(
        &a.ws_url,
        &[("origin", EVIL.into()), ("cookie", cookie(&a))],
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(body.unwrap()["error"]["code"], "bad_origin");
    // Anonymous sockets from a foreign page too.
    let (status, _) = ws_status(&a.ws_url, &[("origin", EVIL.into())]).await;
    assert_eq!(status, 403);
    // The site's own page, an allowed origin, and a program without Origin: fine.
    for origin in [own.as_str(), "https://friend.example"] {
        let (status, _) = ws_status(
            &a.ws_url,
            &[("origin", origin.into()), ("cookie", cookie(&a))],
        )
        .await;
        assert_eq!(status, 101, "{origin}");
    }
    let (status, _) = ws_status(&a.ws_url, &[("cookie", cookie(&a))]).await;
    assert_eq!(status, 101);
    // A bearer client naming its token is not a cookie's victim.
    let with_token = format!("{}?token={}", a.ws_url, a.token);
    let (status, _) = ws_status(&with_token, &[("origin", EVIL.into())]).await;
    assert_eq!(status, 101);

    // Cookie POSTs from a foreign page are refused and change nothing.
    let http = reqwest::Client::new();
    let create = json!({"game": "chess"});
    let r = http
        .post(format!("{}/api/tables", server.base))
        .header("origin", EVIL)
        .header("cookie", cookie(&a))
        .json(&create)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    assert_eq!(
        r.json::<Value>().await.unwrap()["error"]["code"],
        "bad_origin"
    );
    let lobby: Value = a.get("/api/lobby/chess").await.json().await.unwrap();
    assert_eq!(lobby.as_array().unwrap().len(), 0, "no table was made");
    let r = http
        .post(format!("{}/api/account/logout", server.base))
        .header("origin", EVIL)
        .header("cookie", cookie(&a))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    assert_eq!(
        a.get("/api/account/me").await.status(),
        200,
        "still logged in"
    );
    // Logging a visitor into the attacker's account (login CSRF) is refused too.
    let r = http
        .post(format!("{}/api/account/login", server.base))
        .header("origin", EVIL)
        .json(&json!({"username": "alice", "password": "secret-pw"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);

    // The same cookie POST from the site's own page works.
    let r = http
        .post(format!("{}/api/tables", server.base))
        .header("origin", own.as_str())
        .header("cookie", cookie(&a))
        .json(&create)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    // A bearer client without cookies is unaffected whatever its Origin.
    let r = http
        .post(format!("{}/api/tables", server.base))
        .header("origin", EVIL)
        .bearer_auth(&a.token)
        .json(&create)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    // Reading is not a state change: GET from anywhere answers.
    let r = http
        .get(format!("{}/api/lobby/chess", server.base))
        .header("origin", EVIL)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.json::<Value>().await.unwrap().as_array().unwrap().len(),
        2
    );
}

both!(foreign_origins_are_refused);
