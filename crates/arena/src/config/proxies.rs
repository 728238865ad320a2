//! `[server] trusted_proxies`: the reverse proxies whose `X-Forwarded-For` the web layer
//! believes (`web::proxies`), as address blocks (addresses or CIDR blocks), checked when the
//! settings are read so that a typo is refused at start.

use std::net::IpAddr;

/// An address block: `10.0.0.0/8`, `::1/128`, or one address (`127.0.0.1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    bits: u8,
}

impl Cidr {
    pub fn parse(text: &str) -> Result<Cidr, String> {
        let text = text.trim();
        let bad = |why: &str| {
            format!(
                "{text:?} is not an address or an address block ({why}): write it like \
                 127.0.0.1, 10.0.0.0/8 or ::1"
            )
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
pub fn parse_list(list: &[String]) -> Result<Vec<Cidr>, String> {
    list.iter()
        .map(|e| Cidr::parse(e).map_err(|m| format!("[server] trusted_proxies: {m}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let e = Cidr::parse(bad).unwrap_err();
            assert!(e.contains("write it like"), "{bad}: {e}");
        }
        let e = parse_list(&["10.0.0.1".into(), "proxy".into()]).unwrap_err();
        assert!(e.starts_with("[server] trusted_proxies: \"proxy\""), "{e}");
    }
}
