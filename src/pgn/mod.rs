//! PGN, the format chess programs keep games in: reading (`reader`, streamed by
//! `stream`), replaying with the full rules (`replay`), and writing the export format
//! (`writer`), with the game's tag pairs in `tags`.
//!
//! ```
//! use arbiter::pgn::{read_game, Options, Replayer};
//!
//! let text = b"[White \"Morphy\"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 *\n";
//! let mut replayer = Replayer::new(Options::default());
//! read_game(text, true, &mut replayer);
//! let loaded = replayer.load().expect("a legal game");
//! assert_eq!(loaded.game.moves().len(), 6);
//! assert_eq!(loaded.tags.get("White"), Some("Morphy"));
//! ```

pub mod database;
pub mod edit;
pub mod reader;
pub mod replay;
pub mod stream;
pub mod tags;
pub mod writer;

pub use reader::{read_game, GameRead, Outcome, SyntaxError, Visitor};
pub use replay::{GameError, Loaded, Options, Replayer, ResultError};
pub use stream::{GameReader, Next, RawGame, MAX_GAME};
pub use tags::{TagError, Tags};
