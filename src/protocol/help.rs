//! What `help <command>` says of each command: its syntax, one line on what it does and
//! one example with its answer. This table is the only source: docs/protocol.md holds
//! its text as transcripts (checked by the tests, rewritten by `scripts/golden --bless`),
//! and each example is checked against what a fresh session answers.

/// The help of one command.
#[derive(Debug, PartialEq, Eq)]
pub struct Topic {
    /// The command keyword, as `help <keyword>` names it.
    pub keyword: &'static str,
    /// The syntax, one line per form: as the `help` list starts its lines, or
    /// completing them.
    pub syntax: &'static str,
    /// What it does, in one line.
    pub summary: &'static str,
    /// A transcript from the standard start position, as `--echo` prints it: `> `
    /// lines are commands, the others their answers.
    pub example: &'static str,
}

/// Every command, in the order of the `help` list.
pub const TOPICS: &[Topic] = &[
    Topic {
        keyword: "uci",
        syntax: "uci",
        summary: "names the program and its options, then uciok",
        example: "\
> uci
id name arbiter 0.1.0
id author the chess-arbiter authors
option name UCI_Chess960 type check default false
option name Threads type spin default 0 min 0 max 256
option name JSON type check default false
option name MaxGames type spin default 10000 min 0 max 10000000
option name Safe type check default false
uciok
",
    },
    Topic {
        keyword: "isready",
        syntax: "isready",
        summary: "answers readyok after the earlier commands, or at once while a perft runs (ahead of its answer)",
        example: "\
> isready
readyok
",
    },
    Topic {
        keyword: "ucinewgame",
        syntax: "ucinewgame",
        summary: "starts a new game from the standard start position; answers nothing (ok when the line has a request id)",
        example: "\
> position startpos moves e4
> ucinewgame
> history
history
",
    },
    Topic {
        keyword: "setoption",
        syntax: "setoption name UCI_Chess960 value true|false\n\
                 setoption name Threads value <n>\n\
                 setoption name JSON value true|false\n\
                 setoption name MaxGames value <n>\n\
                 setoption name Safe value true",
        summary: "sets an option: king-takes-rook castling from the next game on, the threads of perft (0: one per core), JSON Lines answers, the most named games open at once, or safe mode (no files, no perft; it stays on); answers nothing (ok when the line has a request id)",
        example: "\
> setoption name UCI_Chess960 value true
> position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1
> moves e1
moves e1d1 e1d2 e1e2 e1f1 e1f2 e1h1
",
    },
    Topic {
        keyword: "position",
        syntax: "position startpos|fen <FEN> [chess960] [moves <move>...]|pgn <file> [<n>]",
        summary: "replaces the game: a start and its moves (UCI or SAN), or game n of a PGN file; chess960 makes this game Chess960 whatever the option; answers nothing (ok when the line has a request id)",
        example: "\
> position startpos moves e4 e5 Nf3
> fen
fen rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2
",
    },
    Topic {
        keyword: "d",
        syntax: "d",
        summary: "draws the board, then the FEN, the Polyglot key and the checkers",
        example: "\
> d
 +---+---+---+---+---+---+---+---+
 | r | n | b | q | k | b | n | r | 8
 +---+---+---+---+---+---+---+---+
 | p | p | p | p | p | p | p | p | 7
 +---+---+---+---+---+---+---+---+
 |   |   |   |   |   |   |   |   | 6
 +---+---+---+---+---+---+---+---+
 |   |   |   |   |   |   |   |   | 5
 +---+---+---+---+---+---+---+---+
 |   |   |   |   |   |   |   |   | 4
 +---+---+---+---+---+---+---+---+
 |   |   |   |   |   |   |   |   | 3
 +---+---+---+---+---+---+---+---+
 | P | P | P | P | P | P | P | P | 2
 +---+---+---+---+---+---+---+---+
 | R | N | B | Q | K | B | N | R | 1
 +---+---+---+---+---+---+---+---+
   a   b   c   d   e   f   g   h

Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
Key: 463B96181691FC9C
Checkers:
",
    },
    Topic {
        keyword: "go",
        syntax: "go perft <depth>",
        summary: "counts the leaf nodes under each legal move, then the total; while it runs, isready answers at once and stop ends it",
        example: "\
> position fen 7k/8/8/8/8/8/8/K7 w - - 0 1
> go perft 1
a1a2: 1
a1b1: 1
a1b2: 1

Nodes searched: 3
",
    },
    Topic {
        keyword: "perft",
        syntax: "perft <depth>",
        summary: "counts the leaf nodes of the legal move tree that many plies deep",
        example: "\
> perft 3
perft 3 8902
",
    },
    Topic {
        keyword: "moves",
        syntax: "moves [<square>] [verbose [fen]]",
        summary: "lists the legal moves in UCI, or those of the piece on a square; verbose: one line each with what move would answer, then end",
        example: "\
> moves b1
moves b1a3 b1c3
> moves b1 verbose
b1a3 Na3 from b1 to a3 piece knight
b1c3 Nc3 from b1 to c3 piece knight
end
",
    },
    Topic {
        keyword: "dests",
        syntax: "dests",
        summary: "lists each origin square with its legal targets, as board widgets take them",
        example: "\
> position startpos moves e4 e5 Nf3 Nc6 Bc4 Bc5
> dests
dests a2:a3,a4 b1:a3,c3 b2:b3,b4 c2:c3 c4:a6,b3,b5,d3,d5,e2,e6,f1,f7 d1:e2 d2:d3,d4 e1:e2,f1,g1,h1 f3:d4,e5,g1,g5,h4 g2:g3,g4 h1:f1,g1 h2:h3,h4
",
    },
    Topic {
        keyword: "legal",
        syntax: "legal <move>",
        summary: "tells whether a move could be played now, and if not the error code of move",
        example: "\
> legal Ke2
legal Ke2 no illegal-move
",
    },
    Topic {
        keyword: "check",
        syntax: "check",
        summary: "tells whether the side to move is in check, and the squares of the checking pieces",
        example: "\
> position startpos moves f3 e5 g4 Qh4
> check
check yes h4
",
    },
    Topic {
        keyword: "turn",
        syntax: "turn",
        summary: "names the side to move",
        example: "\
> position startpos moves e4
> turn
turn black
",
    },
    Topic {
        keyword: "fen",
        syntax: "fen",
        summary: "writes the position as FEN",
        example: "\
> position startpos moves e4
> fen
fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
",
    },
    Topic {
        keyword: "status",
        syntax: "status",
        summary: "the game's state, with the winner, the draw reason or the claimable draws",
        example: "\
> position startpos moves f3 e5 g4 Qh4
> status
status checkmate winner black
",
    },
    Topic {
        keyword: "opening",
        syntax: "opening",
        summary: "names the game's opening: the ECO code and name of the last position of the game, from the current one back to the start, that lichess.org's opening table names, or none",
        example: "\
> position startpos moves e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6
> opening
opening B90 Sicilian Defense: Najdorf Variation
",
    },
    Topic {
        keyword: "move",
        syntax: "move <move>\nmove <move> as white|black",
        summary: "plays a move in UCI or SAN and answers its UCI, its SAN, the new state and its facts; with as, only if that side is to move",
        example: "\
> position startpos moves e4 e5 Qh5 Nc6 Bc4 Nf6
> move Qxf7
played h5f7 Qxf7# checkmate winner white from h5 to f7 piece queen captured pawn captured-on f7 flags capture check checkmate fen r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4
",
    },
    Topic {
        keyword: "undo",
        syntax: "undo",
        summary: "takes back the last move and names it",
        example: "\
> position startpos moves e4 e5
> undo
undone e7e5
",
    },
    Topic {
        keyword: "history",
        syntax: "history",
        summary: "lists the moves played from the base position, in UCI",
        example: "\
> position startpos moves e4 e5 Nf3
> history
history e2e4 e7e5 g1f3
",
    },
    Topic {
        keyword: "resign",
        syntax: "resign [white|black]",
        summary: "resigns for a side, by default the side to move; the result is final",
        example: "\
> resign
status resigned winner black
",
    },
    Topic {
        keyword: "draw",
        syntax: "draw\ndraw offer|accept|decline white|black",
        summary: "ends the game drawn by agreement at once; or a side offers a draw and the other accepts it (final) or declines it, and a move by the side offered it withdraws it",
        example: "\
> draw offer white
status active offer white
> draw accept black
status draw reason agreement
",
    },
    Topic {
        keyword: "takeback",
        syntax: "takeback offer|accept|decline white|black",
        summary: "a side offers to take back its last move (and the reply to it, if its turn has come again); the other side accepts it, which takes them back, or declines it; a move by the side offered it withdraws it",
        example: "\
> position startpos moves e4 e5
> takeback offer white
status active takeback white
> takeback accept black
undone e7e5 e2e4
",
    },
    Topic {
        keyword: "timeout",
        syntax: "timeout white|black",
        summary: "that side's flag fell: it loses, or it is a draw when the other side cannot mate by any series of legal moves",
        example: "\
> position fen 4k3/8/8/8/8/8/8/3QK3 w - - 0 1
> timeout white
status draw reason timeout-vs-insufficient-material
",
    },
    Topic {
        keyword: "abort",
        syntax: "abort",
        summary: "ends the game without a result (PGN *); only while it has none",
        example: "\
> abort
status aborted
",
    },
    Topic {
        keyword: "claim",
        syntax: "claim",
        summary: "claims a draw by threefold repetition or the fifty-move rule, when one holds",
        example: "\
> position startpos moves Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8
> claim
status draw reason threefold
",
    },
    Topic {
        keyword: "san",
        syntax: "san <move>",
        summary: "writes a legal move in SAN without playing it",
        example: "\
> san g1f3
san Nf3
",
    },
    Topic {
        keyword: "tag",
        syntax: "tag <name> [<value>]",
        summary: "sets a PGN tag to the rest of the line (no control character, not even a tab), or removes it; answers nothing (ok when the line has a request id)",
        example: "\
> tag Round 3
> tag Result 1-0
error bad-argument the Result tag is derived from the game and cannot be set
",
    },
    Topic {
        keyword: "pgn",
        syntax: "pgn\n\
                 pgn save <path>",
        summary: "writes the game in PGN export format, then end; pgn save writes it to a file (the rest of the line is the path), answering nothing (ok when the line has a request id)",
        example: "\
> position startpos moves e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7
> tag White Paul Morphy
> pgn
[Event \"?\"]
[Site \"?\"]
[Date \"????.??.??\"]
[Round \"?\"]
[White \"Paul Morphy\"]
[Black \"?\"]
[Result \"1-0\"]
[Termination \"normal\"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
end
",
    },
    Topic {
        keyword: "version",
        syntax: "version",
        summary: "the game's version: every change (a move, undo, result, offer or its answer, tag, position or ucinewgame) gives it a value never given out before in the process; compare versions for equality only",
        example: "\
> position startpos moves e4
> move e5
played e7e5 e5 active from e7 to e5 piece pawn fen rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
> version
version 2
",
    },
    Topic {
        keyword: "state",
        syntax: "state",
        summary: "the game whole, as one JSON object on one line: version, start, chess960, moves, san, fen, turn, status, dests, tags, offers, result, decision, termination, comments (restore reads it back)",
        example: "\
> position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves Kf1
> tag White Ann
> state
state {\"version\":2,\"start\":\"4k3/8/8/8/8/8/8/4K2R w K - 0 1\",\"chess960\":false,\"moves\":[\"e1f1\"],\"san\":[\"Kf1\"],\"fen\":\"4k3/8/8/8/8/8/8/5K1R b - - 1 1\",\"turn\":\"black\",\"status\":{\"state\":\"active\",\"claimable\":[]},\"dests\":{\"e8\":[\"d7\",\"d8\",\"e7\",\"f7\",\"f8\"]},\"tags\":[[\"White\",\"Ann\"]],\"offers\":{\"draw\":null,\"takeback\":null},\"result\":\"*\",\"decision\":null,\"termination\":null,\"comments\":[]}
",
    },
    Topic {
        keyword: "restore",
        syntax: "restore <JSON object>",
        summary: "replaces the game (or creates the named one) with the one a state object describes, at the version it gives: the derived fields are not read, the moves are checked as position checks them, and a bad object changes nothing; answers nothing (ok when the line has a request id)",
        example: "\
> restore {\"version\":41,\"start\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\",\"moves\":[\"e2e4\",\"e7e5\"],\"offers\":{\"draw\":{\"by\":\"white\",\"ply\":2},\"takeback\":null}}
> status
status active offer white
> version
version 41
",
    },
    Topic {
        keyword: "games",
        syntax: "games",
        summary: "lists the open named games, sorted",
        example: "\
> game g2 position startpos
> game g10 ucinewgame
> games
games g10 g2
",
    },
    Topic {
        keyword: "close",
        syntax: "close",
        summary: "game <name> close closes a named game and frees it; answers nothing (ok when the line has a request id)",
        example: "\
> game g1 position startpos
> game g1 close
> games
games
",
    },
    Topic {
        keyword: "help",
        syntax: "help [<command>]",
        summary: "lists the commands; help <command> shows one of them with an example",
        example: "\
> help isready
isready
answers readyok after the earlier commands, or at once while a perft runs (ahead of its answer)
example:
  > isready
  readyok
end
",
    },
    Topic {
        keyword: "stop",
        syntax: "stop",
        summary: "ends a running go perft or perft, which then answers what it counted so far marked stopped, and drops the perfts queued behind it (they answer stopped, nothing counted); answers nothing (ok when the line has a request id)",
        example: "\
> stop
",
    },
    Topic {
        keyword: "quit",
        syntax: "quit",
        summary: "no more commands: every earlier command is answered (a perft in full, unless stop came first), then the process ends; answers nothing (ok when the line has a request id)",
        example: "\
> quit
",
    },
];

/// The help of a command keyword.
pub fn topic(keyword: &str) -> Option<&'static Topic> {
    TOPICS.iter().find(|t| t.keyword == keyword)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::{Command, KEYWORDS};
    use crate::protocol::ProtocolError;
    use crate::protocol::{Answer, Runner, Session};

    fn help_text(topic: &'static Topic) -> String {
        let mut out = Vec::new();
        Answer::HelpOn(topic).write_to(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_help_topic_is_a_command() {
        for keyword in KEYWORDS {
            let parsed = Command::parse(keyword);
            assert!(
                !matches!(parsed, Err(ProtocolError::UnknownCommand(_))),
                "help {keyword} names no command"
            );
        }
    }

    #[test]
    fn the_help_list_starts_each_line_with_the_command_s_syntax_or_its_start() {
        let mut out = Vec::new();
        Answer::Help.write_to(&mut out).unwrap();
        let list = String::from_utf8(out).unwrap();
        let syntaxes: Vec<&str> = list
            .lines()
            .filter_map(|line| line.split_once(": ").map(|(syntax, _)| syntax))
            .collect();
        let forms: Vec<&str> = TOPICS.iter().flat_map(|t| t.syntax.lines()).collect();
        assert_eq!(syntaxes.len(), forms.len());
        for (listed, form) in syntaxes.iter().zip(forms) {
            assert!(form.starts_with(listed), "{listed} vs {form}");
        }
    }

    #[test]
    fn every_example_is_what_a_fresh_session_answers() {
        for topic in TOPICS {
            let commands: String = topic
                .example
                .lines()
                .filter_map(|line| line.strip_prefix("> "))
                .map(|command| format!("{command}\n"))
                .collect();
            let mut out = Vec::new();
            Runner::new(Session::new(), &mut out, true)
                .run_stream(commands.as_bytes())
                .unwrap();
            let out = String::from_utf8(out).unwrap();
            assert_eq!(out, topic.example, "the example of help {}", topic.keyword);
        }
    }

    #[test]
    fn help_of_a_command_gives_syntax_summary_and_indented_example_then_end() {
        let text = help_text(topic("move").unwrap());
        assert_eq!(
            text,
            "move <move>\n\
             move <move> as white|black\n\
             plays a move in UCI or SAN and answers its UCI, its SAN, the new state and its facts; \
             with as, only if that side is to move\n\
             example:\n  \
             > position startpos moves e4 e5 Qh5 Nc6 Bc4 Nf6\n  \
             > move Qxf7\n  \
             played h5f7 Qxf7# checkmate winner white from h5 to f7 piece queen \
             captured pawn captured-on f7 flags capture check checkmate \
             fen r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4\n\
             end\n"
        );
        // The blank line inside the answer of `d` stays blank: no trailing blanks.
        let d = help_text(topic("d").unwrap());
        assert!(d.lines().all(|line| line == line.trim_end()), "{d}");
    }

    #[test]
    fn docs_protocol_md_holds_the_help_of_every_command() {
        let doc = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/protocol.md"));
        for topic in TOPICS {
            let transcript = format!("> help {}\n{}", topic.keyword, help_text(topic));
            assert!(
                doc.contains(&transcript),
                "docs/protocol.md lacks (scripts/golden --bless writes it):\n{transcript}"
            );
        }
    }
}
