//! What `--to tsv --fields LIST` and `--to json` write of a selected game.

use super::eval::{pgn_date, GameView, Selector};
use super::{Query, QueryError, Why};
use crate::moves::CastlingMode;
use crate::position::Position;

/// Where the game's number goes in a worker's text: the worker does not know it; the
/// writer, which numbers the games in order, puts it there. No other 0 byte is ever
/// written (tab, newline and control characters are blanked or escaped).
pub const NUMBER_MARK: u8 = 0;

/// One column of `--to tsv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Column {
    /// A tag's value, by its index among the query's tags.
    Tag(usize),
    Year(usize),
    MinElo(usize, usize),
    MaxElo(usize, usize),
    Number,
    Plies,
    /// The game's result, as `--to pgn` writes it.
    Result,
    End,
    Eco,
    Opening,
    /// The final position's FEN.
    Fen,
    /// The main line in UCI.
    Moves,
    /// The main line in SAN.
    San,
}

/// The columns of a comma-separated list, each with its name for the header.
pub fn parse_fields(list: &str, query: &mut Query) -> Result<Vec<(String, Column)>, QueryError> {
    let mut out = Vec::new();
    let mut at = 0;
    for name in list.split(',') {
        let field = name.trim();
        let column = match field.to_ascii_lowercase().as_str() {
            "white" => Column::Tag(query.tag_index("White")),
            "black" => Column::Tag(query.tag_index("Black")),
            "event" => Column::Tag(query.tag_index("Event")),
            "site" => Column::Tag(query.tag_index("Site")),
            "date" => Column::Tag(query.tag_index("Date")),
            "round" => Column::Tag(query.tag_index("Round")),
            "whiteelo" => Column::Tag(query.tag_index("WhiteElo")),
            "blackelo" => Column::Tag(query.tag_index("BlackElo")),
            "timecontrol" => Column::Tag(query.tag_index("TimeControl")),
            "year" => Column::Year(query.tag_index("Date")),
            "minelo" => Column::MinElo(query.tag_index("WhiteElo"), query.tag_index("BlackElo")),
            "maxelo" => Column::MaxElo(query.tag_index("WhiteElo"), query.tag_index("BlackElo")),
            "n" => Column::Number,
            "plies" => Column::Plies,
            "result" => Column::Result,
            "end" => Column::End,
            "eco" => Column::Eco,
            "opening" => Column::Opening,
            "fen" => Column::Fen,
            "moves" => Column::Moves,
            "san" => Column::San,
            _ => match field.split_once('.') {
                Some((prefix, tag))
                    if prefix.eq_ignore_ascii_case("tag")
                        && crate::pgn::tags::is_valid_name(tag) =>
                {
                    Column::Tag(query.tag_index(tag))
                }
                _ => {
                    return Err(QueryError::new(
                        Why::UnknownColumn(field.to_string()),
                        at + name.len() - name.trim_start().len(),
                    ))
                }
            },
        };
        out.push((field.to_string(), column));
        at += name.len() + 1;
    }
    Ok(out)
}

/// Text for a TSV cell: tabs, line breaks and other control characters as spaces.
fn cell(out: &mut Vec<u8>, text: &str) {
    out.extend(
        text.bytes()
            .map(|b| if b.is_ascii_control() { b' ' } else { b }),
    );
}

fn number(value: Option<f64>) -> String {
    value.map_or(String::new(), |v| {
        if v.fract() == 0.0 && v.abs() < 1e15 {
            format!("{}", v as i64)
        } else {
            format!("{v}")
        }
    })
}

fn moves_uci(view: &GameView<'_>, mode: CastlingMode) -> String {
    let mut text = String::new();
    for m in view.game.moves() {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&m.to_uci(mode).to_string());
    }
    text
}

fn moves_san(view: &GameView<'_>) -> String {
    let mut text = String::new();
    let mut pos: Position = *view.game.base();
    for m in view.game.moves() {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&pos.san(m));
        pos.play_unchecked(m);
    }
    text
}

/// One TSV line of a game.
pub fn write_tsv(
    out: &mut Vec<u8>,
    columns: &[(String, Column)],
    selector: &Selector,
    view: &mut GameView<'_>,
    result: &str,
) {
    let mode = view.game.mode();
    let tag_number = |i: usize| -> Option<f64> { selector.value(i)?.trim().parse().ok() };
    for (i, (_, column)) in columns.iter().enumerate() {
        if i > 0 {
            out.push(b'\t');
        }
        match column {
            Column::Tag(t) => cell(out, selector.value(*t).unwrap_or("")),
            Column::Year(t) => cell(
                out,
                &number(
                    selector
                        .value(*t)
                        .and_then(|d| pgn_date(d)[0])
                        .map(f64::from),
                ),
            ),
            Column::MinElo(w, b) => cell(
                out,
                &number(tag_number(*w).zip(tag_number(*b)).map(|(w, b)| w.min(b))),
            ),
            Column::MaxElo(w, b) => cell(
                out,
                &number(tag_number(*w).zip(tag_number(*b)).map(|(w, b)| w.max(b))),
            ),
            Column::Number => out.push(NUMBER_MARK),
            Column::Plies => cell(out, &view.plies().to_string()),
            Column::Result => cell(out, result),
            Column::End => cell(out, view.end()),
            Column::Eco => {
                let eco = view.eco();
                cell(out, eco)
            }
            Column::Opening => {
                let name = view.opening_name();
                cell(out, name)
            }
            Column::Fen => cell(out, &view.position().fen()),
            Column::Moves => cell(out, &moves_uci(view, mode)),
            Column::San => cell(out, &moves_san(view)),
        }
    }
    out.push(b'\n');
}

fn json_string(out: &mut Vec<u8>, text: &str) {
    // serde_json escapes every control character: no 0 byte is left raw.
    out.extend_from_slice(
        serde_json::to_string(text)
            .unwrap_or_else(|_| "\"\"".to_string())
            .as_bytes(),
    );
}

/// One JSON Lines object of a game: its number, tags in file order, moves, result, end,
/// plies, opening and final FEN.
pub fn write_json(out: &mut Vec<u8>, selector: &Selector, view: &mut GameView<'_>, result: &str) {
    let mode = view.game.mode();
    out.extend_from_slice(b"{\"n\":");
    out.push(NUMBER_MARK);
    out.extend_from_slice(b",\"tags\":{");
    let mut seen: Vec<&str> = Vec::new();
    for (name, value) in selector.all_tags() {
        if seen.contains(&name.as_str()) {
            continue;
        }
        if !seen.is_empty() {
            out.push(b',');
        }
        seen.push(name);
        json_string(out, name);
        out.push(b':');
        json_string(out, value);
    }
    out.extend_from_slice(b"},\"moves\":");
    json_string(out, &moves_uci(view, mode));
    out.extend_from_slice(b",\"san\":");
    json_string(out, &moves_san(view));
    out.extend_from_slice(b",\"result\":");
    json_string(out, result);
    out.extend_from_slice(b",\"end\":");
    json_string(out, view.end());
    out.extend_from_slice(format!(",\"plies\":{}", view.plies()).as_bytes());
    out.extend_from_slice(b",\"eco\":");
    let eco = view.eco();
    json_string(out, eco);
    out.extend_from_slice(b",\"opening\":");
    let name = view.opening_name();
    json_string(out, name);
    out.extend_from_slice(b",\"fen\":");
    json_string(out, &view.position().fen());
    out.extend_from_slice(b"}\n");
}
