"""What `nox -s mutation` mutates, in the order it runs them, and the tests each module's mutants run.

Each mutant runs only the tests of its module's list that reach the mutated function (mutmut records which
tests call which function in one run of the list first): the fast, targeted tests of the module's own stage,
then the end-to-end tests that compile the programs the stage sees. The lists leave out what is slow and
adds little here (the whole corpus, the fuzzers, the lowering matrix, notebooks)."""

from __future__ import annotations

_GOLDEN = "tests/codegen/test_golden.py"
_PARALLEL = ("tests/cfg", "tests/runtime/test_parallel_support.py", "tests/programs/test_parallel.py", _GOLDEN)
# Tests that run a second Python process: under mutmut's recording run the child inherits MUTANT_UNDER_TEST=stats
# and fails looking for mutmut's configuration, so the recording run, and mutmut with it, stops.
_NO_CHILD = ("-k", "not next_process and not warm_start and not changed_source_is_a_miss")
_GUARDS = _NO_CHILD + ("tests/runtime/test_argument_kinds.py", "tests/runtime/test_guards.py",
                       "tests/runtime/test_guard_entry.py", "tests/runtime/test_value_guards.py",
                       "tests/runtime/test_dims.py", "tests/codegen/test_specialize.py")
_SHAPES = ("tests/analysis", "tests/runtime/test_inplace.py", "tests/runtime/test_shape_paths.py", _GOLDEN)
# (the corpus under parallel=True left out: at one mutant at a time it cost minutes per surviving mutant)
_FRONT = ("tests/normalize", "tests/cfg", _GOLDEN, "tests/frontend", "tests/fuzz/test_normalize_fuzz.py")

# module (under src/cuvil/) → pytest arguments
TARGETS: dict[str, tuple[str, ...]] = {
    "cfg/dependence.py": _PARALLEL,
    "runtime/guards.py": _GUARDS,
    # (test_guards.py left out: a mutant that makes every dim static recompiled its tests for minutes each)
    # (test_dim_policy.py first: pure Python, it fails a policy mutant in milliseconds)
    "runtime/policy.py": ("tests/runtime/test_dim_policy.py", "tests/runtime/test_policy.py",
                          "tests/runtime/test_dims.py", "tests/runtime/test_dims_range_bounds.py", "-k", "not sweep"),
    "runtime/cache_key.py": _NO_CHILD + ("tests/runtime/test_cache_key.py", "tests/runtime/test_cache.py",
                             "tests/runtime/test_value_guards.py", "tests/runtime/test_default_guards.py",
                             "tests/frontend/test_subset.py"),
    "analysis/shapes.py": _SHAPES,
    # (shape_eval, shape_transfer, shape_rules: one target, one recording of the list they share)
    "analysis/shape_*.py": _SHAPES,
    "normalize/*.py": _FRONT,
    "cfg/*.py": _PARALLEL + ("tests/programs/test_math_errors.py",),
    # (test_precision_variant.py first: no compile, it fails a mutant of Precision's rules in milliseconds)
    "analysis/precision.py": ("tests/precision/test_precision_variant.py", "tests/precision/test_kernels.py",
                              "tests/precision/test_diagnostics.py"),
    # the type modules (types, type_rules, numpy_rules): the tests whose compiles turn on Python's and NumPy's
    # result types. test_ufuncs.py (12 of the 22 minutes of the old list's recording), the precision kernels and
    # the shape tests are left out: every survivor ran all of them, and they test little typing the rest miss.
    "analysis/*.py": ("tests/lower/test_scalars.py", "tests/lower/test_numpy_scalars.py",
                      "tests/lower/test_builtin_results.py", "tests/lower/test_array_item.py",
                      "tests/lower/test_dtype_arguments.py", "tests/lower/test_reductions.py",
                      "tests/programs/test_python_scalars.py", "tests/lower/test_type_rule_facts.py",
                      "tests/lower/test_matmul_operator_types.py", _GOLDEN),
    # (test_arrays.py left out: two thirds of the list's time, and what it adds is the array lowering's, not the
    # Plan's; with it the list took 13 minutes at load 10, one surviving mutant as long)
    "lower/plan.py": ("tests/lower/test_fusion.py", "tests/lower/test_plan_text.py", "tests/lower/test_plan_control.py",
                      "tests/lower/test_plan_parallel_nest.py", _GOLDEN),
    "lower/checks.py": ("tests/programs/test_bounds.py", "tests/lower/test_check_counts.py",
                        "tests/lower/test_views.py", _GOLDEN),
}
