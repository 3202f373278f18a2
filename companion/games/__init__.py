"""One package per game, each with the same files (see docs/architecture.md)."""
