//! The files the protocol opens (`position pgn <file>`, `pgn save <file>`): regular
//! files only, and never the process's own input or output.
//!
//! A FIFO, a device or `/dev/stdin` would block every game while it is read, or swallow
//! the protocol's next lines; so each path is checked by name, then opened without
//! blocking (`O_NONBLOCK`, and `O_NOCTTY` so that a terminal never becomes the
//! process's), and the opened handle is checked again (the name may have changed in
//! between): anything but a regular file is refused, and so is a file that is the
//! process's stdin or stdout, or a command file it reads.

use std::fs::{File, OpenOptions};
use std::io;
use std::sync::{Mutex, PoisonError};

/// Why a path is refused before any byte of it is read or written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// A FIFO, a device, a directory or a socket: what it is.
    NotRegular(&'static str),
    /// The process's own stdin or stdout, or a command file it reads.
    OwnInput,
}

impl OpenError {
    /// The protocol error for `path`; `io` words a system error.
    pub fn into_protocol(
        self,
        path: &str,
        io: impl FnOnce(io::Error) -> super::ProtocolError,
    ) -> super::ProtocolError {
        use super::ProtocolError;
        match self {
            OpenError::Refused(Refused::NotRegular(kind)) => ProtocolError::NotRegularFile {
                path: path.to_string(),
                kind,
            },
            OpenError::Refused(Refused::OwnInput) => ProtocolError::OwnInput(path.to_string()),
            OpenError::Io(e) => io(e),
        }
    }
}

/// A failure to open: refused, or an error of the system.
#[derive(Debug)]
pub enum OpenError {
    Refused(Refused),
    Io(io::Error),
}

/// A file's identity: its device and inode.
type Identity = (u64, u64);

/// The command files the process reads, which are never opened as data.
static PROTECTED: Mutex<Vec<Identity>> = Mutex::new(Vec::new());

/// Marks a file the process reads commands from: `position pgn` and `pgn save` refuse
/// it from now on.
pub fn protect(file: &File) {
    if let Some(id) = file.metadata().ok().as_ref().and_then(identity) {
        PROTECTED
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(id);
    }
}

/// Opens a regular file to read.
pub fn open_read(path: &str) -> Result<File, OpenError> {
    check_name(path)?;
    let mut options = OpenOptions::new();
    options.read(true);
    checked(path, non_blocking(&mut options))
}

/// Opens (creating it if need be) a regular file to write, emptied once checked: not
/// before, so that a refused file keeps its contents.
pub fn open_write(path: &str) -> Result<File, OpenError> {
    match check_name(path) {
        Err(OpenError::Io(e)) if e.kind() == io::ErrorKind::NotFound => {}
        other => other?,
    }
    let mut options = OpenOptions::new();
    options.write(true).create(true);
    let file = checked(path, non_blocking(&mut options))?;
    file.set_len(0).map_err(OpenError::Io)?;
    Ok(file)
}

/// The check by name, before opening: a FIFO is then never opened at all.
fn check_name(path: &str) -> Result<(), OpenError> {
    let meta = std::fs::metadata(path).map_err(OpenError::Io)?;
    regular(&meta)
}

fn checked(path: &str, options: &OpenOptions) -> Result<File, OpenError> {
    let file = options.open(path).map_err(OpenError::Io)?;
    let meta = file.metadata().map_err(OpenError::Io)?;
    regular(&meta)?;
    if identity(&meta).is_some_and(own) {
        return Err(OpenError::Refused(Refused::OwnInput));
    }
    Ok(file)
}

fn regular(meta: &std::fs::Metadata) -> Result<(), OpenError> {
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(());
    }
    Err(OpenError::Refused(Refused::NotRegular(kind_name(&kind))))
}

#[cfg(unix)]
fn kind_name(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "no regular file"
    }
}

#[cfg(not(unix))]
fn kind_name(kind: &std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        "a directory"
    } else {
        "no regular file"
    }
}

#[cfg(unix)]
fn non_blocking(options: &mut OpenOptions) -> &mut OpenOptions {
    use rustix::fs::OFlags;
    use std::os::unix::fs::OpenOptionsExt;
    let flags = (OFlags::NONBLOCK | OFlags::NOCTTY).bits();
    // The flags are small positive constants: they fit an i32.
    options.custom_flags(i32::try_from(flags).unwrap_or(0))
}

#[cfg(not(unix))]
fn non_blocking(options: &mut OpenOptions) -> &mut OpenOptions {
    options
}

#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> Option<Identity> {
    None
}

/// Whether a file is the process's stdin or stdout, or a protected command file.
#[cfg(unix)]
// The types of `st_dev` and `st_ino` vary between platforms.
#[allow(clippy::unnecessary_cast)]
fn own(id: Identity) -> bool {
    use std::os::fd::AsFd;
    let std_id = |stat: rustix::io::Result<rustix::fs::Stat>| {
        stat.ok().map(|s| (s.st_dev as u64, s.st_ino as u64))
    };
    let stdin = std_id(rustix::fs::fstat(io::stdin().as_fd()));
    let stdout = std_id(rustix::fs::fstat(io::stdout().as_fd()));
    stdin == Some(id)
        || stdout == Some(id)
        || PROTECTED
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(&id)
}

#[cfg(not(unix))]
fn own(_: Identity) -> bool {
    false
}
