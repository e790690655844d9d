//! The version clock: one counter for every game of a process. Every change of any game
//! takes the clock's next value, and a game's version is the value of its last change.
//! A value is handed out once, so a version once seen for a game's name never comes
//! back for that name: not after the game is replaced, nor after it is closed and
//! opened again. Versions are opaque to clients: increasing per game, with gaps, and
//! compared only for equality (`if <version>`).

use super::name::Version;

/// The highest version the clock adopts: the largest integer that a JSON client reading
/// numbers as doubles (JavaScript) still reads exactly.
pub const MAX_VERSION: Version = (1 << 53) - 1;

/// The process's version counter. It starts at 1: 0 is the version of the default game
/// before its first change, and no change is ever given it, so a run's versions are
/// the same at every run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionClock {
    /// The value the next change takes.
    next: Version,
}

impl Default for VersionClock {
    fn default() -> VersionClock {
        VersionClock { next: 1 }
    }
}

impl VersionClock {
    pub fn new() -> VersionClock {
        VersionClock::default()
    }

    /// The version of a change: a value never handed out before.
    #[allow(clippy::should_implement_trait)] // one clock, not a sequence to iterate
    pub fn next(&mut self) -> Version {
        let version = self.next;
        // A change a microsecond would take 285 years to reach the end.
        self.next = self.next.saturating_add(1);
        version
    }

    /// Moves the clock above `version` (a game restored with the version it was saved
    /// at), so that no later change takes it or any value below it. False, and nothing
    /// changes, for a version above `MAX_VERSION`: the clock could not stay above it.
    pub fn adopt(&mut self, version: Version) -> bool {
        if version > MAX_VERSION {
            return false;
        }
        self.next = self.next.max(version + 1);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_handed_out_once_in_increasing_order_from_one() {
        let mut clock = VersionClock::new();
        let values: Vec<Version> = (0..5).map(|_| clock.next()).collect();
        assert_eq!(values, [1, 2, 3, 4, 5]);
    }

    #[test]
    fn adopting_a_version_moves_the_clock_above_it_and_never_back() {
        let mut clock = VersionClock::new();
        assert!(clock.adopt(41));
        assert_eq!(clock.next(), 42);
        // A lower version leaves the clock where it is.
        assert!(clock.adopt(7));
        assert_eq!(clock.next(), 43);
        assert!(clock.adopt(MAX_VERSION));
        assert_eq!(clock.next(), MAX_VERSION + 1);
        let mut clock = VersionClock::new();
        assert!(!clock.adopt(MAX_VERSION + 1));
        assert_eq!(clock.next(), 1);
    }
}
