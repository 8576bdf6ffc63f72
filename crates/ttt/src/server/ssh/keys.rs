//! The keys a person types over SSH: the bytes their terminal sends, read into the app's
//! [`Input`]s. A terminal sends a key as a byte, a UTF-8 character or an escape sequence
//! (arrows, Home, End), a mouse press as a report (SGR `ESC [ < b ; x ; y M`, or the older
//! `ESC [ M b x y`), and pasted text between `ESC [ 200 ~` and `ESC [ 201 ~` (bracketed
//! paste). A sequence cut in two by the network is finished by the next bytes; anything
//! not understood is dropped, and what waits for its end is bounded.

use ttt_play::app::{Input, Key};

/// The longest escape sequence or character waited for: a longer one is dropped.
const PENDING: usize = 32;

/// The most characters one paste types: the app's boxes hold a name or a room's code.
const PASTED: usize = 256;

/// Reads a terminal's bytes into inputs, keeping an unfinished sequence for the next.
///
/// ```
/// use ttt::server::ssh::KeyReader;
/// use ttt_play::app::{Input, Key};
///
/// let mut keys = KeyReader::default();
/// assert_eq!(keys.read(b"5\r"), [Input::Key(Key::Char('5')), Input::Key(Key::Enter)]);
/// // An arrow cut in two arrives whole.
/// assert!(keys.read(b"\x1b[").is_empty());
/// assert_eq!(keys.read(b"A"), [Input::Key(Key::Up)]);
/// // A click at the top left cell.
/// assert_eq!(keys.read(b"\x1b[<0;1;1M"), [Input::Click { column: 0, row: 0 }]);
/// ```
#[derive(Debug, Default)]
pub struct KeyReader {
    /// The start of a sequence or character the last bytes did not finish.
    pending: Vec<u8>,
    /// Inside a bracketed paste: the characters typed so far by it.
    pasting: Option<usize>,
}

/// What the bytes at the start of the input are.
enum Read {
    /// So many bytes, giving these inputs (maybe none).
    Done(usize, Vec<Input>),
    /// The start of something longer: wait for more bytes.
    Unfinished,
}

impl KeyReader {
    /// The inputs `bytes` finish, in order.
    pub fn read(&mut self, bytes: &[u8]) -> Vec<Input> {
        let mut input = std::mem::take(&mut self.pending);
        input.extend_from_slice(bytes);
        let mut inputs = Vec::new();
        let mut at = 0;
        while at < input.len() {
            match self.next(&input[at..]) {
                Read::Done(length, read) => {
                    inputs.extend(read);
                    at += length.max(1);
                }
                Read::Unfinished => {
                    let rest = &input[at..];
                    if rest.len() <= PENDING {
                        self.pending = rest.to_vec();
                    }
                    break;
                }
            }
        }
        inputs
    }

    /// Reads what starts `bytes` (never empty).
    fn next(&mut self, bytes: &[u8]) -> Read {
        if self.pasting.is_some() {
            return self.pasted(bytes);
        }
        let keys = |length, key| Read::Done(length, vec![Input::Key(key)]);
        match bytes[0] {
            0x1b => self.escape(bytes),
            // Ctrl-C: ends at once, as in a terminal of one's own.
            0x03 => keys(1, Key::Interrupt),
            // A terminal that sends CR LF for Enter gives one Enter.
            b'\r' if bytes.get(1) == Some(&b'\n') => keys(2, Key::Enter),
            b'\r' | b'\n' => keys(1, Key::Enter),
            0x7f | 0x08 => keys(1, Key::Backspace),
            b'\t' => keys(1, Key::Tab),
            byte if byte < 0x20 => Read::Done(1, Vec::new()),
            _ => match character(bytes) {
                Some((length, Some(character))) => keys(length, Key::Char(character)),
                Some((length, None)) => Read::Done(length, Vec::new()),
                None => Read::Unfinished,
            },
        }
    }

    /// Reads an escape sequence, or Esc alone.
    fn escape(&mut self, bytes: &[u8]) -> Read {
        let keys = |length, key| Read::Done(length, vec![Input::Key(key)]);
        match bytes.get(1) {
            // Esc alone: nothing follows it in the same packet.
            None => keys(1, Key::Esc),
            Some(b'[') => self.control(bytes),
            Some(b'O') => match bytes.get(2) {
                None => Read::Unfinished,
                Some(&last) => match arrow(last) {
                    Some(key) => keys(3, key),
                    None => Read::Done(3, Vec::new()),
                },
            },
            // Esc twice: the first is a key of its own.
            Some(0x1b) => keys(1, Key::Esc),
            // Alt with a key, or Esc typed quickly before it: Esc then the key, as the
            // terminal's own full screen reads them.
            Some(_) => keys(1, Key::Esc),
        }
    }

    /// Reads `ESC [ ...`: arrows, Home, End, a mouse report or the start of a paste.
    fn control(&mut self, bytes: &[u8]) -> Read {
        let body = &bytes[2..];
        // The old mouse report: ESC [ M and three bytes (button, column, row, each + 32).
        if body.first() == Some(&b'M') {
            let Some(&[button, column, row]) = body.get(1..4) else {
                return Read::Unfinished;
            };
            let press = button.wrapping_sub(32) & 0b1110_0011 == 0;
            let click = (press && column > 32 && row > 32).then(|| Input::Click {
                column: u16::from(column - 33),
                row: u16::from(row - 33),
            });
            return Read::Done(6, click.into_iter().collect());
        }
        // Parameters, then intermediates, then one final byte.
        let Some(end) = body.iter().position(|&byte| (0x40..=0x7e).contains(&byte)) else {
            return if body.iter().all(|&byte| (0x20..=0x3f).contains(&byte)) {
                Read::Unfinished
            } else {
                // Not a sequence: the Esc alone, the rest read on.
                Read::Done(1, vec![Input::Key(Key::Esc)])
            };
        };
        let length = 2 + end + 1;
        let (parameters, last) = (&body[..end], body[end]);
        let inputs = match (parameters, last) {
            ([b'<', rest @ ..], b'M') => mouse(rest).into_iter().collect(),
            (_, b'~') => match parameters {
                b"200" => {
                    self.pasting = Some(0);
                    Vec::new()
                }
                b"1" | b"7" => vec![Input::Key(Key::Home)],
                b"4" | b"8" => vec![Input::Key(Key::End)],
                _ => Vec::new(),
            },
            // Arrows, Home and End, with or without modifiers (`1;5A`).
            (_, last) => arrow(last).map(Input::Key).into_iter().collect(),
        };
        Read::Done(length, inputs)
    }

    /// Reads pasted text: its characters are typed, its control characters dropped (a
    /// pasted line's end does not press Enter), until the paste's end.
    fn pasted(&mut self, bytes: &[u8]) -> Read {
        const END: &[u8] = b"\x1b[201~";
        if bytes[0] == 0x1b {
            if bytes.len() < END.len() && END.starts_with(bytes) {
                return Read::Unfinished;
            }
            if bytes.starts_with(END) {
                self.pasting = None;
                return Read::Done(END.len(), Vec::new());
            }
            // Another sequence in the paste: dropped whole.
            if bytes.get(1) == Some(&b'[') {
                return match bytes[2..].iter().position(|b| (0x40..=0x7e).contains(b)) {
                    Some(end) => Read::Done(2 + end + 1, Vec::new()),
                    None if bytes.len() <= PENDING => Read::Unfinished,
                    None => Read::Done(1, Vec::new()),
                };
            }
            return Read::Done(1, Vec::new());
        }
        match character(bytes) {
            None => Read::Unfinished,
            Some((length, character)) => {
                let typed = self.pasting.get_or_insert(0);
                let kept = character.filter(|c| !c.is_control() && *typed < PASTED);
                *typed += usize::from(kept.is_some());
                Read::Done(
                    length,
                    kept.map(|c| Input::Key(Key::Char(c))).into_iter().collect(),
                )
            }
        }
    }
}

/// The UTF-8 character starting `bytes` and its length (`None` inside it for bytes that
/// are not UTF-8), or `None` when it is cut short.
fn character(bytes: &[u8]) -> Option<(usize, Option<char>)> {
    let length = match bytes[0] {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return Some((1, None)),
    };
    let Some(encoded) = bytes.get(..length) else {
        // Cut short, unless what is there already cannot be a character.
        return match std::str::from_utf8(bytes) {
            Err(error) if error.error_len().is_some() => Some((1, None)),
            _ => None,
        };
    };
    match std::str::from_utf8(encoded) {
        Ok(text) => Some((length, text.chars().next())),
        Err(_) => Some((1, None)),
    }
}

/// The key of an arrow, Home or End sequence's last byte.
fn arrow(last: u8) -> Option<Key> {
    Some(match last {
        b'A' => Key::Up,
        b'B' => Key::Down,
        b'C' => Key::Right,
        b'D' => Key::Left,
        b'H' => Key::Home,
        b'F' => Key::End,
        _ => return None,
    })
}

/// A click for an SGR mouse report's `b;x;y` (the main button pressed, nothing moving),
/// from 1-based cells.
fn mouse(report: &[u8]) -> Option<Input> {
    let text = std::str::from_utf8(report).ok()?;
    let mut numbers = text.split(';').map(|number| number.parse::<u16>().ok());
    let (button, column, row) = (numbers.next()??, numbers.next()??, numbers.next()??);
    // Shift, Alt and Ctrl (4, 8, 16) may be held; motion (32), wheel (64) and the other
    // buttons are not a click.
    (button & !0b1_1100 == 0 && column > 0 && row > 0).then(|| Input::Click {
        column: column - 1,
        row: row - 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn keys(keys: &[Key]) -> Vec<Input> {
        keys.iter().copied().map(Input::Key).collect()
    }

    #[test]
    fn keys_as_terminals_send_them() {
        let cases: &[(&[u8], &[Key])] = &[
            (b"a5 ", &[Key::Char('a'), Key::Char('5'), Key::Char(' ')]),
            (b"\r", &[Key::Enter]),
            (b"\r\n", &[Key::Enter]),
            (b"\n", &[Key::Enter]),
            (b"\x7f\x08", &[Key::Backspace, Key::Backspace]),
            (b"\t", &[Key::Tab]),
            (b"\x03", &[Key::Interrupt]),
            (b"\x1b", &[Key::Esc]),
            (b"\x1b\x1b", &[Key::Esc, Key::Esc]),
            (b"\x1bq", &[Key::Esc, Key::Char('q')]),
            (
                b"\x1b[A\x1b[B\x1b[C\x1b[D",
                &[Key::Up, Key::Down, Key::Right, Key::Left],
            ),
            (b"\x1bOA\x1bOD", &[Key::Up, Key::Left]),
            (b"\x1b[1;5C", &[Key::Right]),
            (
                b"\x1b[H\x1b[F\x1b[1~\x1b[4~",
                &[Key::Home, Key::End, Key::Home, Key::End],
            ),
            ("é€".as_bytes(), &[Key::Char('é'), Key::Char('€')]),
            // Keys the app has no use for, and bytes that are not UTF-8: nothing.
            (b"\x1b[15~\x1b[Z\x00\x1a\xff\xc0", &[]),
        ];
        for (bytes, expected) in cases {
            assert_eq!(
                KeyReader::default().read(bytes),
                keys(expected),
                "{bytes:?}"
            );
        }
    }

    #[test]
    fn mouse_presses_of_the_main_button_are_clicks() {
        let mut reader = KeyReader::default();
        let click = |column, row| Input::Click { column, row };
        assert_eq!(reader.read(b"\x1b[<0;10;5M"), [click(9, 4)]);
        // Released, another button, motion, the wheel: no click.
        assert!(
            reader
                .read(b"\x1b[<0;10;5m\x1b[<2;1;1M\x1b[<32;1;1M\x1b[<64;1;1M")
                .is_empty()
        );
        // With Ctrl held, still a click; the old report too.
        assert_eq!(reader.read(b"\x1b[<16;1;2M"), [click(0, 1)]);
        assert_eq!(reader.read(b"\x1b[M !\""), [click(0, 1)]);
        assert!(reader.read(b"\x1b[M#!\"").is_empty(), "a release");
    }

    #[test]
    fn pasted_text_is_typed_without_its_line_ends() {
        let mut reader = KeyReader::default();
        let typed = reader.read(b"\x1b[200~AB\r\nC\x1b[A");
        assert_eq!(
            typed,
            keys(&[Key::Char('A'), Key::Char('B'), Key::Char('C')])
        );
        // The paste's end cut in two, then keys as usual.
        assert!(reader.read(b"\x1b[20").is_empty());
        assert_eq!(reader.read(b"1~\r"), keys(&[Key::Enter]));
        // A long paste types no more than a box holds.
        let long = [b"\x1b[200~".as_slice(), &[b'x'; 1000], b"\x1b[201~"].concat();
        assert_eq!(reader.read(&long).len(), PASTED);
    }

    #[test]
    fn sequences_cut_anywhere_read_the_same() {
        let bytes = "\x1b[A5\x1b[<0;3;4Mé\x1b[200~ok\x1b[201~\x1bOB\r".as_bytes();
        let whole = KeyReader::default().read(bytes);
        for cut in 1..bytes.len() {
            let mut reader = KeyReader::default();
            let mut read = reader.read(&bytes[..cut]);
            read.extend(reader.read(&bytes[cut..]));
            // A cut right after an Esc reads it as Esc alone: a terminal sends a
            // sequence in one write.
            if bytes[cut - 1] != 0x1b {
                assert_eq!(read, whole, "cut at {cut}");
            }
        }
    }

    proptest! {
        #[test]
        fn any_bytes_are_read_without_panic_and_little_is_kept(
            chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..64), 0..16)
        ) {
            let mut reader = KeyReader::default();
            for chunk in &chunks {
                let inputs = reader.read(chunk);
                prop_assert!(inputs.len() <= chunk.len() + PENDING);
                prop_assert!(reader.pending.len() <= PENDING);
            }
        }
    }
}
