"""Runtime: the dispatcher users call, array adapters, caches and compile events."""
