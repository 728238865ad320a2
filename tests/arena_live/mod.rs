//! Live matches: the public projection of a match's events, as data (`projection`), and a
//! Rollerball arena on loopback watched in Chromium and by a raw SSE client to its end, every
//! streamed message checked against the finished record (`watch`).

mod projection;
mod watch;
