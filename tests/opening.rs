//! The protocol's `opening` against an independent model: shakmaty replays every line of
//! the opening data set (data/openings/*.tsv, read here from the files), names each
//! final position by its EPD (the first line in file order naming it wins), and walks
//! back through a game's positions as the rule says. Every line of the data set, with
//! zero to three more moves after it, goes through one arbiter process.

use std::collections::HashMap;
use std::path::PathBuf;

use shakmaty::fen::Epd;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

use crate::protocol::run_arbiter;

fn epd(pos: &Chess) -> String {
    Epd::from_position(pos.clone(), EnPassantMode::Legal).to_string()
}

/// Every line of the data set: ECO, name, moves in SAN.
fn data_set() -> Vec<(String, String, Vec<String>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/openings");
    let mut lines = Vec::new();
    for file in ["a", "b", "c", "d", "e"] {
        let text = std::fs::read_to_string(root.join(format!("{file}.tsv"))).expect("read tsv");
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split('\t').collect();
            let moves = fields[2]
                .split_whitespace()
                .filter(|t| !t.ends_with('.'))
                .map(str::to_string)
                .collect();
            lines.push((fields[0].to_string(), fields[1].to_string(), moves));
        }
    }
    lines
}

#[test]
fn opening_names_what_shakmaty_names_for_every_line_of_the_data_set_and_past_it() {
    let lines = data_set();
    assert_eq!(lines.len(), 3807);
    let mut named: HashMap<String, String> = HashMap::new();
    let mut games: Vec<Vec<Chess>> = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut input = String::new();
    let mut ucis_of = Vec::new();
    for (eco, name, moves) in &lines {
        let mut pos = Chess::default();
        let mut positions = vec![pos.clone()];
        let mut ucis = Vec::new();
        for san in moves {
            let m = san
                .parse::<San>()
                .expect("SAN")
                .to_move(&pos)
                .expect("legal");
            ucis.push(m.to_uci(CastlingMode::Standard).to_string());
            pos.play_unchecked(&m);
            positions.push(pos.clone());
        }
        named
            .entry(epd(&pos))
            .or_insert_with(|| format!("{eco} {name}"));
        // Zero to three more moves, drawn from the legal ones: positions past the line,
        // some of them named by other lines.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        for k in 0..seed % 4 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[((seed >> (8 + 8 * k)) as usize) % legal.len()].clone();
            ucis.push(m.to_uci(CastlingMode::Standard).to_string());
            pos.play_unchecked(&m);
            positions.push(pos.clone());
        }
        input.push_str(&format!(
            "position startpos moves {}\nopening\n",
            ucis.join(" ")
        ));
        games.push(positions);
        ucis_of.push(ucis);
    }
    let (run, written) = run_arbiter(&[], input);
    written.expect("all input written");
    let answers: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(answers.len(), games.len(), "{}", run.stderr);
    let mut disagreements = Vec::new();
    let mut past_the_line = 0;
    for ((positions, answer), ucis) in games.iter().zip(&answers).zip(&ucis_of) {
        let expected = positions
            .iter()
            .rev()
            .find_map(|pos| named.get(&epd(pos)))
            .map_or("opening none".to_string(), |n| format!("opening {n}"));
        if *answer != expected {
            disagreements.push(format!("{}: {answer} vs {expected}", ucis.join(" ")));
        }
        if let Some(last) = positions.last() {
            past_the_line += usize::from(!named.contains_key(&epd(last)));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements[..disagreements.len().min(20)].join("\n")
    );
    // The walk back is exercised: many games end on a position no line names.
    assert!(
        past_the_line > 1000,
        "only {past_the_line} games past a named position"
    );
}
