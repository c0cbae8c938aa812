"""A case as a Python dict, written as the TOML text the case reader takes.

Python's standard library reads TOML (tomllib) but does not write it. A case needs
only tables, arrays of tables, strings, numbers, booleans and arrays of them, so the
writer is these few lines rather than another dependency.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["dumps", "value_text"]


_BARE = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _key(k: str) -> str:
    if k and all(c in _BARE for c in k):  # TOML's bare keys: ASCII letters, digits, _ and -
        return k
    return _string(k)


def _string(s: str) -> str:
    out = ['"']
    for c in s:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def value_text(v: Any, where: str = "value") -> str:
    """One TOML value: a string, number, boolean or array of them."""
    if hasattr(v, "item") and getattr(v, "shape", None) == ():  # a numpy scalar, bool included
        v = v.item()
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)  # the shortest text that reads back as the same double
    if hasattr(v, "tolist"):  # a numpy array
        v = v.tolist()
    if isinstance(v, Sequence):
        return "[" + ", ".join(value_text(x, where) for x in v) + "]"
    raise TypeError(f"{where}: {type(v).__name__} cannot be written to a case (expected str, int, float, bool or a list)")


def _is_table_array(v: Any) -> bool:
    return isinstance(v, Sequence) and not isinstance(v, str) and len(v) > 0 and all(isinstance(x, Mapping) for x in v)


def _emit(table: Mapping[str, Any], path: list[str], out: list[str]) -> None:
    scalars = [(k, v) for k, v in table.items() if not isinstance(v, Mapping) and not _is_table_array(v)]
    for k, v in scalars:
        out.append(f"{_key(str(k))} = {value_text(v, '.'.join(path + [str(k)]))}")
    for k, v in table.items():
        if isinstance(v, Mapping):
            sub = path + [_key(str(k))]
            out.append("")
            out.append("[" + ".".join(sub) + "]")
            _emit(v, sub, out)
        elif _is_table_array(v):
            sub = path + [_key(str(k))]
            for element in v:
                out.append("")
                out.append("[[" + ".".join(sub) + "]]")
                _emit(element, sub, out)


def dumps(case: Mapping[str, Any]) -> str:
    """The TOML text of a case given as nested dicts (tables) and lists of dicts (arrays of tables)."""
    if not isinstance(case, Mapping):
        raise TypeError(f"a case is a dict of tables, not {type(case).__name__}")
    out: list[str] = []
    _emit(case, [], out)
    return "\n".join(out).lstrip("\n") + "\n"
