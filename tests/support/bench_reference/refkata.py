"""Reference solutions of the shipped katas (Python): the acceptance suites must pass on them."""

from __future__ import annotations


def add(text: str) -> int:
    if not text:
        return 0
    separators = [",", "\n"]
    if text.startswith("//"):
        declaration, text = text[2:].split("\n", 1)
        separators.append(declaration[1:-1] if declaration.startswith("[") else declaration)
    for separator in separators[1:]:
        text = text.replace(separator, ",")
    numbers = [int(part) for part in text.split(",") if part]
    negatives = [str(n) for n in numbers if n < 0]
    if negatives:
        raise ValueError("negatives not allowed: " + ", ".join(negatives))
    return sum(n for n in numbers if n <= 1000)


def score(rolls: list[int]) -> int:
    total, index = 0, 0
    for _frame in range(10):
        if rolls[index] == 10:
            total += 10 + rolls[index + 1] + rolls[index + 2]
            index += 1
        elif rolls[index] + rolls[index + 1] == 10:
            total += 10 + rolls[index + 2]
            index += 2
        else:
            total += rolls[index] + rolls[index + 1]
            index += 2
    return total


def execute(commands: str, obstacles: list[tuple[int, int]]) -> str:
    directions = "NESW"
    steps = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
    x, y, facing = 0, 0, 0
    for command in commands:
        if command == "R":
            facing = (facing + 1) % 4
        elif command == "L":
            facing = (facing + 3) % 4
        elif command == "M":
            dx, dy = steps[directions[facing]]
            nx, ny = (x + dx) % 10, (y + dy) % 10
            if (nx, ny) in obstacles:
                return f"O:{x}:{y}:{directions[facing]}"
            x, y = nx, ny
        else:
            raise ValueError(f"unknown command {command}")
    return f"{x}:{y}:{directions[facing]}"


def next_generation(grid: str) -> str:
    rows = [[cell == "#" for cell in line] for line in grid.split("\n")] if grid else []
    result = []
    for r, row in enumerate(rows):
        line = ""
        for c, alive in enumerate(row):
            count = sum(
                rows[rr][cc]
                for rr in range(r - 1, r + 2)
                for cc in range(c - 1, c + 2)
                if (rr, cc) != (r, c) and 0 <= rr < len(rows) and 0 <= cc < len(rows[rr])
            )
            line += "#" if count == 3 or (alive and count == 2) else "."
        result.append(line)
    return "\n".join(result)


def say(n: int) -> str:
    if n == 0:
        raise ValueError("zero is not in the game")
    words = "".join(word for d, word in ((3, "Fizz"), (5, "Buzz"), (7, "Whizz")) if n % d == 0)
    return words or str(n)


def validate(password: str) -> list[str]:
    rules = [
        (len(password) >= 8, "must be at least 8 characters"),
        (any(c.isdigit() for c in password), "must contain a digit"),
        (any(c.isupper() for c in password), "must contain an uppercase letter"),
        (any(c.islower() for c in password), "must contain a lowercase letter"),
        (any(c in "!@#$%^&*" for c in password), "must contain a special character"),
        (" " not in password, "must not contain spaces"),
    ]
    return [message for ok, message in rules if not ok]
