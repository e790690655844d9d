//! Files opened to read, their errors naming them: a file that cannot be read ends the
//! run with exit status 2.

use std::fs::File;
use std::io;
use std::path::Path;

/// A file that cannot be opened or read, named in its error: exit status 2.
#[derive(Debug)]
struct FileError {
    name: String,
    error: io::Error,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read {}: {}", self.name, self.error)
    }
}

impl std::error::Error for FileError {}

impl FileError {
    fn wrap(name: &str, error: io::Error) -> io::Error {
        io::Error::new(
            error.kind(),
            FileError {
                name: name.to_string(),
                error,
            },
        )
    }
}

/// A file's reader whose errors name the file (`Is a directory` alone names nothing).
pub struct Named<R> {
    name: String,
    pub inner: R,
}

impl<R: io::Read> io::Read for Named<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| match e.kind() {
            io::ErrorKind::Interrupted => e,
            _ => FileError::wrap(&self.name, e),
        })
    }
}

/// Opens a file to read, its errors naming it; a directory is refused at once.
pub fn open_named(path: &Path) -> io::Result<Named<File>> {
    let name = path.display().to_string();
    let file = File::open(path).map_err(|e| FileError::wrap(&name, e))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(FileError::wrap(
            &name,
            io::Error::new(io::ErrorKind::IsADirectory, "is a directory"),
        ));
    }
    // The protocol never reads a command file as PGN, nor overwrites it.
    arbiter::protocol::files::protect(&file);
    Ok(Named { name, inner: file })
}

pub fn is_file_error(error: &anyhow::Error) -> bool {
    error
        .chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.get_ref().is_some_and(|inner| inner.is::<FileError>()))
}
