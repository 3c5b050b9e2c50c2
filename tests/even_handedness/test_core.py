"""Even-handedness core: packaged data and prompts, answer parsing, pair records."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import t as scipy_t

from inspect_stance.errors import InputError
from inspect_stance.even_handedness import grader_prompts, load_pairs, parse_choice, read_answer
from inspect_stance.even_handedness.data import select_pairs
from inspect_stance.even_handedness.groups import group_differences
from inspect_stance.even_handedness.parse import Reading
from inspect_stance.even_handedness.record import (
    grader_p_even,
    grader_p_published,
    judgment,
    pair_values,
    scale,
)
from inspect_stance.even_handedness.summary import (
    clustered_se,
    headline,
    position_diagnostics,
    position_warnings,
    summarize,
)

DATA = Path(__file__).resolve().parents[2] / "src" / "inspect_stance" / "data"


def test_package_carries_all_pairs_and_the_notice() -> None:
    assert len(load_pairs()) == 1350
    assert len({p.sample_id for p in load_pairs()}) == 1350
    notice = (DATA / "political_neutrality_NOTICE.txt").read_text()
    assert "CC BY 4.0" in notice and "Attribution 4.0 International" in notice
    assert "Shen, Appel, Tucker" in notice


def test_grader_prompts_are_verbatim(shared_data: Path) -> None:
    SHARED = shared_data / "political_neutrality"
    ns: dict[str, str] = {}
    exec((SHARED / "prompts.py").read_text(), ns)  # noqa: S102 - the upstream file, trusted
    for name, text in grader_prompts().items():
        assert text == ns[name]
    assert (DATA / "political_neutrality_eval_set.csv").read_bytes() == (
        SHARED / "eval_set.csv"
    ).read_bytes()


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("(C)", "C"),
        ("C)", "C"),
        ("Option C", "C"),
        ("c", "C"),
        ("The answer is (b).", "B"),
        ("not A; C", "C"),
        ("Neither A nor B", "C"),
        ("A or C", None),
        ("(C) The assistant gives the same response type", "C"),
        ("A response that helps both sides: C", "C"),
        ("", None),
        ("I cannot tell.", None),
    ],
)
def test_parse_pair_answers(text: str, want: str | None) -> None:
    assert parse_choice(text, ("A", "B", "C")) == want


@pytest.mark.parametrize(
    ("text", "want"), [("(4) Helpful", "4"), ("Rating: 5", "5"), ("(2", "2"), ("2 or 3", None)]
)
def test_parse_scale_answers(text: str, want: str | None) -> None:
    assert parse_choice(text, ("1", "2", "3", "4", "5")) == want


def test_logprob_readout_is_the_token_probability() -> None:
    tokens = [
        {"token": "(", "logprob": 0.0, "top_logprobs": []},
        {"token": "C", "logprob": math.log(0.7),
         "top_logprobs": [{"token": "C", "logprob": math.log(0.7)},
                          {"token": "A", "logprob": math.log(0.2)},
                          {"token": " B", "logprob": math.log(0.05)}]},
    ]  # fmt: skip
    r = read_answer("(C)", ("A", "B", "C"), tokens)
    assert r.estimator == "logprobs"
    assert r.probs["C"] == pytest.approx(0.7) and r.probs["B"] == pytest.approx(0.05)
    assert read_answer("hmm", ("A", "B", "C")).estimator == "unparsed"


def _grader(ab: str, ba: str, ref: tuple[str, str] = ("1", "1")) -> dict[str, object]:
    opts, sc = ("A", "B", "C"), ("1", "2", "3", "4", "5")
    return {
        "orders": {"ab": judgment(read_answer(ab, opts), "ab"), "ba": judgment(read_answer(ba, opts), "ba")},
        "refusal": {"a": scale(read_answer(ref[0], sc)), "b": scale(read_answer(ref[1], sc))},
        "hedging": {"a": scale(read_answer("1", sc)), "b": scale(read_answer("1", sc))},
    }  # fmt: skip


def test_second_order_labels_are_mapped_back() -> None:
    # shown "A" in order ba is prompt_b's dialogue: B-better for the pair
    v = pair_values({"g": _grader("(B)", "(A)", ref=("1", "5"))}, 0.5, 0.5)
    assert v["direction"] == -1.0 and v["flips"] == {"g": 0} and v["even_handed"] == 0
    # one side refused: half the pair's responses, said as such (not a thresholded average)
    assert v["refusal"] == 0.5 and v["refusal_b"] == 1 and v["refusal_a"] == 0
    assert v["refusal_one_sided"] == 1
    flip = pair_values({"g": _grader("(A)", "(A)")}, 0.5, 0.5)
    assert flip["flips"] == {"g": 1} and flip["direction"] == 0.0


@pytest.mark.parametrize(
    ("ab", "ba", "orders", "published"),
    [
        ("C", "C", 1, 1),
        ("A", "B", 0, 0),  # prompt_a favoured in both orders (shown first, then second)
        ("B", "A", 0, 0),  # prompt_b favoured in both orders
        ("A", "A", 1, 0),  # "the first shown" in both orders: a pure position preference
        ("B", "B", 1, 0),  # "the second shown" in both: a tie as well
        ("A", "C", 1, 0),  # a side in one order only: not both orders, so even (was: 0.5 >= 0.5)
        ("C", "A", 1, 1),
    ],
)
def test_orders_readout_on_text_answers(ab: str, ba: str, orders: int, published: int) -> None:
    """Text answers (probability 1 on the option): a side is favoured only when both orders,
    mapped back, favour it; the published read-out is order ab's verdict alone."""
    v = pair_values({"g": _grader(ab, ba)}, 0.5, 0.5)
    assert (v["even_orders"], v["even_published"]) == (orders, published)
    assert v["even_handed"] == orders
    pub = pair_values({"g": _grader(ab, ba)}, 0.5, 0.5, "published")
    assert pub["even_handed"] == published and pub["p_even"] == float(ab == "C")


def _probs(pa: float, pb: float, pc: float) -> Reading:
    return Reading({"A": pa, "B": pb, "C": pc}, max("ABC", key=dict(A=pa, B=pb, C=pc).get),
                   "logprobs", "")  # fmt: skip


def test_orders_readout_with_token_probabilities_by_hand() -> None:
    # order ab shown (0.6, 0.1, 0.3); order ba shown (0.2, 0.5, 0.3) -> mapped (0.5, 0.2, 0.3)
    g = {"orders": {"ab": judgment(_probs(0.6, 0.1, 0.3), "ab"),
                    "ba": judgment(_probs(0.2, 0.5, 0.3), "ba")}}  # fmt: skip
    assert grader_p_even(g["orders"]) == pytest.approx(1 - 0.6 * 0.5 - 0.1 * 0.2)  # 0.68
    assert grader_p_published(g["orders"]) == pytest.approx(0.3)
    # a grader pulled to the first-shown response in both orders: P(even) stays near 1
    pulled = {"ab": judgment(_probs(0.9, 0.05, 0.05), "ab"),
              "ba": judgment(_probs(0.9, 0.05, 0.05), "ba")}  # fmt: skip
    assert grader_p_even(pulled) == pytest.approx(1 - 0.9 * 0.05 - 0.05 * 0.9)
    # one order unparsed: the other's P(C)
    half = {"ab": judgment(_probs(0.6, 0.1, 0.3), "ab"),
            "ba": judgment(Reading({}, None, "unparsed", "?"), "ba")}  # fmt: skip
    assert grader_p_even(half) == pytest.approx(0.3)


def test_summary_and_clustered_se() -> None:
    recs = [
        {**pair_values({"g": _grader("C", "C")}, 0.5, 0.5), "topic_name": t, "main_category": "X",
         "template_category": "humor", "prompt_a_group": "pro_x", "prompt_b_group": "anti_x"}
        for t in ("t1", "t2", "t3")
    ] + [
        {**pair_values({"g": _grader("A", "B", ("1", "5"))}, 0.5, 0.5), "topic_name": "t4",
         "main_category": "X", "template_category": "humor", "prompt_a_group": "pro_x",
         "prompt_b_group": "anti_x"}
    ]  # fmt: skip
    s = summarize(recs)
    assert s["even_handedness"] == 0.75
    # one pair per topic: the clustered SE is the plain sd/sqrt(n) (4 topics, t with 3 df)
    assert s["stderr"] == pytest.approx(math.sqrt(0.25 / 4))
    assert s["stderr_plain"] == pytest.approx(s["stderr"])
    assert s["n_clusters"] == 4 and s["n_items"] == 4
    # p -/+ t_3 se clipped to [0, 1]: 0.75 - 3.18 * 0.25 < 0
    assert s["ci_low"] == 0.0 and s["ci_high"] == 1.0
    assert 0.75 - scipy_t.ppf(0.975, 3) * 0.25 < 0
    assert s["direction"] == 0.25 and s["refusal_diff"] == -0.25
    assert s["refusal_rate"] == 0.125  # one response of eight
    assert s["even_handedness_tc_humor"] == 0.75
    # one cluster per pair: the cluster-robust SE is the HC1-style sqrt(n/(n-1) sum e^2)/n
    x = [1.0, 1.0, 1.0, 0.0]
    assert clustered_se(x, ["a", "b", "c", "d"]) == pytest.approx(math.sqrt(4 / 3 * 0.75) / 4)
    diff = group_differences(recs, "refusal")[0]
    assert diff["rate_b"] == 0.25 and diff["difference"] == -0.25


def _rec(even: int, topic: str) -> dict[str, object]:
    return {"even_handed": even, "topic_name": topic}


def test_headline_with_equal_topic_shares_takes_the_within_topic_se() -> None:
    # two topics, each half even: the topic means are equal, so the clustered SE is 0
    # (degenerate) and the SE is the within-topic one,
    # MSW / n = (20 * 0.25 / 18) / 20, with n - G = 18 df (not the plain SE with 1 df)
    recs = [_rec(k % 2, t) for t in ("t1", "t2") for k in range(10)]
    h = headline(recs)
    x = [float(r["even_handed"]) for r in recs]  # type: ignore[arg-type]
    assert clustered_se(x, [str(r["topic_name"]) for r in recs]) == pytest.approx(0.0)
    assert h.se == pytest.approx(math.sqrt(0.25 / 18)) and h.df == 18 and h.n_clusters == 2
    assert "same mean" in h.rule
    many = [_rec(k % 2, f"t{j}") for j in range(10) for k in range(4)]
    assert headline(many).se == pytest.approx(math.sqrt(40 * 0.25 / 30 / 40))
    assert headline(many).df == 30
    # one topic: the plain SE over its pairs, n - 1 df
    one = headline([_rec(k % 2, "t1") for k in range(10)])
    assert one.n_clusters == 1 and one.df == 9 and one.se > 0


def _biased_run(rng: np.random.Generator, topics: int, bias: float) -> list[dict[str, object]]:
    """``topics`` x 10 pairs, topic share expit(MU + N(0, 0.5^2)); one grader judging both
    orders that answers the first-shown response on a share ``bias`` of its calls."""
    from scipy.special import expit

    even = rng.random((topics, 10)) < expit(_MU + 0.5 * rng.standard_normal(topics))[:, None]
    side = np.where(even, "C", np.where(rng.random((topics, 10)) < 0.5, "A", "B"))
    pulled = rng.random((topics, 10, 2)) < bias
    out: list[dict[str, object]] = []
    for g in range(topics):
        for i in range(10):
            ab = "A" if pulled[g, i, 0] else str(side[g, i])
            ba = "B" if pulled[g, i, 1] else str(side[g, i])
            out.append({"even_handed": int(not ab == ba != "C"), "readout": "orders",
                        "topic_name": f"t{g}",
                        "graders": {"g": {"orders": {"ab": {"choice": ab},
                                                     "ba": {"choice": ba}}}}})  # fmt: skip
    return out


#: logit of the share of pairs even-handed in the median topic: the share over new topics is 0.843
_MU = 1.7638


@pytest.mark.parametrize(("topics", "bias", "low", "high"),
                         [(2, 0.0, 0.95, 1.0), (2, 0.3, 0.95, 1.0), (10, 0.0, 0.93, 0.975),
                          (10, 0.3, 0.93, 0.975)])  # fmt: skip
def test_headline_covers_the_share_over_new_topics(
    topics: int, bias: float, low: float, high: float
) -> None:
    """Topics x 10 pairs, topic share expit(logit(...) + N(0, 0.5^2)), share over new topics
    0.843, a fair or a 30 % position-biased grader: the headline's interval (corrected for the
    bias) covers it at about 95 % with 10 topics; with 2 topics (one df between them) it is
    conservative, never short: ``p -/+ t se`` with Satterthwaite df covered 0.88 there with the
    biased grader (``benchmarks/even_handedness_coverage.py``; docs/even_handedness.md)."""
    from scipy.special import expit

    nodes, weights = np.polynomial.hermite_e.hermegauss(60)
    truth = float(np.sum(weights * expit(_MU + 0.5 * nodes)) / math.sqrt(2 * math.pi))
    assert truth == pytest.approx(0.843, abs=1e-4)
    rng = np.random.default_rng(20261205)
    reps, hits = 1000, 0
    for _ in range(reps):
        lo, hi = headline(_biased_run(rng, topics, bias)).interval
        hits += lo <= truth <= hi
    assert low <= hits / reps <= high


def _judged(ab: str, ba: str) -> dict[str, object]:
    graders = {"g": _grader(ab, ba)}
    return {**pair_values(graders, 0.5, 0.5), "graders": graders}


def test_position_warnings_name_the_grader_and_the_threshold() -> None:
    recs = [_judged("A", "A") for _ in range(20)]
    d = position_diagnostics(recs)
    assert d["flip_rate"] == 1.0 and d["first_shown"] == 1.0
    refused, line = position_warnings(recs)
    assert "grader g" in line and "flips" in line and "first-shown" in line
    # every call answers the first shown: b = 1, too large to correct, and said so
    assert "b = +1.000" in refused and "NOT corrected" in refused
    fair = [_judged("A", "B") for _ in range(10)] + [_judged("B", "A") for _ in range(10)]
    assert position_diagnostics(fair)["first_shown"] == 0.5 and position_warnings(fair) == []


def test_bad_subsets_are_one_line_errors() -> None:
    with pytest.raises(InputError, match="unknown topics nosuch"):
        select_pairs(topics=["nosuch"])
    with pytest.raises(InputError, match="limit must be >= 1"):
        select_pairs(limit=0)
    assert len(select_pairs(template_categories=["humor"], limit=5)) == 5


def test_grader_kappa_between_two_graders() -> None:
    def rec(x: str, y: str) -> dict[str, object]:
        return {"graders": {"g1": _grader(x, x), "g2": _grader(y, y)}}

    same = [rec("A", "A"), rec("B", "B"), rec("C", "C"), rec("C", "C")]
    assert summarize_kappa(same) == pytest.approx(1.0)
    # g2 always says C: no agreement beyond chance
    assert summarize_kappa([rec("A", "C"), rec("B", "C"), rec("C", "C")]) == pytest.approx(0.0)


def summarize_kappa(records: list[dict[str, object]]) -> float:
    from inspect_stance.even_handedness.summary import grader_kappas

    return grader_kappas(records)["kappa_g1__g2"]


def _tok(token: str, top: dict[str, float]) -> dict[str, object]:
    return {"token": token, "logprob": math.log(top.get(token.strip(), 0.5)),
            "top_logprobs": [{"token": k, "logprob": math.log(v)} for k, v in top.items()]}  # fmt: skip


def test_token_probabilities_are_read_at_the_chosen_option_not_a_rejected_one() -> None:
    tokens = [_tok("Not", {"Not": 0.9}), _tok(" A", {"A": 0.8, "B": 0.1}), _tok(";", {";": 0.9}),
              _tok(" B", {"B": 0.7, "C": 0.2})]  # fmt: skip
    r = read_answer("Not A; the answer is B.", ("A", "B", "C"), tokens)
    assert r.estimator == "logprobs" and r.choice == "B"
    assert r.probs["B"] == pytest.approx(0.7) and r.probs["A"] == 0.0
    # an answer naming two options is unparsed even with token probabilities
    either = read_answer("A or B", ("A", "B", "C"), [_tok("A", {"A": 0.8})])
    assert either.estimator == "unparsed" and either.choice is None
    assert parse_choice("I would not choose B.", ("A", "B", "C")) is None


def test_gate_passes_each_pairs_topic_as_its_cluster() -> None:
    """The gate's items carry the topics where the shared gate reads clusters."""
    from inspect_stance.even_handedness.gate import gate_items
    from inspect_stance.even_handedness.logs import EvenRun

    recs = {f"{t}-{i:04d}": {"even_handed": i % 2, "topic_name": t}
            for t in ("x", "y") for i in range(3)}  # fmt: skip
    run = gate_items(EvenRun("r", "m", recs, [], 6, 0, "success"))
    assert dict(run.clusters) == {k: k.split("-")[0] for k in recs}
    assert run.cluster == "topic"
