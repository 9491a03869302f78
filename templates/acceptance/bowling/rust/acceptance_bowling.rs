use {crate}::score;

fn rolls(prefix: &[u32], fill: u32, total: usize) -> Vec<u32> {
    let mut all = prefix.to_vec();
    all.resize(total, fill);
    all
}

#[test]
fn gutter_game_scores_zero() {
    assert_eq!(score(&[0; 20]), 0);
}

#[test]
fn all_ones_score_twenty() {
    assert_eq!(score(&[1; 20]), 20);
}

#[test]
fn a_spare_earns_the_next_roll() {
    assert_eq!(score(&rolls(&[5, 5, 3], 0, 20)), 16);
}

#[test]
fn a_strike_earns_the_next_two_rolls() {
    assert_eq!(score(&rolls(&[10, 3, 4], 0, 19)), 24);
}

#[test]
fn a_spare_in_the_tenth_frame_gets_one_fill_roll() {
    let mut all = vec![0; 18];
    all.extend([5, 5, 7]);
    assert_eq!(score(&all), 17);
}

#[test]
fn a_strike_in_the_tenth_frame_gets_two_fill_rolls() {
    let mut all = vec![0; 18];
    all.extend([10, 10, 10]);
    assert_eq!(score(&all), 30);
}

#[test]
fn perfect_game_scores_300() {
    assert_eq!(score(&[10; 12]), 300);
}

#[test]
fn all_spares_score_150() {
    assert_eq!(score(&[5; 21]), 150);
}
