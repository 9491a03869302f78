"""`tddhooks bench`: drives on katas, scored per model (docs/bench.md)."""
