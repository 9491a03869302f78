from {package} import next_generation


def test_an_empty_grid_stays_empty():
    assert next_generation("...\n...\n...") == "...\n...\n..."


def test_a_lonely_cell_dies():
    assert next_generation("...\n.#.\n...") == "...\n...\n..."


def test_a_cell_with_one_neighbour_dies():
    assert next_generation("...\n##.\n...") == "...\n...\n..."


def test_two_or_three_neighbours_survive():
    assert next_generation("#..\n.#.\n..#").split("\n")[1] == ".#."


def test_overcrowding_kills():
    # the centre has four live neighbours
    assert next_generation("###\n##.\n...").split("\n")[1] == "#.#"


def test_three_neighbours_bring_a_cell_to_life():
    assert next_generation("#.#\n...\n#..").split("\n")[1] == ".#."


def test_edges_count_only_existing_neighbours():
    assert next_generation("##\n#.") == "##\n##"


def test_a_block_is_a_still_life():
    block = "....\n.##.\n.##.\n...."
    assert next_generation(block) == block


def test_the_blinker_blinks():
    horizontal = ".....\n.....\n.###.\n.....\n....."
    vertical = ".....\n..#..\n..#..\n..#..\n....."
    assert next_generation(horizontal) == vertical
    assert next_generation(vertical) == horizontal
