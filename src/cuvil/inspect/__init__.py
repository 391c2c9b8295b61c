"""Seeing what was compiled (issue 17): fingerprints and diffs of variants, a cost model, profiles against this
machine's roofline. Imported on first use only: it runs the front end (libcst) to generate a variant's Plan."""
