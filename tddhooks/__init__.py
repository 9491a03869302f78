"""tddhooks: git enforces test-driven development; LLM role agents pair under the same policy."""

__version__ = "0.1.0"
