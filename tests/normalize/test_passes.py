"""Each pass on literal before/after source, run twice (idempotence)."""

from __future__ import annotations

from cuvil.normalize.canonical import CanonicalBlocks
from cuvil.normalize.chained_compare import ChainedCompare
from cuvil.normalize.elif_chain import ElifChain
from cuvil.normalize.for_in import ForInToIndex
from cuvil.normalize.int_constants import IntConstants
from cuvil.normalize.keyed_extremes import KeyedExtremes
from cuvil.normalize.nested_defs import NestedDefs
from cuvil.normalize.single_exit import SingleExit

from .rewrites import assert_rewrites


def test_canonical_blocks_splits_statements_and_suites():
    assert_rewrites(CanonicalBlocks, """
        @cuvil.jit(parallel=True)
        def f(x: float, n: int = 2) -> float:
            y: float = x; z = y + 1
            if z > 0: return z
            return n
        """, """
        def f(x, n = 2):
            y = x
            z = y + 1
            if z > 0:
                return z
            return n
        """)


def test_for_over_array_hoists_non_name_iterable():
    assert_rewrites(ForInToIndex, """
        def f(a):
            s = 0
            for x in a[1:]:
                s += x
            return s
        """, """
        def f(a):
            s = 0
            _it0 = a[1:]
            for _i0 in range(len(_it0)):
                x = _it0[_i0]
                s += x
            return s
        """)


def test_for_over_a_name_the_body_rebinds_is_evaluated_once():
    assert_rewrites(ForInToIndex, """
        def f(a):
            for x in a:
                a = a * 2
            return a
        """, """
        def f(a):
            _it0 = a
            for _i0 in range(len(_it0)):
                x = _it0[_i0]
                a = a * 2
            return a
        """)


def test_enumerate_zip_uses_the_users_index_and_destructures():
    assert_rewrites(ForInToIndex, """
        def f(a, b):
            s = 0
            for i, (x, y) in enumerate(zip(a, b)):
                s += i * x * y
            return s
        """, """
        def f(a, b):
            s = 0
            for i in range(min(len(a), len(b))):
                x = a[i]
                y = b[i]
                s += i * x * y
            return s
        """)


def test_enumerate_with_start_and_zip_with_range():
    assert_rewrites(ForInToIndex, """
        def f(a):
            for k, v in enumerate(a, 1):
                pass
            for j, w in zip(range(2, 9, 3), a):
                pass
        """, """
        def f(a):
            for _i0 in range(len(a)):
                k = _i0 + 1
                v = a[_i0]
                pass
            for _i1 in range(min(len(range(2, 9, 3)), len(a))):
                j = 2 + _i1 * 3
                w = a[_i1]
                pass
        """)


def test_range_loops_are_left_alone():
    assert_rewrites(ForInToIndex, """
        def f(n):
            for i in range(n):
                pass
        """, """
        def f(n):
            for i in range(n):
                pass
        """)


def test_elif_chain_nests_and_keeps_order():
    assert_rewrites(ElifChain, """
        def f(x):
            if x < 0:
                r = 1
            elif x == 0:
                r = 2
            elif x < 9:
                r = 3
            else:
                r = 4
            return r
        """, """
        def f(x):
            if x < 0:
                r = 1
            else:
                if x == 0:
                    r = 2
                else:
                    if x < 9:
                        r = 3
                    else:
                        r = 4
            return r
        """)


def test_chained_comparison_becomes_and():
    assert_rewrites(ChainedCompare, """
        def f(lo, x, hi):
            return not lo <= x < hi <= 10
        """, """
        def f(lo, x, hi):
            return not (lo <= x and x < hi and hi <= 10)
        """)


def test_single_exit_guard_clause_needs_no_flag():
    assert_rewrites(SingleExit, """
        def f(n):
            if n < 2:
                return n
            m = n - 1
            return m * n
        """, """
        def f(n):
            if n < 2:
                _rv = n
            else:
                m = n - 1
                _rv = m * n
            return _rv
        """)


def test_single_exit_return_in_loop_sets_flag_and_breaks():
    assert_rewrites(SingleExit, """
        def f(a):
            for i in range(len(a)):
                for j in range(len(a)):
                    if a[i] == a[j] + 1:
                        return i
                a[i] = 0
            return -1
        """, """
        def f(a):
            _ret = False
            _rv = None
            for i in range(len(a)):
                for j in range(len(a)):
                    if a[i] == a[j] + 1:
                        _rv = i
                        _ret = True
                        break
                if _ret:
                    break
                a[i] = 0
            if not _ret:
                _rv = -1
            return _rv
        """)


def test_single_exit_makes_falling_off_the_end_explicit():
    assert_rewrites(SingleExit, """
        def f(x):
            if x > 0:
                return x
        """, """
        def f(x):
            if x > 0:
                _rv = x
            else:
                _rv = None
            return _rv
        """)


def test_single_exit_leaves_one_tail_return_alone():
    assert_rewrites(SingleExit, """
        def f(x):
            y = x + 1
            return y
        """, """
        def f(x):
            y = x + 1
            return y
        """)


def test_single_exit_fresh_names_avoid_the_users():
    assert_rewrites(SingleExit, """
        def f(_rv):
            if _rv:
                return 1
            return 2
        """, """
        def f(_rv):
            if _rv:
                _rv1 = 1
            else:
                _rv1 = 2
            return _rv1
        """)


def test_nested_def_is_canonical_then_inlined_at_each_call_with_its_locals_renamed_apart():
    assert_rewrites(NestedDefs, """
        def f(x, out):
            w = 1
            def clamp(v, hi):
                w = v * 2
                if w > hi:
                    return hi
                return w
            out[0] = clamp(x[0], 1.0)
            s = clamp(x[1], w)
            clamp(x, 2)
            return s
        """, """
        def f(x, out):
            w = 1
            _clamp0_v = x[0]
            _clamp0_hi = 1.0
            _clamp0_w = _clamp0_v * 2
            if _clamp0_w > _clamp0_hi:
                _clamp0_rv = _clamp0_hi
            else:
                _clamp0_rv = _clamp0_w
            out[0] = _clamp0_rv
            _clamp1_v = x[1]
            _clamp1_hi = w
            _clamp1_w = _clamp1_v * 2
            if _clamp1_w > _clamp1_hi:
                _clamp1_rv = _clamp1_hi
            else:
                _clamp1_rv = _clamp1_w
            s = _clamp1_rv
            _clamp2_v = x
            _clamp2_hi = 2
            _clamp2_w = _clamp2_v * 2
            if _clamp2_w > _clamp2_hi:
                _clamp2_rv = _clamp2_hi
            else:
                _clamp2_rv = _clamp2_w
            return s
        """)


def test_a_keyed_max_is_the_first_element_whose_key_is_greatest_by_index():
    assert_rewrites(KeyedExtremes, """
        def f(x, s):
            i = max(range(1, len(x), s), key=lambda i: x[i])
            return min(x, key=lambda v: abs(v))
        """, """
        def f(x, s):
            _start0 = 1
            _stop0 = len(x)
            _step0 = s
            if _step0 == 0:
                raise ValueError('range() arg 3 must not be zero')
            _n0 = len(range(_start0, _stop0, _step0))
            if _n0 == 0:
                raise ValueError('max() arg is an empty sequence')
            _v0 = _start0
            _best0 = _v0
            _key0 = x[_v0]
            for _j0 in range(1, _n0):
                _v0 = _start0 + _j0 * _step0
                _k0 = x[_v0]
                if _k0 > _key0:
                    _key0 = _k0
                    _best0 = _v0
            i = _best0
            _it0 = x
            _n1 = len(_it0)
            if _n1 == 0:
                raise ValueError('min() arg is an empty sequence')
            _v1 = _it0[0]
            _best1 = _v1
            _key1 = abs(_v1)
            for _j1 in range(1, _n1):
                _v1 = _it0[_j1]
                _k1 = abs(_v1)
                if _k1 < _key1:
                    _key1 = _k1
                    _best1 = _v1
            return _best1
        """)


def test_literal_arithmetic_that_leaves_int64_becomes_its_literal():
    assert_rewrites(IntConstants, """
        def f(x):
            a = np.uint64(2**64 - 1) + x
            b = -(2**63)
            c = 2**10 + x
            d = 2**100000 + (1 << 63)
            return 7 // 0 + (1 << -1) + 10**20 // 10**10
        """, """
        def f(x):
            a = np.uint64(18446744073709551615) + x
            b = -(9223372036854775808)
            c = 1024 + x
            d = 2**100000 + (9223372036854775808)
            return 7 // 0 + (1 << -1) + 10000000000
        """)
