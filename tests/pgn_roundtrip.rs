//! PGN round trip through the protocol (proptest): a random game is set up in one
//! `Session` with `position`, given random tags with `tag` and maybe ended with
//! `resign`, `draw`, `claim`, `timeout` or `abort` (a Chess960 game is one by
//! `position ... chess960`); its `pgn` answer is written to a file and loaded with
//! `position pgn` into a fresh session, which must show the same FEN, history, status,
//! tags, castling mode and undo answer, and write the same `pgn` byte for byte.
//!
//! The games come from the property tests' move chooser (which makes repetitions and
//! the draw rules common), from their start positions (standard, Chess960, clocks near
//! the fifty- and seventy-five-move rules), from random Chess960 starts, and from a few
//! endgames; a "greedy" game takes a move that ends the game (mate or stalemate) when
//! there is one, so that every way a game ends comes up (`every_ending_comes_up`).
//!
//! A claimed draw comes back as the claim: `pgn` writes its `Termination` tag
//! (`threefold repetition`, `fifty-move rule`), which `position pgn` reads back.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use arbiter::game::{Game, State};
use arbiter::moves::CastlingMode;
use arbiter::moves::Move;
use arbiter::pgn::database::{self, Config, Source, Target};
use arbiter::position::Position;
use arbiter::protocol::{Reply, Session};
use proptest::prelude::*;

use crate::differential::{chess960_fen, Rng};
use crate::properties::{cases, choose, STARTS};

/// Endgames where random play soon mates, stalemates or runs out of material, with
/// white and with black to move, and positions where the game is over at once.
const ENDGAMES: &[&str] = &[
    "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1",
    "k7/8/8/8/8/8/5Q2/6K1 w - - 0 1",
    "6k1/8/8/8/8/8/q7/6K1 b - - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "r3k3/8/8/8/8/8/8/4K3 b q - 0 1",
    "7k/5K2/8/8/8/8/8/1R6 w - - 30 60",
    "k7/2K5/8/8/8/8/2B5/7N w - - 0 1",
    // Over before any move: mate, stalemate, insufficient material.
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
    "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
];

/// How a game is ended by hand after its moves (when it is not over already).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    None,
    Resign,
    ResignWhite,
    ResignBlack,
    Draw,
    Claim,
    TimeoutWhite,
    TimeoutBlack,
    Abort,
}

const ENDINGS: [Ending; 9] = [
    Ending::None,
    Ending::Resign,
    Ending::ResignWhite,
    Ending::ResignBlack,
    Ending::Draw,
    Ending::Claim,
    Ending::TimeoutWhite,
    Ending::TimeoutBlack,
    Ending::Abort,
];

/// Everything that makes one test game.
#[derive(Clone, Debug)]
struct Recipe {
    /// Into STARTS, then ENDGAMES, then one past them: a random Chess960 start.
    start: usize,
    chess960_start: usize,
    choices: Vec<u16>,
    greedy: bool,
    ending: Ending,
    tags: Vec<(String, String)>,
}

fn start_of(recipe: &Recipe) -> (String, bool) {
    let i = recipe.start % (STARTS.len() + ENDGAMES.len() + 1);
    if i < STARTS.len() {
        (STARTS[i].0.to_string(), STARTS[i].1)
    } else if i < STARTS.len() + ENDGAMES.len() {
        (ENDGAMES[i - STARTS.len()].to_string(), false)
    } else {
        (chess960_fen(recipe.chess960_start % 960, false), true)
    }
}

/// A legal move that leaves the other side without a legal move, if there is one.
fn ending_move(pos: &Position) -> Option<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .find(|&m| pos.after(m).legal_moves().is_empty())
}

/// The moves of the game, stopping when it is over (or, for a claim, can be claimed).
fn moves_of(base: Position, mode: CastlingMode, recipe: &Recipe) -> Vec<Move> {
    let mut game = Game::new(base, mode);
    let mut played: Vec<Move> = Vec::new();
    for &choice in &recipe.choices {
        let status = game.status();
        // A game to be claimed stops at its first claimable position.
        if status.is_over() || (recipe.ending == Ending::Claim && !status.claims.is_empty()) {
            break;
        }
        let ours_before = played.len().checked_sub(2).map(|i| played[i]);
        let greedy = if recipe.greedy {
            ending_move(game.position())
        } else {
            None
        };
        let Some(m) = greedy.or_else(|| choose(game.position(), ours_before, choice)) else {
            break;
        };
        game.play(m);
        played.push(m);
    }
    played
}

fn render(reply: &Reply) -> String {
    let mut out = Vec::new();
    reply.write_to(&mut out).expect("write to a Vec");
    String::from_utf8(out).expect("answers are UTF-8")
}

/// Runs a line that must not fail.
fn run(session: &mut Session, line: &str) -> String {
    let reply = session.execute(line);
    assert!(
        !matches!(reply, Reply::Error(_)),
        "{line}: {}",
        render(&reply)
    );
    render(&reply)
}

/// The first session: the game, its tags and its ending as a protocol client sets them.
fn first_session(recipe: &Recipe) -> Session {
    let (fen, chess960) = start_of(recipe);
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let base = Position::from_fen(&fen).expect("start FEN");
    let moves = moves_of(base, mode, recipe);
    let mut session = Session::new();
    // Chess960 for this game alone: the loaded game comes back so from its Variant tag.
    let mut line = format!(
        "position fen {fen}{}",
        if chess960 { " chess960" } else { "" }
    );
    if !moves.is_empty() {
        line.push_str(" moves");
        for m in &moves {
            line.push(' ');
            line.push_str(&m.to_uci(mode).to_string());
        }
    }
    run(&mut session, &line);
    for (name, value) in &recipe.tags {
        // Derived names (FEN, SetUp, Variant, Result), in any case, are refused; that
        // is tested elsewhere, and the game simply goes without them.
        // So are values with a control character (tab included), which PGN export
        // format cannot hold.
        let reply = session.execute(&format!("tag {name} {value}"));
        if let Reply::Error(e) = &reply {
            assert!(
                ["Result", "SetUp", "FEN", "Variant"]
                    .iter()
                    .any(|d| d.eq_ignore_ascii_case(name))
                    || value.chars().any(char::is_control),
                "tag {name} {value:?}: {e}"
            );
        }
    }
    if !session.game().status().is_over() {
        // A claim with nothing to claim answers no-claim; the game goes on.
        let _ = session.execute(match recipe.ending {
            Ending::None => "",
            Ending::Resign => "resign",
            Ending::ResignWhite => "resign white",
            Ending::ResignBlack => "resign black",
            Ending::Draw => "draw",
            Ending::Claim => "claim",
            Ending::TimeoutWhite => "timeout white",
            Ending::TimeoutBlack => "timeout black",
            Ending::Abort => "abort",
        });
    }
    session
}

/// A file name of its own for each game (tests run on several threads).
fn temp_pgn() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("arbiter-roundtrip-{}-{n}.pgn", std::process::id()))
}

/// The `pgn` answer without its closing `end` line: the PGN text itself.
fn pgn_text(session: &mut Session) -> String {
    let answer = run(session, "pgn");
    match answer.strip_suffix("end\n") {
        Some(text) => text.to_string(),
        None => panic!("pgn does not end with end: {answer:?}"),
    }
}

/// What a client sees of the game, queried the same way in both sessions.
fn observed(session: &mut Session) -> Vec<String> {
    ["fen", "history", "status", "check", "d"]
        .iter()
        .map(|q| run(session, q))
        .collect()
}

/// Plays one recipe through both sessions; describes the first difference.
fn round_trip(recipe: &Recipe) -> Result<(), String> {
    let mut first = first_session(recipe);
    let text = pgn_text(&mut first);
    let path = temp_pgn();
    std::fs::write(&path, &text).map_err(|e| format!("write {}: {e}", path.display()))?;
    let mut second = Session::new();
    let loaded = second.execute(&format!("position pgn {}", path.display()));
    let _ = std::fs::remove_file(&path);
    if !matches!(loaded, Reply::Silent) {
        return Err(format!(
            "position pgn answered {}for\n{text}",
            render(&loaded)
        ));
    }
    let expected = observed(&mut first);
    let got = observed(&mut second);
    if got != expected {
        return Err(format!(
            "after loading\n{text}\nexpected {expected:?}\nbut got  {got:?}"
        ));
    }
    if first.tags() != second.tags() {
        return Err(format!(
            "tags differ for\n{text}\n{:?}\n{:?}",
            first.tags(),
            second.tags()
        ));
    }
    if first.game().mode() != second.game().mode() || first.game().base() != second.game().base() {
        return Err(format!("mode or base position differ for\n{text}"));
    }
    let again = pgn_text(&mut second);
    if again != text {
        return Err(format!("pgn differs:\n{text}\nthen\n{again}"));
    }
    let (undo1, undo2) = (run_any(&mut first, "undo"), run_any(&mut second, "undo"));
    if undo1 != undo2 || observed(&mut first) != observed(&mut second) {
        return Err(format!("undo differs for\n{text}\n{undo1}{undo2}"));
    }
    Ok(())
}

fn run_any(session: &mut Session, line: &str) -> String {
    render(&session.execute(line))
}

/// Tag names: the roster's, the derived ones (refused), and random valid names.
fn tag_name() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "FEN",
            "SetUp",
            "Variant",
            "Annotator",
        ])
        .prop_map(str::to_string),
        "[A-Za-z][A-Za-z0-9_]{0,12}",
    ]
}

/// Characters for tag values: what PGN must escape, what its movetext gives meaning
/// to, blanks of several kinds, and non-ASCII letters and symbols (no carriage return:
/// inside a command line it is bad input).
const VALUE_CHARS: &[char] = &[
    'a', 'Z', '0', '9', ' ', ' ', '"', '\\', '[', ']', '{', '}', '(', ')', ';', '%', '$', '*', '-',
    '/', '.', '\t', 'é', 'ß', 'ü', '中', '♞', '😀', '\u{a0}', '\u{3000}', '\u{feff}',
];

fn tag_value() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VALUE_CHARS), 1..24)
        .prop_map(|chars| chars.into_iter().collect())
}

fn recipe() -> impl Strategy<Value = Recipe> {
    (
        0..STARTS.len() + ENDGAMES.len() + 1,
        0..960usize,
        prop::collection::vec(any::<u16>(), 0..160),
        prop::bool::weighted(0.3),
        prop::sample::select(ENDINGS.to_vec()),
        prop::collection::vec((tag_name(), tag_value()), 0..6),
    )
        .prop_map(
            |(start, chess960_start, choices, greedy, ending, tags)| Recipe {
                start,
                chess960_start,
                choices,
                greedy,
                ending,
                tags,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn pgn_round_trips_through_position_pgn(recipe in recipe()) {
        if let Err(why) = round_trip(&recipe) {
            return Err(TestCaseError::fail(why));
        }
    }
}

/// The recipes do reach every ending, or the property proves little: of 300 seeded
/// recipes, some end in checkmate, stalemate, an automatic draw, a resignation, an
/// agreement and a claim, and some are Chess960 games or start with black to move.
#[test]
fn every_ending_comes_up() {
    let mut rng = Rng::new(0x9e3a_0007);
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for _ in 0..300 {
        let recipe = Recipe {
            start: rng.below(STARTS.len() + ENDGAMES.len() + 1),
            chess960_start: rng.below(960),
            choices: (0..rng.below(160)).map(|_| rng.next() as u16).collect(),
            greedy: rng.chance(30),
            ending: ENDINGS[rng.below(ENDINGS.len())],
            tags: Vec::new(),
        };
        let session = first_session(&recipe);
        let game = session.game();
        let status = game.status();
        let kind = match (status.state, status.reason) {
            (State::Draw, Some(reason)) => format!("draw {}", reason.name()),
            (state, _) => format!("{state:?}"),
        };
        *seen.entry(kind).or_default() += 1;
        if game.mode() == CastlingMode::Chess960 {
            *seen.entry("chess960".to_string()).or_default() += 1;
        }
        if game.base().turn() == arbiter::color::Color::Black {
            *seen.entry("black first".to_string()).or_default() += 1;
        }
    }
    eprintln!("{seen:?}");
    for kind in [
        "Checkmate",
        "Stalemate",
        "Resigned",
        "Timeout",
        "Aborted",
        "draw timeout-vs-insufficient-material",
        "Active",
        "draw agreement",
        "draw threefold",
        "draw insufficient-material",
        "chess960",
        "black first",
    ] {
        assert!(
            seen.get(kind).copied().unwrap_or(0) >= 3,
            "{kind} came up {} times in {seen:?}",
            seen.get(kind).copied().unwrap_or(0)
        );
    }
}

/// Comment words that a wrap could put at the start of a line where a reader takes them
/// for something else (a tag section, a `%` escape line), embedded commands that clock
/// parsers read line by line, and brackets. No `{`: a comment holding a line that
/// starts `[Event ` and then a `{` reads as one never closed (docs/pgn.md), which the
/// input text here, one word a line, would make; `--to pgn` never starts a line so.
const COMMENT_WORDS: &[&str] = &[
    "a",
    "long",
    "word",
    "[Event",
    "\"x\"]",
    "[Event \"x\"]",
    "%",
    "%escape",
    "[%clk 0:01:02]",
    "[%eval -0.35]",
    "[%csl Ra1,Gb2]",
    "[",
    "]",
    "[x]",
    "%]",
    "é",
    "(",
    ")",
    ";",
    "1-0",
];

/// A game's moves and the comments after its plies (ply 0: before the first move):
/// `{ }` comments, or `;` comments holding a `}`.
#[derive(Clone, Debug)]
struct Commented {
    choices: Vec<u16>,
    comments: Vec<(usize, bool, Vec<&'static str>)>,
}

fn commented() -> impl Strategy<Value = Commented> {
    (
        prop::collection::vec(any::<u16>(), 0..60),
        prop::collection::vec(
            (
                0..60usize,
                prop::bool::weighted(0.2),
                prop::collection::vec(prop::sample::select(COMMENT_WORDS), 1..30),
            ),
            0..8,
        ),
    )
        .prop_map(|(choices, comments)| Commented { choices, comments })
}

/// The game as PGN text, its comments written where a wrap puts no constraint on them.
fn commented_text(recipe: &Commented) -> String {
    let mut pos = Position::startpos();
    let mut text = String::from("[Event \"c\"]\n\n");
    let mut played: Vec<Move> = Vec::new();
    let write_comments = |text: &mut String, ply: usize| {
        for (_, line, words) in recipe.comments.iter().filter(|c| c.0 == ply) {
            if *line {
                text.push_str(&format!("; {} }} tail\n", words.join(" ")));
            } else {
                text.push_str(&format!("{{{}}} ", words.join("\n")));
            }
        }
    };
    write_comments(&mut text, 0);
    for &choice in &recipe.choices {
        let ours_before = played.len().checked_sub(2).map(|i| played[i]);
        let Some(m) = choose(&pos, ours_before, choice) else {
            break;
        };
        if pos.turn() == arbiter::color::Color::White {
            text.push_str(&format!("{}. ", pos.fullmoves()));
        }
        text.push_str(&format!("{} ", pos.san(m)));
        pos = pos.after(m);
        played.push(m);
        write_comments(&mut text, played.len());
    }
    text.push_str("*\n");
    text
}

/// `arbiter --pgn --to pgn` over a text, with `jobs` threads.
fn to_pgn(text: &str, jobs: usize) -> (String, database::Summary) {
    let config = Config {
        target: Target::Pgn,
        jobs,
        ..Config::default()
    };
    let source = Source {
        name: "-".to_string(),
        reader: text.as_bytes(),
        ready: true,
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let summary = database::run(vec![source], config, &mut out, &mut err).expect("run");
    (String::from_utf8(out).expect("UTF-8"), summary)
}

/// What is wrong with the layout of `--to pgn` text, if anything: a movetext line that
/// starts with `[` or `%`, or an embedded command split across lines.
fn layout_fault(pgn: &str) -> Option<String> {
    for game in pgn
        .split("\n\n[")
        .map(|g| g.split_once("\n\n").map_or("", |(_, m)| m))
    {
        for line in game.lines() {
            if line.starts_with(['[', '%']) {
                return Some(format!("a line starts with {:?}", &line[..1]));
            }
            for (at, _) in line.match_indices("[%") {
                if !line[at..].contains(']') {
                    return Some(format!("a command is split: {line}"));
                }
            }
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// `--to pgn` keeps every comment (before the first move too, `;` ones holding a
    /// `}` as `;` comments), wraps them so that no line starts with `[` or `%` and no
    /// `[%...]` command is split, and is a fixed point: its output read again gives
    /// the same text, one correct game, whatever the jobs.
    #[test]
    fn to_pgn_is_a_fixed_point_with_any_comments(recipe in commented()) {
        let text = commented_text(&recipe);
        let (once, summary) = to_pgn(&text, 1);
        prop_assert_eq!((summary.games, summary.ok), (1, 1), "{}", text);
        if let Some(fault) = layout_fault(&once) {
            return Err(TestCaseError::fail(format!("{fault} in\n{once}")));
        }
        let (twice, again) = to_pgn(&once, 1);
        prop_assert_eq!((again.games, again.ok), (1, 1), "{}", once);
        prop_assert_eq!(&twice, &once);
        prop_assert_eq!(&to_pgn(&text, 2).0, &once);
        // Every comment written is there, its words in their order.
        let flat = once.split_whitespace().collect::<Vec<_>>().join(" ");
        for (ply, line, words) in &recipe.comments {
            if *ply <= summary.plies as usize {
                let mut want = words.join(" ");
                if *line {
                    want.push_str(" } tail");
                }
                prop_assert!(flat.contains(&want), "{:?} lost from\n{}", want, once);
            }
        }
    }
}
