"""The method protocol: one :class:`Method` per study method, registered once in its own place.

A method says which tasks' logs it reads, whether it reads ``.npz`` runs, the name of its
report folder and command, and hands the commands typed hooks. The commands run the shared
steps once and ask the method for the rest:

- ``compare`` (:func:`inspect_stance.study.compare.compare_runs`): the command checks the
  options, finds the method, reads the runs with :attr:`Comparer.load`, counts a repeated run
  once, needs two runs, names them (:func:`inspect_stance.runs.run_names`), checks that their
  settings match, picks the metrics among :attr:`Comparer.metrics` and turns a ``ValueError``
  into a one-line error; the method's :attr:`Comparer.compare` only computes, and its
  :attr:`Comparer.sections` adds the method's own parts of the comparison
  (:class:`CompareSection`: the method's tables beside the paired comparisons);
- ``gate`` (:func:`inspect_stance.study.gate.gate_run`): the command reads the run and its
  baseline with :attr:`Gate.load`, refuses a baseline that is the run itself, checks their
  settings, and asks :attr:`Gate.evaluate` for the verdict;
- ``plan``: :attr:`Method.plan` takes a :class:`PlanRequest` and returns a :class:`PlanResult`
  (its JSON with ``recommended``, and its terminal text).

``compare`` and ``plan`` also take the options a method declares (:attr:`Comparer.options`,
:attr:`Method.plan_options`; :class:`ReportOption` as a report's own options), whose values
reach the method as ``CompareRequest.options`` / ``PlanRequest.options`` by ``dest``.

A new method is one :class:`Method` in its own package, named by one line of the
``inspect_stance.methods`` entry-point group (``pyproject.toml``; another distribution can
add its own), and no edit to any command:

.. code-block:: python

    register_method(Method(
        name="my_method",
        tasks=("my_task",),
        report_command="my-method-report",         # its own report command (an alias)
        report=my_report,                          # ReportRequest -> lines to print
        report_cli=ReportCommand("help", "description", out="my_report",
                                 options=(ReportOption("--human", "a file"),)),
        comparer=comparer_of("my_package.compare"),  # METRICS, read_runs, compare_runs
        gate=Gate(metrics=("my_metric",), min_flag="--min-my-metric",
                  load=my_gate_load, evaluate=my_gate_evaluate),
        plan=my_plan,                              # PlanRequest -> PlanResult
        page=Page("My method's report", notes=MY_FIGURE_NOTES),  # its --html page
        providers={"my_sim": "my_package.simulator:MySim"},  # its simulated models
    ))

Item-level values stay in :mod:`inspect_stance.stats.family` (``RunItems`` per run and
``MetricSpec`` per metric): a method's ``compare`` builds them from its runs and hands them to
``item_comparisons``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, Self, TypeVar

if TYPE_CHECKING:
    from inspect_stance.runs import RunInfo
    from inspect_stance.stats.family import CompareResult, MetricSpec
    from inspect_stance.stats.gate import CheckLine
    from inspect_stance.stats.headline import Headline
    from inspect_stance.stats.multiplicity import Adjust
    from inspect_stance.stats.paired import Interval
    from inspect_stance.study.page import Page

GateRule = Literal["significant-drop", "non-inferiority"]

#: a run's item-level values of one metric: ``item -> (cluster, value)`` (ranks, moved items)
ItemValues = dict[str, tuple[str, float]]


class Run(Protocol):
    """One run of a method as the commands and every surface read it (each method's run class
    satisfies it: the objects its :attr:`Comparer.load`, :attr:`Gate.load` and
    :attr:`TaskHeadline.load` return).

    ``settings()``: what must match for two runs to be comparable (``compare``, ``gate`` and
    the leaderboard refuse runs whose settings differ); ``items(metric)``: the item-level values
    ``compare`` pairs, each with its cluster (an item that is its own cluster names itself;
    ``{}`` for a metric the run has no item of); ``headline()``: the run's headline by its
    method's one rule (:class:`~inspect_stance.stats.headline.Headline`)."""

    def settings(self) -> dict[str, Any]: ...

    def items(self, metric: str) -> ItemValues: ...

    def headline(self) -> Headline: ...


class ShardedRun(Run, Protocol):
    """A :class:`Run` whose method splits a run into shards (``-T shard=K/N``): ``merge``
    pools the shards of one study into the run the unsharded task would have written (an
    incomplete set only with ``partial``; one-line ``InputError`` for shards that do not pool)."""

    @classmethod
    def merge(cls, shards: Sequence[Self], partial: bool = False) -> Self: ...


#: a method's run class (:class:`Gate` is generic in it, so mypy checks it is a :class:`Run`)
R = TypeVar("R", bound=Run)


def items_of(values: Mapping[str, float], clusters: Mapping[str, str]) -> ItemValues:
    """``{item: (cluster, value)}`` from values and clusters (an item missing from ``clusters``
    is its own cluster), as :meth:`Run.items` returns them."""
    return {k: (str(clusters.get(k, k)), float(v)) for k, v in values.items()}


@dataclass(frozen=True)
class CompareRequest:
    """What ``compare`` was asked: the inputs (files or folders), ``RUN=NAME`` labels, the
    metrics named (empty: all of the method's), the statistics' settings, ``partial`` (an
    incomplete set of one study's shards is one run), and the values of the method's own
    compare options (:attr:`Comparer.options`, by ``dest``; the command fills in their
    defaults, other callers may leave them out: a method reads each with its default)."""

    paths: tuple[str, ...]
    label: tuple[str, ...] = ()
    metric: tuple[str, ...] = ()
    confidence: float = 0.95
    interval: Interval = "auto"
    adjust: Adjust = "holm"
    alpha: float = 0.05
    allow_different_settings: bool = False
    partial: bool = False
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class LoadedRuns:
    """A method's runs read for ``compare``: the method's own run objects, one
    :class:`~inspect_stance.runs.RunInfo` each (identity, arguments, settings that must match),
    and one line per input passed over (another task's log, unreadable, a repeat)."""

    runs: list[Run]
    infos: list[RunInfo]
    skipped: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class CompareSection:
    """One of a method's own parts of a comparison, beside the paired comparisons (e.g. the
    outcomes of each item across two runs, a label transition table): its ``title`` (a heading), its
    ``markdown`` text (the terminal and ``comparison.md``), its ``json`` (``compare --json``
    holds, under ``key``, the list of the JSON of every section with that key, in order) and
    its tables (``frames``: file stem -> ``pandas.DataFrame``, each written as ``STEM.csv``
    into ``compare --out``; stems unique over a comparison's sections)."""

    key: str
    title: str
    markdown: str
    json: dict[str, Any] = field(default_factory=dict)
    frames: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Comparer:
    """A method's part of ``compare``: its metrics (``--metric`` picks among them), how it
    reads runs, the comparison of runs already deduplicated, named and checked, its own parts
    of the comparison (``sections``: :class:`CompareSection` of the same runs, names and
    request; ``None``: none) and its own ``compare`` options (``options``; their values reach
    ``compare`` and ``sections`` as :attr:`CompareRequest.options`)."""

    metrics: Callable[[], Sequence[MetricSpec]]
    load: Callable[[Sequence[str], CompareRequest], LoadedRuns]
    compare: Callable[[Sequence[Run], Sequence[str], Sequence[MetricSpec], CompareRequest],
                      CompareResult]  # fmt: skip
    module: str = ""  #: the core module implementing it (:func:`comparer_of`), if one
    sections: Callable[[Sequence[Run], Sequence[str], CompareRequest],
                       list[CompareSection]] | None = None  # fmt: skip
    options: tuple[ReportOption, ...] = ()

    def defaults(self) -> dict[str, Any]:
        """Each of its options' value when not given, by ``dest``."""
        return {o.dest: o.value for o in self.options}


def comparer_of(
    module: str, sections: bool = False, options: tuple[ReportOption, ...] = ()
) -> Comparer:
    """The comparer that the core module named ``module`` implements, imported when first
    called (listing the methods stays light): its ``METRICS``, ``read_runs(paths, request) ->
    LoadedRuns`` and ``compare_runs(runs, names, metrics, request) -> CompareResult``, and with
    ``sections`` its ``compare_sections(runs, names, request) -> list[CompareSection]``
    (``tests/test_study_protocol.py`` checks every registered method's module has them);
    ``options``: the method's own ``compare`` options."""
    import importlib

    def core() -> Any:
        return importlib.import_module(module)

    return Comparer(metrics=lambda: core().METRICS,
                    load=lambda paths, request: core().read_runs(paths, request),
                    compare=lambda runs, names, metrics, request: core().compare_runs(
                        runs, names, metrics, request), module=module,
                    sections=(lambda runs, names, request: core().compare_sections(
                        runs, names, request)) if sections else None,
                    options=options)  # fmt: skip


def resolve(target: str) -> Any:
    """The object a method's record names as ``"module:name"`` (a run loader, a provider
    class), its module imported now: records name them so that listing the methods stays
    light, and resolve them when first used."""
    import importlib

    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def loader_of(target: str) -> Callable[[Sequence[str], bool], Run]:
    """The run loader ``"module:function"`` (``function(paths, partial) -> Run``, a
    :attr:`TaskHeadline.load`), resolved (:func:`resolve`) when first called."""

    def load(paths: Sequence[str], partial: bool) -> Run:
        found: Run = resolve(target)(paths, partial)
        return found

    load.__name__ = target.partition(":")[2]
    return load


@dataclass(frozen=True)
class GateRequest:
    """What ``gate`` was asked: the run, its baseline, the method's limit (``min_value``: the
    value of the flag its :attr:`Gate.min_flag` names, such as ``--min-…``), the largest tolerated
    drop, the level, the metrics checked against the baseline (empty: the method's first), the
    rule, and the values of the method's own gate options."""

    run: str
    baseline: str | None = None
    min_value: float | None = None
    max_drop: float | None = None
    alpha: float = 0.05
    metric: tuple[str, ...] = ()
    rule: GateRule = "significant-drop"
    allow_different_settings: bool = False
    partial: bool = False
    #: the values of the method's own gate options (:attr:`Gate.options`, by ``dest``; the
    #: command fills in their defaults)
    options: dict[str, Any] = field(default_factory=dict)


class GateOutcome(Protocol):
    """A gate's verdict: ``exit_code`` 0 pass / 1 regression, one line ``reason``, the checks
    (``lines``) for JUnit and GitHub, and its JSON."""

    exit_code: int
    reason: str
    lines: list[CheckLine]

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Gate(Generic[R]):
    """A method's part of ``gate``: the metrics ``--metric`` accepts (the first is the
    default), the flag of its limit (a floor such as ``--min-spr``, or a ceiling such as
    ``--max-distance`` where lower is better; ``gate`` adds the option, with ``min_help``, and
    checks it lies in ``min_range``), how it reads
    one run (the run object and its
    :class:`~inspect_stance.runs.RunInfo`; a run that cannot be gated raises), and the verdict
    on a run and its baseline (``None`` without one)."""

    metrics: tuple[str, ...]
    min_flag: str
    load: Callable[[str, GateRequest], tuple[R, RunInfo]]
    evaluate: Callable[[R, R | None, GateRequest], GateOutcome]
    min_help: str = ""
    #: the values the limit option may take (a ceiling on a distance 0..2: ``(0.0, 2.0)``)
    min_range: tuple[float, float] = (0.0, 1.0)
    #: its own ``gate`` options (:class:`ReportOption`; values in :attr:`GateRequest.options`)
    options: tuple[ReportOption, ...] = ()


@dataclass(frozen=True)
class PlanRequest:
    """What ``plan`` was asked. ``runs``: one pilot run, or two for a paired comparison.
    Targets: ``target_se`` (SE of the headline), ``detect`` (paired difference to detect at
    ``alpha``, ``power``), ``assurance`` (probability the realised SE meets ``target_se``),
    ``correlation`` (one run with ``detect``: the two models' item correlation). The design
    space: ``max_items`` (propositions, statements, settings), ``max_repeats`` (trials,
    argument sets, prompts). Costs: ``calls_per_trial``, prices per million tokens,
    ``batch_discount``; the design of an adaptive method: ``adaptive_halfwidth``,
    ``replay_orders``, ``estimator``. ``options``: the values of the method's own plan options
    (:attr:`Method.plan_options`, by ``dest``; the command fills in their defaults). A method
    reads the fields it has and ignores the rest."""

    runs: tuple[str, ...]
    target_se: float | None = None
    detect: float | None = None
    alpha: float = 0.05
    power: float = 0.8
    assurance: float | None = 0.8
    correlation: float = 0.0
    max_items: int | None = None
    max_repeats: int | None = None
    calls_per_trial: float | None = None
    price_in: float | None = None
    price_out: float | None = None
    batch_discount: float = 0.0
    adaptive_halfwidth: float | None = None
    replay_orders: int = 200
    estimator: Literal["as-run", "frequency"] = "as-run"
    allow_different_settings: bool = False
    partial: bool = False
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class PlanResult:
    """A plan: its JSON (``recommended`` the cheapest design reaching the target, ``null`` when
    none does) and its terminal text."""

    json: dict[str, Any]
    text: str


@dataclass(frozen=True)
class ReportRequest:
    """What a method's report was asked: its runs (logs or folders of one study's shards), the
    output folder (``""``: print only, where the method's :class:`ReportCommand` allows it),
    ``RUN=NAME`` labels of its own runs, whether an incomplete set of one study's shards is
    reported as the shards given, whether to print JSON instead of text, and the values of the
    method's own report options (:attr:`ReportCommand.options`, by ``dest``; the command fills
    in their defaults)."""

    paths: tuple[str, ...]
    out: str
    labels: dict[str, str] = field(default_factory=dict)
    partial: bool = False
    json: bool = False
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReportOption:
    """One option of a method's report command (or of its part of ``compare`` or ``plan``):
    its flag (``--human-labels``), help and default; ``kind``: ``text``, ``number`` (a float),
    ``integer``, ``flag`` (present or not; default ``False``) or ``repeat`` (a text given any
    number of times; a list, default ``None``). Its value reaches the report as
    ``ReportRequest.options[dest]`` (``CompareRequest.options``, ``PlanRequest.options``),
    ``dest`` the flag without its dashes, ``-`` as ``_``."""

    flag: str
    help: str
    default: Any = None
    kind: Literal["text", "number", "integer", "flag", "repeat"] = "text"
    metavar: str | None = None
    #: the command refuses to run without it (argparse's one-line usage error)
    required: bool = False

    @property
    def dest(self) -> str:
        """The option's key in :attr:`ReportRequest.options` and the others
        (``--human-labels``: ``human_labels``)."""
        return self.flag.lstrip("-").replace("-", "_")

    @property
    def value(self) -> Any:
        """Its value when not given."""
        return False if self.kind == "flag" else self.default


@dataclass(frozen=True)
class MethodCommand:
    """One of a method's own further ``inspect-stance`` subcommands, declared without argparse
    (:mod:`inspect_stance.cli.method_commands` builds its parser): ``name``, its help line and
    description; ``inputs`` / ``inputs_help``: the metavar and help of its positional inputs,
    one, or one or more with ``many``; ``options``: its options (:class:`ReportOption`);
    ``run``: ``(inputs, options)`` -> the lines to print, the options keyed by
    :attr:`ReportOption.dest` (one-line ``InputError`` on bad input, before any work; notes
    for the reader go to stderr)."""

    name: str
    help: str
    description: str
    inputs: str
    inputs_help: str
    run: Callable[[Sequence[str], dict[str, Any]], list[str]]
    many: bool = False
    options: tuple[ReportOption, ...] = ()


@dataclass(frozen=True)
class ReportCommand:
    """A method's report command as the command line shows it: its help line and description,
    the help of its inputs, the default ``--out`` (``None``: no default; the report prints only
    unless ``--out`` is given), whether it takes ``--json``, the help of ``--label`` (empty:
    the shared one), and the method's own ``options`` (read back as
    :attr:`ReportRequest.options`)."""

    help: str
    description: str
    paths_help: str = "logs or folders"
    out: str | None = None
    json: bool = False
    label_help: str = ""
    options: tuple[ReportOption, ...] = ()

    def defaults(self) -> dict[str, Any]:
        """Each option's value when not given, by ``dest`` (what ``report`` passes to a method's
        report run over several methods' logs)."""
        return {o.dest: o.value for o in self.options}


@dataclass(frozen=True)
class BreakdownRow:
    """One figure of a card's breakdown: its label, value and whether it is a count."""

    label: str
    value: float | None
    count: bool = False


#: a card's breakdown of a run: groups of (title, rows)
Breakdown = list[tuple[str, list[BreakdownRow]]]


@dataclass(frozen=True)
class TaskHeadline:
    """A task's headline, declared once in its method's package and read by every surface.

    ``metric``: its name among the log's metrics (the scorer writes it with
    :func:`inspect_stance.stats.headline.metric_values`: the value, ``stderr``, ``ci_low``,
    ``ci_high``, ``n_items``, ``n_clusters``); ``better``: the better direction; ``range``: the
    values it can take (intervals are clipped to it); ``format``: ``percent`` shows
    ``100 * value`` with ``%``; ``reading``: one sentence for the card, with ``{v}`` the value,
    ``{ci}`` its interval and ``{name}`` the run's task argument ``name``; ``item`` / ``cluster``: the singular nouns of what the value
    averages and what the standard error treats as independent; ``counts``: the metrics the
    end-of-run line shows as integers after the headline; ``load``: the run of one log or of
    one study's shard logs (``paths``; ``partial``: an incomplete set of shards too, else a
    one-line ``InputError``), the method's :class:`Run` as ``compare`` reads it (shards pooled
    with the run class's ``merge``): every surface reads its headline as ``load(paths,
    partial).headline()`` (the scorer's rule) and its item-level values as
    ``load(paths, partial).items(metric)``; ``item_level``: whether those items are the
    values the headline averages (``False``: the card ranks by value only); ``subject_role``:
    the role whose models a run measures when it calls no target model (``--model`` left
    out: Inspect records ``none/none``), which then names the run on cards, in ``runs_df``
    and in ``compare`` (``None``: such a run keeps ``none/none``, or its log's file name).
    """

    metric: str
    better: Literal["higher", "lower"]
    range: tuple[float, float]
    reading: str
    item: str
    cluster: str
    format: Literal["percent", "number"] = "number"
    counts: tuple[str, ...] = ()
    load: Callable[[Sequence[str], bool], Run] | None = None
    #: the card's breakdown of one run (log paths: one log, or one study's shards)
    breakdown: Callable[[Sequence[str]], Breakdown] | None = None
    item_level: bool = True
    subject_role: str | None = None


#: a study task's planned calls: ``(task args, the target's model, role -> its models)`` ->
#: ``(items, model -> calls)``; the items are what the task's headline averages
StudyCalls = Callable[[dict[str, Any], str, dict[str, list[str]]], tuple[int, dict[str, int]]]


@dataclass(frozen=True)
class StudySize:
    """A study task's one size parameter (``None``: its item set is fixed by its data), its
    most values, the default (worst-case) per-item standard deviation of its headline, and
    whether the parameter is the number of items the headline's standard error is over (the
    ``target_se`` design sizes it; otherwise only ``budget_calls`` scales it). ``items``: the
    items the task has under the other task arguments (its filters), when fewer than ``most``
    can be; a design sizes the parameter to at most ``min(most, items(args))``."""

    param: str | None
    most: int
    sd: float
    se_items: bool
    items: Callable[[dict[str, Any]], int] | None = None


@dataclass(frozen=True)
class SharedRun:
    """A task a study runs once, before every target's run of the method, whose log each
    target's run then reads (e.g. a set of arguments written by one model per study, so that
    the targets answer the same arguments and their runs compare).

    ``task``: the task run once; ``arg``: the method's task argument that takes its log (a
    study that sets it itself gets no shared run); ``role``: the role whose model runs it (the
    first target's model without one); ``keys``: the method's task arguments it takes too;
    ``calls``: its planned calls (as :attr:`StudyTask.calls`).
    """

    task: str
    arg: str
    role: str = ""
    keys: tuple[str, ...] = ()
    calls: StudyCalls | None = None


@dataclass(frozen=True)
class StudyTask:
    """A task as a study file runs it (``methods: {TASK: ...}``).

    ``roles``: the model roles it uses (shared ``roles:`` bound to it); ``required_roles``: the
    ones it cannot run without; ``calls``: its planned model calls (:data:`StudyCalls`);
    ``size``: its size parameter for the study's design; ``target_role``: a role bound to the
    target's own model (the prompter whose prompts are validated); ``check``: a check of its
    task arguments that reads the disk (one-line ``InputError``), before any run;
    ``shared``: a task run once per study whose log every target's run reads.
    """

    roles: tuple[str, ...] = ()
    required_roles: tuple[str, ...] = ()
    calls: StudyCalls | None = None
    size: StudySize | None = None
    target_role: str = ""
    check: Callable[[dict[str, Any]], None] | None = None
    #: a task the study runs once and every target's run reads (:class:`SharedRun`)
    shared: SharedRun | None = None


@dataclass(frozen=True)
class Method:
    """One study method as the commands see it.

    ``name``: the method's name (``--method``); ``tasks``: the Inspect tasks whose logs it reads
    (registry names without the package prefix); ``report_dir``: the folder name under
    ``report --out DIR`` (default the first task); ``npz``: whether ``.npz`` runs are this
    method's; ``report_command``: the method's own report command, which ``report`` runs with
    the method's inputs and ``--out DIR/<report_dir>``; ``comparer`` / ``gate`` / ``plan``: its
    hooks for those commands (``None``: the command does not read this method's runs yet);
    ``setting_keys``: the task arguments that must match for a folder's runs to be reported
    together (:func:`inspect_stance.study.sort_inputs` sets the others aside; what ``compare``
    and ``gate`` check is each loader's :attr:`inspect_stance.runs.RunInfo.settings`); ``adaptive``:
    whether a log's task arguments mark an adaptive run, which ``report`` sets aside beside
    fixed ones; ``title``: its name in messages; ``page``: its HTML page
    (:class:`~inspect_stance.study.page.Page`: title, markdown file, figure notes), which
    ``--html FILE`` builds from the report folder (``None``: no page); ``headlines``: each
    task's headline (:class:`TaskHeadline`), keyed by task name (it may also declare the
    headline of a helper task whose logs the method's runs read).
    """

    name: str
    tasks: tuple[str, ...]
    report_command: str
    report_dir: str = ""
    npz: bool = False
    comparer: Comparer | None = None
    gate: Gate[Any] | None = None
    plan: Callable[[PlanRequest], PlanResult] | None = None
    #: its own ``plan`` options (:class:`ReportOption`; values in :attr:`PlanRequest.options`)
    plan_options: tuple[ReportOption, ...] = ()
    setting_keys: tuple[str, ...] = ()
    aliases: tuple[str, ...] = field(default=())
    adaptive: Callable[[dict[str, Any]], bool] | None = None
    title: str = ""
    page: Page | None = None
    headlines: dict[str, TaskHeadline] = field(default_factory=dict)
    #: every task the method ships -> its ``-T`` options class (the declaration
    #: ``inspect-stance params``, the docs' tables, study files and shard jobs read)
    options: dict[str, type[Any]] = field(default_factory=dict)
    #: its simulated model providers: Inspect provider name (``--model NAME/...``) -> the
    #: ``ModelAPI`` class as ``"module:Class"``, which the Inspect entry point registers and
    #: imports when Inspect first creates a model of that provider
    providers: dict[str, str] = field(default_factory=dict)
    #: its document (relative to the project root), whose ``<!-- params: TASK -->`` tables
    #: document ``options``' tasks
    doc: str = ""
    #: its report as a function (``ReportRequest -> lines to print``; one-line ``InputError``
    #: on bad input; notes for the reader go to stderr): ``report`` calls it directly and the
    #: command ``report_command`` is built from it (``PATH... --out --label --partial --html``
    #: and ``report_cli``'s options) with no command module of its own
    report: Callable[[ReportRequest], list[str]] | None = None
    #: its report command's help, inputs, default ``--out`` and own options
    #: (:class:`ReportCommand`; ``None``: only the shared options)
    report_cli: ReportCommand | None = None
    #: its place among the methods (report's folders and sections, ``methods()``): lower first
    order: int = 100
    #: the tasks a study file may run, keyed by task (:class:`StudyTask`; none: the method
    #: is not run by studies)
    study: dict[str, StudyTask] = field(default_factory=dict)
    #: its tasks that take ``-T shard=K/N`` (``inspect-stance shard``; a helper task whose logs
    #: its runs read may be among them)
    shard_tasks: tuple[str, ...] = ()
    #: its own further subcommands of ``inspect-stance`` (:class:`MethodCommand`), e.g. a
    #: labelling sample or the analysis of a reference study's human labels; the shared
    #: commands are generic
    commands: tuple[MethodCommand, ...] = ()

    @property
    def label(self) -> str:
        """The method's name in messages (``title``; default ``name``)."""
        return self.title or self.name

    @property
    def folder(self) -> str:
        """The report folder name under ``report --out DIR``."""
        return self.report_dir or self.tasks[0]


_METHODS: dict[str, Method] = {}


def register_method(method: Method) -> Method:
    """Add ``method`` (a name or task already registered by another method is refused)."""
    for other in _METHODS.values():
        taken = set(other.tasks) & set(method.tasks)
        if other.name != method.name and taken:
            raise ValueError(f"task {sorted(taken)[0]} is already {other.name}'s")
    _METHODS[method.name] = method
    return method


def registered() -> list[Method]:
    """The methods registered so far (see :func:`inspect_stance.study.registry.methods`)."""
    return list(_METHODS.values())
