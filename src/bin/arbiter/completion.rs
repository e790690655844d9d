//! Tab completion for the interactive mode. What a word completes to depends on where
//! it stands: command names first, then each command's own arguments — the legal moves
//! in SAN (and in UCI once an origin square is typed) after `move`, `legal`, `san` and
//! inside `position ... moves`, option names and values after `setoption`, file paths
//! after `position pgn` and `pgn save`. A leading `@<id>` is the client's and is passed
//! over; after `game ` come the names of the open games, and the words after
//! `game <name>` complete in that game (`if ` offers its version).

use arbiter::protocol::command::KEYWORDS;
use arbiter::protocol::options::{OptionKind, OPTIONS};
use arbiter::protocol::{Session, Version};
use arbiter::{CastlingMode, Game, Position, Square};
use rustyline::completion::{unescape, FilenameCompleter};

/// What completion needs to know of a session, copied after every line so that the
/// editor can complete without borrowing the session.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The default game.
    pub game: GameView,
    /// How the next `position` writes castling (UCI_Chess960 as it is set now).
    pub next_mode: CastlingMode,
    /// The open named games, sorted by name.
    pub named: Vec<(String, GameView)>,
}

/// One game as completion sees it.
#[derive(Clone, Copy, Debug)]
pub struct GameView {
    /// The current position and how its game writes castling.
    pub position: Position,
    pub mode: CastlingMode,
    pub version: Version,
}

impl GameView {
    fn of(game: &Game, version: Version) -> GameView {
        GameView {
            position: *game.position(),
            mode: game.mode(),
            version,
        }
    }
}

impl Snapshot {
    pub fn of(session: &Session) -> Snapshot {
        let named = session
            .named_games()
            .into_iter()
            .map(|(name, game)| {
                let version = session.version(Some(name)).unwrap_or(0);
                (name.to_string(), GameView::of(game, version))
            })
            .collect();
        Snapshot {
            game: GameView::of(session.game(), session.version(None).unwrap_or(0)),
            next_mode: CastlingMode::from_chess960(session.is_chess960()),
            named,
        }
    }

    fn named(&self, name: &str) -> Option<&GameView> {
        self.named
            .binary_search_by(|(open, _)| open.as_str().cmp(name))
            .ok()
            .and_then(|i| self.named.get(i))
            .map(|(_, view)| view)
    }
}

/// The values of a check option (`UCI_Chess960`, `JSON`); a spin option (`Threads`)
/// takes a number, which has nothing to complete.
const CHECK_VALUES: [&str; 2] = ["true", "false"];

/// The kind of the option `setoption` names, in any case.
fn option_kind(name: &str) -> Option<OptionKind> {
    OPTIONS
        .iter()
        .find(|option| option.name.eq_ignore_ascii_case(name))
        .map(|option| option.kind)
}

/// The Seven Tag Roster, which every PGN game has, in its order.
const TAG_NAMES: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Where the word under the cursor starts in `before` (the line up to the cursor), and
/// the words it may complete to, sorted.
pub fn complete(before: &str, snapshot: &Snapshot) -> (usize, Vec<String>) {
    let start = before.rfind(char::is_whitespace).map_or(0, |i| {
        i + before[i..].chars().next().map_or(1, char::len_utf8)
    });
    let word = &before[start..];
    let mut previous: Vec<&str> = before[..start].split_whitespace().collect();
    if previous.first().is_some_and(|first| first.starts_with('@')) {
        previous.remove(0);
    } else if previous.is_empty() && word.starts_with('@') {
        // The id is the client's own word.
        return (start, Vec::new());
    }
    let mut candidates = after_prefixes(&previous, word, snapshot);
    candidates.sort_unstable();
    candidates.dedup();
    (start, candidates)
}

/// The completions of `word` after the words `previous`: first the prefixes `game
/// <name>` and `if <version>`, then the command, in the game the line names. A game
/// that is not open has no position to offer moves from.
fn after_prefixes(previous: &[&str], word: &str, snapshot: &Snapshot) -> Vec<String> {
    let mut game = Some(&snapshot.game);
    let mut rest = previous;
    let mut prefixes: &[&str] = &["game", "if"];
    if let ["game", tail @ ..] = rest {
        let [name, tail @ ..] = tail else {
            return starting_with(snapshot.named.iter().map(|(name, _)| name.as_str()), word);
        };
        game = snapshot.named(name);
        rest = tail;
        prefixes = &["if"];
    }
    if let ["if", tail @ ..] = rest {
        let [_, tail @ ..] = tail else {
            let version = game.map(|game| game.version.to_string());
            return starting_with(version.as_deref(), word);
        };
        rest = tail;
        prefixes = &[];
    }
    if rest.is_empty() {
        let mut words = starting_with(KEYWORDS, word);
        words.extend(starting_with(prefixes.iter().copied(), word));
        return words;
    }
    candidates(rest, word, game, snapshot.next_mode)
}

/// The completions of `word` after the command words `previous`, in `game`.
fn candidates(
    previous: &[&str],
    word: &str,
    game: Option<&GameView>,
    next_mode: CastlingMode,
) -> Vec<String> {
    match previous {
        ["move" | "legal" | "san"] => {
            game.map_or_else(Vec::new, |game| moves(&game.position, game.mode, word))
        }
        ["move", _] => starting_with(["as"], word),
        ["move", _, "as"] => starting_with(SIDES, word),
        ["moves"] => {
            let mut words = game.map_or_else(Vec::new, |game| origins(&game.position, word));
            words.extend(starting_with(["verbose"], word));
            words
        }
        ["moves", square] if Square::parse(square).is_some() => starting_with(["verbose"], word),
        ["moves", .., "verbose"] => starting_with(["fen"], word),
        ["go"] => starting_with(["perft"], word),
        ["resign"] => starting_with(SIDES, word),
        ["draw" | "takeback"] => starting_with(["offer", "accept", "decline"], word),
        ["draw" | "takeback", "offer" | "accept" | "decline"] => starting_with(SIDES, word),
        ["timeout"] => starting_with(SIDES, word),
        ["pgn"] => starting_with(["save"], word),
        ["pgn", "save"] => paths(word),
        ["help"] => starting_with(KEYWORDS, word),
        ["setoption"] => starting_with(["name"], word),
        ["setoption", "name"] => starting_with_any_case(OPTIONS.iter().map(|o| o.name), word),
        ["setoption", "name", name] if option_kind(name).is_some() => {
            starting_with(["value"], word)
        }
        ["setoption", "name", name, "value"] => match option_kind(name) {
            Some(OptionKind::Check { .. }) => starting_with_any_case(CHECK_VALUES, word),
            Some(OptionKind::Spin { .. }) | None => Vec::new(),
        },
        // `tag <Name> <value>` and `position pgn <path> [<n>]` are PGN commands: the
        // names of the Seven Tag Roster, the results, and the path of a PGN file.
        ["tag"] => starting_with(TAG_NAMES, word),
        ["tag", "Result"] => starting_with(RESULTS, word),
        ["position"] => starting_with(["startpos", "fen", "pgn"], word),
        ["position", "pgn"] => paths(word),
        ["position", "startpos"] => starting_with(["moves"], word),
        ["position", "fen"] => {
            // The current position's FEN, whole, as the usual start of a new one.
            let fen = game.map(|game| game.position.fen());
            starting_with(fen.as_deref(), word)
        }
        ["position", start @ ("startpos" | "fen"), rest @ ..] => {
            in_position(start, rest, word, next_mode)
        }
        _ => Vec::new(),
    }
}

/// The sides a seat, a resignation or a draw offer names.
const SIDES: [&str; 2] = ["white", "black"];

/// Completion after `position startpos|fen ...`: `moves` after the FEN, then the legal
/// moves of the position the moves typed so far lead to.
fn in_position(start: &str, rest: &[&str], word: &str, mode: CastlingMode) -> Vec<String> {
    let Some(moves_at) = rest.iter().position(|&t| t == "moves") else {
        // Still in the FEN (startpos has no fields): offer `moves` once one is typed.
        return if start == "fen" {
            starting_with(["moves"], word)
        } else {
            Vec::new()
        };
    };
    let base = if start == "fen" {
        match Position::from_fen(&rest[..moves_at].join(" ")) {
            Ok(pos) => pos,
            Err(_) => return Vec::new(),
        }
    } else {
        Position::startpos()
    };
    let mut pos = base;
    for text in &rest[moves_at + 1..] {
        match pos.parse_move(text, mode) {
            Ok(m) => pos.play_unchecked(m),
            Err(_) => return Vec::new(),
        }
    }
    moves(&pos, mode, word)
}

/// The legal moves whose SAN extends `word`, and, once `word` starts with a whole
/// square (the origin of a UCI move), those whose UCI does. UCI is held back until then
/// so that `e` offers the pawn moves `e3 e4`, not `e2e3 e2e4` as well.
fn moves(pos: &Position, mode: CastlingMode, word: &str) -> Vec<String> {
    let uci_too = word.get(..2).and_then(Square::parse).is_some();
    let mut words = Vec::new();
    for &m in &pos.legal_moves() {
        let san = pos.san(m);
        if san.starts_with(word) {
            words.push(san);
        }
        if uci_too {
            let uci = m.to_uci(mode).to_string();
            if uci.starts_with(word) {
                words.push(uci);
            }
        }
    }
    words
}

/// The squares the side to move has a legal move from.
fn origins(pos: &Position, word: &str) -> Vec<String> {
    pos.legal_moves()
        .iter()
        .map(|m| m.from().to_string())
        .filter(|square| square.starts_with(word))
        .collect()
}

fn starting_with<'a>(words: impl IntoIterator<Item = &'a str>, word: &str) -> Vec<String> {
    words
        .into_iter()
        .filter(|w| w.starts_with(word))
        .map(str::to_string)
        .collect()
}

/// For option names and values, which the protocol takes in any case.
fn starting_with_any_case<'a>(words: impl IntoIterator<Item = &'a str>, word: &str) -> Vec<String> {
    words
        .into_iter()
        .filter(|w| {
            w.get(..word.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(word))
        })
        .map(str::to_string)
        .collect()
}

/// The files and directories whose path extends `word` (directories with a trailing
/// `/`, so that the next Tab goes inside), by rustyline's `FilenameCompleter`. Hidden
/// entries only when `word` asks for them with a leading dot. The protocol opens a path
/// as written: the candidates are unescaped, and `~` (the shell's) completes to nothing.
fn paths(word: &str) -> Vec<String> {
    if word.starts_with('~') {
        return Vec::new();
    }
    let Ok((at, found)) = FilenameCompleter::new().complete_path(word, word.len()) else {
        return Vec::new();
    };
    // What precedes `at` is a break character of rustyline's and what comes before it.
    let kept = word.get(..at).unwrap_or_default();
    let hidden = word
        .rsplit('/')
        .next()
        .is_some_and(|name| name.starts_with('.'));
    found
        .into_iter()
        .filter(|pair| hidden || !pair.display.starts_with('.'))
        .map(|pair| format!("{kept}{}", unescape(&pair.replacement, Some('\\'))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter::protocol::Reply;

    fn snapshot_after(commands: &[&str]) -> Snapshot {
        let mut session = Session::new();
        for command in commands {
            let reply = session.execute(command);
            assert!(!matches!(reply, Reply::Error(_)), "{command}: {reply:?}");
        }
        Snapshot::of(&session)
    }

    fn words(line: &str, snapshot: &Snapshot) -> Vec<String> {
        let (start, words) = complete(line, snapshot);
        assert_eq!(start, line.rfind(' ').map_or(0, |i| i + 1), "{line:?}");
        words
    }

    #[test]
    fn the_first_word_completes_to_command_names() {
        let start = snapshot_after(&[]);
        assert_eq!(words("un", &start), ["undo"]);
        assert_eq!(
            words("s", &start),
            ["san", "setoption", "state", "status", "stop"]
        );
        assert_eq!(words("de", &start), ["dests"]);
        // With the prefixes `game` and `if`.
        assert_eq!(words("", &start).len(), KEYWORDS.len() + 2);
        assert_eq!(words("g", &start), ["game", "games", "go"]);
    }

    #[test]
    fn a_san_prefix_completes_to_the_legal_moves_extending_it() {
        let start = snapshot_after(&[]);
        assert_eq!(words("move N", &start), ["Na3", "Nc3", "Nf3", "Nh3"]);
        assert_eq!(words("move e", &start), ["e3", "e4"]);
        assert_eq!(words("move Nf", &start), ["Nf3"]);
        assert!(words("move Ke", &start).is_empty());
    }

    #[test]
    fn an_origin_square_adds_the_uci_moves_from_it() {
        let start = snapshot_after(&[]);
        assert_eq!(words("move e2", &start), ["e2e3", "e2e4"]);
        assert_eq!(words("move g1", &start), ["g1f3", "g1h3"]);
    }

    #[test]
    fn castling_completes_when_legal_and_in_the_game_s_notation() {
        let open = "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let standard = snapshot_after(&[open]);
        assert_eq!(words("move O", &standard), ["O-O", "O-O-O"]);
        assert_eq!(
            words("move e1", &standard),
            ["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"]
        );
        let chess960 = snapshot_after(&["setoption name UCI_Chess960 value true", open]);
        assert!(words("move e1", &chess960).contains(&"e1h1".to_string()));
        let no_rights = snapshot_after(&["position fen r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1"]);
        assert!(words("move O", &no_rights).is_empty());
    }

    #[test]
    fn a_check_or_mate_suffix_is_part_of_the_completion() {
        let before_mate = snapshot_after(&["position startpos moves e4 e5 Qh5 Nc6 Bc4 Nf6"]);
        assert_eq!(words("move Qxf", &before_mate), ["Qxf7#"]);
    }

    #[test]
    fn legal_and_san_complete_moves_as_move_does() {
        let start = snapshot_after(&[]);
        assert_eq!(words("legal N", &start), words("move N", &start));
        assert_eq!(words("san e", &start), ["e3", "e4"]);
    }

    #[test]
    fn position_moves_complete_in_the_position_reached_so_far() {
        let start = snapshot_after(&[]);
        assert_eq!(
            words("position startpos moves e4 e5 N", &start),
            ["Na3", "Nc3", "Ne2", "Nf3", "Nh3"]
        );
        assert_eq!(
            words("position startpos moves e4 e5 Qh5 Nc6 Bc4 Nf6 Qx", &start),
            ["Qxe5+", "Qxf7#", "Qxh7"]
        );
        let fen = "position fen 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 moves O";
        assert_eq!(words(fen, &start), ["O-O-O"]);
        // A bad move earlier in the list leaves nothing to offer.
        assert!(words("position startpos moves e5 N", &start).is_empty());
    }

    #[test]
    fn position_moves_use_the_next_game_s_castling_notation() {
        let set = snapshot_after(&["setoption name UCI_Chess960 value true"]);
        let line = "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1";
        assert!(words(line, &set).contains(&"e1h1".to_string()));
        assert!(!words(line, &set).contains(&"e1g1".to_string()));
    }

    #[test]
    fn position_completes_its_keywords_and_the_current_fen() {
        let after_e4 = snapshot_after(&["position startpos moves e4"]);
        assert_eq!(words("position s", &after_e4), ["startpos"]);
        assert_eq!(words("position startpos m", &after_e4), ["moves"]);
        assert_eq!(
            words("position fen r", &after_e4),
            ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
        );
        assert_eq!(
            words("position fen 8/8/8/8/8/8/8/8 w - - 0 1 m", &after_e4),
            ["moves"]
        );
    }

    #[test]
    fn setoption_completes_its_name_and_values_in_any_case() {
        let start = snapshot_after(&[]);
        assert_eq!(words("setoption n", &start), ["name"]);
        assert_eq!(words("setoption name uci", &start), ["UCI_Chess960"]);
        assert_eq!(words("setoption name UCI_Chess960 v", &start), ["value"]);
        assert_eq!(
            words("setoption name UCI_Chess960 value t", &start),
            ["true"]
        );
        assert_eq!(
            words("setoption name uci_chess960 value F", &start),
            ["false"]
        );
        assert!(words("setoption name Hash value t", &start).is_empty());
    }

    #[test]
    fn setoption_completes_threads_and_json_too() {
        let start = snapshot_after(&[]);
        assert_eq!(words("setoption name T", &start), ["Threads"]);
        assert_eq!(words("setoption name j", &start), ["JSON"]);
        assert_eq!(words("setoption name json v", &start), ["value"]);
        assert_eq!(words("setoption name JSON value t", &start), ["true"]);
        // Threads takes a number: nothing to offer.
        assert!(words("setoption name Threads value ", &start).is_empty());
    }

    #[test]
    fn moves_completes_verbose_and_then_fen() {
        let start = snapshot_after(&[]);
        assert_eq!(words("moves v", &start), ["verbose"]);
        assert_eq!(words("moves g1 v", &start), ["verbose"]);
        assert_eq!(words("moves verbose f", &start), ["fen"]);
        assert_eq!(words("moves e2 verbose ", &start), ["fen"]);
        assert!(words("moves verbose fen ", &start).is_empty());
    }

    #[test]
    fn a_request_id_is_passed_over() {
        let start = snapshot_after(&[]);
        assert_eq!(words("@7 move N", &start), ["Na3", "Nc3", "Nf3", "Nh3"]);
        assert_eq!(words("@a1 de", &start), ["dests"]);
        assert!(words("@mo", &start).is_empty());
    }

    #[test]
    fn other_arguments_complete_to_their_own_words() {
        let start = snapshot_after(&[]);
        assert_eq!(words("moves g", &start), ["g1", "g2"]);
        assert_eq!(words("go p", &start), ["perft"]);
        assert_eq!(words("resign w", &start), ["white"]);
        assert_eq!(words("help un", &start), ["undo"]);
        assert!(words("turn ", &start).is_empty());
    }

    #[test]
    fn tag_completes_the_seven_tag_roster_and_the_results() {
        let start = snapshot_after(&[]);
        assert_eq!(words("tag R", &start), ["Result", "Round"]);
        assert_eq!(words("tag Result 1", &start), ["1-0", "1/2-1/2"]);
        assert!(words("tag White K", &start).is_empty());
    }

    #[test]
    fn position_pgn_completes_file_paths() {
        let dir = std::env::temp_dir().join(format!("arbiter-complete-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("games")).unwrap();
        std::fs::write(dir.join("world.pgn"), "").unwrap();
        std::fs::write(dir.join("wood.pgn"), "").unwrap();
        std::fs::write(dir.join(".hidden.pgn"), "").unwrap();
        let start = snapshot_after(&[]);
        let base = format!("{}/", dir.display());
        let all = words(&format!("position pgn {base}"), &start);
        let wo = words(&format!("position pgn {base}wo"), &start);
        let hidden = words(&format!("position pgn {base}."), &start);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            all,
            [
                format!("{base}games/"),
                format!("{base}wood.pgn"),
                format!("{base}world.pgn")
            ]
        );
        assert_eq!(wo, [format!("{base}wood.pgn"), format!("{base}world.pgn")]);
        assert_eq!(hidden, [format!("{base}.hidden.pgn")]);
        assert!(words("position pgn /no/such/dir/x", &start).is_empty());
    }

    #[test]
    fn a_path_is_offered_as_the_protocol_reads_it_without_escapes() {
        let dir = std::env::temp_dir().join(format!("arbiter-escape-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a=b c.pgn"), "").unwrap();
        let start = snapshot_after(&[]);
        let base = format!("{}/", dir.display());
        let found = words(&format!("position pgn {base}a"), &start);
        let home = words("position pgn ~/", &start);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found, [format!("{base}a=b c.pgn")]);
        assert!(home.is_empty());
    }

    #[test]
    fn game_completes_the_open_names_then_works_in_that_game() {
        let three = snapshot_after(&[
            "game g1 position startpos moves e4",
            "game g2 position startpos",
            "game h3 position startpos",
        ]);
        assert_eq!(words("game ", &three), ["g1", "g2", "h3"]);
        assert_eq!(words("game g", &three), ["g1", "g2"]);
        assert_eq!(words("@4 game h", &three), ["h3"]);
        // Black is to move in g1, white in g2 and in the default game.
        assert_eq!(
            words("game g1 move N", &three),
            ["Na6", "Nc6", "Nf6", "Nh6"]
        );
        assert_eq!(words("game g2 move N", &three), words("move N", &three));
        assert_eq!(words("game g1 moves g", &three), ["g7", "g8"]);
        // A game that is not open has no moves to offer.
        assert!(words("game g9 move N", &three).is_empty());
        assert_eq!(words("game g1 i", &three), ["if", "isready"]);
        assert!(words("game g1 if 0 i", &three).contains(&"isready".to_string()));
        assert!(!words("game g1 if 0 i", &three).contains(&"if".to_string()));
    }

    #[test]
    fn if_offers_the_version_of_the_game_named() {
        let played = snapshot_after(&["game g1 position startpos", "game g1 move e4", "move d4"]);
        // One counter for the process: g1 opened (1), g1's move (2), the default's (3).
        assert_eq!(words("game g1 if ", &played), ["2"]);
        assert_eq!(words("if ", &played), ["3"]);
        assert!(words("if 2", &played).is_empty());
        assert!(words("game g2 if ", &played).is_empty());
        assert_eq!(words("game g1 if 2 move e", &played), ["e5", "e6"]);
        assert_eq!(words("if 3 un", &played), ["undo"]);
    }

    #[test]
    fn draw_offers_and_seats_complete_their_words() {
        let start = snapshot_after(&[]);
        assert_eq!(words("draw ", &start), ["accept", "decline", "offer"]);
        assert_eq!(words("draw o", &start), ["offer"]);
        assert_eq!(words("draw offer w", &start), ["white"]);
        assert_eq!(words("draw decline ", &start), ["black", "white"]);
        assert_eq!(words("takeback a", &start), ["accept"]);
        assert_eq!(words("takeback offer b", &start), ["black"]);
        assert_eq!(words("timeout ", &start), ["black", "white"]);
        assert_eq!(words("move e4 a", &start), ["as"]);
        assert_eq!(words("move e4 as b", &start), ["black"]);
        assert!(words("move e4 as white ", &start).is_empty());
    }

    #[test]
    fn pgn_save_completes_file_paths() {
        let dir = std::env::temp_dir().join(format!("arbiter-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("game.pgn"), "").unwrap();
        let start = snapshot_after(&[]);
        let base = format!("{}/", dir.display());
        let found = words(&format!("pgn save {base}g"), &start);
        let save = words("pgn s", &start);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found, [format!("{base}game.pgn")]);
        assert_eq!(save, ["save"]);
    }
}
