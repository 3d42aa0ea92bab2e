//! Sessions through the HTTP account API (`/api/account/…`), as a browser or a
//! bot gets them: whichever client type a test then wraps them in.

use serde_json::{Value, json};

/// The password of the accounts the server's tests register.
pub const PASSWORD: &str = "secret-pw";

/// A signed-in account: its session token and its username.
#[derive(Debug, Clone)]
pub struct Session {
    pub token: String,
    pub name: String,
}

impl Session {
    fn from_reply(r: &Value) -> Session {
        Session {
            token: r["token"].as_str().expect("a token").to_string(),
            name: r["user"]["username"]
                .as_str()
                .expect("a username")
                .to_string(),
        }
    }
}

/// Registers `name` with `password` at the server `base` (which must answer
/// `201 Created`).
pub async fn register(http: &reqwest::Client, base: &str, name: &str, password: &str) -> Session {
    let resp = http
        .post(format!("{base}/api/account/register"))
        .json(&json!({"username": name, "password": password}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 201, "register {name}");
    Session::from_reply(&resp.json().await.unwrap())
}

/// Logs `name` in with `password`: a new session beside its others.
pub async fn login(http: &reqwest::Client, base: &str, name: &str, password: &str) -> Session {
    let r: Value = http
        .post(format!("{base}/api/account/login"))
        .json(&json!({"username": name, "password": password}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    Session::from_reply(&r)
}

/// A new guest.
pub async fn guest(http: &reqwest::Client, base: &str) -> Session {
    let r: Value = http
        .post(format!("{base}/api/account/guest"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    Session::from_reply(&r)
}
