//! Property tests of the board reader (`canon` and `render` input; RELIABILITY.md, "No
//! reader panics"): any text, any JSON report, with or without a problem given, is read
//! into a placement that fits its problem or refused with an error, never a panic nor a
//! board beyond `pq_board::limits`. A fixed number of cases keeps CI fast.

use pq_board::limits::MAX_SIDE;
use pq_encode::spec::Problem;
use proptest::prelude::*;
use proptest::test_runner::Config;

use super::input::read_placement;

fn config() -> Config {
    Config {
        cases: 512,
        failure_persistence: None,
        ..Config::default()
    }
}

/// The problems a text board may be read against: none (a queens board), the queens, and
/// a problem of three groups.
fn given() -> impl Strategy<Value = Option<Problem>> {
    let three = Problem::from_toml(include_str!("../../../encodings/three-armies.toml")).unwrap();
    prop::sample::select(vec![None, Some(Problem::peaceable_queens(4)), Some(three)])
}

/// A board row: pieces, empty squares and noise.
fn row() -> impl Strategy<Value = String> {
    prop_oneof!["[WBwb.\\-_ ]{0,10}", "[RGBQ1-3. ]{0,8}", "\\PC{0,12}"]
}

/// A board of `d` rows of `d` squares (`d` up to one past the limit), with pieces of the
/// queens and of three armies.
fn square_board() -> impl Strategy<Value = String> {
    prop_oneof![1usize..8, Just(MAX_SIDE), Just(MAX_SIDE + 1)].prop_flat_map(|d| {
        let square = prop_oneof![
            40 => prop::sample::select(vec!['W', 'B', '.']),
            1 => prop::sample::select(vec!['R', 'G', 'w']),
        ];
        let row = prop::collection::vec(square, d).prop_map(|r| r.into_iter().collect::<String>());
        prop::collection::vec(row, d).prop_map(|rows| rows.join("\n"))
    })
}

/// A number where sizes break: small, at the limit and past it, at the ends of the types.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..10).prop_map(|n| n.to_string()),
        prop::sample::select(vec![
            "64".to_string(),
            "65".to_string(),
            "4096".to_string(),
            u64::MAX.to_string(),
            "18446744073709551616".to_string(),
            "-1".to_string(),
            "1.5".to_string(),
        ]),
    ]
}

/// JSON shaped like pq-sat's reports: the queens' `dim` and `board`, a problem described
/// in full with its `placement`, `canon`'s `canonical`, or a bare array of rows.
fn json() -> impl Strategy<Value = String> {
    let rows = || {
        prop::collection::vec(row(), 0..6).prop_map(|r| {
            let quoted: Vec<String> = r.iter().map(|s| serde_json::json!(s).to_string()).collect();
            format!("[{}]", quoted.join(","))
        })
    };
    let group = (
        "[a-z]{1,5}",
        prop::sample::select(vec!["queen", "rook", "king", "dragon"]),
        number(),
    )
        .prop_map(|(n, k, c)| format!(r#"{{"name":"{n}","kind":"{k}","count":{c}}}"#));
    prop_oneof![
        (number(), rows()).prop_map(|(d, b)| format!(r#"{{"dim":{d},"board":{b}}}"#)),
        (
            number(),
            number(),
            prop::collection::vec(group, 0..4),
            rows()
        )
            .prop_map(|(r, c, g, p)| format!(
                r#"{{"problem":"fuzz","board":{{"rows":{r},"cols":{c}}},"groups":[{}],"no_attack":[],"placement":{p}}}"#,
                g.join(",")
            )),
        rows().prop_map(|b| format!(r#"{{"canonical":{b}}}"#)),
        rows(),
        square_board().prop_map(|b| {
            let rows: Vec<&str> = b.lines().collect();
            format!(r#"{{"dim":{},"board":{}}}"#, rows.len(), serde_json::json!(rows))
        }),
    ]
}

/// A read placement fits its problem, which is within the limits.
fn fits(text: &str, given: Option<&Problem>) -> bool {
    let read = read_placement(text, given);
    if let Ok(read) = &read {
        let l = read.problem.rules.layout;
        assert!(l.rows <= MAX_SIDE && l.cols <= MAX_SIDE, "{l:?}");
        assert!(read.placement.fits(&l), "{:?} on {l:?}", read.placement);
        let groups = read.problem.rules.groups.len();
        assert!(read.placement.cells.iter().flatten().all(|&g| g < groups));
    }
    read.is_ok()
}

/// The generators are worth their cases: many of their boards are read.
#[test]
fn the_generators_reach_past_the_reader() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut boards, mut reports) = (0, 0);
    for _ in 0..256 {
        let b = square_board().new_tree(&mut runner).unwrap().current();
        boards += usize::from(fits(&b, None));
        let j = json().new_tree(&mut runner).unwrap().current();
        reports += usize::from(fits(&j, None));
    }
    assert!(boards > 25 && reports > 5, "{boards} {reports}");
}

proptest! {
    #![proptest_config(config())]

    /// Any text at all.
    #[test]
    fn any_text_is_read_or_refused(text in "\\PC{0,200}", given in given()) {
        fits(&text, given.as_ref());
    }

    /// Text boards: rows of symbols, row numbers and column letters, any number of rows.
    #[test]
    fn text_boards_are_read_or_refused(rows in prop::collection::vec(row(), 0..80), given in given()) {
        fits(&rows.join("\n"), given.as_ref());
    }

    /// Square boards of every size up to past the limit, most of them readable.
    #[test]
    fn square_boards_are_read_or_refused(board in square_board(), given in given()) {
        fits(&board, given.as_ref());
    }

    /// JSON reports with hostile sizes and counts.
    #[test]
    fn json_reports_are_read_or_refused(text in json(), given in given()) {
        fits(&text, given.as_ref());
    }
}
