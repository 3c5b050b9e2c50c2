"""Old logs re-score with Inspect's own ``inspect score`` when the scorer is named with the
package prefix (docs/troubleshooting.md): the re-scored headline equals the recorded one."""

import glob
import subprocess
import sys

from inspect_ai.log import read_eval_log


def test_inspect_score_with_the_qualified_scorer_name(tmp_path):
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model
    from inspect_stance.tasks.stance_drift import stance_drift

    (log,) = inspect_eval(
        stance_drift(limit_propositions=2, trials=3, cache=False),
        model=get_model("stance_sim/respondent", memoize=False),
        log_dir=str(tmp_path),
        display="none",
    )
    before = log.results.scores[0].metrics["spr"].value
    cmd = [sys.executable, "-m", "inspect_ai", "score", log.location,
           "--scorer", "inspect_stance/stance_drift_scorer", "-S", "unparsed=failure",
           "--action", "overwrite", "--overwrite", "--display", "none"]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (path,) = glob.glob(str(tmp_path / "*.eval"))
    after = read_eval_log(path)
    assert [s.name for s in after.results.scores] == ["stance_drift_scorer"]
    assert after.results.scores[0].metrics["spr"].value == before
