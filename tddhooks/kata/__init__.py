"""The only reader of kata files: requirements, the example grammar, the interface, the title."""
