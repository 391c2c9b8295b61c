"""analysis/precision.py on its own, no compile: which half a variant stores and what it computes in
(`Precision.of`, from the arguments and the `precision` option, and the errors that name the argument at
fault), the two spellings of a type (`logical`: either half is "float16" inside the analyses; `actual`: the
variant's half as the user sees it), and the literal runtime/adapters.py reads to turn results back into halves
(`result`). The kernel tests reach these only through compiles (seconds each): here a wrong rule fails in
milliseconds, which is also what lets mutation testing try the module's mutants at all on a loaded machine."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuvil.analysis.precision import Precision, PrecisionError
from cuvil.analysis.types import UNKNOWN, Array, Scalar, Tuple


def test_a_variant_without_halves_or_option_follows_numpy_in_float16():
    p = Precision.of(None, ["x", "n"], [Array("float32", 1), Scalar("int64", weak=True)])
    assert (p.storage, p.compute, p.policy, p.short) == ("float16", None, False, "fp16")


@pytest.mark.parametrize("half, short", [("float16", "fp16"), ("bfloat16", "bf16")])
def test_the_half_arguments_decide_the_storage(half, short):
    p = Precision.of(None, ["a", "t"], [Array("float32", 2), Tuple((Scalar("int64"), Array(half, 1)))])
    assert (p.storage, p.compute, p.policy, p.short) == (half, None, False, short)


@pytest.mark.parametrize("option, storage", [("fp16", "float16"), ("bf16", "bfloat16"), ("fp32", "float16")])
def test_an_option_computes_in_float32_and_names_the_storage_when_no_argument_does(option, storage):
    p = Precision.of(option, ["x"], [Array("float32", 1)])
    assert (p.storage, p.compute, p.policy) == (storage, "float32", True)


@pytest.mark.parametrize("half", ["float16", "bfloat16"])
def test_fp32_keeps_either_half_of_the_arguments(half):
    p = Precision.of("fp32", ["x"], [Array(half, 1)])
    assert (p.storage, p.compute) == (half, "float32")


@pytest.mark.parametrize("option, half", [("fp16", "float16"), ("bf16", "bfloat16")])
def test_an_option_that_agrees_with_the_arguments(option, half):
    assert Precision.of(option, ["x", "y"], [Array(half, 1), Array(half, 2)]) == Precision(half, "float32")


def test_both_halves_among_the_arguments_are_refused_naming_the_bfloat16_one():
    args = [Array("float16", 1), Array("float32", 1), Array("bfloat16", 2)]
    with pytest.raises(PrecisionError) as info:
        Precision.of(None, ["x", "w", "y"], args)
    assert info.value.argument == "y"
    assert str(info.value) == ("argument 'y' is bfloat16 while others are float16; a compiled function holds one "
                               "half-precision type: convert one of them")
    assert isinstance(info.value, ValueError)


def test_both_halves_inside_one_tuple_name_the_tuple():
    with pytest.raises(PrecisionError) as info:
        Precision.of(None, ["a", "t"], [Array("float16", 1), Tuple((Array("float32", 1), Array("bfloat16", 1)))])
    assert info.value.argument == "t"


@pytest.mark.parametrize("option, half, wanted", [("bf16", "float16", "bfloat16"), ("fp16", "bfloat16", "float16")])
def test_an_option_that_contradicts_the_arguments_names_the_first_half_argument(option, half, wanted):
    with pytest.raises(PrecisionError) as info:
        Precision.of(option, ["a", "h", "k"], [Array("float32", 1), Array(half, 1), Array(half, 2)])
    assert info.value.argument == "h"
    assert str(info.value) == (f"argument 'h' is {half}, but the function was compiled with precision={option!r} "
                               f"({wanted}); pass h as {wanted}, or use precision='fp32' (float32 compute, any "
                               "half storage)")


def test_logical_spells_either_half_array_float16_inside_tuples_too():
    p = Precision("bfloat16", "float32")
    assert p.logical(Array("bfloat16", 3)) == Array("float16", 3)
    assert p.logical(Tuple((Array("bfloat16", 1), Tuple((Array("bfloat16", 2), Scalar("float32")))))) == \
        Tuple((Array("float16", 1), Tuple((Array("float16", 2), Scalar("float32")))))
    for other in (Array("float32", 2), Array("float16", 1), Scalar("float16"), Scalar("int64", weak=True), UNKNOWN):
        assert p.logical(other) == other


@pytest.mark.parametrize("storage", ["float16", "bfloat16"])
def test_actual_spells_a_float16_array_as_the_variants_half_inside_tuples_too(storage):
    p = Precision(storage)
    assert p.actual(Array("float16", 2)) == Array(storage, 2)
    assert p.actual(Tuple((Scalar("int64"), Tuple((Array("float16", 1),))))) == \
        Tuple((Scalar("int64"), Tuple((Array(storage, 1),))))
    for other in (Array("float32", 2), Array("float64", 1), Scalar("float16"), UNKNOWN):
        assert p.actual(other) == other


@pytest.mark.parametrize("storage", ["float16", "bfloat16"])
def test_result_is_the_literal_the_adapters_read(storage):
    p = Precision(storage)
    assert ast.literal_eval(p.result(Array("float16", 2))) == f"A:{storage}"
    assert ast.literal_eval(p.result(Scalar("float16"))) == f"S:{storage}"
    assert ast.literal_eval(p.result(Tuple((Array("float16", 1), Scalar("int64"), Tuple((Scalar("float16"),)))))) \
        == (f"A:{storage}", "-", (f"S:{storage}",))
    for other in (Array("float32", 1), Scalar("float64"), Tuple((Array("int8", 1), UNKNOWN)), UNKNOWN):
        assert p.result(other) == ""


# Type trees as the analyses hold them: arrays of the variant's half (or not), float16 scalars, tuples of both.
def _trees(half: str) -> st.SearchStrategy:
    leaves = st.one_of(st.builds(Array, st.sampled_from([half, "float32", "int64"]), st.integers(0, 3)),
                       st.builds(Scalar, st.sampled_from(["float16", "float64", "bool"])), st.just(UNKNOWN))
    return st.recursive(leaves, lambda inner: st.builds(lambda items: Tuple(tuple(items)),
                                                        st.lists(inner, max_size=3)), max_leaves=8)


def _expected(t, storage):
    """runtime/adapters.py's reading of the literal: A:<half> per half array, S:<half> per half value, - else."""
    if isinstance(t, Tuple):
        return tuple(_expected(i, storage) for i in t.items)
    if isinstance(t, Array | Scalar) and t.dtype in ("float16", storage):
        return f"{'A' if isinstance(t, Array) else 'S'}:{storage}"
    return "-"


def _has_half(t, storage) -> bool:
    return f":{storage}" in repr(_expected(t, storage))


@settings(max_examples=200, deadline=None)
@given(data=st.data(), storage=st.sampled_from(["float16", "bfloat16"]))
def test_logical_then_actual_is_the_users_type_and_result_marks_every_half(data, storage):
    t = data.draw(_trees(storage))
    p = Precision(storage)
    logical = p.logical(t)
    assert "bfloat16" not in repr(logical)
    assert p.actual(logical) == t
    text = p.result(logical)
    assert (ast.literal_eval(text) == _expected(t, storage)) if _has_half(t, storage) else text == ""
