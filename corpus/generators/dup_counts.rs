//! A generator-driven system under test for `hdd entropy` and `hdd reduce --lang bytes`
//! (built by the tests with plain `rustc`: no dependencies).
//!
//! It reads a byte stream (the file named by its first argument, else stdin) and draws a
//! stock list from it, as a property-based test draws from its choice sequence: one byte
//! for the number of items (mod 16), then two bytes per item, a key (mod 8) and a count.
//! When the stream runs out, the list ends there (a short stream makes a short list, never
//! a failure). The list is sorted by key and the counts of equal keys are merged; the bug
//! is that the merged count is a `u8`, so two equal keys whose counts add up past 255
//! panic (exit code 101). The smallest failing stream is 5 bytes long (two items with the
//! same key), and in shortlex order it is `02 00 01 00 ff`.

use std::io::Read as _;

/// The stream, drawn from front to back.
struct Source {
    bytes: Vec<u8>,
    at: usize,
}

impl Source {
    fn draw(&mut self) -> Option<u8> {
        let b = self.bytes.get(self.at).copied();
        self.at += 1;
        b
    }
}

fn main() {
    let mut bytes = Vec::new();
    match std::env::args_os().nth(1) {
        Some(path) => bytes = std::fs::read(path).expect("reading the stream"),
        None => {
            std::io::stdin()
                .read_to_end(&mut bytes)
                .expect("reading stdin");
        }
    }
    let mut source = Source { bytes, at: 0 };
    let mut items: Vec<(u8, u8)> = Vec::new();
    if let Some(n) = source.draw() {
        for _ in 0..n % 16 {
            let (Some(key), Some(count)) = (source.draw(), source.draw()) else {
                break;
            };
            items.push((key % 8, count));
        }
    }
    items.sort_by_key(|item| item.0);
    let mut merged: Vec<(u8, u8)> = Vec::new();
    for (key, count) in items {
        match merged.last_mut() {
            Some(last) if last.0 == key => {
                last.1 = last
                    .1
                    .checked_add(count)
                    .unwrap_or_else(|| panic!("count overflow merging key {key}"));
            }
            _ => merged.push((key, count)),
        }
    }
    for (key, count) in merged {
        println!("key {key}: {count}");
    }
}
