//! The library's layering: `scripts/check-layers` finds no import circle between
//! modules and no import from `pgn/` into `protocol/`.

use std::path::Path;
use std::process::Command;

#[test]
fn modules_import_in_one_direction() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new("python3")
        .arg(root.join("scripts/check-layers"))
        .arg(root.join("src"))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("no import circle"), "{stdout}");
}

/// The checker finds a circle when there is one: two modules importing each other.
#[test]
fn the_layer_check_finds_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("arbiter-layers-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("pgn")).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a;\nmod b;\nmod pgn;\n").unwrap();
    std::fs::write(dir.join("a.rs"), "use crate::b::B;\npub struct A;\n").unwrap();
    std::fs::write(dir.join("b.rs"), "use crate::a::A;\npub struct B;\n").unwrap();
    std::fs::write(dir.join("pgn/mod.rs"), "use crate::protocol::X;\n").unwrap();
    let output = Command::new("python3")
        .arg(root.join("scripts/check-layers"))
        .arg(&dir)
        .output()
        .expect("python3 runs");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!output.status.success(), "{stdout}");
    assert!(stdout.contains("import circle: a, b"), "{stdout}");
}
