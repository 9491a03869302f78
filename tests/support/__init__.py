"""Test helpers shared across test directories (fake OpenAI-compatible server)."""
