//! The REPL on a real terminal: `script` (util-linux) gives `arbiter` a pseudo-terminal,
//! so rustyline runs as it does for a person at the keyboard.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

struct Terminal {
    child: Child,
    input: ChildStdin,
    screen: Arc<Mutex<String>>,
}

impl Terminal {
    fn start(history: &std::path::Path) -> Terminal {
        Terminal::start_with(history, "", &[])
    }

    /// `arbiter` with these flags (one string, as script(1) runs a shell command) and
    /// these environment variables over a colour terminal's.
    fn start_with(history: &std::path::Path, flags: &str, env: &[(&str, &str)]) -> Terminal {
        let command = format!("'{}' {flags}", env!("CARGO_BIN_EXE_arbiter"));
        let mut script = Command::new("script");
        script
            .args(["-q", "-e", "-c", &command, "/dev/null"])
            .env("ARBITER_HISTORY", history)
            .env("TERM", "xterm")
            .env_remove("NO_COLOR");
        for (name, value) in env {
            script.env(name, value);
        }
        let mut child = script
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("script(1) from util-linux runs arbiter on a pseudo-terminal");
        let input = child.stdin.take().expect("piped stdin");
        let mut output = child.stdout.take().expect("piped stdout");
        let screen = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&screen);
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = output.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .expect("screen lock")
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Terminal {
            child,
            input,
            screen,
        }
    }

    /// Waits until `text` has appeared `times` times on the screen.
    fn wait_for(&self, text: &str, times: usize) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let screen = self.screen.lock().expect("screen lock").clone();
            if screen.matches(text).count() >= times {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "waited for {text:?} x{times}; screen:\n{screen}"
            );
            thread::sleep(Duration::from_millis(10));
        }
    }

    fn type_keys(&mut self, keys: &str) {
        self.input.write_all(keys.as_bytes()).expect("typing");
        self.input.flush().expect("typing");
    }

    fn screen(&self) -> String {
        self.screen.lock().expect("screen lock").clone()
    }

    /// Types `quit`, waits for the exit and returns the whole screen.
    fn quit(mut self, history: &std::path::Path) -> String {
        self.type_keys("quit\r");
        let status = self.child.wait().expect("arbiter exits");
        let _ = std::fs::remove_file(history);
        let screen = self.screen();
        assert!(
            status.success(),
            "exit status {status:?}; screen:\n{screen}"
        );
        screen
    }
}

fn history_file(test: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("arbiter-repl-{test}-{}", std::process::id()))
}

/// The board of `d` after 1. e4, as a session at a terminal with `flags` and `env`
/// shows it, from the line after the command to the `Checkers:` line.
fn board_after_e4(test: &str, flags: &str, env: &[(&str, &str)]) -> String {
    let history = history_file(test);
    let mut term = Terminal::start_with(&history, flags, env);
    term.wait_for("arbiter> ", 1);
    term.type_keys("position startpos moves e4\r");
    term.wait_for("arbiter> ", 2);
    term.type_keys("d\r");
    term.wait_for("Checkers:", 1);
    term.wait_for("arbiter> ", 3);
    let screen = term.quit(&history);
    let board = screen
        .split_once("d\r\n")
        .map_or(screen.as_str(), |(_, after)| after);
    board
        .split_once("Checkers:")
        .map_or(board, |(before, _)| before)
        .to_string()
}

#[test]
fn ctrl_c_in_the_repl_abandons_the_line_and_keeps_answering() {
    let history = std::env::temp_dir().join(format!("arbiter-repl-test-{}", std::process::id()));
    let mut term = Terminal::start(&history);
    // Each key press waits for the prompt: only then is the terminal in raw mode, where
    // Ctrl-C reaches rustyline as a key rather than as a signal from the line discipline.
    term.wait_for("arbiter> ", 1);
    term.type_keys("isready\r");
    term.wait_for("readyok", 1);
    term.wait_for("arbiter> ", 2);
    term.type_keys("move e2e4\x03");
    term.wait_for("arbiter> ", 3);
    term.type_keys("turn\r");
    term.wait_for("turn white", 1);
    term.wait_for("arbiter> ", 4);
    term.type_keys("quit\r");
    let status = term.child.wait().expect("arbiter exits");
    let screen = term.screen.lock().expect("screen lock").clone();
    let _ = std::fs::remove_file(&history);
    assert!(
        status.success(),
        "exit status {status:?}; screen:\n{screen}"
    );
    // The interrupted line was dropped: white is still to move and nothing was played.
    assert!(!screen.contains("played"), "screen:\n{screen}");
}

#[test]
fn tab_after_a_san_prefix_lists_the_legal_moves_that_extend_it() {
    let history = history_file("tab");
    let mut term = Terminal::start_with(&history, "", &[]);
    term.wait_for("arbiter> ", 1);
    // The first Tab completes as far as every candidate agrees, the second lists them.
    term.type_keys("move N\t\t");
    term.wait_for("Nh3", 1);
    assert!(
        term.screen().contains("Na3  Nc3  Nf3  Nh3"),
        "screen:\n{}",
        term.screen()
    );
    // One more letter makes the completion unique: Tab writes it out, and it plays.
    term.type_keys("f\t\r");
    term.wait_for("played g1f3 Nf3 active", 1);
    term.wait_for("arbiter> ", 2);
    let screen = term.quit(&history);
    assert!(
        screen.starts_with("arbiter 0.1.0 — type help, Tab completes moves\r\n"),
        "screen:\n{screen}"
    );
}

#[test]
fn d_at_a_terminal_draws_coloured_squares_and_unicode_pieces() {
    let board = board_after_e4("colour", "", &[]);
    assert!(
        board.contains("♚") && board.contains("♟"),
        "board:\n{board}"
    );
    // 256-colour backgrounds: light and dark squares, and the squares of 1. e4.
    for code in ["\x1b[48;5;137m", "\x1b[48;5;94m", "\x1b[48;5;143m"] {
        assert!(board.contains(code), "no {code:?} in:\n{board}");
    }
    assert!(board.contains("    a  b  c  d  e  f  g  h"));
    assert!(board.contains("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
    assert!(board.contains("Key: 823C9B50FD114196"), "board:\n{board}");
    assert!(!board.contains("+---+"));
}

#[test]
fn no_color_and_a_dumb_terminal_keep_the_text_board_at_a_terminal() {
    for (test, flags, env) in [
        ("flag", "--no-color", &[][..]),
        ("no-color", "", &[("NO_COLOR", "1")][..]),
        ("dumb", "", &[("TERM", "dumb")][..]),
    ] {
        let board = board_after_e4(test, flags, env);
        assert!(!board.contains("\x1b[48;5;"), "{test}: colour in:\n{board}");
        assert!(
            board.contains(" | r | n | b | q | k | b | n | r | 8"),
            "{test}:\n{board}"
        );
    }
}
