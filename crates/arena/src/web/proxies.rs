//! Who a request comes from, for counting failed logins: the connection's peer, or, only when
//! the peer is one of `[server] trusted_proxies` (addresses or CIDR blocks, none by default),
//! the client its `X-Forwarded-For` names. Anyone else's `X-Forwarded-For` is ignored: a
//! client that could name its own address could spread its failures over addresses it made
//! up, or pin them on someone else's.

use std::net::{IpAddr, SocketAddr};

use crate::Error;
use axum::http::HeaderMap;

/// An address block: `10.0.0.0/8`, `::1/128`, or one address (`127.0.0.1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    bits: u8,
}

impl Cidr {
    pub fn parse(text: &str) -> Result<Cidr, Error> {
        let text = text.trim();
        let bad = |why: &str| {
            Error::Invalid(format!(
                "{text:?} is not an address or an address block ({why}): write it like \
                 127.0.0.1, 10.0.0.0/8 or ::1"
            ))
        };
        let (addr, bits) = match text.split_once('/') {
            Some((a, b)) => (a, Some(b)),
            None => (text, None),
        };
        let net: IpAddr = addr
            .parse()
            .map_err(|_| bad(&format!("{addr:?} is not an IP address")))?;
        let net = net.to_canonical();
        let max = if net.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            None => max,
            Some(b) => match b.parse::<u8>() {
                Ok(b) if b <= max => b,
                _ => return Err(bad(&format!("the prefix length must be 0 to {max}"))),
            },
        };
        Ok(Cidr { net, bits })
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.net, ip.to_canonical()) {
            (IpAddr::V4(n), IpAddr::V4(a)) => {
                prefix(n.to_bits().into(), a.to_bits().into(), 32, self.bits)
            }
            (IpAddr::V6(n), IpAddr::V6(a)) => prefix(n.to_bits(), a.to_bits(), 128, self.bits),
            _ => false,
        }
    }
}

/// Whether `a` and `b` (numbers of `width` bits) agree on their first `bits` bits.
fn prefix(a: u128, b: u128, width: u32, bits: u8) -> bool {
    let shift = width - u32::from(bits);
    shift >= width || (a >> shift) == (b >> shift)
}

/// `[server] trusted_proxies`, parsed; the error names the entry.
pub fn parse_list(list: &[String]) -> Result<Vec<Cidr>, Error> {
    list.iter()
        .map(|e| {
            Cidr::parse(e).map_err(|m| Error::Invalid(format!("[server] trusted_proxies: {m}")))
        })
        .collect()
}

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
    use axum::http::HeaderValue;

    fn cidrs(list: &[&str]) -> Vec<Cidr> {
        parse_list(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn blocks_hold_their_addresses() {
        let c = Cidr::parse("10.0.0.0/8").unwrap();
        assert!(c.contains("10.200.3.4".parse().unwrap()));
        assert!(!c.contains("11.0.0.1".parse().unwrap()));
        assert!(
            c.contains("::ffff:10.1.2.3".parse().unwrap()),
            "v4 mapped in v6"
        );
        assert!(
            Cidr::parse("0.0.0.0/0")
                .unwrap()
                .contains("8.8.8.8".parse().unwrap())
        );
        assert!(Cidr::parse("::1").unwrap().contains("::1".parse().unwrap()));
        assert!(
            !Cidr::parse("::1")
                .unwrap()
                .contains("127.0.0.1".parse().unwrap())
        );
        assert!(
            Cidr::parse("fd00::/8")
                .unwrap()
                .contains("fd12::5".parse().unwrap())
        );
        for bad in ["10.0.0.0/33", "localhost", "1.2.3.4/", "::/129", ""] {
            let e = Cidr::parse(bad).unwrap_err().to_string();
            assert!(e.contains("write it like"), "{bad}: {e}");
        }
        let e = parse_list(&["10.0.0.1".into(), "proxy".into()])
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("[server] trusted_proxies: \"proxy\""), "{e}");
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
