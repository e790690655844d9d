//! Executing commands against the game. Every command either succeeds or changes
//! nothing: the new state is built aside and swapped in only when it is complete.

use crate::fen::FenError;
use crate::game::{resolve_move, Game, State};
use crate::moves::Move;
use crate::perft;
use crate::pgn::reader::Skip;
use crate::pgn::{self, GameReader, Loaded, Next, Options, Replayer, Tags};
use crate::position::Position;
use crate::uci::CastlingMode;

use super::answer::{Answer, Reply};
use super::command::{Command, Start};
use super::error::{BadInput, MoveRef, ProtocolError};

/// One game and the options that shape the next one.
#[derive(Clone, Debug, Default)]
pub struct Session {
    game: Game,
    tags: Tags,
    chess960: bool,
}

impl Session {
    /// The standard start position, standard castling.
    pub fn new() -> Session {
        Session::default()
    }

    /// A session whose game starts from `base`, in Chess960 mode or not.
    pub fn from_position(base: Position, chess960: bool) -> Session {
        let mut session = Session {
            game: Game::default(),
            tags: Tags::default(),
            chess960,
        };
        session.game = Game::new(base, session.mode());
        session
    }

    /// The base position a FEN gives for a new game, in Chess960 or standard chess:
    /// standard chess refuses the castling rights that only Chess960 has.
    pub fn base_from_fen(fen: &str, chess960: bool) -> Result<Position, ProtocolError> {
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        base_from_fen(fen, mode)
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game's tags, other than those derived from it.
    pub fn tags(&self) -> &Tags {
        &self.tags
    }

    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// The castling notation of the next game.
    fn mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// Runs one command line.
    pub fn execute(&mut self, line: &str) -> Reply {
        // Control characters (NUL above all) would otherwise be echoed back inside
        // error messages; blanks such as tab are separators.
        if has_control(line) {
            return Reply::Error(ProtocolError::BadInput(BadInput::Control));
        }
        let command = match Command::parse(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Reply::Silent,
            Err(error) => return Reply::Error(error),
        };
        if command == Command::Quit {
            return Reply::Quit;
        }
        match self.run(command) {
            Ok(Some(answer)) => Reply::Answer(answer),
            Ok(None) => Reply::Silent,
            Err(error) => Reply::Error(error),
        }
    }

    fn uci(&self, m: Move) -> String {
        m.to_uci(self.game.mode()).to_string()
    }

    fn sorted_uci(&self, moves: impl IntoIterator<Item = Move>) -> Vec<String> {
        let mut texts: Vec<String> = moves.into_iter().map(|m| self.uci(m)).collect();
        texts.sort_unstable();
        texts
    }

    fn run(&mut self, command: Command<'_>) -> Result<Option<Answer>, ProtocolError> {
        let pos = *self.game.position();
        let mode = self.game.mode();
        let answer = match command {
            Command::Uci => Answer::Uci,
            Command::IsReady => Answer::ReadyOk,
            Command::UciNewGame => {
                self.game = Game::new(Position::startpos(), self.mode());
                self.tags = Tags::default();
                return Ok(None);
            }
            Command::SetOption { name, value } => {
                self.chess960 = parse_chess960(&name, value.as_deref())?;
                return Ok(None);
            }
            Command::Position {
                start: Start::Pgn { path, game },
                ..
            } => {
                let loaded = self.load_pgn(&path, game)?;
                self.game = loaded.game;
                self.tags = loaded.tags;
                return Ok(None);
            }
            Command::Position { start, moves } => {
                self.game = self.replay(start, &moves)?;
                self.tags = Tags::default();
                return Ok(None);
            }
            Command::Tag { name, value } => {
                let done = match value {
                    Some(value) => self.tags.set(name, value),
                    None => self.tags.remove(name),
                };
                done.map_err(|e| ProtocolError::BadArgument(e.to_string()))?;
                return Ok(None);
            }
            Command::Pgn => {
                let mut text = String::with_capacity(1024);
                pgn::writer::write_game(&mut text, &self.tags, &self.game);
                Answer::Pgn(text)
            }
            Command::Display => Answer::Board(Box::new(pos)),
            Command::GoPerft(depth) => {
                let mut lines: Vec<(String, u64)> = if depth == 0 {
                    Vec::new()
                } else {
                    perft::divide(&pos, depth)
                        .into_iter()
                        .map(|(m, nodes)| (self.uci(m), nodes))
                        .collect()
                };
                lines.sort_unstable();
                let total = if depth == 0 {
                    1
                } else {
                    lines.iter().map(|(_, n)| n).sum()
                };
                Answer::Divide(lines, total)
            }
            Command::Perft(depth) => Answer::Perft {
                depth,
                nodes: perft::perft(&pos, depth),
            },
            Command::Moves(None) => {
                Answer::Moves(self.sorted_uci(pos.legal_moves().iter().copied()))
            }
            Command::Moves(Some(sq)) => {
                Answer::Moves(self.sorted_uci(pos.legal_moves_from(sq).iter().copied()))
            }
            Command::Legal(text) => {
                let code = self
                    .game
                    .parse_move(text)
                    .err()
                    .map(|e| ProtocolError::from_move(e, at(text, None), mode).code());
                Answer::Legal(text.to_string(), code)
            }
            Command::Check => {
                let mut squares: Vec<String> =
                    pos.checkers().into_iter().map(|s| s.to_string()).collect();
                squares.sort_unstable();
                Answer::Check(squares)
            }
            Command::Turn => Answer::Turn(pos.turn()),
            Command::Fen => Answer::Fen(pos.fen()),
            Command::Status => Answer::Status(self.game.status()),
            Command::Move(text) => {
                let m = self
                    .game
                    .parse_move(text)
                    .map_err(|e| ProtocolError::from_move(e, at(text, None), mode))?;
                // The game works out check and mate for its status anyway; the SAN
                // suffix is taken from there rather than generating the moves again.
                let mut san = pos.san_without_suffix(m);
                self.game.play(m);
                let status = self.game.status();
                if status.state == State::Checkmate {
                    san.push('#');
                } else if self.game.position().is_check() {
                    san.push('+');
                }
                Answer::Played {
                    uci: self.uci(m),
                    san,
                    status,
                }
            }
            Command::Undo => {
                if self.game.is_final() {
                    return Err(ProtocolError::ResultFinal(self.game.status()));
                }
                let m = self.game.undo().ok_or(ProtocolError::NothingToUndo)?;
                Answer::Undone(self.uci(m))
            }
            Command::History => Answer::History(self.game.moves().map(|m| self.uci(m)).collect()),
            Command::Resign(color) => {
                self.refuse_if_over()?;
                self.game.resign(color.unwrap_or(pos.turn()));
                Answer::Status(self.game.status())
            }
            Command::Draw => {
                self.refuse_if_over()?;
                self.game.agree_draw();
                Answer::Status(self.game.status())
            }
            Command::Claim => {
                self.refuse_if_over()?;
                self.game.claim().ok_or(ProtocolError::NoClaim)?;
                Answer::Status(self.game.status())
            }
            Command::San(text) => {
                let m = resolve_move(&pos, text, mode)
                    .map_err(|e| ProtocolError::from_move(e, at(text, None), mode))?;
                Answer::San(pos.san(m))
            }
            Command::Help => Answer::Help,
            Command::HelpOn(topic) => Answer::HelpOn(topic),
            Command::Quit => return Ok(None),
        };
        Ok(Some(answer))
    }

    fn refuse_if_over(&self) -> Result<(), ProtocolError> {
        let status = self.game.status();
        if status.is_over() {
            return Err(ProtocolError::GameOver(None, status));
        }
        Ok(())
    }

    /// Game `number` of a PGN file, replayed with the full rules.
    fn load_pgn(&self, path: &str, number: usize) -> Result<Loaded, ProtocolError> {
        let unreadable = |e: std::io::Error| ProtocolError::UnreadableFile {
            path: path.to_string(),
            reason: e.to_string(),
        };
        let file = std::fs::File::open(path).map_err(unreadable)?;
        let mut reader = GameReader::new(file);
        for found in 0..number - 1 {
            if reader.next_game(&mut Skip).map_err(unreadable)? == Next::End {
                return Err(ProtocolError::NoSuchGame {
                    path: path.to_string(),
                    wanted: number,
                    found,
                });
            }
        }
        let mut replayer = Replayer::new(Options {
            chess960: self.chess960,
            ..Options::default()
        });
        if reader.next_game(&mut replayer).map_err(unreadable)? == Next::End {
            return Err(ProtocolError::NoSuchGame {
                path: path.to_string(),
                wanted: number,
                found: number - 1,
            });
        }
        replayer.load().map_err(|e| {
            let mode = if self.chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            ProtocolError::from_game(number, e, mode)
        })
    }

    /// The game a `position` command describes, built aside so that a bad FEN or move
    /// leaves the current game as it was.
    fn replay(&self, start: Start, moves: &[&str]) -> Result<Game, ProtocolError> {
        let mode = self.mode();
        let base = match start {
            Start::StartPos => Position::startpos(),
            Start::Fen(fen) => base_from_fen(&fen, mode)?,
            Start::Pgn { path, game } => return Ok(self.load_pgn(&path, game)?.game),
        };
        let mut game = Game::new(base, mode);
        for (index, text) in moves.iter().enumerate() {
            let m = game
                .parse_move(text)
                .map_err(|e| ProtocolError::from_move(e, at(text, Some(index + 1)), mode))?;
            game.play(m);
        }
        Ok(game)
    }
}

/// The base position a FEN gives in a game of `mode`: standard chess refuses the
/// castling rights that only Chess960 has.
pub(crate) fn base_from_fen(fen: &str, mode: CastlingMode) -> Result<Position, ProtocolError> {
    let pos = Position::from_fen(fen).map_err(ProtocolError::BadFen)?;
    if mode == CastlingMode::Standard {
        pos.check_standard_castling()
            .map_err(|e| ProtocolError::BadFen(FenError::Position(e)))?;
    }
    Ok(pos)
}

/// Whether a line holds a control character other than blanks: bad input.
pub(crate) fn has_control(line: &str) -> bool {
    line.chars().any(|c| c.is_control() && !c.is_whitespace())
}

fn at(text: &str, ply: Option<usize>) -> MoveRef {
    MoveRef {
        text: text.to_string(),
        ply,
        variation: false,
    }
}

/// The new value of UCI_Chess960, the only option.
fn parse_chess960(name: &str, value: Option<&str>) -> Result<bool, ProtocolError> {
    if !name.eq_ignore_ascii_case("UCI_Chess960") {
        return Err(ProtocolError::BadOption(format!(
            "unknown option '{name}' (the only option is UCI_Chess960)"
        )));
    }
    match value {
        Some(v) if v.eq_ignore_ascii_case("true") => Ok(true),
        Some(v) if v.eq_ignore_ascii_case("false") => Ok(false),
        Some(v) => Err(ProtocolError::BadOption(format!(
            "UCI_Chess960 is true or false, not '{v}'"
        ))),
        None => Err(ProtocolError::BadOption(
            "UCI_Chess960 needs a value: true or false".to_string(),
        )),
    }
}
