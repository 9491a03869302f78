import pytest

from {package} import execute


def test_no_commands_report_the_start():
    assert execute("", []) == "0:0:N"


def test_turning_right_goes_round():
    assert execute("R", []) == "0:0:E"
    assert execute("RRRR", []) == "0:0:N"


def test_turning_left():
    assert execute("L", []) == "0:0:W"


def test_moving_north():
    assert execute("MM", []) == "0:2:N"


def test_moving_east_increases_x():
    assert execute("RMM", []) == "2:0:E"


def test_the_grid_wraps():
    assert execute("MMMMMMMMMM", []) == "0:0:N"
    assert execute("LM", []) == "9:0:W"


def test_commands_run_left_to_right():
    assert execute("MMRMMLM", []) == "2:3:N"


def test_an_obstacle_stops_the_rover():
    assert execute("MMMM", [(0, 3)]) == "O:0:2:N"


def test_an_unknown_command_is_rejected_by_name():
    with pytest.raises(ValueError, match="X"):
        execute("MX", [])
