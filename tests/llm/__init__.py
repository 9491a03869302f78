"""Tests of the LLM provider layer (tddhooks/llm)."""
