//! Client addresses: the reverse proxies whose forwarding headers are believed,
//! and the key under which an address is limited.

use std::net::IpAddr;

use axum::http::HeaderMap;

use crate::config::Network;

/// The reverse proxies whose forwarding headers are believed.
#[derive(Debug, Clone, Default)]
pub struct Proxies(Vec<Network>);

impl Proxies {
    /// From the configured list; entries that do not parse were refused by
    /// [`crate::Config::check`].
    pub fn new(list: &[String]) -> Self {
        Proxies(list.iter().filter_map(|p| Network::parse(p).ok()).collect())
    }

    pub fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|n| n.contains(ip))
    }

    /// The client's address: the peer's, unless the peer is a trusted proxy; then
    /// the right-most address of `X-Forwarded-For` that is not a trusted proxy
    /// (entries left of it could be made up by the client).
    pub fn client_ip(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.trusts(peer) {
            return peer;
        }
        let hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .collect();
        let mut client = peer;
        for hop in hops.iter().rev() {
            match hop.trim().parse::<IpAddr>() {
                Ok(ip) => {
                    client = ip.to_canonical();
                    if !self.trusts(client) {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
        client
    }

    /// Whether a trusted proxy says the client came over https.
    pub fn says_https(&self, peer: IpAddr, headers: &HeaderMap) -> bool {
        self.trusts(peer)
            && headers
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
                .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
    }
}

/// The key under which an address is limited: the address, or for IPv6 its /64
/// (one subscriber's usual allocation).
pub fn address_key(ip: IpAddr) -> String {
    match ip.to_canonical() {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwarded_addresses_only_from_trusted_proxies() {
        let proxies = Proxies::new(&["10.0.0.0/8".into(), "::1".into()]);
        let mut h = HeaderMap::new();
        h.insert(
            "x-forwarded-for",
            "6.6.6.6, 1.2.3.4, 10.0.0.7".parse().unwrap(),
        );
        let proxy: IpAddr = "10.1.2.3".parse().unwrap();
        let stranger: IpAddr = "8.8.8.8".parse().unwrap();
        assert_eq!(proxies.client_ip(proxy, &h).to_string(), "1.2.3.4");
        assert_eq!(proxies.client_ip(stranger, &h), stranger);
        let local: IpAddr = "::1".parse().unwrap();
        assert_eq!(proxies.client_ip(local, &h).to_string(), "1.2.3.4");
        assert!(!Proxies::default().trusts(local));
        assert!(Network::parse("10.0.0.0/33").is_err());
        assert!(
            Network::parse("::ffff:10.0.0.1")
                .unwrap()
                .contains("10.0.0.1".parse().unwrap())
        );
        assert_eq!(
            address_key("2001:db8:1:2:3:4:5:6".parse().unwrap()),
            "2001:db8:1:2::/64"
        );
    }
}
