//! The rules one at a time: each test sets up a small position by FEN and checks one
//! rule, one refusal or one piece of notation, with the exact expected value.

use arbiter::color::Color;
use arbiter::fen::{CastlingToken, FenError, ParseFenError, PositionError};
use arbiter::illegal::IllegalMove;
use arbiter::moves::CastlingMode;
use arbiter::moves::{Move, MoveKind};
use arbiter::position::Position;
use arbiter::role::Role;
use arbiter::san::SanError;
use arbiter::square::{File, Rank, Square};
use arbiter::uci::UciMove;

const STANDARD: CastlingMode = CastlingMode::Standard;
const CHESS960: CastlingMode = CastlingMode::Chess960;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn uci(text: &str) -> UciMove {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves as UCI text in `mode`, sorted.
fn moves(p: &Position, mode: CastlingMode) -> Vec<String> {
    let mut list: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(mode).to_string())
        .collect();
    list.sort();
    list
}

/// The legal moves of the piece on `from` as UCI text, sorted.
fn moves_from(p: &Position, from: Square) -> Vec<String> {
    let mut list: Vec<String> = p
        .legal_moves_from(from)
        .iter()
        .map(|m| m.to_uci(STANDARD).to_string())
        .collect();
    list.sort();
    list
}

/// The legal move UCI text names; panics with the diagnosis if there is none.
fn legal(p: &Position, text: &str, mode: CastlingMode) -> Move {
    p.uci_to_move(uci(text), mode)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.fen()))
}

/// Why UCI text is refused; panics if it is legal.
fn refusal(p: &Position, text: &str, mode: CastlingMode) -> IllegalMove {
    match p.diagnose(uci(text), mode) {
        Ok(m) => panic!("{text} is legal in {}: {m:?}", p.fen()),
        Err(e) => e,
    }
}

/// The position after UCI moves (standard castling notation).
fn play(p: &Position, line: &str) -> Position {
    line.split_whitespace()
        .fold(*p, |p, text| p.after(legal(&p, text, STANDARD)))
}

fn fen_error(fen: &str) -> FenError {
    match Position::from_fen(fen) {
        Ok(p) => panic!("{fen} accepted as {}", p.fen()),
        Err(e) => e,
    }
}

fn parse_error(fen: &str) -> ParseFenError {
    match fen_error(fen) {
        FenError::Parse(e) => e,
        FenError::Position(e) => panic!("{fen}: expected a syntax error, got {e:?}"),
    }
}

fn position_error(fen: &str) -> PositionError {
    match fen_error(fen) {
        FenError::Position(e) => e,
        FenError::Parse(e) => panic!("{fen}: expected a position error, got {e:?}"),
    }
}

// ---- Castling ----------------------------------------------------------------------

#[test]
fn castling_both_ways_when_free() {
    let p = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(moves(&p, STANDARD).contains(&"e1g1".to_string()));
    assert!(moves(&p, STANDARD).contains(&"e1c1".to_string()));
    assert_eq!(
        p.after(legal(&p, "e1g1", STANDARD)).fen(),
        "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1"
    );
    assert_eq!(
        p.after(legal(&p, "e1c1", STANDARD)).fen(),
        "4k3/8/8/8/8/8/8/2KR3R b - - 1 1"
    );
}

#[test]
fn castling_refused_without_the_right() {
    let p = pos("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1");
    assert!(!moves(&p, STANDARD).contains(&"e1g1".to_string()));
    assert_eq!(
        refusal(&p, "e1g1", STANDARD),
        IllegalMove::CastlingWithoutRight
    );
    assert_eq!(legal(&p, "e1c1", STANDARD).kind(), MoveKind::Castle);
}

#[test]
fn castling_refused_out_of_check() {
    let p = pos("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(
        refusal(&p, "e1g1", STANDARD),
        IllegalMove::CastlingOutOfCheck
    );
    assert_eq!(
        refusal(&p, "e1c1", STANDARD),
        IllegalMove::CastlingOutOfCheck
    );
    assert!(p.legal_moves().iter().all(|m| !m.is_castle()));
}

#[test]
fn castling_refused_through_check() {
    let p = pos("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(
        refusal(&p, "e1g1", STANDARD),
        IllegalMove::CastlingThroughCheck(Square::F1)
    );
    assert_eq!(legal(&p, "e1c1", STANDARD).kind(), MoveKind::Castle);
}

#[test]
fn castling_refused_into_check() {
    let p = pos("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(
        refusal(&p, "e1g1", STANDARD),
        IllegalMove::CastlingThroughCheck(Square::G1)
    );
    assert_eq!(legal(&p, "e1c1", STANDARD).kind(), MoveKind::Castle);
}

#[test]
fn queen_side_castling_allowed_with_b1_attacked() {
    // Only the king's squares must be safe; the rook may cross an attacked square.
    let p = pos("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(legal(&p, "e1c1", STANDARD).kind(), MoveKind::Castle);
}

#[test]
fn castling_refused_when_blocked_on_king_side() {
    let p = pos("4k3/8/8/8/8/8/8/R3KB1R w KQ - 0 1");
    assert_eq!(refusal(&p, "e1g1", STANDARD), IllegalMove::CastlingBlocked);
    assert_eq!(legal(&p, "e1c1", STANDARD).kind(), MoveKind::Castle);
}

#[test]
fn castling_refused_when_b1_is_occupied() {
    // b1 is not on the king's path, but the rook must pass it.
    let p = pos("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
    assert_eq!(refusal(&p, "e1c1", STANDARD), IllegalMove::CastlingBlocked);
    assert_eq!(legal(&p, "e1g1", STANDARD).kind(), MoveKind::Castle);
}

#[test]
fn castling_rights_lost_when_the_rook_is_captured() {
    let p = pos("4k3/8/8/8/8/8/6b1/R3K2R b KQ - 0 1");
    let after = play(&p, "g2h1");
    assert_eq!(after.fen(), "4k3/8/8/8/8/8/8/R3K2b w Q - 0 2");
    assert_eq!(
        refusal(&after, "e1g1", STANDARD),
        IllegalMove::CastlingWithoutRight
    );
}

#[test]
fn castling_rights_lost_when_the_king_moves() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(play(&p, "e1f1 e8d8 f1e1").castling_field(), "-");
    assert_eq!(play(&p, "e1f1").castling_field(), "kq");
    assert_eq!(play(&p, "h1h2").castling_field(), "Qkq");
}

#[test]
fn chess960_king_may_land_on_its_own_castling_rook() {
    // King f1, rook g1: castling puts the king on g1 and the rook on f1.
    let p = pos("4k3/8/8/8/8/8/8/5KR1 w K - 0 1");
    let castle = legal(&p, "f1g1", CHESS960);
    assert_eq!(castle.kind(), MoveKind::Castle);
    assert_eq!(p.after(castle).fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    assert_eq!(p.san(castle), "O-O");
}

#[test]
fn chess960_king_already_on_its_destination() {
    // King g1, rook h1: the king stays, the rook jumps to f1.
    let p = pos("4k3/8/8/8/8/8/8/6KR w K - 0 1");
    let castle = legal(&p, "g1h1", CHESS960);
    assert_eq!(castle.kind(), MoveKind::Castle);
    assert_eq!(p.after(castle).fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
}

#[test]
fn chess960_castling_refused_when_the_rook_shields_the_king() {
    // King c1, castling rook b1, black queen a1: castling queen-side leaves the king on
    // c1 and moves the rook to d1, opening the rank to the queen.
    let p = pos("4k3/8/8/8/8/8/8/qRK5 w Q - 0 1");
    assert!(!p.is_check());
    assert!(p.legal_moves().iter().all(|m| !m.is_castle()));
    assert_eq!(
        refusal(&p, "c1b1", CHESS960),
        IllegalMove::CastlingThroughCheck(Square::C1)
    );
}

#[test]
fn chess960_castling_refused_when_the_rook_destination_is_occupied() {
    // King b1, rook a1 queen-side: the rook goes to d1, where a knight stands.
    let p = pos("4k3/8/8/8/8/8/8/RK1N4 w Q - 0 1");
    assert_eq!(refusal(&p, "b1a1", CHESS960), IllegalMove::CastlingBlocked);
    let free = pos("4k3/8/8/8/8/8/8/RK6 w Q - 0 1");
    let castle = legal(&free, "b1a1", CHESS960);
    assert_eq!(free.after(castle).fen(), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
}

#[test]
fn chess960_castling_printed_as_king_takes_rook() {
    let p = pos("4k3/8/8/8/8/8/8/1R3KR1 w KQ - 0 1");
    assert_eq!(
        moves(&p, CHESS960)
            .into_iter()
            .filter(|m| m.starts_with("f1") && ["f1b1", "f1g1"].contains(&m.as_str()))
            .collect::<Vec<_>>(),
        ["f1b1", "f1g1"]
    );
    let queen_side = legal(&p, "f1b1", CHESS960);
    assert_eq!(queen_side.kind(), MoveKind::Castle);
    assert_eq!(
        p.after(queen_side).fen(),
        "4k3/8/8/8/8/8/8/2KR2R1 b - - 1 1"
    );
}

// ---- UCI castling notation ---------------------------------------------------------

#[test]
fn uci_standard_castling_accepts_king_to_destination() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let m = legal(&p, "e1g1", STANDARD);
    assert_eq!(
        (m.from(), m.to(), m.kind()),
        (Square::E1, Square::H1, MoveKind::Castle)
    );
    assert_eq!(m.to_uci(STANDARD).to_string(), "e1g1");
}

#[test]
fn uci_standard_castling_accepts_king_takes_rook() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let m = legal(&p, "e1a1", STANDARD);
    assert_eq!(
        (m.from(), m.to(), m.kind()),
        (Square::E1, Square::A1, MoveKind::Castle)
    );
    assert_eq!(m.to_uci(STANDARD).to_string(), "e1c1");
    assert_eq!(legal(&p, "e1h1", STANDARD), legal(&p, "e1g1", STANDARD));
}

#[test]
fn uci_chess960_castling_is_king_takes_rook_only() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let m = legal(&p, "e1h1", CHESS960);
    assert_eq!(m.kind(), MoveKind::Castle);
    assert_eq!(m.to_uci(CHESS960).to_string(), "e1h1");
    assert_eq!(
        refusal(&p, "e1g1", CHESS960),
        IllegalMove::CannotMoveThatWay(Role::King)
    );
}

#[test]
fn uci_standard_notation_keeps_king_takes_rook_for_a_chess960_setup() {
    // b8c8 is both a king step and where the king lands castling with a8: the castle
    // must print as b8a8 so that its text reads back as the castle.
    let p = pos("rk5r/8/8/8/8/8/8/RK5R b HAha - 0 1");
    let castle = legal(&p, "b8a8", STANDARD);
    assert_eq!(castle.kind(), MoveKind::Castle);
    assert_eq!(castle.to_uci(STANDARD).to_string(), "b8a8");
    let step = legal(&p, "b8c8", STANDARD);
    assert_eq!(step.kind(), MoveKind::Normal);
}

#[test]
fn uci_standard_notation_of_a_castle_with_the_king_on_its_square() {
    let p = pos("4k3/8/8/8/8/8/8/6KR w H - 0 1");
    let castle = legal(&p, "g1h1", STANDARD);
    assert_eq!(castle.kind(), MoveKind::Castle);
    assert_eq!(castle.to_uci(STANDARD).to_string(), "g1h1");
}

// ---- En passant --------------------------------------------------------------------

#[test]
fn en_passant_after_a_double_push() {
    let p = play(&pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"), "d7d5");
    assert_eq!(p.fen(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    let m = legal(&p, "e5d6", STANDARD);
    assert_eq!(m.kind(), MoveKind::EnPassant);
    assert_eq!(p.san(m), "exd6");
    assert_eq!(p.after(m).fen(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
}

#[test]
fn en_passant_only_right_after_the_double_push() {
    let p = play(&pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"), "d7d5 e1f1 e8f8");
    assert_eq!(
        refusal(&p, "e5d6", STANDARD),
        IllegalMove::CannotMoveThatWay(Role::Pawn)
    );
}

#[test]
fn en_passant_refused_when_both_pawns_leave_a_pinned_rank() {
    let p = pos("8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2");
    assert_eq!(moves_from(&p, Square::E5), ["e5e6"]);
    assert_eq!(
        refusal(&p, "e5d6", STANDARD),
        IllegalMove::LeavesKingInCheck
    );
}

#[test]
fn en_passant_refused_for_a_pawn_pinned_on_the_other_diagonal() {
    // Bishop g7 pins e5 to the king on c3; d6 is off that diagonal.
    let p = pos("4k3/6b1/8/3pP3/8/2K5/8/8 w - d6 0 2");
    assert_eq!(moves_from(&p, Square::E5), Vec::<String>::new());
    assert_eq!(p.fen(), "4k3/6b1/8/3pP3/8/2K5/8/8 w - - 0 2");
}

#[test]
fn en_passant_allowed_along_the_pinning_diagonal() {
    // Bishop b8 pins e5 to the king on g3; d6 is on that diagonal (the push is not).
    let p = pos("1b2k3/8/8/3pP3/8/6K1/8/8 w - d6 0 2");
    assert_eq!(moves_from(&p, Square::E5), ["e5d6"]);
}

#[test]
fn en_passant_refused_for_a_pawn_pinned_on_its_file() {
    // The rook on e8 pins e5 to the king on e1; capturing on d6 leaves the file.
    let p = pos("k3r3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(moves_from(&p, Square::E5), ["e5e6"]);
}

#[test]
fn en_passant_refused_when_the_captured_pawn_shields_the_king() {
    // The pawn on d5 stands between the bishop on f7 and the king on b3.
    let p = pos("4k3/5b2/8/3pP3/8/1K6/8/8 w - d6 0 2");
    assert_eq!(moves_from(&p, Square::E5), ["e5e6"]);
    assert_eq!(
        refusal(&p, "e5d6", STANDARD),
        IllegalMove::LeavesKingInCheck
    );
}

#[test]
fn en_passant_captures_the_pawn_that_gives_check() {
    let p = play(&pos("4k3/5p2/8/4P3/4K3/8/8/8 b - - 0 1"), "f7f5");
    assert_eq!(p.checkers().first(), Some(Square::F5));
    let m = legal(&p, "e5f6", STANDARD);
    assert_eq!(m.kind(), MoveKind::EnPassant);
    assert!(!p.after(m).is_check());
    assert_eq!(p.san(m), "exf6");
}

#[test]
fn en_passant_refused_when_it_does_not_answer_a_discovered_check() {
    // d7d5 uncovered the bishop on c8 against the king on g4: en passant to d6 neither
    // takes nor blocks it, but the pawn may block on e6.
    let p = pos("2b1k3/8/8/3pP3/6K1/8/8/8 w - d6 0 2");
    assert_eq!(p.checkers().first(), Some(Square::C8));
    assert_eq!(moves_from(&p, Square::E5), ["e5e6"]);
}

#[test]
fn fen_prints_en_passant_only_when_a_capture_is_legal() {
    // No pawn beside: the square is dropped on input.
    let p = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(p.ep_square(), None);
    // A pawn beside but the capture illegal (rank pin): not printed, still in the key.
    let pinned = pos("8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2");
    assert_eq!(pinned.fen(), "8/8/8/K2pP2r/8/8/8/4k3 w - - 0 2");
    assert_eq!(pinned.ep_square(), Some(Square::D6));
    assert_eq!(pinned.legal_ep_square(), None);
    assert_ne!(pinned.key(), pos("8/8/8/K2pP2r/8/8/8/4k3 w - - 0 2").key());
}

// ---- Promotion ---------------------------------------------------------------------

fn promote(role: Role, letter: char, fen_after: &str) {
    let p = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let m = legal(&p, &format!("e7e8{letter}"), STANDARD);
    assert_eq!(m.kind(), MoveKind::Promotion(role));
    assert_eq!(p.after(m).fen(), fen_after);
}

#[test]
fn promotion_to_queen() {
    promote(Role::Queen, 'q', "4Q3/8/8/8/8/8/k7/4K3 b - - 0 1");
}

#[test]
fn promotion_to_rook() {
    promote(Role::Rook, 'r', "4R3/8/8/8/8/8/k7/4K3 b - - 0 1");
}

#[test]
fn promotion_to_bishop() {
    promote(Role::Bishop, 'b', "4B3/8/8/8/8/8/k7/4K3 b - - 0 1");
}

#[test]
fn promotion_to_knight() {
    promote(Role::Knight, 'n', "4N3/8/8/8/8/8/k7/4K3 b - - 0 1");
}

#[test]
fn promotion_offers_exactly_four_pieces() {
    let p = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    assert_eq!(
        moves_from(&p, Square::E7),
        ["e7e8b", "e7e8n", "e7e8q", "e7e8r"]
    );
}

#[test]
fn promotion_with_capture_to_each_piece() {
    let p = pos("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        moves_from(&p, Square::E7),
        ["e7d8b", "e7d8n", "e7d8q", "e7d8r", "e7e8b", "e7e8n", "e7e8q", "e7e8r"]
    );
    let knight = legal(&p, "e7d8n", STANDARD);
    assert_eq!(p.san(knight), "exd8=N");
    assert_eq!(p.after(knight).fen(), "3N2k1/8/8/8/8/8/8/4K3 b - - 0 1");
    let rook = legal(&p, "e7d8r", STANDARD);
    assert_eq!(p.san(rook), "exd8=R+");
}

#[test]
fn black_promotion_with_capture() {
    let p = pos("4k3/8/8/8/8/8/1p6/R3K3 b Q - 0 1");
    let m = legal(&p, "b2a1b", STANDARD);
    assert_eq!(p.san(m), "bxa1=B");
    assert_eq!(p.after(m).fen(), "4k3/8/8/8/8/8/8/b3K3 w - - 0 2");
}

// ---- Pins and checks ---------------------------------------------------------------

#[test]
fn rook_pinned_on_a_file_moves_only_along_it() {
    let p = pos("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1");
    assert_eq!(
        moves_from(&p, Square::E2),
        ["e2e3", "e2e4", "e2e5", "e2e6", "e2e7", "e2e8"]
    );
    assert_eq!(
        refusal(&p, "e2d2", STANDARD),
        IllegalMove::LeavesKingInCheck
    );
}

#[test]
fn bishop_pinned_on_a_diagonal_moves_only_along_it() {
    let p = pos("6k1/8/8/8/q7/8/2B5/3K4 w - - 0 1");
    assert_eq!(moves_from(&p, Square::C2), ["c2a4", "c2b3"]);
}

#[test]
fn pinned_knight_cannot_move() {
    let p = pos("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1");
    assert_eq!(moves_from(&p, Square::E2), Vec::<String>::new());
}

#[test]
fn diagonally_pinned_pawn_may_only_capture_the_pinner() {
    let p = pos("6k1/8/8/8/8/1b6/2P5/3K4 w - - 0 1");
    assert_eq!(moves_from(&p, Square::C2), ["c2b3"]);
}

#[test]
fn file_pinned_pawn_may_push_but_not_capture() {
    let p = pos("4r1k1/8/8/8/8/3b4/4P3/4K3 w - - 0 1");
    assert_eq!(moves_from(&p, Square::E2), ["e2e3", "e2e4"]);
}

#[test]
fn double_check_allows_only_king_moves() {
    // Rook e8 and knight d3 both check; the queen could take or block either alone.
    let p = pos("4r1k1/8/8/1Q6/8/3n4/8/4K3 w - - 0 1");
    assert_eq!(p.checkers().count(), 2);
    assert_eq!(moves(&p, STANDARD), ["e1d1", "e1d2", "e1f1"]);
}

#[test]
fn single_check_may_be_blocked_or_the_checker_taken() {
    let p = pos("4r1k1/8/8/1Q6/8/8/8/4K3 w - - 0 1");
    assert_eq!(moves_from(&p, Square::B5), ["b5e2", "b5e5", "b5e8"]);
}

#[test]
fn king_cannot_step_back_along_the_checking_ray() {
    let p = pos("4r1k1/8/8/8/8/8/4K3/8 w - - 0 1");
    assert!(!moves_from(&p, Square::E2).contains(&"e2e1".to_string()));
    assert_eq!(
        moves_from(&p, Square::E2),
        ["e2d1", "e2d2", "e2d3", "e2f1", "e2f2", "e2f3"]
    );
}

#[test]
fn checkmate_and_stalemate() {
    let mate = play(&Position::startpos(), "f2f3 e7e5 g2g4 d8h4");
    assert!(mate.is_checkmate());
    assert!(!mate.is_stalemate());
    let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(stalemate.is_stalemate());
    assert!(!stalemate.is_checkmate());
}

// ---- FEN: syntax errors ------------------------------------------------------------

#[test]
fn fen_refuses_too_few_fields() {
    assert_eq!(
        parse_error("8/8/8/8/8/8/8/8 w"),
        ParseFenError::FieldCount(2)
    );
}

#[test]
fn fen_refuses_too_many_fields() {
    assert_eq!(
        parse_error("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"),
        ParseFenError::FieldCount(7)
    );
}

#[test]
fn fen_refuses_seven_ranks() {
    assert_eq!(
        parse_error("4k3/8/8/8/8/8/4K3 w - - 0 1"),
        ParseFenError::RankCount(7)
    );
}

#[test]
fn fen_refuses_a_long_rank() {
    assert_eq!(
        parse_error("4k4/8/8/8/8/8/8/4K3 w - - 0 1"),
        ParseFenError::RankLength(Rank::EIGHTH)
    );
}

#[test]
fn fen_refuses_a_short_rank() {
    assert_eq!(
        parse_error("4k3/8/8/8/8/8/8/4K2 w - - 0 1"),
        ParseFenError::RankLength(Rank::FIRST)
    );
}

#[test]
fn fen_refuses_an_unknown_piece_letter() {
    assert_eq!(
        parse_error("4k3/8/8/8/8/8/8/4K2x w - - 0 1"),
        ParseFenError::PieceChar('x')
    );
    assert_eq!(
        parse_error("4k3/8/8/8/8/8/8/4K2 w - - 0 1".replace("K2", "K9").as_str()),
        ParseFenError::PieceChar('9')
    );
}

#[test]
fn fen_refuses_a_bad_side_to_move() {
    assert_eq!(
        parse_error("4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
        ParseFenError::Turn("x".to_string())
    );
}

#[test]
fn fen_refuses_a_bad_castling_letter() {
    assert_eq!(
        parse_error("4k3/8/8/8/8/8/8/4K3 w KX - 0 1"),
        ParseFenError::Castling("KX".to_string())
    );
}

#[test]
fn fen_refuses_a_repeated_castling_letter() {
    assert_eq!(
        parse_error("r3k2r/8/8/8/8/8/8/R3K2R w KKq - 0 1"),
        ParseFenError::Castling("KKq".to_string())
    );
}

#[test]
fn fen_refuses_a_bad_en_passant_field() {
    assert_eq!(
        parse_error("4k3/8/8/8/8/8/8/4K3 w - e9 0 1"),
        ParseFenError::EnPassant("e9".to_string())
    );
}

#[test]
fn fen_refuses_a_bad_halfmove_clock() {
    assert_eq!(
        parse_error("4k3/8/8/8/8/8/8/4K3 w - - -1 1"),
        ParseFenError::Halfmoves("-1".to_string())
    );
}

#[test]
fn fen_refuses_a_bad_move_number() {
    assert_eq!(
        parse_error("4k3/8/8/8/8/8/8/4K3 w - - 0 one"),
        ParseFenError::Fullmoves("one".to_string())
    );
}

// ---- FEN: positions that cannot be ----------------------------------------------------

#[test]
fn fen_refuses_a_missing_king() {
    assert_eq!(
        position_error("4k3/8/8/8/8/8/8/8 w - - 0 1"),
        PositionError::KingCount(Color::White, 0)
    );
}

#[test]
fn fen_refuses_two_kings_of_one_side() {
    assert_eq!(
        position_error("3kk3/8/8/8/8/8/8/4K3 w - - 0 1"),
        PositionError::KingCount(Color::Black, 2)
    );
}

#[test]
fn fen_refuses_seventeen_pieces() {
    assert_eq!(
        position_error("4k3/8/8/8/8/QQQQQQQQ/QQQQQQQQ/4K3 w - - 0 1"),
        PositionError::TooManyPieces(Color::White)
    );
}

#[test]
fn fen_refuses_nine_pawns() {
    assert_eq!(
        position_error("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1"),
        PositionError::TooManyPawns(Color::Black)
    );
}

#[test]
fn fen_refuses_a_pawn_on_the_last_rank() {
    assert_eq!(
        position_error("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        PositionError::PawnOnBackRank(Square::A8)
    );
}

#[test]
fn fen_refuses_a_pawn_on_the_first_rank() {
    assert_eq!(
        position_error("4k3/8/8/8/8/8/8/4K2p w - - 0 1"),
        PositionError::PawnOnBackRank(Square::H1)
    );
}

#[test]
fn fen_refuses_the_side_not_to_move_in_check() {
    assert_eq!(
        position_error("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"),
        PositionError::OppositeCheck
    );
}

#[test]
fn fen_refuses_three_checkers() {
    assert_eq!(
        position_error("4k3/8/8/8/8/3n1n2/8/4K2r w - - 0 1"),
        PositionError::TooManyCheckers
    );
}

#[test]
fn fen_refuses_a_double_check_without_a_slider() {
    assert_eq!(
        position_error("4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1"),
        PositionError::ImpossibleCheck
    );
}

#[test]
fn fen_refuses_a_double_check_from_one_line() {
    assert_eq!(
        position_error("4k3/8/8/8/8/8/8/r3K2r w - - 0 1"),
        PositionError::ImpossibleCheck
    );
}

#[test]
fn fen_refuses_a_check_the_double_push_could_not_give() {
    // The last move was d7d5, yet the rook on a1 gives check.
    assert_eq!(
        position_error("4k3/8/8/3pP3/8/8/8/r3K3 w - d6 0 2"),
        PositionError::ImpossibleCheck
    );
    // Without the en-passant square, the same check is fine.
    assert!(Position::from_fen("4k3/8/8/3pP3/8/8/8/r3K3 w - - 0 2").is_ok());
}

#[test]
fn fen_refuses_king_side_castling_without_a_rook() {
    assert_eq!(
        position_error("4k3/8/8/8/8/8/8/R3K3 w K - 0 1"),
        PositionError::Castling(CastlingToken::KingSide(Color::White))
    );
}

#[test]
fn fen_refuses_queen_side_castling_without_a_rook() {
    assert_eq!(
        position_error("4k2r/8/8/8/8/8/8/4K3 w q - 0 1"),
        PositionError::Castling(CastlingToken::QueenSide(Color::Black))
    );
}

#[test]
fn fen_refuses_castling_with_the_king_off_its_back_rank() {
    assert_eq!(
        position_error("4k3/8/8/8/8/8/4K3/R6R w K - 0 1"),
        PositionError::Castling(CastlingToken::KingSide(Color::White))
    );
}

#[test]
fn fen_refuses_a_rook_file_with_no_rook() {
    assert_eq!(
        position_error("4k3/8/8/8/8/8/8/R3K2R w C - 0 1"),
        PositionError::Castling(CastlingToken::RookFile(Color::White, File::C))
    );
}

#[test]
fn fen_refuses_an_en_passant_square_on_the_wrong_rank() {
    assert_eq!(
        position_error("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1"),
        PositionError::EnPassant(Square::E3)
    );
}

#[test]
fn fen_refuses_an_en_passant_square_with_no_pawn_in_front() {
    assert_eq!(
        position_error("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1"),
        PositionError::EnPassant(Square::D6)
    );
}

#[test]
fn fen_refuses_an_en_passant_square_whose_origin_is_occupied() {
    assert_eq!(
        position_error("4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1"),
        PositionError::EnPassant(Square::D6)
    );
}

// ---- FEN: round trips and accepted forms -------------------------------------------

#[test]
fn fen_round_trips() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 17 42",
    ] {
        assert_eq!(pos(fen).fen(), fen);
    }
}

#[test]
fn fen_equals_the_startpos_constructor() {
    assert_eq!(
        pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        Position::startpos()
    );
}

#[test]
fn fen_accepts_shredder_castling_and_prints_x_fen() {
    let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    assert_eq!(p, Position::startpos());
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

#[test]
fn fen_accepts_shredder_castling_in_chess960() {
    let p = pos("1rkr1q1b/1p1p2pp/1p3p2/p3p2P/P1b1n1P1/3P1P2/1P6/NRKRNQ1B b DBdb - 0 9");
    assert_eq!(
        p.castling_rooks().collect::<Vec<_>>(),
        [Square::B1, Square::D1, Square::B8, Square::D8]
    );
    assert_eq!(p.castling_field(), "KQkq");
}

#[test]
fn fen_x_fen_names_an_inner_rook_by_its_file() {
    // Rooks g1 and h1 on the king side; the right is with g1.
    let inner = pos("4k3/8/8/8/8/8/8/R3K1RR w G - 0 1");
    assert_eq!(inner.castling_rooks().collect::<Vec<_>>(), [Square::G1]);
    assert_eq!(inner.fen(), "4k3/8/8/8/8/8/8/R3K1RR w G - 0 1");
    // `K` is the outermost rook.
    let outer = pos("4k3/8/8/8/8/8/8/R3K1RR w K - 0 1");
    assert_eq!(outer.castling_rooks().collect::<Vec<_>>(), [Square::H1]);
    assert_eq!(outer.fen(), "4k3/8/8/8/8/8/8/R3K1RR w K - 0 1");
}

#[test]
fn fen_accepts_four_fields() {
    let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    assert_eq!((p.halfmoves(), p.fullmoves()), (0, 1));
    assert_eq!(p, Position::startpos());
}

#[test]
fn fen_accepts_five_fields() {
    let p = pos("4k3/8/8/8/8/8/8/4K3 b - - 7");
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 7 1");
}

#[test]
fn fen_reads_move_number_zero_as_one() {
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K3 w - - 0 0").fen(),
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    );
}

// ---- SAN: reading ------------------------------------------------------------------

#[test]
fn san_syntax_error() {
    let p = Position::startpos();
    assert_eq!(p.parse_san("hello"), Err(SanError::Syntax));
    assert_eq!(p.parse_san(""), Err(SanError::Syntax));
    assert_eq!(p.parse_san("Nf9"), Err(SanError::Syntax));
    assert_eq!(p.parse_san("e8=K"), Err(SanError::Syntax));
}

#[test]
fn san_pawn_move_without_a_file_is_a_push_not_a_capture() {
    // Only dxe3 reaches e3, so "e3" names no move.
    let p = pos("4k3/8/8/8/8/4p3/3P4/4K3 w - - 0 1");
    assert_eq!(p.parse_san("e3"), Err(SanError::NoSuchMove));
    assert_eq!(
        p.parse_san("de3"),
        Ok(Move::new(Square::D2, Square::E3, MoveKind::Normal))
    );
}

#[test]
fn san_no_such_move() {
    let p = Position::startpos();
    assert_eq!(p.parse_san("Nf5"), Err(SanError::NoSuchMove));
    assert_eq!(p.parse_san("e5"), Err(SanError::NoSuchMove));
    assert_eq!(p.parse_san("O-O"), Err(SanError::NoSuchMove));
}

#[test]
fn san_ambiguous_names_the_candidates() {
    let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    let Err(SanError::Ambiguous(candidates)) = p.parse_san("Nd2") else {
        panic!("Nd2 is not ambiguous: {:?}", p.parse_san("Nd2"));
    };
    let mut text: Vec<String> = candidates
        .iter()
        .map(|m| m.to_uci(STANDARD).to_string())
        .collect();
    text.sort();
    assert_eq!(text, ["b1d2", "f3d2"]);
}

#[test]
fn san_promotion_required() {
    let p = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    assert_eq!(p.parse_san("e8"), Err(SanError::PromotionRequired));
}

#[test]
fn san_reads_disambiguated_moves() {
    let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    assert_eq!(p.parse_san("Nbd2"), Ok(legal(&p, "b1d2", STANDARD)));
    assert_eq!(p.parse_san("Nfd2"), Ok(legal(&p, "f3d2", STANDARD)));
    assert_eq!(p.parse_san("N3d2"), Ok(legal(&p, "f3d2", STANDARD)));
    assert_eq!(p.parse_san("Nf3d2"), Ok(legal(&p, "f3d2", STANDARD)));
}

/// `B6d7` is SAN for the bishop of the sixth rank going to d7, as `san` writes it (and
/// as PGN files have it); it must be read as SAN even though, read case-insensitively,
/// it also spells the squares b6 and d7. UCI text from the b-file is lower case.
#[test]
fn a_bishop_named_by_its_rank_is_san_not_uci() {
    let p = pos("2B4k/8/1nB5/8/8/8/8/4K3 w - - 0 1");
    let c6d7 = legal(&p, "c6d7", STANDARD);
    assert_eq!(p.san(c6d7), "B6d7");
    assert_eq!(p.parse_move("B6d7", STANDARD), Ok(c6d7));
    let game = arbiter::game::Game::new(p, STANDARD);
    assert_eq!(game.parse_move("B6d7"), Ok(c6d7));
    assert_eq!(game.parse_move("B8d7"), Ok(legal(&p, "c8d7", STANDARD)));
    assert!("B6d7".parse::<UciMove>().is_err());
    assert_eq!(uci("b6d7").from, Square::B6);
}

#[test]
fn san_tolerates_zero_castling() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(p.parse_san("0-0"), Ok(legal(&p, "e1g1", STANDARD)));
    assert_eq!(p.parse_san("0-0-0"), Ok(legal(&p, "e1c1", STANDARD)));
    assert_eq!(p.parse_san("O-O-O"), Ok(legal(&p, "e1c1", STANDARD)));
}

#[test]
fn san_tolerates_missing_and_wrong_check_marks() {
    let p = play(&Position::startpos(), "f2f3 e7e5 g2g4");
    let mate = legal(&p, "d8h4", STANDARD);
    assert_eq!(p.san(mate), "Qh4#");
    assert_eq!(p.parse_san("Qh4"), Ok(mate));
    assert_eq!(p.parse_san("Qh4+"), Ok(mate));
    assert_eq!(p.parse_san("Qh4#"), Ok(mate));
    assert_eq!(p.parse_san("Qh4!?"), Ok(mate));
    // A check mark on a quiet move is ignored too.
    assert_eq!(p.parse_san("Nc6+"), Ok(legal(&p, "b8c6", STANDARD)));
}

#[test]
fn san_tolerates_promotion_without_equals() {
    let p = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    assert_eq!(p.parse_san("e8Q"), Ok(legal(&p, "e7e8q", STANDARD)));
    assert_eq!(p.parse_san("e8=N"), Ok(legal(&p, "e7e8n", STANDARD)));
    assert_eq!(p.parse_san("e8(R)"), Ok(legal(&p, "e7e8r", STANDARD)));
}

#[test]
fn san_tolerates_en_passant_notes() {
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    let ep = legal(&p, "e5d6", STANDARD);
    assert_eq!(p.parse_san("exd6e.p."), Ok(ep));
    assert_eq!(p.parse_san("exd6 e.p."), Ok(ep));
    assert_eq!(p.parse_san("exd6"), Ok(ep));
}

// ---- SAN: writing ------------------------------------------------------------------

#[test]
fn san_disambiguates_by_file() {
    let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    assert_eq!(p.san(legal(&p, "b1d2", STANDARD)), "Nbd2");
    assert_eq!(p.san(legal(&p, "f3d2", STANDARD)), "Nfd2");
}

#[test]
fn san_disambiguates_by_rank() {
    let p = pos("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    assert_eq!(p.san(legal(&p, "a1a3", STANDARD)), "R1a3");
    assert_eq!(p.san(legal(&p, "a5a3", STANDARD)), "R5a3");
}

#[test]
fn san_disambiguates_by_file_and_rank() {
    let p = pos("8/7k/8/8/8/Q7/8/Q1Q3K1 w - - 0 1");
    assert_eq!(p.san(legal(&p, "a1b2", STANDARD)), "Qa1b2");
    assert_eq!(p.san(legal(&p, "c1b2", STANDARD)), "Qcb2");
    assert_eq!(p.san(legal(&p, "a3b2", STANDARD)), "Q3b2");
}

#[test]
fn san_ignores_a_pinned_rival() {
    let p = pos("4k3/8/8/8/8/r4N1K/8/1N6 w - - 0 1");
    assert_eq!(p.san(legal(&p, "b1d2", STANDARD)), "Nd2");
}

#[test]
fn san_of_castling_checks_and_captures() {
    let p = pos("r3k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(p.san(legal(&p, "e1g1", STANDARD)), "O-O");
    let p = pos("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(p.san(legal(&p, "e1g1", STANDARD)), "O-O+");
    let p = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(p.san(legal(&p, "e4d5", STANDARD)), "exd5");
}

// ---- Illegal move diagnosis --------------------------------------------------------

#[test]
fn diagnose_no_piece() {
    assert_eq!(
        refusal(&Position::startpos(), "e3e4", STANDARD),
        IllegalMove::NoPiece(Square::E3)
    );
}

#[test]
fn diagnose_not_your_turn() {
    assert_eq!(
        refusal(&Position::startpos(), "e7e5", STANDARD),
        IllegalMove::NotYourTurn(Square::E7, Color::White)
    );
}

#[test]
fn diagnose_promotion_required() {
    let p = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    assert_eq!(
        refusal(&p, "e7e8", STANDARD),
        IllegalMove::PromotionRequired
    );
}

#[test]
fn diagnose_not_a_promotion() {
    assert_eq!(
        refusal(&Position::startpos(), "e2e4q", STANDARD),
        IllegalMove::NotAPromotion
    );
}

#[test]
fn diagnose_bad_promotion_piece() {
    let p = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    assert_eq!(
        refusal(&p, "e7e8k", STANDARD),
        IllegalMove::BadPromotionPiece(Role::King)
    );
}

#[test]
fn diagnose_own_piece() {
    assert_eq!(
        refusal(&Position::startpos(), "a1b1", STANDARD),
        IllegalMove::OwnPiece(Square::B1)
    );
}

#[test]
fn diagnose_cannot_move_that_way() {
    assert_eq!(
        refusal(&Position::startpos(), "g1g3", STANDARD),
        IllegalMove::CannotMoveThatWay(Role::Knight)
    );
    assert_eq!(
        refusal(&Position::startpos(), "e2d3", STANDARD),
        IllegalMove::CannotMoveThatWay(Role::Pawn)
    );
}

#[test]
fn diagnose_path_blocked() {
    assert_eq!(
        refusal(&Position::startpos(), "a1a3", STANDARD),
        IllegalMove::PathBlocked(Square::A2)
    );
    let p = pos("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1");
    assert_eq!(
        refusal(&p, "e2e4", STANDARD),
        IllegalMove::PathBlocked(Square::E3)
    );
    assert_eq!(
        refusal(&p, "e2e3", STANDARD),
        IllegalMove::PathBlocked(Square::E3)
    );
}

#[test]
fn diagnose_leaves_king_in_check() {
    let p = pos("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1");
    assert_eq!(
        refusal(&p, "e2a2", STANDARD),
        IllegalMove::LeavesKingInCheck
    );
    // The king stepping into an attack.
    let p = pos("4k3/8/8/8/8/8/r7/4K3 w - - 0 1");
    assert_eq!(
        refusal(&p, "e1e2", STANDARD),
        IllegalMove::LeavesKingInCheck
    );
}

#[test]
fn diagnose_castling_without_right() {
    let p = pos("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1");
    assert_eq!(
        refusal(&p, "e1h1", STANDARD),
        IllegalMove::CastlingWithoutRight
    );
}

#[test]
fn diagnose_castling_out_of_check() {
    let p = pos("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(
        refusal(&p, "e1h1", CHESS960),
        IllegalMove::CastlingOutOfCheck
    );
}

#[test]
fn diagnose_castling_through_check() {
    let p = pos("3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(
        refusal(&p, "e1c1", STANDARD),
        IllegalMove::CastlingThroughCheck(Square::D1)
    );
}

#[test]
fn diagnose_castling_names_the_first_attacked_square_the_king_crosses() {
    // Both d1 and c1 are attacked; the king crosses d1 first.
    let p = pos("2rrk3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_eq!(
        refusal(&p, "e1c1", STANDARD),
        IllegalMove::CastlingThroughCheck(Square::D1)
    );
}

#[test]
fn diagnose_castling_into_check_behind_the_castling_rook() {
    // The rook on g1 shields d1-f1 from the rook on h1 now; castling would put the
    // king on g1, next to it: the check is on the destination, not on d1.
    let p = pos("5k2/8/8/8/8/8/8/2K3Rr w K - 0 1");
    assert!(!p.is_attacked(Square::D1, Color::Black));
    assert_eq!(
        refusal(&p, "c1g1", CHESS960),
        IllegalMove::CastlingThroughCheck(Square::G1)
    );
}

#[test]
fn diagnose_path_blocked_names_the_nearest_piece() {
    // Rook h1 to a1: b1 and g1 are both in the way; g1 comes first.
    let p = pos("4k3/8/8/8/8/8/4K3/1N4BR w - - 0 1");
    assert_eq!(
        refusal(&p, "h1a1", STANDARD),
        IllegalMove::PathBlocked(Square::G1)
    );
}

#[test]
fn diagnose_castling_blocked() {
    let p = pos("4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1");
    assert_eq!(refusal(&p, "e1g1", STANDARD), IllegalMove::CastlingBlocked);
}

// ---- Insufficient material ---------------------------------------------------------

#[test]
fn bare_kings_are_insufficient() {
    let p = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(p.has_insufficient_material(Color::White));
    assert!(p.has_insufficient_material(Color::Black));
    assert!(p.is_insufficient_material());
}

#[test]
fn king_and_knight_against_king_is_insufficient() {
    let p = pos("4k3/8/8/8/8/8/8/4KN2 w - - 0 1");
    assert!(p.has_insufficient_material(Color::White));
    assert!(p.is_insufficient_material());
}

#[test]
fn king_and_knight_against_king_and_queen_is_insufficient_for_the_knight() {
    let p = pos("3qk3/8/8/8/8/8/8/4KN2 w - - 0 1");
    assert!(p.has_insufficient_material(Color::White));
    assert!(!p.has_insufficient_material(Color::Black));
    assert!(!p.is_insufficient_material());
}

#[test]
fn king_and_knight_against_king_and_rook_is_sufficient() {
    // The rook can block its own king's flight square.
    let p = pos("3rk3/8/8/8/8/8/8/4KN2 w - - 0 1");
    assert!(!p.has_insufficient_material(Color::White));
}

#[test]
fn two_knights_are_sufficient() {
    let p = pos("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1");
    assert!(!p.has_insufficient_material(Color::White));
}

#[test]
fn bishops_on_one_colour_are_insufficient() {
    // c1, b2 and d4 are all dark squares.
    let p = pos("4k3/8/8/8/8/8/1B6/2B1K3 w - - 0 1");
    assert!(p.has_insufficient_material(Color::White));
    assert!(p.is_insufficient_material());
    let both = pos("4k3/8/8/8/3b4/8/1B6/2B1K3 w - - 0 1");
    assert!(both.is_insufficient_material());
}

#[test]
fn bishops_on_opposite_colours_are_sufficient() {
    // c1 is dark, c8 is light.
    let p = pos("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert!(!p.has_insufficient_material(Color::White));
    assert!(!p.has_insufficient_material(Color::Black));
    assert!(!p.is_insufficient_material());
}

#[test]
fn a_bishop_is_sufficient_when_a_knight_is_on_the_board() {
    let p = pos("4k3/8/8/8/8/8/8/2B1Kn2 w - - 0 1");
    assert!(!p.has_insufficient_material(Color::White));
}

#[test]
fn a_pawn_is_sufficient() {
    let p = pos("4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
    assert!(!p.has_insufficient_material(Color::White));
    assert!(p.has_insufficient_material(Color::Black));
}

// ---- Polyglot keys -----------------------------------------------------------------

fn key_after(line: &str) -> u64 {
    play(&Position::startpos(), line).key()
}

#[test]
fn polyglot_key_of_the_start() {
    assert_eq!(Position::startpos().key(), 0x463B96181691FC9C);
}

#[test]
fn polyglot_keys_of_the_published_lines() {
    let vectors: [(&str, u64); 8] = [
        ("e2e4", 0x823C9B50FD114196),
        ("e2e4 d7d5", 0x0756B94461C50FB0),
        ("e2e4 d7d5 e4e5", 0x662FAFB965DB29D4),
        ("e2e4 d7d5 e4e5 f7f5", 0x22A48B5A8E47FF78),
        ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652A607CA3F242C1),
        ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00FDD303C946BDD9),
        ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3C8123EA7B067637),
        ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5C3F9B829B279560),
    ];
    for (line, key) in vectors {
        assert_eq!(key_after(line), key, "{line}: {:016X}", key_after(line));
    }
}

#[test]
fn polyglot_keys_from_fen_equal_the_incremental_ones() {
    let vectors: [(&str, u64); 4] = [
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            0x22A48B5A8E47FF78,
        ),
        (
            "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 2 4",
            0x00FDD303C946BDD9,
        ),
        (
            "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
            0x3C8123EA7B067637,
        ),
        (
            "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
            0x5C3F9B829B279560,
        ),
    ];
    for (fen, key) in vectors {
        assert_eq!(pos(fen).key(), key, "{fen}");
    }
}

#[test]
fn fen_refuses_a_clock_above_the_maximum() {
    assert_eq!(
        parse_error("4k3/8/8/8/8/8/8/4K3 w - - 2147483648 1"),
        ParseFenError::ClockTooLarge("2147483648".to_string())
    );
    assert_eq!(
        parse_error("4k3/8/8/8/8/8/8/4K3 w - - 0 2147483648"),
        ParseFenError::ClockTooLarge("2147483648".to_string())
    );
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K3 w - - 2147483647 2147483647").fen(),
        "4k3/8/8/8/8/8/8/4K3 w - - 2147483647 2147483647"
    );
}

// ---- Error messages ----------------------------------------------------------------

/// Error messages are lower-case phrases without a trailing period, as the style asks.
fn assert_message_style(message: String) {
    assert!(!message.is_empty());
    assert!(!message.ends_with('.'), "{message}");
    assert!(
        !message.starts_with(|c: char| c.is_ascii_uppercase()),
        "{message}"
    );
}

#[test]
fn error_messages_are_lower_case_without_a_period() {
    let fen_errors = [
        "8/8/8/8/8/8/8/8 w",
        "4k3/8/8/8/8/8/4K3 w - - 0 1",
        "4k4/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2x w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w KX - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - e9 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - -1 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 one",
        "4k3/8/8/8/8/8/8/4K3 w - - 2147483648 1",
        "4k3/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/QQQQQQQQ/QQQQQQQQ/4K3 w - - 0 1",
        "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1",
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
        "4k3/8/8/8/8/3n1n2/8/4K2r w - - 0 1",
        "4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - d6 0 1",
    ];
    for fen in fen_errors {
        assert_message_style(fen_error(fen).to_string());
    }
    let p = pos("4k3/8/8/8/8/5N2/4P3/1N2K3 w - - 0 1");
    for san in ["hello", "Nf5", "Nd2"] {
        assert_message_style(p.parse_san(san).unwrap_err().to_string());
    }
    assert_message_style(
        pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
            .parse_san("e8")
            .unwrap_err()
            .to_string(),
    );
    for text in ["e3e4", "e8e7", "b1b2", "e2e5", "g1g2"] {
        assert_message_style(refusal(&p, text, STANDARD).to_string());
    }
}
