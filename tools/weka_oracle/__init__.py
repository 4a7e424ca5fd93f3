"""Weka 3.6 oracle for differential tests and benchmarks (see ``oracle.py``)."""
