"""The companion: an accessibility-first referee, narrator and rulebook for four tabletop games."""

__version__ = "0.1.0"
