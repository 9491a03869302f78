use {crate}::execute;

fn run(commands: &str) -> String {
    execute(commands, &[]).expect("valid commands")
}

#[test]
fn no_commands_report_the_start() {
    assert_eq!(run(""), "0:0:N");
}

#[test]
fn turning_right_goes_round() {
    assert_eq!(run("R"), "0:0:E");
    assert_eq!(run("RRRR"), "0:0:N");
}

#[test]
fn turning_left() {
    assert_eq!(run("L"), "0:0:W");
}

#[test]
fn moving_north() {
    assert_eq!(run("MM"), "0:2:N");
}

#[test]
fn moving_east_increases_x() {
    assert_eq!(run("RMM"), "2:0:E");
}

#[test]
fn the_grid_wraps() {
    assert_eq!(run("MMMMMMMMMM"), "0:0:N");
    assert_eq!(run("LM"), "9:0:W");
}

#[test]
fn commands_run_left_to_right() {
    assert_eq!(run("MMRMMLM"), "2:3:N");
}

#[test]
fn an_obstacle_stops_the_rover() {
    assert_eq!(execute("MMMM", &[(0, 3)]).expect("valid"), "O:0:2:N");
}

#[test]
fn an_unknown_command_is_rejected_by_name() {
    let error = execute("MX", &[]).expect_err("X is not a command");
    assert!(error.contains('X'), "{error}");
}
