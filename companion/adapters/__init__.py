"""The only code that touches devices. Empty of imports on purpose: the CLI must start fast."""
