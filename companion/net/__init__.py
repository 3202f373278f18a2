"""The network edge every server of the companion shares: connection limits, quiet logs, host and origin checks."""
