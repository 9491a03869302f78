"""A scripted competent model: whole, correct answers in the shapes a careful engineer writes
(a test file that grows, parametrized tests, several assertions and helpers in one test, a new
module from the implementor, refactors that extract, split and rename), for two katas the
project does not ship (tests/support/katas/). Each kata's answers are per role, in turn order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

KATAS = Path(__file__).resolve().parent / "katas"
PIG_LATIN = KATAS / "pig-latin.md"
ROMAN = KATAS / "roman-numerals.md"


def _answer(plan: str, edits: list[dict[str, str]], **extra: Any) -> dict[str, Any]:
    return {"plan": plan, "edits": edits, **extra}


def _upsert(path: str, content: str) -> dict[str, str]:
    return {"path": path, "action": "upsert", "content": content}


def _test(plan: str, path: str, content: str) -> dict[str, Any]:
    return _answer(plan, [_upsert(path, content)], done=False, reason=None)


def _change(plan: str, scope: str, summary: str, files: dict[str, str]) -> dict[str, Any]:
    commit = {"scope": scope, "summary": summary, "rationale": [plan]}
    edits = [_upsert(path, text) for path, text in files.items()]
    return _answer(plan, edits, commit=commit)


def _nothing(plan: str = "Nothing worth changing: the code reads as the rules.") -> dict[str, Any]:
    return _answer(plan, [], commit={"scope": None, "summary": "nothing", "rationale": []})


# --- Pig Latin, Python: one test file that grows, parametrized cases ----------------------------

_PY_TEST_HEAD = (
    '"""Pig Latin, one behaviour a test."""\n\nimport pytest\n\nfrom {package} import translate\n'
)
_PY_TESTS = [
    """

@pytest.mark.parametrize(("word", "expected"), [("apple", "appleay"), ("ear", "earay")])
def test_a_word_beginning_with_a_vowel_gets_ay(word: str, expected: str) -> None:
    assert translate(word) == expected
""",
    """

@pytest.mark.parametrize(("word", "expected"), [("pig", "igpay"), ("koala", "oalakay")])
def test_one_leading_consonant_moves_to_the_end(word: str, expected: str) -> None:
    assert translate(word) == expected
""",
    """

@pytest.mark.parametrize(("word", "expected"), [("chair", "airchay"), ("school", "oolschay")])
def test_several_leading_consonants_move_together(word: str, expected: str) -> None:
    assert translate(word) == expected
""",
    """

@pytest.mark.parametrize(("word", "expected"), [("queen", "eenquay"), ("square", "aresquay")])
def test_qu_moves_with_the_consonants_before_it(word: str, expected: str) -> None:
    assert translate(word) == expected
""",
    """

@pytest.mark.parametrize(("word", "expected"), [("xray", "xrayay"), ("yttria", "yttriaay")])
def test_xr_and_yt_begin_like_a_vowel(word: str, expected: str) -> None:
    assert translate(word) == expected
""",
    """

def words_of(text: str) -> list[str]:
    return text.split(" ")


def test_a_phrase_is_translated_word_by_word() -> None:
    translated = translate("quick fast run")
    assert translated == "ickquay astfay unray"
    assert len(words_of(translated)) == 3
    assert words_of(translated)[1] == translate("fast")
""",
]
_PY_DOC = '"""The {package} kata: Pig Latin."""\n'


def _py_test_file(package: str, count: int) -> str:
    return _PY_TEST_HEAD.format(package=package) + "".join(_PY_TESTS[:count])


def pig_latin_answers(package: str) -> dict[str, list[dict[str, Any]]]:
    """The tester's, implementor's and refactorer's answers for six cycles of Pig Latin."""
    init = f"src/{package}/__init__.py"
    words = f"src/{package}/words.py"
    onset = f"src/{package}/onset.py"
    tests = "tests/test_translate.py"
    doc = _PY_DOC.format(package=package)
    plans = ["a vowel start", "one consonant", "several consonants", "qu", "xr and yt", "a phrase"]
    tester = [
        _test(f"Add the test of {plan} beside the others.", tests, _py_test_file(package, n + 1))
        for n, plan in enumerate(plans)
    ]
    one_consonant = (
        'VOWELS = "aeiou"\n\n\ndef translate_word(word: str) -> str:\n'
        '    """One word in Pig Latin."""\n    if word[0] in VOWELS:\n'
        '        return word + "ay"\n    return word[1:] + word[0] + "ay"\n'
    )
    words_v3 = (
        '"""One word in Pig Latin."""\n\nfrom {p}.onset import {f}\n\n\n'
        "def translate_word(word: str) -> str:\n"
        '    """`word` with its leading consonants moved to its end, and "ay"."""\n'
        "    split = {f}(word)\n"
        '    return word[split:] + word[:split] + "ay"\n'
    )
    onset_v3 = (
        '"""Where a word\'s first vowel sound starts."""\n\nVOWELS = "aeiou"\n\n\n'
        "def onset_length(word: str) -> int:\n"
        '    """How many letters come before the first vowel of `word`."""\n'
        "    for index, letter in enumerate(word):\n"
        "        if letter in VOWELS:\n"
        "            return index\n"
        "    return len(word)\n"
    )
    onset_renamed = onset_v3.replace("onset_length", "leading_consonants")
    onset_qu = onset_renamed.replace(
        "        if letter in VOWELS:\n            return index\n",
        "        if letter in VOWELS:\n"
        '            if letter == "u" and index > 0 and word[index - 1] == "q":\n'
        "                return index + 1\n"
        "            return index\n",
    )
    onset_xr = onset_qu.replace(
        'VOWELS = "aeiou"\n',
        'VOWELS = "aeiou"\nVOWEL_STARTS = ("xr", "yt")\n',
    ).replace(
        "    for index, letter in enumerate(word):\n",
        "    if word.startswith(VOWEL_STARTS):\n        return 0\n"
        "    for index, letter in enumerate(word):\n",
    )
    onset_split = (
        '"""Where a word\'s first vowel sound starts: one function per rule."""\n\n'
        'VOWELS = "aeiou"\nVOWEL_STARTS = ("xr", "yt")\n\n\n'
        "def leading_consonants(word: str) -> int:\n"
        '    """How many letters come before the first vowel sound of `word`."""\n'
        "    if starts_like_a_vowel(word):\n        return 0\n"
        "    for index, letter in enumerate(word):\n"
        "        if letter in VOWELS:\n"
        "            return index + 1 if is_qu(word, index) else index\n"
        "    return len(word)\n\n\n"
        "def starts_like_a_vowel(word: str) -> bool:\n"
        '    """`word` begins with a consonant pair that sounds like a vowel."""\n'
        "    return word.startswith(VOWEL_STARTS)\n\n\n"
        "def is_qu(word: str, index: int) -> bool:\n"
        '    """The vowel at `index` is the u of a "qu"."""\n'
        '    return word[index] == "u" and index > 0 and word[index - 1] == "q"\n'
    )
    init_words = (
        f"{doc}\nfrom {package}.words import translate_word\n\n\n"
        "def translate(text: str) -> str:\n"
        '    """`text` in Pig Latin."""\n'
        "    return translate_word(text)\n"
    )
    implementor = [
        _change(
            "Add one to the word.",
            "translate",
            "a word beginning with a vowel gets ay",
            {
                init: doc + '\n\ndef translate(text: str) -> str:\n    """`text` in Pig Latin."""\n'
                '    return text + "ay"\n'
            },
        ),
        _change(
            "Move one consonant.",
            "translate",
            "one leading consonant moves to the end",
            {
                init: doc + '\n\nVOWELS = "aeiou"\n\n\ndef translate(text: str) -> str:\n'
                '    """`text` in Pig Latin."""\n    if text[0] in VOWELS:\n'
                '        return text + "ay"\n    return text[1:] + text[0] + "ay"\n',
            },
        ),
        _change(
            "A new module finds the onset.",
            "translate",
            "several consonants move",
            {
                onset: onset_v3,
                words: words_v3.format(p=package, f="onset_length"),
            },
        ),
        _change(
            "Keep qu together.",
            "translate",
            "qu moves with the consonants before it",
            {
                onset: onset_qu,
            },
        ),
        _change(
            "xr and yt start like vowels.",
            "translate",
            "xr and yt begin like a vowel",
            {
                onset: onset_xr,
            },
        ),
        _change(
            "Translate each word.",
            "translate",
            "a phrase is translated word by word",
            {
                init: init_words.replace(
                    "    return translate_word(text)\n",
                    '    return " ".join(translate_word(word) for word in text.split(" "))\n',
                ),
            },
        ),
    ]
    refactorer = [
        _nothing(),
        _answer("Extract the word's translation into a module of its own.", [
            _upsert(words, '"""One word in Pig Latin."""\n\n' + one_consonant),
            _upsert(init, init_words),
        ], commit={"scope": "translate", "summary": "one word's rules in their own module",
                   "rationale": ["the phrase rule will come on top of the word rules"]}),
        _answer("Rename onset_length to what it counts.", [
            _upsert(onset, onset_renamed),
            _upsert(words, words_v3.format(p=package, f="leading_consonants")),
        ], commit={"scope": "onset", "summary": "name the count of leading consonants",
                   "rationale": ["the name says what the number is"]}),
        _nothing(),
        _answer("One function per rule.", [_upsert(onset, onset_split)],
                commit={"scope": "onset", "summary": "one function per rule",
                        "rationale": ["each rule of the kata reads on its own"]}),
        _nothing(),
    ]  # fmt: skip
    return {"tester": tester, "implementor": implementor, "refactorer": refactorer}


# --- Roman numerals, Rust: one test file that grows, a refactor into a module -------------------

_RS_TESTS: list[tuple[str, list[tuple[int, str]]]] = [
    ("ones_are_written_with_i", [(1, "I"), (3, "III")]),
    ("five_is_v_and_four_is_iv", [(5, "V"), (4, "IV"), (8, "VIII")]),
    ("ten_is_x_and_nine_is_ix", [(10, "X"), (9, "IX"), (27, "XXVII")]),
    ("fifty_is_l_and_forty_is_xl", [(50, "L"), (40, "XL"), (49, "XLIX")]),
    ("hundreds_and_thousands", [(90, "XC"), (400, "CD"), (1994, "MCMXCIV")]),
]
_RS_ZERO = (
    '\n#[test]\n#[should_panic(expected = "zero")]\nfn zero_has_no_numeral() {\n'
    "    to_roman(0);\n}\n"
)
_TABLES = [
    '[(5, "V"), (4, "IV"), (1, "I")]',
    '[(10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]',
    '[(50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]',
    '[\n    (1000, "M"),\n    (900, "CM"),\n    (500, "D"),\n    (400, "CD"),\n    (100, "C"),\n'
    '    (90, "XC"),\n    (50, "L"),\n    (40, "XL"),\n    (10, "X"),\n    (9, "IX"),\n'
    '    (5, "V"),\n    (4, "IV"),\n    (1, "I"),\n]',
]


def _rs_test_file(crate: str, count: int, zero: bool = False) -> str:
    parts = [f"use {crate}::to_roman;\n"]
    for name, cases in _RS_TESTS[:count]:
        body = "".join(f'    assert_eq!(to_roman({n}), "{numeral}");\n' for n, numeral in cases)
        parts.append(f"\n#[test]\nfn {name}() {{\n{body}}}\n")
    return "".join(parts) + (_RS_ZERO if zero else "")


def _table(name: str, entries: str) -> str:
    count = entries.count("(")
    return f"pub const {name}: [(u32, &str); {count}] = {entries};\n"


def roman_answers(crate: str) -> dict[str, list[dict[str, Any]]]:
    """The tester's, implementor's and refactorer's answers for six cycles of Roman numerals."""
    tests, lib, table = "tests/roman.rs", "src/lib.rs", "src/numerals.rs"
    head = f"//! The `{crate}` kata: Roman numerals.\n\n"
    doc = "/// The Roman numeral for `n`.\n"
    tester = [
        _test(f"Add the test of step {n} beside the others.", tests, _rs_test_file(crate, n))
        for n in range(1, 6)
    ]
    tester.append(_test("Zero has no numeral.", tests, _rs_test_file(crate, 5, zero=True)))
    loop_lib = (
        head
        + "mod numerals;\n\nuse numerals::{name};\n\n"
        + doc
        + "pub fn to_roman(n: u32) -> String {{\n{guard}    let mut rest = n;\n"
        "    let mut numeral = String::new();\n    for (value, symbol) in {name} {{\n"
        "        while rest >= value {{\n            numeral.push_str(symbol);\n"
        "            rest -= value;\n        }}\n    }}\n    numeral\n}}\n"
    )
    taking_lib = (
        head
        + "mod numerals;\n\nuse numerals::{{take, VALUES}};\n\n"
        + doc
        + "pub fn to_roman(n: u32) -> String {{\n{guard}    let mut rest = n;\n"
        "    let mut numeral = String::new();\n    for (value, symbol) in VALUES {{\n"
        "        rest = take(&mut numeral, rest, value, symbol);\n    }}\n    numeral\n}}\n"
    )
    take = (
        "\n/// Appends `symbol` to `numeral` as often as `value` fits in `rest`; what is left.\n"
        "pub fn take(numeral: &mut String, rest: u32, value: u32, symbol: &str) -> u32 {\n"
        "    let times = rest / value;\n    numeral.push_str(&symbol.repeat(times as usize));\n"
        "    rest - times * value\n}\n"
    )
    module_doc = "//! The numerals and the values they stand for, largest first.\n\n"
    guard = '    assert!(n > 0, "zero has no Roman numeral");\n'
    inline = (
        head + doc + "pub fn to_roman(n: u32) -> String {\n"
        f"    const NUMERALS: [(u32, &str); 3] = {_TABLES[0]};\n"
        "    let mut rest = n;\n    let mut numeral = String::new();\n"
        "    for (value, symbol) in NUMERALS {\n        while rest >= value {\n"
        "            numeral.push_str(symbol);\n            rest -= value;\n        }\n    }\n"
        "    numeral\n}\n"
    )
    implementor = [
        _change("Repeat I.", "roman", "ones are written with I", {
            lib: head + doc
            + 'pub fn to_roman(n: u32) -> String {\n    "I".repeat(n as usize)\n}\n',
        }),
        _change("A table of numerals, largest first.", "roman", "five is V and four is IV", {
            lib: inline,
        }),
        _change("Ten and nine join the table.", "roman", "ten is X and nine is IX", {
            table: module_doc + _table("NUMERALS", _TABLES[1]),
        }),
        _change("Fifty and forty join the table.", "roman", "fifty is L and forty is XL", {
            table: module_doc + _table("VALUES", _TABLES[2]),
        }),
        _change("Hundreds and thousands.", "roman", "hundreds and thousands follow the rule", {
            table: module_doc + _table("VALUES", _TABLES[3]) + take,
        }),
        _change("Refuse zero.", "roman", "zero has no numeral", {
            lib: taking_lib.format(guard=guard),
        }),
    ]  # fmt: skip
    refactorer = [
        _nothing(),
        _answer("Move the table into a module of its own.", [
            _upsert(table, module_doc + _table("NUMERALS", _TABLES[0])),
            _upsert(lib, loop_lib.format(name="NUMERALS", guard="")),
        ], commit={"scope": "roman", "summary": "the numerals in a module of their own",
                   "rationale": ["the table grows with each step"]}),
        _answer("Rename NUMERALS to VALUES.", [
            _upsert(table, module_doc + _table("VALUES", _TABLES[1])),
            _upsert(lib, loop_lib.format(name="VALUES", guard="")),
        ], commit={"scope": "roman", "summary": "name the table after what it maps",
                   "rationale": ["the entries are values with their numerals"]}),
        _answer("Extract taking one numeral as often as it fits.", [
            _upsert(table, module_doc + _table("VALUES", _TABLES[2]) + take),
            _upsert(lib, taking_lib.format(guard="")),
        ], commit={"scope": "roman", "summary": "extract taking a numeral while it fits",
                   "rationale": ["the loop reads as the rule"]}),
        _nothing(),
        _nothing(),
    ]  # fmt: skip
    return {"tester": tester, "implementor": implementor, "refactorer": refactorer}
