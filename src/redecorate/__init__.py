"""redecorate: a reproducible replication of DECORATE and ensemble learning with reduced supervision."""

__version__ = "1.0.0"
