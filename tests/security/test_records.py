"""Red team, tddhooks/records.py: every NamedTuple the hook path makes without typing behaves as
the one typing.NamedTuple makes from the same class body (each module is run a second time with
typing's, and the two classes compared), and the odd class bodies fail as typing's do."""

from __future__ import annotations

import importlib
import pickle
import re
import sys
import types
import typing
from pathlib import Path
from typing import Any

import pytest

from tddhooks import records

# what typing's adds that nothing reads: the annotations as ForwardRefs (records keeps the
# strings `from __future__ import annotations` makes; typing.get_type_hints reads both alike)
_TYPING_ONLY = {"__orig_bases__"}
_CACHED = {"__slotnames__"}
_IMPORT = "from tddhooks.records import NamedTuple"


def _users() -> list[str]:
    root = Path(records.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "records.py" and path.parent == root:
            continue
        if _IMPORT in path.read_text(encoding="utf-8"):
            relative = path.relative_to(root.parent).with_suffix("")
            found.append(".".join(relative.parts))
    return found


USERS = _users()


def test_the_hook_path_modules_are_all_found() -> None:
    # a module dropped from the list would no longer be compared below
    assert set(USERS) >= {
        "tddhooks.git",
        "tddhooks.proc",
        "tddhooks.policy.message",
        "tddhooks.policy.rules",
        "tddhooks.policy.settings",
        "tddhooks.runners.rust_items",
    }


def _twin(name: str) -> types.ModuleType:
    """The module run again, its NamedTuples made by typing's."""
    module = importlib.import_module(name)
    source = Path(str(module.__file__)).read_text(encoding="utf-8")
    assert source.count(_IMPORT) == 1
    twin = types.ModuleType(f"{name}_typing_twin")
    twin.__file__ = module.__file__
    sys.modules[twin.__name__] = twin
    exec(compile(source.replace(_IMPORT, "from typing import NamedTuple"), name, "exec"),
         twin.__dict__)  # fmt: skip
    return twin


def _classes(module: types.ModuleType) -> dict[str, Any]:
    return {
        name: value
        for name, value in vars(module).items()
        if isinstance(value, type)
        and issubclass(value, tuple)
        and hasattr(value, "_fields")
        and value.__module__ == module.__name__
    }


def _sample(cls: Any) -> tuple[object, ...]:
    fields: tuple[str, ...] = cls._fields
    return tuple(f"v{index}" for index in range(len(fields)))


@pytest.mark.parametrize("name", USERS)
def test_each_namedtuple_is_the_one_typing_makes(name: str) -> None:
    module, twin = importlib.import_module(name), _twin(name)
    mine, theirs = _classes(module), _classes(twin)
    assert mine
    assert set(mine) == set(theirs)
    for cls_name, cls in mine.items():
        other = theirs[cls_name]
        where = f"{name}.{cls_name}"
        for attribute in ("_fields", "_field_defaults", "__doc__", "__match_args__",
                          "__qualname__", "__slots__", "__bases__"):  # fmt: skip
            assert getattr(cls, attribute) == getattr(other, attribute), (where, attribute)
        assert type(cls) is type(other) is type, where
        # copyreg caches `__slotnames__` on a class once an instance was pickled (another test
        # may have): a cache, not a difference
        assert set(vars(cls)) - _CACHED == set(vars(other)) - _TYPING_ONLY - _CACHED, where
        for key, value in vars(other).items():
            if key in _TYPING_ONLY | _CACHED or key in ("__module__", "__annotations__"):
                continue
            kind = type(value)
            assert type(vars(cls)[key]) is kind, (where, key)
        assert list(cls.__annotations__) == list(other.__annotations__), where
        assert typing.get_type_hints(cls).keys() == cls.__annotations__.keys(), where
        # instances: repr, equality, hash, _replace, _asdict, pickling, matching
        values = _sample(cls)
        made, twin_made = cls(*values), other(*values)
        assert repr(made) == repr(twin_made), where
        assert tuple(made) == tuple(twin_made), where
        assert made == cls(*values), where
        assert (made != cls(*values)) == (twin_made != other(*values)), where
        assert hash(made) == hash(twin_made), where
        assert made._replace() == made, where
        assert made._asdict() == twin_made._asdict(), where
        assert pickle.loads(pickle.dumps(made)) == made, where
        assert type(pickle.loads(pickle.dumps(made))) is cls, where
        if cls._field_defaults:
            required = len(cls._fields) - len(cls._field_defaults)
            short = values[:required]
            assert tuple(cls(*short)) == tuple(other(*short)), where


def test_a_namedtuple_of_records_is_unpickled_as_typings_was(tmp_path: Path) -> None:
    # a value pickled by the version before records.py (typing's class) loads now, and back
    from tddhooks.policy.settings import PolicySettings

    twin = _twin("tddhooks.policy.settings")
    old = twin.PolicySettings(language="python", test=("pytest",))
    data = pickle.dumps(old, protocol=0).replace(
        twin.__name__.encode(), b"tddhooks.policy.settings"
    )  # as it was stored, under the real module's name
    assert pickle.loads(data) == PolicySettings(language="python", test=("pytest",))


def _both(body: str) -> list[tuple[type[BaseException], str] | str]:
    """What the class body gives with typing's NamedTuple and with records' (error or repr)."""
    outcomes: list[tuple[type[BaseException], str] | str] = []
    for maker in (typing.NamedTuple, records.NamedTuple):
        space: dict[str, object] = {"NamedTuple": maker, "__name__": "probe"}
        try:
            exec(body, space)
            outcomes.append(repr(space["made"]))
        except BaseException as error:  # the class's own error, compared below
            outcomes.append((type(error), ""))
    return outcomes


@pytest.mark.parametrize(
    "body",
    [
        "class P(NamedTuple):\n    x: int = 1\n    y: int\n",  # a default before no default
        "class P(NamedTuple):\n    x: int\n    _replace = 1\n",  # a name namedtuple makes
        "class P(NamedTuple):\n    x: int\n    def __new__(cls): pass\n",
        "class P(NamedTuple):\n    _x: int\n",  # underscore field
        "class P(NamedTuple):\n    x: int\n    x2: int\n    def m(self): return super()\n",
        "class P(NamedTuple, object):\n    x: int\n",  # another base
        "class P(NamedTuple):\n    class_: int\n    def: int\n",  # a keyword: a SyntaxError
    ],
    ids=["default-order", "prohibited", "new", "underscore", "super", "base", "keyword"],
)
def test_a_bad_class_body_fails_as_with_typing(body: str) -> None:
    theirs, mine = _both(body + "made = P\n")
    assert isinstance(theirs, tuple), theirs
    assert mine == theirs


@pytest.mark.parametrize(
    "body",
    [
        "class P(NamedTuple):\n    pass\nmade = P()\n",
        "class P(NamedTuple):\n    'Doc.'\n    x: int = 1\nmade = (P(), P.__doc__)\n",
        "class P(NamedTuple):\n    x: int\nmade = (P(1), P.__doc__, P.__match_args__)\n",
        "class P(NamedTuple):\n    x: list = []\nmade = P().x is P().x\n",  # shared default
        "class P(NamedTuple):\n    x: int\nclass Q(P):\n    def two(self): return 2\n"
        "made = (Q(1), Q(1).two(), Q(1) == P(1))\n",
        "class P(NamedTuple):\n    x: int\n    def __repr__(self): return 'mine'\nmade = P(1)\n",
        "class P(NamedTuple):\n    x: int\n    y: int = 2\nmade = P(1)\n"
        "match made:\n    case P(a, b): made = (a, b)\n",
    ],
    ids=["empty", "docstring", "match-args", "mutable-default", "subclass", "repr", "match"],
)
def test_a_good_class_body_makes_the_same_values(body: str) -> None:
    theirs, mine = _both(body)
    assert isinstance(theirs, str), theirs
    assert mine == theirs


def test_every_user_of_records_annotates_as_strings() -> None:
    # records reads the fields from the class body's __annotations__; from Python 3.14 a body
    # without `from __future__ import annotations` has none (PEP 649: an __annotate__ function)
    # and the class would silently have no field at all
    for name in USERS:
        source = Path(str(importlib.import_module(name).__file__)).read_text(encoding="utf-8")
        assert re.search(r"^from __future__ import annotations$", source, re.MULTILINE), name


def test_a_lazily_annotated_body_is_refused_not_made_empty() -> None:
    # what Python 3.14 hands a metaclass for a body without the __future__ import
    namespace = {"__module__": "probe", "__qualname__": "P", "__annotate__": lambda _: {"x": int}}
    maker: Any = type(records.NamedTuple)
    with pytest.raises(TypeError, match="from __future__ import annotations"):
        maker("P", (records.NamedTuple,), namespace)
