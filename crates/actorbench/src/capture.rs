//! Capped capture of a child's output stream.
//!
//! A benchmark program may flood its output (by accident or by design of a test), so the
//! harness never keeps more than a fixed amount of it: the first `head` bytes and the
//! last `tail` bytes, plus the total count. The middle is dropped but still read, so the
//! writer never blocks on a full pipe. The contract's `result` line is either near the
//! start (a well-behaved program prints nothing else) or at the end (a program that
//! printed noise first), and the tail of standard error is what explains a failure.

use std::collections::VecDeque;
use std::io::Read;
use std::sync::{Arc, Mutex};

/// The kept part of a stream: its head, its tail and how many bytes it had in all.
#[derive(Debug, Clone, Default)]
pub struct Captured {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    head_cap: usize,
    tail_cap: usize,
    total: u64,
}

impl Captured {
    /// An empty capture keeping at most `head_cap` + `tail_cap` bytes.
    pub fn new(head_cap: usize, tail_cap: usize) -> Self {
        Captured {
            head: Vec::new(),
            tail: VecDeque::new(),
            head_cap,
            tail_cap,
            total: 0,
        }
    }

    /// Appends bytes read from the stream.
    pub fn push(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let room = self.head_cap - self.head.len();
        if room > 0 {
            let n = room.min(bytes.len());
            self.head.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
        }
        if bytes.len() >= self.tail_cap {
            self.tail.clear();
            self.tail.extend(&bytes[bytes.len() - self.tail_cap..]);
        } else {
            let overflow = (self.tail.len() + bytes.len()).saturating_sub(self.tail_cap);
            self.tail.drain(..overflow);
            self.tail.extend(bytes);
        }
    }

    /// Total bytes the stream carried, kept or not.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Whether bytes were dropped from the middle.
    pub fn truncated(&self) -> bool {
        self.total > (self.head.len() + self.tail.len()) as u64
    }

    /// The kept text (lossy UTF-8), with a marker where bytes were dropped.
    pub fn text(&self) -> String {
        let mut s = String::from_utf8_lossy(&self.head).into_owned();
        if self.truncated() {
            let dropped = self.total - (self.head.len() + self.tail.len()) as u64;
            s.push_str(&format!("\n[... {dropped} bytes not kept ...]\n"));
        }
        let (a, b) = self.tail.as_slices();
        let mut t = a.to_vec();
        t.extend_from_slice(b);
        s.push_str(&String::from_utf8_lossy(&t));
        s
    }

    /// The last `max` characters of the kept text, for a failure record.
    pub fn tail_text(&self, max: usize) -> String {
        let text = self.text();
        let n = text.chars().count();
        text.chars().skip(n.saturating_sub(max)).collect()
    }
}

/// Reads `reader` to its end into `sink`, a chunk at a time.
pub fn drain(mut reader: impl Read, sink: Arc<Mutex<Captured>>) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => sink
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_head_and_tail_and_counts_everything() {
        let mut c = Captured::new(4, 4);
        c.push(b"abcdefgh");
        assert!(!c.truncated());
        assert_eq!(c.text(), "abcdefgh");
        c.push(b"ijklmnopqrstuvwxyz");
        assert_eq!(c.total(), 26);
        assert!(c.truncated());
        assert!(c.text().starts_with("abcd") && c.text().ends_with("wxyz"));
        assert_eq!(c.tail_text(2), "yz");
        for _ in 0..1000 {
            c.push(&[b'x'; 1000]);
        }
        assert!(c.text().len() < 100);
    }
}
