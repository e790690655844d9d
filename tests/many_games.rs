//! Many games in one process, several clients per game: a `Game` shared between threads,
//! interleaved sessions against games run alone, and writers racing through one pipe.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use arbiter::color::Color;
use arbiter::game::Game;
use arbiter::moves::CastlingMode;
use arbiter::moves::Move;
use arbiter::protocol::{GameName, Reply, Session};
use proptest::prelude::*;
use serde_json::Value;

use super::protocol::spawn_arbiter;

/// A small generator, so that the games are the same at every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A legal game of at most `plies` moves from the start, chosen by `seed`.
fn script(plies: usize, seed: u64) -> Vec<Move> {
    let mut rng = Rng(seed | 1);
    let mut game = Game::default();
    let mut moves = Vec::new();
    while moves.len() < plies && !game.status().is_over() {
        let legal = game.position().legal_moves();
        let m = legal.as_slice()[(rng.next() % legal.len() as u64) as usize];
        game.play(m);
        moves.push(m);
    }
    moves
}

fn uci(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

#[test]
fn a_game_is_send_and_two_threads_push_moves_into_it_whole() {
    fn assert_send<T: Send>() {}
    assert_send::<Game>();
    assert_send::<Session>();

    // Each thread plays one side: it takes the lock, and plays its move when its side is
    // to move. The log, written under the same lock, is the order the moves happened in.
    let shared = Arc::new(Mutex::new((Game::default(), Vec::<Move>::new(), 0u64)));
    let plies_each = 150;
    let workers: Vec<_> = [Color::White, Color::Black]
        .into_iter()
        .map(|side| {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || {
                let mut rng = Rng(if side == Color::White { 7 } else { 11 });
                let mut played = 0;
                while played < plies_each {
                    let mut guard = shared.lock().unwrap();
                    let (game, log, version) = &mut *guard;
                    if game.status().is_over() {
                        break;
                    }
                    if game.position().turn() != side {
                        drop(guard);
                        std::thread::yield_now();
                        continue;
                    }
                    let legal = game.position().legal_moves();
                    let m = legal.as_slice()[(rng.next() % legal.len() as u64) as usize];
                    let text = uci(m);
                    let parsed = game.parse_move(&text).unwrap();
                    game.play(parsed);
                    log.push(parsed);
                    *version += 1;
                    played += 1;
                }
                played
            })
        })
        .collect();
    let counts: Vec<usize> = workers.into_iter().map(|w| w.join().unwrap()).collect();
    let (game, log, version) = &*shared.lock().unwrap();
    let moves: Vec<Move> = game.moves().collect();
    assert_eq!(&moves, log, "a move was lost or reordered");
    assert_eq!(moves.len(), counts.iter().sum::<usize>());
    assert_eq!(*version, moves.len() as u64);
    assert!(moves.len() > 20, "only {} moves", moves.len());
    // The moves alternate sides from the start, and replay to the same position.
    let mut replay = Game::default();
    for &m in &moves {
        assert!(replay.position().is_legal(m));
        replay.play(m);
    }
    assert_eq!(replay.position(), game.position());
}

/// The text a reply prints, without the header.
fn render(reply: &Reply) -> String {
    let mut out = Vec::new();
    reply.write_to(&mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// One game's versions as a run shows them: versions are opaque (one counter for the
/// whole process, so a game's numbers depend on the other games' changes), so a game
/// run among others and the same game run alone are compared by the order of their
/// versions, not their numbers.
#[derive(Default)]
struct Versions {
    seen: Vec<u64>,
}

impl Versions {
    /// Takes the game's version after a command: a new version must be above every
    /// one it had before. The version's place in the game's sequence of versions.
    fn observe(&mut self, version: u64) -> usize {
        match self.seen.last() {
            Some(&last) if last == version => {}
            Some(&last) => {
                assert!(version > last, "version {version} after {last}");
                self.seen.push(version);
            }
            None => self.seen.push(version),
        }
        self.seen.len() - 1
    }

    /// A command as sent: `if current` and `if stale` become the game's version and one
    /// it is not at.
    fn line(&self, command: &str) -> String {
        let current = self.seen.last().copied().unwrap_or(0);
        command
            .replace("if current", &format!("if {current}"))
            .replace("if stale", &format!("if {}", current + 1))
    }

    /// An answer as compared: `version <n>` names the version's place, and a
    /// `stale-version` error its code (its message names the numbers).
    fn answer(&self, text: String) -> String {
        if text.starts_with("version ") {
            return format!("version #{}\n", self.seen.len() - 1);
        }
        if text.starts_with("error stale-version ") {
            return "error stale-version\n".to_string();
        }
        text
    }
}

/// A command of a game's own conversation: some change it, some read it, some fail.
fn command_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "e4", "e5", "d4", "d5", "Nf3", "Nc6", "Nf6", "Bb5", "Bc4", "exd5", "Qxd5", "O-O",
            "a3", "h6", "Ke2", "e2e4", "g8f6", "Qh5", "Qxf7",
        ])
        .prop_map(|m| format!("move {m}")),
        2 => (
            prop::sample::select(vec!["e4", "e5", "Nf3", "Nf6", "d4", "d5"]),
            prop::sample::select(vec!["white", "black"])
        )
            .prop_map(|(m, side)| format!("move {m} as {side}")),
        1 => Just("undo".to_string()),
        1 => Just("status".to_string()),
        1 => Just("version".to_string()),
        1 => prop::sample::select(vec!["if current move Nc3", "if stale move Nc3"])
            .prop_map(str::to_string),
        1 => (
            prop::sample::select(vec!["offer", "accept", "decline"]),
            prop::sample::select(vec!["white", "black"])
        )
            .prop_map(|(step, side)| format!("draw {step} {side}")),
        1 => Just("history".to_string()),
        1 => Just("tag Round 3".to_string()),
        1 => Just("pgn".to_string()),
        1 => Just("go perft 1".to_string()),
        1 => Just("position startpos moves e4 e5".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Commands of several games interleaved at random in one session give each game
    /// exactly the answers that its own commands give alone in a fresh session.
    #[test]
    fn interleaved_games_answer_as_each_game_alone(
        games in prop::collection::vec(prop::collection::vec(command_strategy(), 0..30), 1..5),
        order in prop::collection::vec(any::<prop::sample::Index>(), 0..150),
    ) {
        let mut shared = Session::new();
        let mut answers: Vec<Vec<String>> = vec![Vec::new(); games.len()];
        let mut versions: Vec<Versions> = (0..games.len()).map(|_| Versions::default()).collect();
        let mut next = vec![0usize; games.len()];
        let version = |session: &Session, g: usize| {
            session.version(Some(GameName::parse(&format!("g{g}")).unwrap())).unwrap()
        };
        for (g, answers) in answers.iter_mut().enumerate() {
            let reply = shared.execute(&format!("game g{g} position startpos"));
            prop_assert_eq!(&reply, &Reply::Silent);
            versions[g].observe(version(&shared, g));
            answers.push(render(&reply));
        }
        // The chosen order, then what is left of each game in turn.
        let mut turns: Vec<usize> = order.iter().map(|i| i.index(games.len())).collect();
        turns.extend((0..games.len()).flat_map(|g| std::iter::repeat_n(g, games[g].len())));
        for g in turns {
            let Some(command) = games[g].get(next[g]) else { continue };
            next[g] += 1;
            let line = format!("game g{g} {}", versions[g].line(command));
            let text = render(&shared.execute(&line));
            versions[g].observe(version(&shared, g));
            answers[g].push(versions[g].answer(text));
        }
        for (g, commands) in games.iter().enumerate() {
            let mut alone = Session::new();
            let mut seen = Versions::default();
            let mut expected = vec![render(&alone.execute("position startpos"))];
            seen.observe(alone.version(None).unwrap());
            for command in commands {
                let text = render(&alone.execute(&seen.line(command)));
                seen.observe(alone.version(None).unwrap());
                expected.push(seen.answer(text));
            }
            prop_assert_eq!(&answers[g], &expected, "game g{}", g);
        }
    }
}

/// One writer's view of the answers: its requests' answers, routed by id.
type Inbox = mpsc::Receiver<Value>;

#[test]
fn writers_racing_through_one_pipe_lose_no_move_and_never_reuse_a_version() {
    const GAMES: usize = 3;
    const PLIES: usize = 60;
    let scripts: Vec<Vec<Move>> = (0..GAMES).map(|g| script(PLIES, 1000 + g as u64)).collect();
    let mut child = spawn_arbiter(&["--json"]);
    let stdin = Arc::new(Mutex::new(child.stdin.take().unwrap()));
    let stdout = child.stdout.take().unwrap();

    // Every answer goes to the writer its id names; all of them, in order, to the log.
    let routes: Arc<Mutex<HashMap<String, mpsc::Sender<Value>>>> = Arc::default();
    let (log_tx, log_rx) = mpsc::channel::<Value>();
    let reader = {
        let routes = Arc::clone(&routes);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let answer: Value = serde_json::from_str(&line.unwrap()).unwrap();
                let id = answer["id"].as_str().unwrap_or("").to_string();
                let writer = id.split('-').next().unwrap_or("").to_string();
                if let Some(route) = routes.lock().unwrap().get(&writer) {
                    route.send(answer.clone()).unwrap();
                }
                log_tx.send(answer).unwrap();
            }
        })
    };
    let send = |line: String| {
        // One write per line under the lock: lines never mix in the pipe.
        let mut pipe = stdin.lock().unwrap();
        pipe.write_all(format!("{line}\n").as_bytes()).unwrap();
        pipe.flush().unwrap();
    };
    let mut inboxes: Vec<Inbox> = Vec::new();
    for w in 0..GAMES * 2 {
        let (tx, rx) = mpsc::channel();
        routes.lock().unwrap().insert(format!("w{w}"), tx);
        inboxes.push(rx);
    }
    for g in 0..GAMES {
        send(format!("game g{g} position startpos"));
    }

    // Writer 2g plays white in game g, writer 2g+1 black: each sends its side's moves
    // with its seat and the version it last read, as a client does that re-reads the
    // game: versions are opaque, so it takes each from an answer (every JSON answer to
    // a line naming a game gives it) and never works one out. A writer also sends, after
    // each of its moves, the move again on the version it was decided on and one at the
    // version just reached, for the wrong seat: both must be refused.
    std::thread::scope(|scope| {
        for (w, inbox) in inboxes.into_iter().enumerate() {
            let (g, side) = (w / 2, if w % 2 == 0 { "white" } else { "black" });
            let moves = &scripts[g];
            let send = &send;
            scope.spawn(move || {
                let mut n = 0;
                let mut ask = |line: String| {
                    n += 1;
                    send(format!("@w{w}-{n} game g{g} {line}"));
                    inbox.recv().unwrap()
                };
                let version_of = |answer: &Value| answer["version"].as_u64().unwrap();
                let mut seen = version_of(&ask("version".to_string()));
                for ply in (w % 2..moves.len()).step_by(2) {
                    let m = uci(moves[ply]);
                    let decided_on = loop {
                        let answer = ask(format!("if {seen} move {m} as {side}"));
                        let at = seen;
                        seen = version_of(&answer);
                        match answer["error"]["code"].as_str() {
                            None => break at,
                            // The other side has not moved yet, or has since: read again.
                            Some("not-your-turn" | "stale-version") => std::thread::yield_now(),
                            Some(other) => panic!("{m} at ply {ply}: {other}: {answer}"),
                        }
                    };
                    // The same move again, on the version it was decided on: stale.
                    let again = ask(format!("if {decided_on} move {m} as {side}"));
                    assert_eq!(again["error"]["code"], "stale-version", "{again}");
                    // At the version just reached, the other side is to move.
                    let seat = ask(format!("if {seen} move {m} as {side}"));
                    let code = seat["error"]["code"].as_str();
                    assert!(
                        matches!(code, Some("not-your-turn" | "stale-version" | "game-over")),
                        "{seat}"
                    );
                }
            });
        }
    });
    for g in 0..GAMES {
        send(format!("@end-{g} game g{g} history"));
    }
    send("quit".to_string());
    drop(stdin);
    reader.join().unwrap();
    // The refusals make the exit status 1; the process must have ended.
    child.wait().unwrap();

    // Each game's played answers, in the order of the output: exactly its script, the
    // versions strictly increasing, and no version given to two changes of any games.
    let mut played: Vec<Vec<(String, u64)>> = vec![Vec::new(); GAMES];
    let mut histories: Vec<Option<Value>> = vec![None; GAMES];
    for answer in log_rx.try_iter() {
        let g: usize = answer["game"].as_str().unwrap()[1..].parse().unwrap();
        if answer["id"]
            .as_str()
            .is_some_and(|id| id.starts_with("end-"))
        {
            histories[g] = Some(answer["moves"].clone());
            continue;
        }
        if answer["answer"] == "move" && answer["error"].is_null() {
            let version = answer["version"].as_u64().unwrap();
            played[g].push((answer["move"].as_str().unwrap().to_string(), version));
        }
    }
    let mut given = std::collections::HashSet::new();
    for g in 0..GAMES {
        let moves: Vec<String> = played[g].iter().map(|(m, _)| m.clone()).collect();
        let expected: Vec<String> = scripts[g].iter().map(|&m| uci(m)).collect();
        assert_eq!(moves, expected, "game g{g}");
        let versions: Vec<u64> = played[g].iter().map(|&(_, v)| v).collect();
        assert!(
            versions.windows(2).all(|pair| pair[0] < pair[1]),
            "game g{g}: {versions:?}"
        );
        for version in versions {
            assert!(given.insert(version), "version {version} given twice");
        }
        let history: Vec<String> = scripts[g].iter().map(|&m| uci(m)).collect();
        assert_eq!(histories[g], Some(Value::from(history)), "game g{g}");
    }
}
