"""The kata's interface: the function signatures its text names in backticks or declares in a
fenced code block of its Interface section, and the pure reading of a Rust signature (its
parameters, the key a caller depends on) (pure)."""

from __future__ import annotations

import re
from collections.abc import Sequence

# the `;` of an array type (`-> [u8; 3]`) is no end; a declaration's own `;` is left out
_SIGNATURE = re.compile(
    r"`(pub\s+fn\s+(?P<name>\w+)\s*(?:<[^`>]*>)?\s*\([^`]*?\)(?:\[[^`]*?\]|[^`{;\[])*?)\s*;?`"
)
_PY_SIGNATURE = re.compile(r"`(def\s+(?P<name>\w+)\s*\([^`]*?\)(?:\s*->\s*[^`:]+?)?)\s*:?\s*`")


def collapsed(text: str) -> str:
    """`text` with every run of whitespace made one space, stripped."""
    return re.sub(r"\s+", " ", text).strip()


def interface_functions(kata: str, language: str = "rust") -> dict[str, str]:
    """name -> signature of each Rust `pub fn` (Python: `def`) the kata's text names in
    backticks, or declares in a fenced code block of its Interface section; a name given two
    different signatures is left out (which one would the test have to follow?)."""
    found: dict[str, dict[str, str]] = {}  # name -> key -> the first signature with that key
    pattern = _PY_SIGNATURE if language == "python" else _SIGNATURE
    for match in pattern.finditer(kata + "".join(_fenced(kata, language))):
        signature = collapsed(match[1])
        if language == "rust" and not (_whole(signature) and _free(signature)):
            continue
        key = signature_key(signature) if language == "rust" else signature
        found.setdefault(match["name"], {}).setdefault(key, signature)
    return {name: next(iter(sigs.values())) for name, sigs in found.items() if len(sigs) == 1}


# the heading of the section that fixes the entry points (`## Interface`, `## API`)
_INTERFACE_HEADING = re.compile(r"^#{1,6}\s+.*\b(?:interface|api|signatures?)\b", re.I)
_HEADING = re.compile(r"^(?P<level>#{1,6})\s")
_FENCE = re.compile(r"^\s{0,3}(?P<fence>`{3,}|~{3,})")
_CODE_START = {
    "rust": re.compile(r"^\s*pub\s+(?:const\s+)?fn\s"),
    "python": re.compile(r"^\s*def\s"),
}
MAX_SIGNATURE_LINES = 8
# a line's comment (a string's `//` or `#` is cut too: a declaration's line holds none)
_COMMENT = {"rust": re.compile(r"//.*"), "python": re.compile(r"#.*")}


def _fenced(kata: str, language: str) -> list[str]:
    """The signatures declared in the fenced code blocks of the kata's Interface section, each
    written as the kata would in backticks (`` `pub fn is_leap(year: u32) -> bool` ``): a
    newcomer's Leap Year kata gave its Interface as a ```` ```rust ```` block, and no check read
    it. A signature runs from `pub fn`/`def` to its body's `{`, a `;` or a `:` ending its line."""
    lines, found = kata.splitlines(), []
    level: int | None = None  # the Interface heading's, while inside its section
    fence: str | None = None
    start = _CODE_START.get(language)
    depth = 0  # Rust: the braces open in the block (an `impl`'s functions are no free ones)
    margin = 0  # the fence's indent (a block in a list item is indented whole)
    index = 0
    while start is not None and index < len(lines):
        line = lines[index]
        index += 1
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened["fence"][0] == fence[0] and len(opened["fence"]) >= len(fence):
                fence = None
                continue
            indent = len(line) - len(line.lstrip())  # a class's method is indented further
            top = depth <= 0 if language == "rust" else indent <= margin
            if level is not None and top and start.match(line):
                taken = _declaration_lines(lines, index - 1, start, language)
                found.append(f"`{_declared(' '.join(taken), language)}`")
            code = _COMMENT[language].sub("", line)
            depth += code.count("{") - code.count("}")
            continue
        if opened:
            fence, depth, margin = opened["fence"], 0, len(line) - len(line.lstrip())
            continue
        heading = _HEADING.match(line)
        if heading:
            depth = len(heading["level"])
            if _INTERFACE_HEADING.match(line):
                level = depth
            elif level is not None and depth <= level:
                level = None
    return found


def _declaration_lines(
    lines: Sequence[str], first: int, start: re.Pattern[str], language: str
) -> list[str]:
    """The lines of the declaration at `lines[first]`, comments left out: up to a blank line, the
    block's fence or the next declaration (a list of signatures without bodies is one each)."""
    taken = [_COMMENT[language].sub("", lines[first]).strip()]
    for line in lines[first + 1 : first + MAX_SIGNATURE_LINES]:
        if not line.strip() or _FENCE.match(line) or start.match(line):
            break
        taken.append(_COMMENT[language].sub("", line).strip())
    return taken


def _declared(code: str, language: str) -> str:
    """A declaration up to its body: the `{` or `;` outside brackets, or Python's `:` there (the
    parameters' annotations are inside the brackets); rustfmt's layout undone."""
    declared = signature_rest(code, 0, ":" if language == "python" else "{;")
    declared = re.sub(r"\(\s+", "(", declared.strip())
    return re.sub(r",?\s*\)", ")", declared)


def _whole(signature: str) -> bool:
    """A Rust signature code can declare: no `…` and a type for each parameter (`self` aside),
    not the shorthand a text may use (`pub fn execute(commands: &str, …)`)."""
    if "…" in signature or "..." in signature:
        return False
    opening, closing = parentheses(signature)
    params = split_top(signature[opening + 1 : closing])
    return all(":" in param or param.endswith("self") for param in params)


def _free(signature: str) -> bool:
    """Not a method (`pub fn report(&self) -> String`): a method is no top-level item, cannot be
    stubbed beside the library's functions, and its name in an error is no free function's."""
    opening, closing = parentheses(signature)
    first = split_top(signature[opening + 1 : closing])[:1]
    return not first or re.fullmatch(r"(?:&\s*(?:'\w+\s+)?)?(?:mut\s+)?self\b.*", first[0]) is None


def signature_rest(code: str, start: int, ends: str = "{;") -> str:
    """The signature from `start` to its body's `{` (or a declaration's `;`; Python's `:`, in
    `ends`): one outside brackets, as `[u8; 3]` holds a `;` that ends nothing."""
    depth = 0
    for index in range(start, len(code)):
        char = code[index]
        if depth <= 0 and char in ends:
            return code[start:index]
        arrow = char == ">" and code[index - 1 : index] == "-"  # `-> u8` closes nothing
        depth += (char in "([<") - (char in ")]>" and not arrow)
    return code[start:]


def split_top(text: str) -> list[str]:
    """`text` split at the commas outside brackets (`a: &[(u32, u32)], b: u8` is two parts)."""
    parts, depth, current = [], 0, ""
    for index, char in enumerate(text):
        arrow = char == ">" and text[index - 1 : index] == "-"  # `fn(u8) -> u8` closes nothing
        depth += (char in "([<{") - (char in ")]>}" and not arrow)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [part.strip() for part in [*parts, current] if part.strip()]


def parentheses(signature: str) -> tuple[int, int]:
    """Where the parameter list opens and closes (-1 and the end when it does not)."""
    opening = signature.find("(")
    depth = 0
    for index in range(max(opening, 0), len(signature) if opening >= 0 else 0):
        depth += (signature[index] == "(") - (signature[index] == ")")
        if depth == 0:
            return opening, index
    return opening, len(signature)


def signature_key(signature: str) -> str:
    """What a caller depends on: the name, the generics, the parameter types and the result,
    without layout, named lifetimes or parameter names (`_password: &str`, `mut n: u32`: a name
    the function body picks, e.g. `_password` to keep clippy quiet)."""
    bare = re.sub(r"\s+", " ", signature).strip()
    opening, closing = parentheses(bare)
    if opening < 0:
        return re.sub(r"\s+", "", bare)
    params = [_param_type(part) for part in split_top(bare[opening + 1 : closing])]
    head = re.sub(r"\bconst\s+(?=.*\bfn\b)", "", bare[:opening])  # `const` is the body's
    key = f"{head}({','.join(params)}){bare[closing + 1 :]}"
    # named lifetimes too: `<'a>(password: &'a str)` is called as `(password: &str)` is
    key = re.sub(r"'(?!static\b)\w+\s*,?\s*", "", key)
    # a path to a type is the type (`std::string::String`, `::std::vec::Vec`, `crate::Grid`)
    key = re.sub(r"(?<![\w>])(?:::)?(?:\w+::)+(?=\w)", "", key)
    key = re.sub(r"\s+", "", key).replace("<>", "")
    # rustfmt's trailing commas (`Result<\n    String,\n    String,\n>`), and `-> ()` said
    return re.sub(r"(?:,(?=>)|,$|->\(\)$)", "", key)


def _param_type(param: str) -> str:
    """The type of one parameter: what follows its pattern's `:` (`mut n: u32`, `(x, y): (u8,
    u8)`, `Point { x, y }: Point`); `&self` as it is."""
    depth = 0
    for index, char in enumerate(param):
        depth += (char in "([{<") - (char in ")]}>")
        if (
            char == ":"
            and depth == 0
            and ":" not in (param[index - 1 : index], param[index + 1 :][:1])
        ):
            return param[index + 1 :].strip()
    return param.strip()


def same_signature(one: str, other: str) -> bool:
    """Equal for every caller: layout (rustfmt breaks a long signature over lines with a trailing
    comma) and parameter names aside."""
    return signature_key(one) == signature_key(other)
