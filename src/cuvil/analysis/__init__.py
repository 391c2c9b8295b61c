"""Analyses over the normalized function that need the call's argument types: symbolic shapes."""
