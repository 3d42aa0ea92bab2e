//! The web client's files on the wire (issue 46, weight): the page's script comes
//! brotli- or gzip-compressed to a client that accepts it (and decompresses to
//! the very file sent to one that does not), with `Vary`; hashed assets are
//! cached for a year, the page itself never without asking again.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::*;

/// Runs `program` with `args`, feeding it `input`; its output.
fn pipe(program: &str, args: &[&str], input: &[u8]) -> Vec<u8> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "{program} failed");
    out.stdout
}

async fn scripts_come_compressed(backend: Backend) {
    let server = start(backend).await;
    // reqwest is built without decompression: bodies arrive as sent.
    let http = reqwest::Client::new();
    let page = http.get(format!("{}/", server.base)).send().await.unwrap();
    assert_eq!(page.headers()["cache-control"], "no-cache");
    let html = page.text().await.unwrap();
    let script = html
        .split('"')
        .find(|s| s.starts_with("/assets/") && s.ends_with(".js"))
        .unwrap_or_else(|| panic!("the page names its script (is web/dist built?): {html}"))
        .to_string();
    let get = async |encoding: Option<&str>| {
        let mut r = http.get(format!("{}{script}", server.base));
        if let Some(e) = encoding {
            r = r.header("accept-encoding", e);
        }
        let r = r.send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
        let h = r.headers().clone();
        (h, r.bytes().await.unwrap().to_vec())
    };
    let (plain_h, plain) = get(None).await;
    assert!(plain_h.get("content-encoding").is_none());
    assert_eq!(
        plain_h["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert!(
        plain_h["content-type"]
            .to_str()
            .unwrap()
            .contains("javascript")
    );
    assert!(plain.len() > 10_000, "the script: {} bytes", plain.len());

    let (gz_h, gz) = get(Some("gzip, deflate")).await;
    assert_eq!(gz_h["content-encoding"], "gzip");
    assert_eq!(gz_h["vary"], "accept-encoding");
    assert_eq!(gz_h["cache-control"], "public, max-age=31536000, immutable");
    assert!(
        gz.len() * 2 < plain.len(),
        "gzip: {} of {}",
        gz.len(),
        plain.len()
    );
    assert_eq!(
        pipe("gzip", &["-dc"], &gz),
        plain,
        "gzip decodes to the script"
    );

    let (br_h, br) = get(Some("gzip, deflate, br, zstd")).await;
    assert_eq!(br_h["content-encoding"], "br");
    assert!(
        br.len() < gz.len(),
        "brotli {} < gzip {}",
        br.len(),
        gz.len()
    );
    let node =
        "process.stdout.write(require('zlib').brotliDecompressSync(require('fs').readFileSync(0)))";
    assert_eq!(
        pipe("node", &["-e", node], &br),
        plain,
        "brotli decodes to the script"
    );

    // A refused coding is not sent.
    let (h, body) = get(Some("br;q=0, gzip;q=0")).await;
    assert!(h.get("content-encoding").is_none());
    assert_eq!(body, plain);
}

// Nothing here is stored: one backend is enough.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scripts_come_compressed_sqlite() {
    scripts_come_compressed(Backend::Sqlite).await
}
