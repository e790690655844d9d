//! Deciding a question for one game: its tags as the reader gives them, before any
//! move is replayed, then (when the tags leave it open) its moves.

use std::cmp::Ordering;
use std::sync::Arc;

use super::lex::Op;
use super::{openings, Atom, Cond, Matcher, Phase, Query, Subject};
use crate::game::Game;
use crate::position::Position;

/// A text value against a matcher.
pub fn match_text(m: &Matcher, value: &str) -> bool {
    match m {
        Matcher::Text(op, want) => match op {
            Op::Contains => contains_ignoring_case(value, want),
            Op::StartsWith => value.starts_with(want.as_str()),
            Op::Matches => false,
            op => op.holds(value.cmp(want)),
        },
        Matcher::Regex(re) => re.is_match(value),
        Matcher::Number(_, _) => value
            .trim()
            .parse::<f64>()
            .is_ok_and(|n| match_number(m, n)),
        Matcher::Date(op, want) => {
            let parts = pgn_date(value);
            compare_date(*op, &parts, want)
        }
    }
}

/// A number against a matcher (a text matcher sees its decimal text).
pub fn match_number(m: &Matcher, value: f64) -> bool {
    match m {
        Matcher::Number(op, want) => value.partial_cmp(want).is_some_and(|o| op.holds(o)),
        _ => match_text(m, &format_number(value)),
    }
}

fn format_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

fn contains_ignoring_case(hay: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return true;
    }
    let hay = hay.as_bytes();
    let needle = needle.as_bytes();
    hay.windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

/// The parts of a PGN date (`YYYY.MM.DD`), `None` for one not known (`??`) or not a
/// number.
pub fn pgn_date(value: &str) -> [Option<u32>; 3] {
    let mut parts = [None; 3];
    for (slot, part) in parts.iter_mut().zip(value.trim().split('.')) {
        if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
            *slot = part.parse().ok();
        }
    }
    parts
}

/// A date against a literal of 1 to 3 parts: every part the literal gives must be
/// known in the date, then the parts compare in order.
fn compare_date(op: Op, date: &[Option<u32>; 3], want: &[u32]) -> bool {
    let mut order = Ordering::Equal;
    for (have, want) in date.iter().zip(want) {
        let Some(have) = have else {
            return false;
        };
        if order == Ordering::Equal {
            order = have.cmp(want);
        }
    }
    op.holds(order)
}

/// What a game's moves say, worked out as the atoms and columns ask for it.
pub struct GameView<'g> {
    pub game: &'g Game,
    opening: Option<Option<&'static openings::Opening>>,
}

impl<'g> GameView<'g> {
    pub fn new(game: &'g Game) -> GameView<'g> {
        GameView {
            game,
            opening: None,
        }
    }

    pub fn plies(&self) -> usize {
        self.game.moves().len()
    }

    /// How the final position ends the game by itself, by the rules' precedence:
    /// checkmate, insufficient material, stalemate, the seventy-five-move rule,
    /// fivefold repetition; `none` when it does not.
    pub fn end(&self) -> &'static str {
        let pos = self.game.position();
        let stuck = !pos.has_legal_moves();
        if stuck && pos.is_check() {
            "checkmate"
        } else if pos.is_insufficient_material() {
            "insufficient-material"
        } else if stuck {
            "stalemate"
        } else if pos.halfmoves() >= 150 {
            "seventy-five-move"
        } else if self.game.repetitions() >= 5 {
            "fivefold"
        } else {
            "none"
        }
    }

    /// The named opening of the last position of the main line that has a name.
    pub fn opening(&mut self) -> Option<&'static openings::Opening> {
        if let Some(known) = self.opening {
            return known;
        }
        let found = openings::classify(self.game);
        self.opening = Some(found);
        found
    }

    pub fn eco(&mut self) -> &'static str {
        self.opening().map_or("", |o| o.eco)
    }

    pub fn opening_name(&mut self) -> &'static str {
        self.opening().map_or("", |o| o.name)
    }

    /// The final position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }
}

/// Whether some position of the main line, the start included, satisfies every
/// condition at once.
fn reaches(game: &Game, conds: &[Cond]) -> bool {
    // A key asked for is looked for first among the keys the game already holds: a
    // position's repetition key is its Polyglot key, or that key without the
    // en-passant file when no capture there is legal. No candidate, no replay.
    if let Some(key) = conds.iter().find_map(|c| match c {
        Cond::Key(key) => Some(*key),
        _ => None,
    }) {
        let candidate = |k: u64| k == key || (0..8).any(|file| k ^ ep_file_key(file) == key);
        if !candidate(game.base().repetition_key()) && !game.keys().any(candidate) {
            return false;
        }
    }
    reaches_replayed(game, conds)
}

fn ep_file_key(file: usize) -> u64 {
    crate::position::ep_key_of_file(file)
}

fn reaches_replayed(game: &Game, conds: &[Cond]) -> bool {
    let holds = |pos: &Position, ply: usize| conds.iter().all(|c| c.holds(pos, ply));
    let over = |ply: usize| conds.iter().any(|c| c.over_after(ply));
    let mut pos = *game.base();
    if holds(&pos, 0) {
        return true;
    }
    for (i, m) in game.moves().enumerate() {
        if over(i) {
            return false;
        }
        pos.play_unchecked(m);
        if holds(&pos, i + 1) {
            return true;
        }
    }
    false
}

/// The tags of a game as far as a query needs them, and the verdict they give.
pub struct Selector {
    query: Arc<Query>,
    /// The values of `query.tags`, in that order.
    values: Vec<Option<String>>,
    /// Every tag in file order, when the output needs them all.
    all: Option<Vec<(String, String)>>,
    /// The facts of the tag atoms: bit `i` for atom `i`.
    tag_facts: u64,
    /// The verdict of the tags: `Some(false)` when the game fails whatever its moves.
    decided: Option<Option<bool>>,
}

impl Selector {
    /// A selector for `query`; `all_tags` keeps every tag too (for `--to json`).
    pub fn new(query: Arc<Query>, all_tags: bool) -> Selector {
        Selector {
            values: vec![None; query.tags.len()],
            query,
            all: all_tags.then(Vec::new),
            tag_facts: 0,
            decided: None,
        }
    }

    pub fn query(&self) -> &Query {
        &self.query
    }

    /// A new game begins.
    pub fn begin(&mut self) {
        self.values.iter_mut().for_each(|v| *v = None);
        if let Some(all) = &mut self.all {
            all.clear();
        }
        self.decided = None;
        self.tag_facts = 0;
    }

    /// A tag pair as read: its name, its value with escapes still in.
    pub fn tag(&mut self, name: &[u8], raw: &[u8]) {
        let wanted = self.query.tags.iter().position(|t| t.as_bytes() == name);
        if wanted.is_none() && self.all.is_none() {
            return;
        }
        let mut value = crate::pgn::tags::decode(&crate::pgn::reader::unescape(raw));
        if value.contains('\t') {
            value = value.replace('\t', " ");
        }
        if let Some(all) = &mut self.all {
            all.push((String::from_utf8_lossy(name).into_owned(), value.clone()));
        }
        if let Some(i) = wanted {
            // The first of a name given twice (the game is broken anyway).
            if self.values[i].is_none() {
                self.values[i] = Some(value);
            }
        }
    }

    /// The value of tag `i` of the query's tags.
    pub fn value(&self, i: usize) -> Option<&str> {
        self.values.get(i)?.as_deref()
    }

    /// Every tag in file order (when kept).
    pub fn all_tags(&self) -> &[(String, String)] {
        self.all.as_deref().unwrap_or(&[])
    }

    /// Decides what the tags can decide: `false` when the game fails whatever its
    /// moves and number, and need not be replayed. Once per game.
    pub fn decide(&mut self) -> bool {
        if let Some(decided) = self.decided {
            return decided != Some(false);
        }
        let mut facts = 0u64;
        for (i, atom) in self.query.atoms.iter().enumerate() {
            if atom.subject.phase() == Phase::Tags && self.tag_atom(atom) {
                facts |= 1 << i;
            }
        }
        self.tag_facts = facts;
        let query = Arc::clone(&self.query);
        let verdict = query.eval(&mut |i| {
            (query.atoms[i].subject.phase() == Phase::Tags).then_some(facts >> i & 1 == 1)
        });
        self.decided = Some(verdict);
        verdict != Some(false)
    }

    /// Whether the tags alone already fail the game.
    pub fn failed(&mut self) -> bool {
        !self.decide()
    }

    fn tag_atom(&self, atom: &Atom) -> bool {
        let Some(m) = &atom.matcher else {
            return false;
        };
        let number = |i: usize| -> Option<f64> { self.value(i)?.trim().parse::<f64>().ok() };
        match atom.subject {
            Subject::Tag(i) | Subject::Date(i) => self.value(i).is_some_and(|v| match_text(m, v)),
            Subject::Either(w, b) => {
                self.value(w).is_some_and(|v| match_text(m, v))
                    || self.value(b).is_some_and(|v| match_text(m, v))
            }
            Subject::MinOf(w, b) => match (number(w), number(b)) {
                (Some(w), Some(b)) => match_number(m, w.min(b)),
                _ => false,
            },
            Subject::MaxOf(w, b) => match (number(w), number(b)) {
                (Some(w), Some(b)) => match_number(m, w.max(b)),
                _ => false,
            },
            Subject::Year(i) => self
                .value(i)
                .and_then(|v| pgn_date(v)[0])
                .is_some_and(|y| match_number(m, f64::from(y))),
            _ => false,
        }
    }

    /// The facts of every atom but the game's number: the tags' and, when the tags
    /// leave the verdict open, the moves'.
    pub fn facts(&mut self, view: &mut GameView<'_>) -> u64 {
        self.decide();
        let mut facts = self.tag_facts;
        if self.decided.flatten().is_some() {
            return facts;
        }
        for (i, atom) in self.query.atoms.iter().enumerate() {
            if atom.subject.phase() == Phase::Moves && move_atom(atom, view) {
                facts |= 1 << i;
            }
        }
        facts
    }
}

fn move_atom(atom: &Atom, view: &mut GameView<'_>) -> bool {
    match (&atom.subject, &atom.matcher) {
        (Subject::Reach(conds), _) => reaches(view.game, conds),
        (Subject::Final(conds), _) => {
            let pos = *view.position();
            let ply = view.plies();
            conds.iter().all(|c| c.holds(&pos, ply))
        }
        (Subject::Plies, Some(m)) => match_number(m, view.plies() as f64),
        (Subject::End, Some(m)) => match_text(m, view.end()),
        (Subject::Eco, Some(m)) => {
            let eco = view.eco();
            match_text(m, eco)
        }
        (Subject::Opening, Some(m)) => {
            let name = view.opening_name();
            match_text(m, name)
        }
        _ => false,
    }
}
