"""`tddhooks cache stats|clear`: what the LLM answer cache holds, and emptying it."""

from __future__ import annotations

import time

from tddhooks import output
from tddhooks.errors import EXIT_OK
from tddhooks.llm.cache import CACHE_ENV, cache_stats, clear_cache, default_cache_dir


def human_size(size: int) -> str:
    """Bytes as a person reads them: 512 B, 3.4 KB, 12.0 MB."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def _last_drive(hits: int, misses: int, last_used: float | None) -> str:
    calls = hits + misses
    if not calls and last_used is None:
        return "no drive has used the cache yet"
    rate = f" ({100 * hits / calls:.0f}% hits)" if calls else ""
    when = f", {time.strftime('%Y-%m-%d %H:%M', time.localtime(last_used))}" if last_used else ""
    return f"{hits} hits, {misses} misses{rate}{when}"


def stats() -> int:
    """Print entries, size on disk, and the hits/misses of the last drive."""
    from rich.table import Table

    found = cache_stats()
    # the path on a line of its own: a table would wrap it, and people copy it
    output.say(f"LLM answer cache: {found.directory}", markup=False)
    output.say(f"  (set {CACHE_ENV} to move it)", style="dim")
    table = Table(show_header=False)
    table.add_column(style="bold")
    table.add_column()
    table.add_row("entries", str(found.entries))
    table.add_row("size", human_size(found.size_bytes))
    table.add_row("last drive", _last_drive(found.hits, found.misses, found.last_used))
    output.console().print(table)
    return EXIT_OK


def clear() -> int:
    """Delete every cached answer (and the last drive's counters)."""
    stats_dir = default_cache_dir()
    entries, size = clear_cache(stats_dir)
    if entries:
        output.ok(f"cleared {entries} cached answers ({human_size(size)}) from {stats_dir}")
    else:
        output.ok(f"the LLM cache in {stats_dir} was already empty")
    return EXIT_OK
