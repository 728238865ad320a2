//! The verifier's own reading of a record line, for `replay --verify` of a file: the round's
//! moves read straight from the line's text into [`Recorded`] actions that borrow it (numbers
//! as numbers, the notation and effects as the JSON text they were written as), and the rest
//! of the round read as a [`RoundRecord`] whose `moves` are empty. Reading every move into
//! [`serde_json::Value`] trees, a string and an allocation per square, was most of the
//! verifier's time.
//!
//! Only what the record's writer writes is read here: plain strings (no escapes), JSON
//! numbers, `true`, `false`, `null`, and arrays and objects of these, each move field once,
//! no refused attempts. Anything else (an escape, a repeated field, refused attempts, a field
//! of another type) makes [`read`] give up, and the line is read whole by the record's own
//! reader, whose verdict and errors are the format's: a line read here is one the record's
//! reader reads as the same round.

use super::recorded::{Effects, Notation, Recorded};
use crate::record::RoundRecord;
use crate::wire::cursor::Cursor;

/// A round read lean: the round without its moves (read from `header`, the line with its
/// `moves` emptied), and its moves, borrowed from the line.
pub(super) fn read<'a>(
    line: &'a [u8],
    header: &mut Vec<u8>,
) -> Option<(RoundRecord, Vec<Recorded<'a>>)> {
    let text = std::str::from_utf8(line).ok()?;
    let (start, end, moves) = moves_of(text)?;
    header.clear();
    header.extend_from_slice(&line[..start]);
    header.extend_from_slice(b"[]");
    header.extend_from_slice(&line[end..]);
    let round: RoundRecord = serde_json::from_slice(header).ok()?;
    Some((round, moves))
}

/// The moves of the line's top-level `moves` key (once, its key written plainly), and where
/// their array is in the line.
fn moves_of(text: &str) -> Option<(usize, usize, Vec<Recorded<'_>>)> {
    let mut s = Cursor::new(text);
    let mut found = None;
    s.ws();
    s.eat(b'{')?;
    s.ws();
    if s.peek()? == b'}' {
        return None;
    }
    loop {
        let key = s.any_string()?;
        s.ws();
        s.eat(b':')?;
        s.ws();
        let start = s.at;
        if key == "moves" {
            if found.is_some() {
                return None;
            }
            let moves = s.moves()?;
            found = Some((start, s.at, moves));
        } else {
            s.skip_any()?;
        }
        s.ws();
        match s.next()? {
            b',' => s.ws(),
            b'}' => break,
            _ => return None,
        }
    }
    found
}

/// A move's fields as read so far.
#[derive(Default)]
struct Fields<'a> {
    ply: Option<u32>,
    kind: Option<Option<&'a str>>,
    seat: Option<usize>,
    colour: Option<Option<&'a str>>,
    mv: Option<&'a str>,
    ms: Option<f64>,
    at_ms: Option<Option<f64>>,
    cpu_ms: Option<Option<f64>>,
    bank_ms: Option<Option<f64>>,
    refused: Option<()>,
    by_arbiter: Option<bool>,
    opening: Option<bool>,
}

/// Stores a field read once; `None` (give up) for a second.
fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    slot.replace(value).is_none().then_some(())
}

/// The readings of a record's text on top of the protocol's cursor.
impl<'a> Cursor<'a> {
    fn literal(&mut self, word: &str) -> Option<()> {
        let end = self.at + word.len();
        (self.b.get(self.at..end)? == word.as_bytes()).then(|| self.at = end)
    }

    /// A JSON number's text.
    fn number(&mut self) -> Option<&'a str> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.next()? {
            b'0' => {}
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.some_digits()?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            self.some_digits()?;
        }
        Some(&self.text[start..self.at])
    }

    fn some_digits(&mut self) -> Option<()> {
        let start = self.at;
        self.digits();
        (self.at > start).then_some(())
    }

    /// A value of the kinds read here (see the module's header): its text.
    fn value(&mut self) -> Option<&'a str> {
        let start = self.at;
        match self.peek()? {
            b'"' => {
                self.plain_string()?;
            }
            b't' => self.literal("true")?,
            b'f' => self.literal("false")?,
            b'n' => self.literal("null")?,
            b'[' => {
                self.at += 1;
                self.ws();
                if self.peek()? == b']' {
                    self.at += 1;
                } else {
                    loop {
                        self.value()?;
                        self.ws();
                        match self.next()? {
                            b',' => self.ws(),
                            b']' => break,
                            _ => return None,
                        }
                    }
                }
            }
            b'{' => {
                self.at += 1;
                self.ws();
                if self.peek()? == b'}' {
                    self.at += 1;
                } else {
                    loop {
                        self.plain_string()?;
                        self.ws();
                        self.eat(b':')?;
                        self.ws();
                        self.value()?;
                        self.ws();
                        match self.next()? {
                            b',' => self.ws(),
                            b'}' => break,
                            _ => return None,
                        }
                    }
                }
            }
            _ => {
                self.number()?;
            }
        }
        Some(&self.text[start..self.at])
    }

    /// A string of any content, escapes included (left to the record's reader to judge): its
    /// text between the quotes.
    fn any_string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.at;
        loop {
            match self.next()? {
                b'"' => return Some(&self.text[start..self.at - 1]),
                b'\\' => {
                    self.next()?;
                }
                _ => {}
            }
        }
    }

    /// Passes over a value of any content (the round's other fields, judged by the record's
    /// reader): strings with escapes, nested arrays and objects.
    fn skip_any(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => {
                self.any_string()?;
            }
            b'[' | b'{' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.any_string()?;
                            continue;
                        }
                        b'[' | b'{' => depth += 1,
                        b']' | b'}' => depth -= 1,
                        _ => {}
                    }
                    self.at += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            _ => {
                while !matches!(
                    self.peek()?,
                    b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'
                ) {
                    self.at += 1;
                }
            }
        }
        Some(())
    }

    /// A number as serde_json reads it (to the same last bit).
    fn float(&mut self) -> Option<f64> {
        serde_json::from_str(self.number()?).ok()
    }

    fn optional_float(&mut self) -> Option<Option<f64>> {
        if self.peek()? == b'n' {
            self.literal("null")?;
            return Some(None);
        }
        self.float().map(Some)
    }

    fn optional_string(&mut self) -> Option<Option<&'a str>> {
        if self.peek()? == b'n' {
            self.literal("null")?;
            return Some(None);
        }
        self.plain_string().map(Some)
    }

    fn unsigned<T: std::str::FromStr>(&mut self) -> Option<T> {
        let start = self.at;
        self.digits();
        let digits = &self.text[start..self.at];
        if digits.is_empty()
            || (digits.len() > 1 && digits.starts_with('0'))
            || matches!(self.peek(), Some(b'.' | b'e' | b'E'))
        {
            return None;
        }
        digits.parse().ok()
    }

    fn boolean(&mut self) -> Option<bool> {
        match self.peek()? {
            b't' => self.literal("true").map(|_| true),
            _ => self.literal("false").map(|_| false),
        }
    }

    /// An array of moves.
    fn moves(&mut self) -> Option<Vec<Recorded<'a>>> {
        let mut moves = Vec::with_capacity(64);
        self.eat(b'[')?;
        self.ws();
        if self.peek()? == b']' {
            self.at += 1;
        } else {
            loop {
                moves.push(self.one()?);
                self.ws();
                match self.next()? {
                    b',' => self.ws(),
                    b']' => break,
                    _ => return None,
                }
            }
        }
        Some(moves)
    }

    /// One move's object.
    fn one(&mut self) -> Option<Recorded<'a>> {
        let mut f = Fields::default();
        let mut effects = Vec::new();
        self.eat(b'{')?;
        self.ws();
        if self.peek()? == b'}' {
            return None; // no fields: the record's reader says which is missing
        }
        loop {
            let key = self.plain_string()?;
            self.ws();
            self.eat(b':')?;
            self.ws();
            match key {
                "ply" => once(&mut f.ply, self.unsigned()?)?,
                "kind" => once(&mut f.kind, self.optional_string()?)?,
                "seat" => once(&mut f.seat, self.unsigned()?)?,
                "colour" => once(&mut f.colour, self.optional_string()?)?,
                "move" => once(&mut f.mv, self.value()?)?,
                "ms" => once(&mut f.ms, self.float()?)?,
                "at_ms" => once(&mut f.at_ms, self.optional_float()?)?,
                "cpu_ms" => once(&mut f.cpu_ms, self.optional_float()?)?,
                "bank_ms" => once(&mut f.bank_ms, self.optional_float()?)?,
                "refused" => {
                    // Refused attempts are rare: the record's reader reads them.
                    self.literal("[]")?;
                    once(&mut f.refused, ())?
                }
                "by_arbiter" => once(&mut f.by_arbiter, self.boolean()?)?,
                "opening" => once(&mut f.opening, self.boolean()?)?,
                effect => effects.push((effect, self.value()?)),
            }
            self.ws();
            match self.next()? {
                b',' => self.ws(),
                b'}' => break,
                _ => return None,
            }
        }
        Some(Recorded {
            ply: f.ply?,
            kind: f.kind.flatten(),
            seat: f.seat?,
            colour: f.colour.flatten(),
            mv: Notation::Text(f.mv?),
            effects: Effects::Text(effects),
            ms: f.ms?,
            at_ms: f.at_ms.flatten(),
            cpu_ms: f.cpu_ms.flatten(),
            bank_ms: f.bank_ms.flatten(),
            refused: &[],
            by_arbiter: f.by_arbiter?,
            opening: f.opening.unwrap_or_default(),
        })
    }
}
