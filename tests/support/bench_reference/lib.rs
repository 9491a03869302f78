pub fn add(text: &str) -> i32 {
    if text.is_empty() { return 0; }
    let (seps, body): (Vec<String>, &str) = if let Some(rest) = text.strip_prefix("//") {
        let (decl, body) = rest.split_once('\n').unwrap();
        let sep = decl.trim_start_matches('[').trim_end_matches(']').to_string();
        (vec![sep], body)
    } else { (vec![",".to_string()], text) };
    let mut parts = vec![body.replace('\n', ",")];
    for sep in &seps { parts = parts.iter().flat_map(|p| p.split(sep.as_str()).map(str::to_string).collect::<Vec<_>>()).collect(); }
    let nums: Vec<i32> = parts.iter().flat_map(|p| p.split(',')).filter(|p| !p.is_empty()).map(|p| p.parse().unwrap()).collect();
    let neg: Vec<String> = nums.iter().filter(|n| **n < 0).map(|n| n.to_string()).collect();
    if !neg.is_empty() { panic!("negatives not allowed: {}", neg.join(", ")); }
    nums.iter().filter(|n| **n <= 1000).sum()
}
pub fn score(rolls: &[u32]) -> u32 {
    let (mut total, mut i) = (0, 0);
    for _ in 0..10 {
        if rolls[i] == 10 { total += 10 + rolls[i+1] + rolls[i+2]; i += 1; }
        else if rolls[i] + rolls[i+1] == 10 { total += 10 + rolls[i+2]; i += 2; }
        else { total += rolls[i] + rolls[i+1]; i += 2; }
    }
    total
}
pub fn execute(commands: &str, obstacles: &[(u32, u32)]) -> Result<String, String> {
    let dirs = ['N', 'E', 'S', 'W'];
    let (mut x, mut y, mut d) = (0u32, 0u32, 0usize);
    for c in commands.chars() {
        match c {
            'R' => d = (d + 1) % 4,
            'L' => d = (d + 3) % 4,
            'M' => {
                let (nx, ny) = match d { 0 => (x, (y + 1) % 10), 1 => ((x + 1) % 10, y), 2 => (x, (y + 9) % 10), _ => ((x + 9) % 10, y) };
                if obstacles.contains(&(nx, ny)) { return Ok(format!("O:{x}:{y}:{}", dirs[d])); }
                x = nx; y = ny;
            }
            other => return Err(format!("unknown command {other}")),
        }
    }
    Ok(format!("{x}:{y}:{}", dirs[d]))
}
pub fn next_generation(grid: &str) -> String {
    let rows: Vec<Vec<bool>> = grid.lines().map(|l| l.chars().map(|c| c == '#').collect()).collect();
    let h = rows.len() as i32;
    rows.iter().enumerate().map(|(r, row)| row.iter().enumerate().map(|(c, &alive)| {
        let mut n = 0;
        for dr in -1..=1 { for dc in -1..=1 { if dr == 0 && dc == 0 { continue; }
            let (rr, cc) = (r as i32 + dr, c as i32 + dc);
            if rr >= 0 && rr < h && cc >= 0 && (cc as usize) < rows[rr as usize].len() && rows[rr as usize][cc as usize] { n += 1; } } }
        if n == 3 || (alive && n == 2) { '#' } else { '.' }
    }).collect::<String>()).collect::<Vec<_>>().join("\n")
}
pub fn say(n: u32) -> String {
    assert!(n != 0, "zero is not in the game");
    let words: String = [(3, "Fizz"), (5, "Buzz"), (7, "Whizz")].iter().filter(|(d, _)| n % d == 0).map(|(_, w)| *w).collect();
    if words.is_empty() { n.to_string() } else { words }
}
pub fn validate(password: &str) -> Vec<String> {
    let rules: [(bool, &str); 6] = [
        (password.chars().count() >= 8, "must be at least 8 characters"),
        (password.chars().any(|c| c.is_ascii_digit()), "must contain a digit"),
        (password.chars().any(char::is_uppercase), "must contain an uppercase letter"),
        (password.chars().any(char::is_lowercase), "must contain a lowercase letter"),
        (password.chars().any(|c| "!@#$%^&*".contains(c)), "must contain a special character"),
        (!password.contains(' '), "must not contain spaces"),
    ];
    rules.iter().filter(|(ok, _)| !ok).map(|(_, m)| m.to_string()).collect()
}
