//! A cursor over JSON text for the readers that read the lines every move passes through
//! without building a JSON tree (a bot's `move`, `wire::fast`; a record's moves, the
//! verifier's lean reading): bytes, JSON's whitespace, and strings with nothing escaped.
//! Each reader adds what it reads on top and leaves anything it doubts to serde_json.

/// JSON text and a position in it.
pub(crate) struct Cursor<'a> {
    pub text: &'a str,
    pub b: &'a [u8],
    pub at: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            text,
            b: text.as_bytes(),
            at: 0,
        }
    }

    pub fn peek(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    pub fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    pub fn eat(&mut self, c: u8) -> Option<()> {
        (self.next()? == c).then_some(())
    }

    /// JSON's whitespace (not Unicode's).
    pub fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// A string without escapes or control characters (which JSON forbids raw): its text.
    pub fn plain_string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.at;
        loop {
            match self.next()? {
                b'"' => return Some(&self.text[start..self.at - 1]),
                b'\\' => return None,
                c if c < 0x20 => return None,
                _ => {}
            }
        }
    }

    /// Passes over a run of ASCII digits.
    pub fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }
}
