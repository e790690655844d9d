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
        let mut child = Command::new("script")
            .args(["-q", "-e", "-c", env!("CARGO_BIN_EXE_arbiter"), "/dev/null"])
            .env("ARBITER_HISTORY", history)
            .env("TERM", "xterm")
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
