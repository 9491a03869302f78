use {crate}::next_generation;

#[test]
fn an_empty_grid_stays_empty() {
    assert_eq!(next_generation("...\n...\n..."), "...\n...\n...");
}

#[test]
fn a_lonely_cell_dies() {
    assert_eq!(next_generation("...\n.#.\n..."), "...\n...\n...");
}

#[test]
fn a_cell_with_one_neighbour_dies() {
    assert_eq!(next_generation("...\n##.\n..."), "...\n...\n...");
}

#[test]
fn two_or_three_neighbours_survive() {
    assert_eq!(next_generation("#..\n.#.\n..#").lines().nth(1), Some(".#."));
}

#[test]
fn overcrowding_kills() {
    // the centre has four live neighbours
    assert_eq!(next_generation("###\n##.\n...").lines().nth(1), Some("#.#"));
}

#[test]
fn three_neighbours_bring_a_cell_to_life() {
    assert_eq!(next_generation("#.#\n...\n#..").lines().nth(1), Some(".#."));
}

#[test]
fn edges_count_only_existing_neighbours() {
    assert_eq!(next_generation("##\n#."), "##\n##");
}

#[test]
fn a_block_is_a_still_life() {
    let block = "....\n.##.\n.##.\n....";
    assert_eq!(next_generation(block), block);
}

#[test]
fn the_blinker_blinks() {
    let horizontal = ".....\n.....\n.###.\n.....\n.....";
    let vertical = ".....\n..#..\n..#..\n..#..\n.....";
    assert_eq!(next_generation(horizontal), vertical);
    assert_eq!(next_generation(vertical), horizontal);
}
