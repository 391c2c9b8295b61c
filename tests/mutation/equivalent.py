"""Surviving mutants judged equivalent: no valid input tells them from the original. Each was judged by reading
it against the code around it; the reason is the one line tests/MUTATION.md shows. run.py counts them apart
from the survivors, so a module's kill rate is given with and without them."""

from __future__ import annotations

_DEP = "cuvil.cfg.dependence."
_KEY = "cuvil.runtime.cache_key."
_TAG = "a tag respelled alike in every key: two keys are still equal exactly when the values are"

EQUIVALENT: dict[str, str] = {
    "cuvil.analysis.shape_transfer.xǁTransferǁloop_target__mutmut_11": "join maps a name unknown on both sides to a "
                                                                       "scalar, so the fixpoint's next round gives the "
                                                                       "counter `()` again",
    "cuvil.analysis.shape_transfer.xǁTransferǁupdate__mutmut_30": "a name of unknown shape has no fact to forget "
                                                                  "but being an argument, and no certain error can "
                                                                  "name an argument whose shape is unknown",
    "cuvil.analysis.types.x__refusal__mutmut_8": "whether NumPy refuses operands does not depend on the sample "
                                                 "array's length (1 or 2)",
    _DEP + "xǁ_Loopǁis_reduction__mutmut_15": "`uses` counts every occurrence of the name, a plain assignment's "
                                              "target too, so `len(uses) == len(updates)` already refuses it",
    _DEP + "x__line__mutmut_3": "only for a statement without an origin line; the normalizer gives every one a line",
    _DEP + "x__line__mutmut_4": "only for a statement without an origin line; the normalizer gives every one a line",
    _DEP + "x__root_words__mutmut_3": "roots are `kind:name` with one colon (names have none): rpartition = partition",
    _DEP + "x__root_words__mutmut_11": "a written captured constant makes the loop serial earlier, never reaching here",
    _DEP + "x__root_words__mutmut_12": "a written captured constant makes the loop serial earlier, never reaching here",
    _DEP + "xǁ_Loopǁindex_nonnegative__mutmut_12": "the default step is only read for its sign",
    _DEP + "xǁ_Loopǁindex_nonnegative__mutmut_15": "a zero step is range's ValueError before the loop runs",
    _DEP + "xǁ_Loopǁslot_views__mutmut_12": "the placeholder for a non-name target is only tested for being a "
                                            "subscript",
    _DEP + "xǁ_Loopǁslot_views__mutmut_13": "the placeholder for a non-name target is only tested for being a "
                                            "subscript",
    _DEP + "xǁ_Loopǁslot_views__mutmut_14": "the placeholder for a non-name target is only tested for being a "
                                            "subscript",
    _DEP + "xǁ_Loopǁslot_views__mutmut_17": "a bound name that is not private made the loop serial already, or is a "
                                            "reduction, which has no plain binding",
    "cuvil.analysis.shapes.x__binds__mutmut_1": "every normalized loop header is `for i in range(…)`, which never "
                                                "raises a contradiction",
    **{_KEY + f"x__value_part__mutmut_{n}": _TAG for n in (3, 4, 8, 9, 11, 12, 13, 14, 15, 16, 20, 21, 24, 25)},
    _KEY + "x__value_part__mutmut_10": "a literal's text already tells the types apart (`2`, `2.0`, `True`, "
                                       "`np.float64(2.0)`)",
    **{_KEY + f"x__digest__mutmut_{n}": "every part is built in one fixed order: the JSON text is the same "
                                        "without sort_keys" for n in (3, 6, 8)},
    **{_KEY + f"x__digest__mutmut_{n}": "every part is already JSON: `default` is never called" for n in (4, 7)},
    _KEY + "x_key__mutmut_15": "Python's patch version too: finer, never coarser",
    _KEY + "x_key__mutmut_35": "a builtin is the same object in every process of one Python: keys change alike",
    _KEY + "x_key__mutmut_36": "a builtin is the same object in every process of one Python: keys change alike",
    **{_KEY + f"x_source_key__mutmut_{n}": "unreadable source is refused by the check the marker would skip; a "
                                           "longer name is as unique" for n in (3, 4, 6)},
    "cuvil.cfg.accesses.xǁCollectorǁtarget__mutmut_19": "an access's `write` is only read for its truth (dependence, "
                                                        "summary, plan): None reads as False",
    "cuvil.lower.checks.xǁ_Loopǁ__init____mutmut_21": "a range with a step that is not a literal gets the same first "
                                                      "and last values (start + (len - 1) * step); a zero step is "
                                                      "range's ValueError at the same place",
    "cuvil.lower.checks.xǁ_Loopǁ__init____mutmut_7": "the only loop headers the checks see are `range(…)` (the "
                                                     "normalizer's) and the lowering's `prange(…)`, whose arguments "
                                                     "mean what range's do",
    "cuvil.runtime.guards.x__exact_failure__mutmut_13": "the item's expression is brackets and digits only "
                                                       "(`[0][1]`): stripping X as well changes nothing",
    "cuvil.runtime.guards.x_exact_items__mutmut_12": "an argument's kind mirrors its Numba type, and a BaseTuple's "
                                                    "is always a Tuple (types.of_argument): the fallback never runs",
    "cuvil.analysis.types.x_of_value__mutmut_15": "None and every value that is no number are Opaque either way, "
                                                  "and no rule or lowering tells one Opaque from another (they "
                                                  "test for Scalar or Array; unify makes any mix Opaque)",
    **{f"cuvil.runtime.policy.xǁDimPolicyǁstatic_dims__mutmut_{n}": "a variant's static dims index the same "
                                                                     "function's parameters, and every call is bound "
                                                                     "to the full parameter list: `i < len(args)` "
                                                                     "always holds" for n in (3, 4)},
    "cuvil.cfg.aliases.x__is_loop_target__mutmut_1": "the result is only read for its truth, and `None or x` is x: "
                                                     "None where no loop exists reads as False",
    "cuvil.lower.plan.xǁ_Builderǁalloc__mutmut_32": "`code_for_node` renders the node it is given: the module's "
                                                    "body (`[]` or None) is never read",
    "cuvil.analysis.shape_transfer.x__fresh__mutmut_8": "`REDUCTIONS & _FRESH_METHODS` is REDUCTIONS: "
                                                        "_FRESH_METHODS is `LIKE | REDUCTIONS | {astype}`",
    "cuvil.lower.checks.x__simple__mutmut_40": "a tuple is never an int, so never a range's argument, an operand "
                                               "or a checked call's argument: the recursion is never reached",
}
