from {package} import score


def test_gutter_game_scores_zero():
    assert score([0] * 20) == 0


def test_all_ones_score_twenty():
    assert score([1] * 20) == 20


def test_a_spare_earns_the_next_roll():
    assert score([5, 5, 3] + [0] * 17) == 16


def test_a_strike_earns_the_next_two_rolls():
    assert score([10, 3, 4] + [0] * 16) == 24


def test_a_spare_in_the_tenth_frame_gets_one_fill_roll():
    assert score([0] * 18 + [5, 5, 7]) == 17


def test_a_strike_in_the_tenth_frame_gets_two_fill_rolls():
    assert score([0] * 18 + [10, 10, 10]) == 30


def test_perfect_game_scores_300():
    assert score([10] * 12) == 300


def test_all_spares_score_150():
    assert score([5] * 21) == 150
