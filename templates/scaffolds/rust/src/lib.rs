//! The `{crate}` kata, grown one test at a time: tests go in `tests/`, code here.
