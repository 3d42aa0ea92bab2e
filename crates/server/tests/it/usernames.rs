//! Usernames that cannot impersonate, through the real registration endpoint:
//! beside `admin`, no look-alike — Cyrillic, fullwidth, mathematical bold, `rn`
//! for `m`, filler characters, mixed scripts, accents and other marks — can be
//! registered (nor `zoe` beside `Zoë`), and `guest` is reserved by look too;
//! two-character Chinese names are fine, a name's length being its display
//! width (a Chinese character two columns, a letter one: 3 to 20).

use serde_json::{Value, json};

use crate::common::*;

async fn lookalikes_cannot_sit_beside_admin(backend: Backend) {
    let server = start_with(backend, |c| c.registrations_per_address_per_hour = 0).await;
    server.register("admin").await;
    server.register("есос").await; // Cyrillic only: one script, allowed
    server.register("Zoë").await; // an accented name first: its plain form is taken
    let http = reqwest::Client::new();
    let register = async |name: &str| {
        let r = http
            .post(format!("{}/api/account/register", server.base))
            .json(&json!({"username": name, "password": "secret-pw"}))
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let body: Value = r.json().await.unwrap();
        (
            status,
            body["error"]["code"].as_str().unwrap_or("").to_string(),
        )
    };
    let cases: &[(&str, u16, &str)] = &[
        ("\u{430}dmin", 400, "bad_username"),  // Cyrillic а among Latin
        ("ａｄｍｉｎ", 409, "username_taken"), // fullwidth: NFKC makes it admin
        (
            "\u{1d41a}\u{1d41d}\u{1d426}\u{1d422}\u{1d427}",
            409,
            "username_taken",
        ), // bold
        ("ADMIN", 409, "username_taken"),
        ("adrnin", 409, "username_taken"),      // rn looks like m
        ("ecoc", 409, "username_taken"),        // Latin, like the Cyrillic есос
        ("ad\u{3164}min", 400, "bad_username"), // Hangul filler
        ("\u{3164}\u{3164}\u{3164}", 400, "bad_username"),
        ("admin\u{200b}", 400, "bad_username"), // zero-width space
        ("gu\u{435}st7", 400, "bad_username"),  // Cyrillic е
        ("ｇｕｅｓｔ7", 400, "bad_username"),   // fullwidth guest
        ("Guest_7", 400, "bad_username"),
        // Accents and other marks (issue 41): taken off before comparing.
        ("admiń", 409, "username_taken"),
        ("ádmin", 409, "username_taken"),
        ("a\u{301}dmin", 409, "username_taken"), // combining acute
        ("ad\u{323}mi\u{302}n", 409, "username_taken"), // dot below, circumflex
        ("Adm\u{12f}n", 409, "username_taken"),  // i with ogonek
        ("Zoe", 409, "username_taken"),          // Zoë came first
        ("zoé", 409, "username_taken"),
        // By display width (a CJK character is two columns): 3 to 20.
        ("王", 400, "bad_username"),
        ("ab", 400, "bad_username"),
        ("王王王王王王王王王王王", 400, "bad_username"), // 22 columns
    ];
    for (name, status, code) in cases {
        let got = register(name).await;
        assert_eq!(
            (got.0, got.1.as_str()),
            (*status, *code),
            "{name:?} ({})",
            name.escape_unicode()
        );
    }
    // Genuinely different names are fine, in any one script or a CJK mix.
    for name in [
        "admins",
        "棋手小王",
        "王Wang",
        "Иван",
        "王伟",
        "王玮",
        "李娜",
        "小王",
        "王a",
        "かな",
        "王王王王王王王王王王", // 20 columns
    ] {
        assert_eq!(register(name).await.0, 201, "{name}");
    }
    // The name is kept normalised: fullwidth login finds the plain account.
    let r = http
        .post(format!("{}/api/account/login", server.base))
        .json(&json!({"username": "ＡＤＭＩＮ", "password": "secret-pw"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["user"]["username"], "admin");
}

both!(lookalikes_cannot_sit_beside_admin);
