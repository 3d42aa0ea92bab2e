//! Loopback ports for servers the tests start as processes (a server started in
//! the test's own process binds port 0 and reports its address instead).

/// A port free on 127.0.0.1 a moment ago: the OS picks it, and it is let go at
/// once for the caller's server to bind.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a loopback port")
        .local_addr()
        .expect("a bound socket's address")
        .port()
}
