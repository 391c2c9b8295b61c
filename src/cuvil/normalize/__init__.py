"""Normalization: libcst passes that rewrite control flow into one canonical form (order in pipeline.py)."""
