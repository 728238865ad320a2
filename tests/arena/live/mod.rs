//! Live matches: the public projection of a match's events, as data (`projection`), a
//! Rollerball arena on loopback watched in Chromium and by a raw SSE client to its end, every
//! streamed message checked against the finished record (`watch`), and each game's live
//! board watched in Chromium from before its first move to the finished page (`board`).

mod board;
mod projection;
mod watch;
