//! The options `setoption` sets and `uci` lists, with their limits, and the reading
//! of a `setoption` line's name and value.

use crate::excerpt::Excerpt;

use super::error::ProtocolError;

/// The most threads `setoption name Threads` accepts.
pub const MAX_THREADS: u32 = 256;

/// An option that `uci` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UciOption {
    pub name: &'static str,
    pub kind: OptionKind,
}

/// A UCI option's type, with its default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check { default: bool },
    Spin { default: u32, min: u32, max: u32 },
}

/// The options, as `uci` lists them. Threads 0 means one per available core, which
/// keeps the listing the same on every machine.
pub const OPTIONS: &[UciOption] = &[
    UciOption {
        name: "UCI_Chess960",
        kind: OptionKind::Check { default: false },
    },
    UciOption {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 0,
            min: 0,
            max: MAX_THREADS,
        },
    },
    UciOption {
        name: "JSON",
        kind: OptionKind::Check { default: false },
    },
    UciOption {
        name: "MaxGames",
        kind: OptionKind::Spin {
            default: DEFAULT_MAX_GAMES,
            min: 0,
            max: MAX_MAX_GAMES,
        },
    },
    UciOption {
        name: "Safe",
        kind: OptionKind::Check { default: false },
    },
];

/// How many named games may be open at once unless `MaxGames` says otherwise: a few
/// hundred MiB of games of a few hundred plies.
pub const DEFAULT_MAX_GAMES: u32 = 10_000;

/// The highest `MaxGames`.
pub const MAX_MAX_GAMES: u32 = 10_000_000;

/// A new value of one option.
pub(super) enum OptionValue {
    Chess960(bool),
    Threads(u32),
    Json(bool),
    MaxGames(u32),
    Safe(bool),
}

/// The option `setoption` names, with its new value. Names and values are
/// case-insensitive.
pub(super) fn parse_option(name: &str, value: Option<&str>) -> Result<OptionValue, ProtocolError> {
    if name.eq_ignore_ascii_case("UCI_Chess960") {
        return parse_check("UCI_Chess960", value).map(OptionValue::Chess960);
    }
    if name.eq_ignore_ascii_case("JSON") {
        return parse_check("JSON", value).map(OptionValue::Json);
    }
    if name.eq_ignore_ascii_case("Threads") {
        return match value.map(|v| (v, v.parse::<u32>())) {
            Some((_, Ok(n))) if n <= MAX_THREADS => Ok(OptionValue::Threads(n)),
            Some((v, _)) => Err(ProtocolError::BadOption(format!(
                "Threads is a whole number from 0 (one per core) to {MAX_THREADS}, not '{}'",
                Excerpt(v)
            ))),
            None => Err(ProtocolError::BadOption(
                "Threads needs a value: a number of threads, or 0 for one per core".to_string(),
            )),
        };
    }
    if name.eq_ignore_ascii_case("MaxGames") {
        return match value.map(|v| (v, v.parse::<u32>())) {
            Some((_, Ok(n))) if n <= MAX_MAX_GAMES => Ok(OptionValue::MaxGames(n)),
            Some((v, _)) => Err(ProtocolError::BadOption(format!(
                "MaxGames is a whole number from 0 to {MAX_MAX_GAMES}, not '{v}'"
            ))),
            None => Err(ProtocolError::BadOption(
                "MaxGames needs a value: the most named games open at once".to_string(),
            )),
        };
    }
    if name.eq_ignore_ascii_case("Safe") {
        return parse_check("Safe", value).map(OptionValue::Safe);
    }
    Err(ProtocolError::BadOption(format!(
        "unknown option '{}' (the options are UCI_Chess960, Threads, JSON, MaxGames and Safe)",
        Excerpt(name)
    )))
}

/// The value of a `check` option.
fn parse_check(name: &str, value: Option<&str>) -> Result<bool, ProtocolError> {
    match value {
        Some(v) if v.eq_ignore_ascii_case("true") => Ok(true),
        Some(v) if v.eq_ignore_ascii_case("false") => Ok(false),
        Some(v) => Err(ProtocolError::BadOption(format!(
            "{name} is true or false, not '{}'",
            Excerpt(v)
        ))),
        None => Err(ProtocolError::BadOption(format!(
            "{name} needs a value: true or false"
        ))),
    }
}
