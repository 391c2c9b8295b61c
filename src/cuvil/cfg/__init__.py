"""Control-flow graph over the normalized function, and the analyses that run on it."""
