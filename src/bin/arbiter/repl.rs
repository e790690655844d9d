//! The REPL: rustyline's line editor with history and Tab completion.

use std::cell::RefCell;
use std::io::Write;
use std::path::PathBuf;
use std::rc::Rc;

use anyhow::Result;
use arbiter::protocol::{Flow, Runner};
use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{CompletionType, Config, Context, Editor, Helper, Highlighter, Hinter, Validator};

use crate::completion::{complete, Snapshot};

/// The snapshot completion reads, shared by the editor's helper and the loop that
/// replaces it after every line.
type SharedSnapshot = Rc<RefCell<Snapshot>>;

/// Tab completion from the game as it stands; rustyline's defaults for the rest: no
/// hints, no highlighting, every line accepted as typed.
#[derive(Helper, Hinter, Highlighter, Validator)]
struct ReplHelper {
    snapshot: SharedSnapshot,
}

impl Completer for ReplHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        Ok(complete(
            line.get(..pos).unwrap_or(line),
            &self.snapshot.borrow(),
        ))
    }
}

fn history_path() -> Option<PathBuf> {
    std::env::var_os("ARBITER_HISTORY")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".arbiter_history"))
        })
}

pub fn repl(runner: &mut Runner<impl Write + Send>, banner: bool) -> Result<()> {
    let snapshot: SharedSnapshot = Rc::new(RefCell::new(Snapshot::of(runner.session())));
    // List mode shows every candidate at once, the natural view of a move list.
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .build();
    let mut editor: Editor<ReplHelper, DefaultHistory> = Editor::with_config(config)?;
    editor.set_helper(Some(ReplHelper {
        snapshot: Rc::clone(&snapshot),
    }));
    let history = history_path();
    if let Some(path) = &history {
        // A missing history file is the normal first run.
        let _ = editor.load_history(path);
    }
    if banner {
        println!(
            "arbiter {} — type help, Tab completes moves",
            env!("CARGO_PKG_VERSION")
        );
    }
    loop {
        match editor.readline("arbiter> ") {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                let flow = runner.run_line(&line)?;
                runner.flush()?;
                *snapshot.borrow_mut() = Snapshot::of(runner.session());
                if flow == Flow::Quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e.into()),
        }
    }
    if let Some(path) = &history {
        let _ = editor.save_history(path);
    }
    Ok(())
}
