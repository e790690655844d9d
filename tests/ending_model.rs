//! An independent model of how a game ends and steps back: draw and takeback offers,
//! undo, resignation, agreement, flag falls, aborts, the board's own endings and the
//! version, written here as a small state machine over shakmaty positions. Random
//! command sequences run through arbiter and through the model; after every command
//! the answer (its error code, or its state fields, or the moves taken back) and then
//! `status`, `version` and `history` must be what the model says.
//!
//! The model knows nothing of arbiter's code: it keeps its own offers with the ply each
//! was made at, its own stack of positions, and asks shakmaty for legality, mate,
//! stalemate and material.

use arbiter::protocol::Session;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position as _};

use crate::differential::Rng;

/// Starts where the board soon ends the game (a mate in one, a queen against a bare
/// king, a rook and knight against a king) besides the standard start.
const STARTS: &[(&str, &str)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "f2f3 e7e5 g2g4",
    ),
    ("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", ""),
    ("4k3/8/8/8/8/8/8/2N1K2R b - - 0 1", ""),
    ("k7/2K5/8/8/8/8/2B5/7N w - - 0 1", ""),
];

/// How a game ended, as the model sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    Checkmate(Color),
    Stalemate,
    Draw(&'static str),
    Resigned(Color),
    Timeout(Color),
    Aborted,
}

/// An offer: who made it, and how many plies had been played then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Offer {
    by: Color,
    ply: usize,
}

#[derive(Clone, Debug)]
struct Model {
    /// Every position since the start, the current one last.
    positions: Vec<Chess>,
    /// The UCI text of every move played.
    moves: Vec<String>,
    /// A result the players or the clock gave; final.
    decided: Option<Ended>,
    draw: Option<Offer>,
    takeback: Option<Offer>,
    /// The value the last change took from the process's counter, which starts at 1;
    /// the game's version is the value of its own last change.
    clock: u64,
    version: u64,
}

/// What the model expects a command to answer.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expect {
    Error(&'static str),
    /// The state fields of `status` (without the claimable draws).
    State(String),
    Played(String),
    Undone(Vec<String>),
    /// No answer.
    Silent,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Model {
    /// The game `position fen <fen> moves <moves>` sets up, in a process whose
    /// counter last gave out `clock`: setting it up is one change.
    fn new(fen: &str, moves: &str, clock: u64) -> Model {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("start FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal start");
        let mut model = Model {
            positions: vec![pos],
            moves: Vec::new(),
            decided: None,
            draw: None,
            takeback: None,
            clock,
            version: 0,
        };
        for uci in moves.split_whitespace() {
            model.apply(&Cmd::Move(uci.to_string(), None));
        }
        // The moves of `position` are replayed, not played one by one: one change.
        model.clock = clock;
        model.change();
        model
    }

    /// One change: the next value of the counter.
    fn change(&mut self) {
        self.clock += 1;
        self.version = self.clock;
    }

    /// The `position` line of a start.
    fn line((fen, moves): (&str, &str)) -> String {
        if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {moves}")
        }
    }

    fn pos(&self) -> &Chess {
        self.positions.last().expect("a position")
    }

    fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The result: a decided one, else what the board says, in arbiter's documented
    /// precedence (checkmate, insufficient material, stalemate).
    fn ended(&self) -> Option<Ended> {
        if self.decided.is_some() {
            return self.decided;
        }
        let pos = self.pos();
        if pos.is_checkmate() {
            Some(Ended::Checkmate(!pos.turn()))
        } else if pos.is_insufficient_material() {
            Some(Ended::Draw("insufficient-material"))
        } else if pos.is_stalemate() {
            Some(Ended::Stalemate)
        } else {
            None
        }
    }

    fn state(&self) -> String {
        let mut words = match self.ended() {
            None if self.pos().is_check() => "check".to_string(),
            None => "active".to_string(),
            Some(Ended::Checkmate(w)) => format!("checkmate winner {}", color_name(w)),
            Some(Ended::Stalemate) => "stalemate".to_string(),
            Some(Ended::Draw(reason)) => format!("draw reason {reason}"),
            Some(Ended::Resigned(w)) => format!("resigned winner {}", color_name(w)),
            Some(Ended::Timeout(w)) => format!("timeout winner {}", color_name(w)),
            Some(Ended::Aborted) => "aborted".to_string(),
        };
        if let Some(offer) = self.draw {
            words.push_str(&format!(" offer {}", color_name(offer.by)));
        }
        if let Some(offer) = self.takeback {
            words.push_str(&format!(" takeback {}", color_name(offer.by)));
        }
        words
    }

    /// A result given by a command: the offers go.
    fn decide(&mut self, ended: Ended) -> Expect {
        self.decided = Some(ended);
        self.draw = None;
        self.takeback = None;
        self.change();
        Expect::State(self.state())
    }

    fn pop(&mut self) -> String {
        self.positions.pop();
        let m = self.moves.pop().expect("a move");
        let plies = self.plies();
        self.draw = self.draw.filter(|o| o.ply <= plies);
        self.takeback = self.takeback.filter(|o| o.ply <= plies);
        m
    }

    fn apply(&mut self, command: &Cmd) -> Expect {
        let over = self.ended().is_some();
        let turn = self.pos().turn();
        match *command {
            Cmd::Reset(i) => {
                let (fen, moves) = STARTS[i];
                *self = Model::new(fen, moves, self.clock);
                Expect::Silent
            }
            Cmd::Move(ref uci, seat) => {
                if over {
                    return Expect::Error("game-over");
                }
                if seat.is_some_and(|s| s != turn) {
                    return Expect::Error("not-your-turn");
                }
                let m = self
                    .pos()
                    .legal_moves()
                    .into_iter()
                    .find(|m| m.to_uci(CastlingMode::Standard).to_string() == *uci)
                    .expect("a legal move");
                let mut next = self.pos().clone();
                next.play_unchecked(&m);
                self.positions.push(next);
                self.moves.push(uci.clone());
                let over = self.ended().is_some();
                // A move of the side an offer was made to withdraws it; so does the end.
                self.draw = self.draw.filter(|o| o.by == turn && !over);
                self.takeback = self.takeback.filter(|o| o.by == turn && !over);
                self.change();
                Expect::Played(self.state())
            }
            Cmd::Undo => {
                if self.decided.is_some() {
                    return Expect::Error("result-final");
                }
                if self.moves.is_empty() {
                    return Expect::Error("nothing-to-undo");
                }
                self.pop();
                self.change();
                Expect::Undone(vec![]) // `undone <move>`: checked by the history
            }
            Cmd::Resign(side) => {
                if over {
                    return Expect::Error("game-over");
                }
                self.decide(Ended::Resigned(!side.unwrap_or(turn)))
            }
            Cmd::Draw => {
                if over {
                    return Expect::Error("game-over");
                }
                self.decide(Ended::Draw("agreement"))
            }
            Cmd::Timeout(side) => {
                if over {
                    return Expect::Error("game-over");
                }
                if self.pos().has_insufficient_material(!side) {
                    self.decide(Ended::Draw("timeout-vs-insufficient-material"))
                } else {
                    self.decide(Ended::Timeout(!side))
                }
            }
            Cmd::Abort => {
                if over {
                    return Expect::Error("game-over");
                }
                self.decide(Ended::Aborted)
            }
            Cmd::Offer(kind, step, side) => {
                if over {
                    return Expect::Error("game-over");
                }
                let pending = match kind {
                    Kind::Draw => self.draw,
                    Kind::Takeback => self.takeback,
                };
                // The plies a takeback by `by` takes back now, if it has a move.
                let own = |by: Color, plies: usize| {
                    let n = if by == turn { 2 } else { 1 };
                    (plies >= n).then_some(n)
                };
                match step {
                    Step::Offer => {
                        if kind == Kind::Takeback && own(side, self.plies()).is_none() {
                            return Expect::Error("nothing-to-undo");
                        }
                        if pending.is_some() {
                            return Expect::Error("offer-pending");
                        }
                        let offer = Some(Offer {
                            by: side,
                            ply: self.plies(),
                        });
                        match kind {
                            Kind::Draw => self.draw = offer,
                            Kind::Takeback => self.takeback = offer,
                        }
                        self.change();
                        Expect::State(self.state())
                    }
                    _ if pending.is_none_or(|o| o.by == side) => Expect::Error("no-offer"),
                    Step::Decline => {
                        match kind {
                            Kind::Draw => self.draw = None,
                            Kind::Takeback => self.takeback = None,
                        }
                        self.change();
                        Expect::State(self.state())
                    }
                    Step::Accept => match kind {
                        Kind::Draw => self.decide(Ended::Draw("agreement")),
                        Kind::Takeback => {
                            let n = own(!side, self.plies()).expect("the offer had a move");
                            self.takeback = None;
                            let undone = (0..n).map(|_| self.pop()).collect();
                            self.change();
                            Expect::Undone(undone)
                        }
                    },
                }
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Draw,
    Takeback,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Offer,
    Accept,
    Decline,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Cmd {
    /// A move's UCI text (a legal one, or any once the game is over), with a seat.
    Move(String, Option<Color>),
    Undo,
    Resign(Option<Color>),
    Draw,
    Timeout(Color),
    Abort,
    Offer(Kind, Step, Color),
    /// `position` with one of the starts.
    Reset(usize),
}

impl Cmd {
    fn line(&self) -> String {
        match self {
            Cmd::Move(uci, None) => format!("move {uci}"),
            Cmd::Move(uci, Some(seat)) => format!("move {uci} as {}", color_name(*seat)),
            Cmd::Undo => "undo".to_string(),
            Cmd::Resign(None) => "resign".to_string(),
            Cmd::Resign(Some(c)) => format!("resign {}", color_name(*c)),
            Cmd::Draw => "draw".to_string(),
            Cmd::Timeout(c) => format!("timeout {}", color_name(*c)),
            Cmd::Abort => "abort".to_string(),
            Cmd::Reset(i) => Model::line(STARTS[*i]),
            Cmd::Offer(kind, step, c) => format!(
                "{} {} {}",
                match kind {
                    Kind::Draw => "draw",
                    Kind::Takeback => "takeback",
                },
                match step {
                    Step::Offer => "offer",
                    Step::Accept => "accept",
                    Step::Decline => "decline",
                },
                color_name(*c)
            ),
        }
    }
}

fn side(rng: &mut Rng) -> Color {
    if rng.chance(50) {
        Color::White
    } else {
        Color::Black
    }
}

/// A random command for the model's game: mostly moves (a mate when there is one, half
/// the time) and offers, now and then an undo or a result.
fn random_command(rng: &mut Rng, model: &Model) -> Cmd {
    if model.ended().is_some() && rng.chance(30) {
        return Cmd::Reset(rng.below(STARTS.len()));
    }
    let roll = rng.below(100);
    match roll {
        0..=39 => {
            let legal = model.pos().legal_moves();
            let mate = legal.iter().find(|m| {
                let mut next = model.pos().clone();
                next.play_unchecked(m);
                next.is_checkmate()
            });
            let m = match (mate, legal.is_empty()) {
                (Some(m), _) if rng.chance(50) => Some(m.clone()),
                (_, false) => Some(legal[rng.below(legal.len())].clone()),
                (_, true) => None,
            };
            let uci = m.map_or("e2e4".to_string(), |m| {
                m.to_uci(CastlingMode::Standard).to_string()
            });
            let seat = rng.chance(30).then(|| side(rng));
            Cmd::Move(uci, seat)
        }
        40..=49 => Cmd::Undo,
        50..=90 => {
            let kind = if rng.chance(50) {
                Kind::Draw
            } else {
                Kind::Takeback
            };
            let step = match rng.below(3) {
                0 => Step::Offer,
                1 => Step::Accept,
                _ => Step::Decline,
            };
            Cmd::Offer(kind, step, side(rng))
        }
        91..=93 => Cmd::Resign(rng.chance(50).then(|| side(rng))),
        94 => Cmd::Draw,
        95..=97 => Cmd::Timeout(side(rng)),
        _ => Cmd::Abort,
    }
}

fn text(session: &mut Session, line: &str) -> String {
    let mut out = Vec::new();
    session
        .execute(line)
        .write_to(&mut out)
        .expect("write to a Vec");
    String::from_utf8(out).expect("answers are UTF-8")
}

/// The state fields of a `status` or `played` line, the claimable draws left out (the
/// model does not count repetitions).
fn state_of(words: &[&str]) -> String {
    let end = words
        .iter()
        .position(|w| *w == "claimable" || *w == "from")
        .unwrap_or(words.len());
    words[..end].join(" ")
}

/// What arbiter's answer says, in the model's terms.
fn observed(answer: &str) -> Expect {
    let words: Vec<&str> = answer.split_whitespace().collect();
    match words.as_slice() {
        ["error", code, ..] => Expect::Error(
            // The codes the model can give, as `&'static str`.
            [
                "game-over",
                "not-your-turn",
                "result-final",
                "nothing-to-undo",
                "offer-pending",
                "no-offer",
            ]
            .into_iter()
            .find(|c| c == code)
            .unwrap_or("unexpected"),
        ),
        ["status", rest @ ..] => Expect::State(state_of(rest)),
        // `played <uci> <san> <state...> from ...`
        ["played", _, _, rest @ ..] => Expect::Played(state_of(rest)),
        ["undone", moves @ ..] => Expect::Undone(moves.iter().map(|m| m.to_string()).collect()),
        [] => Expect::Silent,
        _ => Expect::Error("unexpected"),
    }
}

/// Runs one random sequence; the first disagreement, with the commands that led to it.
fn run_case(seed: u64) -> Result<usize, String> {
    let mut rng = Rng::new(seed);
    let start = STARTS[rng.below(STARTS.len())];
    let mut session = Session::new();
    text(&mut session, &Model::line(start));
    let mut model = Model::new(start.0, start.1, 0);
    let mut log = vec![Model::line(start)];
    let mut steps = 0;
    for _ in 0..STEPS {
        let command = random_command(&mut rng, &model);
        let line = command.line();
        log.push(line.clone());
        let answer = text(&mut session, &line);
        let mut expected = model.apply(&command);
        let mut got = observed(&answer);
        // A plain undo answers one move: the history below checks which.
        if command == Cmd::Undo {
            if let Expect::Undone(_) = got {
                got = Expect::Undone(vec![]);
            }
            if let Expect::Undone(_) = expected {
                expected = Expect::Undone(vec![]);
            }
        }
        let status = text(&mut session, "status");
        let version = text(&mut session, "version");
        let history = text(&mut session, "history");
        let want_status = format!("status {}", model.state());
        let got_status = {
            let words: Vec<&str> = status.split_whitespace().collect();
            format!("status {}", state_of(&words[1..]))
        };
        let want_history = std::iter::once("history")
            .chain(model.moves.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        let checks = [
            (format!("{expected:?}"), format!("{got:?}"), "answer"),
            (want_status, got_status, "status"),
            (
                format!("version {}", model.version),
                version.trim().to_string(),
                "version",
            ),
            (want_history, history.trim().to_string(), "history"),
        ];
        for (want, got, what) in checks {
            if want != got {
                return Err(format!(
                    "seed {seed:#x}: {what} after\n  {}\nanswer {answer:?}\nwanted {want}\ngot    {got}",
                    log.join("\n  ")
                ));
            }
        }
        steps += 1;
    }
    Ok(steps)
}

/// Commands in one sequence.
const STEPS: usize = 60;

/// How many random sequences run (`ENDING_MODEL_CASES` sets it).
fn cases() -> u64 {
    std::env::var("ENDING_MODEL_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

#[test]
fn offers_takebacks_and_results_follow_an_independent_model() {
    let mut failures = Vec::new();
    let mut steps = 0;
    for case in 0..cases() {
        match run_case(0x0e4d_1a90_0000 + case) {
            Ok(n) => steps += n,
            Err(why) => failures.push(why),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} sequences disagree; the first:\n{}",
        failures.len(),
        cases(),
        failures[0]
    );
    assert_eq!(steps, STEPS * cases() as usize);
}

/// The sequences reach what the model is for: every result, both kinds of offer
/// accepted, declined and lapsed, takebacks of one and two plies, undos that keep an
/// offer and undos that drop one, and an offer withdrawn by a move that ends the game.
#[test]
fn the_random_sequences_reach_every_case() {
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for case in 0..cases() {
        let mut rng = Rng::new(0x0e4d_1a90_0000 + case);
        let (fen, moves) = STARTS[rng.below(STARTS.len())];
        let mut model = Model::new(fen, moves, 0);
        for _ in 0..STEPS {
            let command = random_command(&mut rng, &model);
            let before = model.clone();
            let expect = model.apply(&command);
            let kind = match (&command, &expect) {
                (Cmd::Move(..), Expect::Played(_))
                    if (before.draw.is_some() || before.takeback.is_some())
                        && model.ended().is_some() =>
                {
                    "offer ended by a mating move"
                }
                (Cmd::Move(..), Expect::Played(_))
                    if before.draw.is_some() && model.draw.is_none() =>
                {
                    "draw offer lapsed"
                }
                (Cmd::Move(..), Expect::Played(_))
                    if before.takeback.is_some() && model.takeback.is_none() =>
                {
                    "takeback offer lapsed"
                }
                (Cmd::Undo, Expect::Undone(_))
                    if before.draw.is_some() || before.takeback.is_some() =>
                {
                    if model.draw.is_some() || model.takeback.is_some() {
                        "undo kept an offer"
                    } else {
                        "undo dropped an offer"
                    }
                }
                (_, Expect::Undone(moves)) if moves.len() == 1 => "takeback of one ply",
                (_, Expect::Undone(moves)) if moves.len() == 2 => "takeback of two plies",
                (Cmd::Offer(Kind::Draw, Step::Accept, _), Expect::State(_)) => "draw accepted",
                (Cmd::Offer(_, Step::Decline, _), Expect::State(_)) => "offer declined",
                (Cmd::Timeout(_), Expect::State(s)) if s.starts_with("draw") => "timeout draw",
                (Cmd::Timeout(_), Expect::State(_)) => "timeout loss",
                (Cmd::Abort, Expect::State(_)) => "abort",
                (Cmd::Resign(_), Expect::State(_)) => "resign",
                (_, Expect::Played(s)) if s.starts_with("checkmate") => "checkmate",
                (_, Expect::Error(code)) => code,
                _ => continue,
            };
            *seen.entry(kind).or_default() += 1;
        }
    }
    for kind in [
        "offer ended by a mating move",
        "draw offer lapsed",
        "takeback offer lapsed",
        "undo kept an offer",
        "undo dropped an offer",
        "takeback of one ply",
        "takeback of two plies",
        "draw accepted",
        "offer declined",
        "timeout draw",
        "timeout loss",
        "abort",
        "resign",
        "checkmate",
        "game-over",
        "not-your-turn",
        "result-final",
        "nothing-to-undo",
        "offer-pending",
        "no-offer",
    ] {
        assert!(
            seen.get(kind).copied().unwrap_or(0) >= 3,
            "{kind} came up {} times in {seen:?}",
            seen.get(kind).copied().unwrap_or(0)
        );
    }
}
