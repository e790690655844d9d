//! Prepares the opening data set (data/openings/*.tsv) for `src/query/openings.rs`: the
//! lines split into their fields, in the files' order, and the order in which the table
//! replays them (by their moves, so that lines starting with the same moves come
//! together) with the number of moves each shares with the line replayed before it.
//! What is left to the first use of the table is replaying the moves: text work only
//! here, no chess.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

const FILES: [&str; 5] = ["a", "b", "c", "d", "e"];

fn main() {
    let mut lines: Vec<(String, String, String)> = Vec::new();
    for name in FILES {
        let path = format!("data/openings/{name}.tsv");
        println!("cargo:rerun-if-changed={path}");
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) => fail(&format!("{path}: {error}")),
        };
        for (number, line) in text.lines().enumerate().skip(1) {
            let mut fields = line.split('\t');
            match (fields.next(), fields.next(), fields.next(), fields.next()) {
                (Some(eco), Some(name), Some(pgn), None) => {
                    lines.push((eco.to_string(), name.to_string(), pgn.to_string()));
                }
                _ => fail(&format!(
                    "{path}:{}: not three tab-separated fields",
                    number + 1
                )),
            }
        }
    }
    if lines.len() > usize::from(u16::MAX) {
        fail("more lines than a u16 numbers");
    }
    let sans: Vec<Vec<&str>> = lines
        .iter()
        .map(|(_, _, pgn)| {
            pgn.split_ascii_whitespace()
                .filter(|t| !t.ends_with('.'))
                .collect()
        })
        .collect();
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by(|&a, &b| sans[a].cmp(&sans[b]));

    let mut out = String::new();
    let _ = writeln!(
        out,
        "/// The lines of the data set in the files' order: ECO, name, moves as written."
    );
    let _ = writeln!(
        out,
        "pub(super) static LINES: [(&str, &str, &str); {}] = [",
        lines.len()
    );
    for (eco, name, pgn) in &lines {
        let _ = writeln!(out, "    ({eco:?}, {name:?}, {pgn:?}),");
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(
        out,
        "/// The replay order: a line's index in `LINES`, and how many of its first moves \
         are those of the line before it in this order."
    );
    let _ = writeln!(
        out,
        "pub(super) static REPLAY: [(u16, u16); {}] = [",
        lines.len()
    );
    let mut previous: &[&str] = &[];
    for &i in &order {
        let common = previous
            .iter()
            .zip(&sans[i])
            .take_while(|(a, b)| a == b)
            .count();
        let _ = writeln!(out, "    ({i}, {common}),");
        previous = &sans[i];
    }
    let _ = writeln!(out, "];");

    let Some(dir) = env::var_os("OUT_DIR") else {
        fail("OUT_DIR is not set");
    };
    let target = Path::new(&dir).join("openings.rs");
    if let Err(error) = fs::write(&target, out) {
        fail(&format!("{}: {error}", target.display()));
    }
}

fn fail(what: &str) -> ! {
    eprintln!("build.rs: the opening data set: {what}");
    std::process::exit(1);
}
