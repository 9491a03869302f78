"""`NamedTuple` for the hook path, without importing typing.

The hooks' value types are NamedTuples (dataclasses cost ~10 ms with inspect). typing's own
`NamedTuple` imports typing (~5 ms), and it compiles each string annotation into a ForwardRef
when a class is made (~0.3 ms a class): together about a tenth of a commit-msg hook
(tests/bench/bench_hooks.py; README, "Performance"). This one builds the same class, a
`collections.namedtuple` with the class body's methods, properties, defaults and docstring;
mypy reads typing's (the TYPE_CHECKING branch), so the types are checked as before.

    from tddhooks.records import NamedTuple

    class Point(NamedTuple):
        x: int
        y: int = 0
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing is what this module avoids
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    import collections

    # what namedtuple makes itself: a class body may not define them (as with typing's)
    _PROHIBITED = frozenset(
        {"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
         "_make", "_replace", "_asdict", "_source"}
    )  # fmt: skip
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__", "__qualname__"})

    class _Maker(type):
        def __new__(mcs, typename, bases, namespace):
            if not bases:  # NamedTuple itself
                return super().__new__(mcs, typename, bases, namespace)
            if bases != (NamedTuple,):
                raise TypeError(f"{typename}: a NamedTuple derives from NamedTuple only")
            if "__annotations__" not in namespace and (
                "__annotate__" in namespace or "__annotate_func__" in namespace
            ):  # Python 3.14+ (PEP 649): the fields would silently be lost
                raise TypeError(
                    f"{typename}: its module needs `from __future__ import annotations`"
                )
            fields = list(namespace.get("__annotations__", {}))
            defaults = []
            for name in fields:
                if name in namespace:
                    defaults.append(namespace[name])
                elif defaults:
                    raise TypeError(
                        f"{typename}: field {name} without a default follows one with a default"
                    )
            made = collections.namedtuple(
                typename, fields, defaults=defaults, module=namespace["__module__"]
            )
            made.__qualname__ = namespace.get("__qualname__", typename)
            for key, value in namespace.items():
                if key in _PROHIBITED:
                    raise AttributeError(f"{typename}: cannot overwrite NamedTuple's {key}")
                if key not in _SPECIAL and key not in fields:
                    setattr(made, key, value)
            made.__annotations__ = namespace.get("__annotations__", {})
            return made

    class NamedTuple(metaclass=_Maker):
        """Derive from this with annotated fields (see the module's docstring)."""
