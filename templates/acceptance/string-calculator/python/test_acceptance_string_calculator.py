import pytest

from {package} import add


def test_empty_string_is_zero():
    assert add("") == 0


def test_one_number_is_itself():
    assert add("7") == 7


def test_two_numbers_are_added():
    assert add("3,4") == 7


def test_any_count_of_numbers():
    assert add("1,2,3,4") == 10


def test_newline_separates_too():
    assert add("1\n2,3") == 6


def test_custom_single_character_separator():
    assert add("//;\n2;5") == 7


def test_negatives_are_refused_and_all_named():
    with pytest.raises(ValueError) as caught:
        add("4,-1,-6")
    assert "-1" in str(caught.value) and "-6" in str(caught.value)


def test_numbers_above_1000_are_ignored():
    assert add("2,1001") == 2
    assert add("1000,1") == 1001


def test_separator_of_any_length_in_brackets():
    assert add("//[***]\n1***2***3") == 6
