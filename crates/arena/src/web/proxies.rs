//! Who a request comes from, for counting failed logins: the connection's peer, or, only when
//! the peer is one of `[server] trusted_proxies` (addresses or CIDR blocks, none by default),
//! the client its `X-Forwarded-For` names. Anyone else's `X-Forwarded-For` is ignored: a
//! client that could name its own address could spread its failures over addresses it made
//! up, or pin them on someone else's.

use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;

use crate::config::proxies::Cidr;

/// The address a request's failed logins count against: the peer's; when the peer is a
/// trusted proxy, the nearest address in its `X-Forwarded-For` that is not itself a trusted
/// proxy (each proxy appends the address it was reached from, so the entries before the
/// trusted ones are the client's to write, and only the last untrusted one is sure).
pub fn client_address(headers: &HeaderMap, peer: Option<SocketAddr>, trusted: &[Cidr]) -> String {
    let Some(peer) = peer.map(|p| p.ip().to_canonical()) else {
        return "unknown".into();
    };
    let is_trusted = |ip: IpAddr| trusted.iter().any(|c| c.contains(ip));
    if !is_trusted(peer) {
        return peer.to_string();
    }
    let mut client = peer;
    let hops = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect::<Vec<_>>();
    for hop in hops.iter().rev() {
        let Ok(ip) = hop.parse::<IpAddr>() else {
            // A forged or garbled entry: the last address known is the client's.
            break;
        };
        client = ip.to_canonical();
        if !is_trusted(client) {
            break;
        }
    }
    client.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::proxies::parse_list;
    use axum::http::HeaderValue;

    fn cidrs(list: &[&str]) -> Vec<Cidr> {
        parse_list(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn forwarded_for_is_read_from_trusted_peers_only() {
        let mut h = HeaderMap::new();
        h.insert(
            "x-forwarded-for",
            HeaderValue::from_static("6.6.6.6, 1.2.3.4, 10.0.0.7"),
        );
        let local = SocketAddr::from(([127, 0, 0, 1], 9));
        // Nobody trusted (the default): the peer, loopback or not.
        assert_eq!(client_address(&h, Some(local), &[]), "127.0.0.1");
        let remote = SocketAddr::from(([8, 8, 8, 8], 9));
        assert_eq!(client_address(&h, Some(remote), &[]), "8.8.8.8");
        // The proxy on loopback trusted: its last hop.
        let proxy = cidrs(&["127.0.0.1"]);
        assert_eq!(client_address(&h, Some(local), &proxy), "10.0.0.7");
        // An inner proxy trusted too: the address before it; the client's own entries
        // before that are never believed.
        let both = cidrs(&["127.0.0.1", "10.0.0.0/8"]);
        assert_eq!(client_address(&h, Some(local), &both), "1.2.3.4");
        // A trusted peer but an untrusted one sends it: ignored.
        assert_eq!(client_address(&h, Some(remote), &proxy), "8.8.8.8");
        // Garbage in the header: the peer.
        h.insert("x-forwarded-for", HeaderValue::from_static("nonsense"));
        assert_eq!(client_address(&h, Some(local), &proxy), "127.0.0.1");
        assert_eq!(client_address(&HeaderMap::new(), None, &proxy), "unknown");
    }
}
