//! `qiyuan serve`'s limit flags reach the server: `--max-sockets-per-address N`
//! caps one address's connections (the next is answered `429 too_many_sockets`)
//! and `--guests-per-address-per-hour N` caps guest creation; 0 lifts a cap.
#![cfg(feature = "server")]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Child;
use std::time::Duration;

use qiyuan_testkit::fs::temp_dir;
use qiyuan_testkit::net::free_port;
use qiyuan_testkit::process::serve_command;

fn serve(port: u16, data: &std::path::Path, flags: &[&str]) -> Child {
    serve_command(env!("CARGO_BIN_EXE_qiyuan"), port, data)
        .args(flags)
        .env_remove("QIYUAN_MAX_SOCKETS_PER_ADDRESS")
        .env_remove("QIYUAN_GUESTS_PER_ADDRESS")
        .spawn()
        .expect("the qiyuan binary starts")
}

/// Sends one request on a kept-alive connection; the answer's status line and
/// body (read until the connection has been quiet for a moment).
fn request(tcp: &mut TcpStream, method: &str, path: &str) -> String {
    let req = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n");
    tcp.write_all(req.as_bytes()).unwrap();
    read_some(tcp)
}

fn read_some(tcp: &mut TcpStream) -> String {
    tcp.set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    // Up to 5 s for the first byte, then until a quiet 50 ms.
    for _ in 0..10 {
        match tcp.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                out.extend_from_slice(&buf[..n]);
                tcp.set_read_timeout(Some(Duration::from_millis(50)))
                    .unwrap();
            }
            Err(_) if !out.is_empty() => break,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => break,
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn connect_when_up(port: u16) -> TcpStream {
    for _ in 0..300 {
        if let Ok(mut tcp) = TcpStream::connect(("127.0.0.1", port))
            && request(&mut tcp, "GET", "/api/health").starts_with("HTTP/1.1 200")
        {
            return tcp;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("qiyuan serve did not answer on port {port}");
}

#[test]
fn limit_flags_reach_the_server() {
    let dir = temp_dir("limits");
    let port = free_port();
    let mut server = serve(
        port,
        &dir,
        &[
            "--max-sockets-per-address",
            "2",
            "--guests-per-address-per-hour",
            "1",
        ],
    );
    let mut first = connect_when_up(port);
    let mut second = TcpStream::connect(("127.0.0.1", port)).unwrap();
    assert!(request(&mut second, "GET", "/api/health").starts_with("HTTP/1.1 200"));
    let mut third = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let refused = read_some(&mut third);
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused}");
    assert!(refused.contains("too_many_sockets"), "{refused}");

    let guest = request(&mut first, "POST", "/api/account/guest");
    assert!(guest.starts_with("HTTP/1.1 201"), "{guest}");
    let guest = request(&mut second, "POST", "/api/account/guest");
    assert!(guest.starts_with("HTTP/1.1 429"), "{guest}");
    assert!(guest.contains("rate_limited"), "{guest}");
    server.kill().unwrap();
    server.wait().unwrap();

    // 0: no cap.
    let port = free_port();
    let mut server = serve(port, &dir, &["--max-sockets-per-address", "0"]);
    let mut open = vec![connect_when_up(port)];
    for _ in 0..60 {
        let mut tcp = TcpStream::connect(("127.0.0.1", port)).unwrap();
        assert!(request(&mut tcp, "GET", "/api/health").starts_with("HTTP/1.1 200"));
        open.push(tcp);
    }
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
