"""Adding a learner is one module and one registry line (``docs/adding-a-learner.md``).

The toy learner of ``tests/learners/class_prior.py`` passes scikit-learn's checks as it
stands, and a copy of the package with that module and one line added to the registry runs an
experiment that names it through the Snakefile: the dry run asks it about its parameters,
jobs are sized by its cost model, and its records are the ones its predictions give.
"""

from __future__ import annotations

import difflib
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from sklearn.utils.estimator_checks import check_estimator, check_param_validation

from redecorate.data import load_dataset
from redecorate.protocol.curve import curve_sizes, training_order
from redecorate.protocol.folds import run_folds
from redecorate.protocol.seeds import seed_sequence

REPO = Path(__file__).resolve().parents[1]
TOY = Path(__file__).resolve().parent / "learners" / "class_prior.py"
REGISTRY_LINE = '    "class_prior": "redecorate.learners.class_prior:ClassPrior",\n'
GUIDE = REPO / "docs" / "adding-a-learner.md"


def test_the_guide_shows_the_tested_code() -> None:
    """Every Python block of the guide is the toy's code (or the registry line) as tested."""
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    source = TOY.read_text(encoding="utf-8") + REGISTRY_LINE
    assert len(blocks) == 3 and all(block in source for block in blocks), blocks


def test_the_toy_learner_passes_scikit_learns_checks() -> None:
    import sys

    sys.path.insert(0, str(TOY.parent))
    try:
        from class_prior import ClassPrior
    finally:
        sys.path.remove(str(TOY.parent))
    check_estimator(ClassPrior())
    check_param_validation("ClassPrior", ClassPrior())
    with pytest.raises(ValueError, match="'smoothing' parameter of ClassPrior"):
        ClassPrior(smoothing=-1).fit(np.zeros((4, 1)), [0, 1, 0, 1])


def _package_with_the_toy(root: Path) -> Path:
    """A copy of ``src/redecorate`` with the toy's module and its registry line: the two
    changes the guide asks for, and nothing else."""
    src = root / "src"
    shutil.copytree(REPO / "src" / "redecorate", src / "redecorate",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(TOY, src / "redecorate" / "learners" / "class_prior.py")
    registry = src / "redecorate" / "learners" / "registry.py"
    before = registry.read_text(encoding="utf-8")
    anchor = 'ALGORITHMS: Mapping[str, str] = MappingProxyType({\n'
    after = before.replace(anchor, anchor + REGISTRY_LINE, 1)
    registry.write_text(after, encoding="utf-8")
    changed = [line for line in difflib.ndiff(before.splitlines(True), after.splitlines(True))
               if line[:2] in ("+ ", "- ")]
    assert changed == ["+ " + REGISTRY_LINE], changed
    return src


def _experiment(path: Path, algorithms: dict) -> Path:
    data = {"name": "class_prior_curve", "kind": "passive", "seed": 11, "datasets": ["iris"],
            "algorithms": algorithms, "runs": 1, "folds": 3, "points": [10, 50, 100]}
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def _expected_accuracy(dataset, smoothing: float, seed: int) -> list[float]:
    """The toy's accuracies, computed here: the most frequent class of each training prefix
    (first in class order on a tie, after adding ``smoothing``) against the test fold."""
    codes = pd.Categorical(dataset.y).codes
    out = []
    for fold, (train, test) in enumerate(run_folds(dataset, 3, run=0, seed=seed)):
        order = training_order(train, seed_sequence(seed, "order", dataset.name, 0, fold))
        for n in curve_sizes(len(order), [10, 50, 100], "percent"):
            counts = np.bincount(codes[order[:n]], minlength=len(dataset.y.cat.categories))
            out.append(100.0 * float(np.mean(codes[test] == np.argmax(counts + smoothing))))
    return out


@pytest.mark.workflow
def test_a_new_learner_is_one_module_and_one_registry_line(tmp_path: Path) -> None:
    import smoke_support as smoke

    if smoke.mirror_missing_reason():
        pytest.skip(smoke.mirror_missing_reason())
    env = {**smoke.snakemake_env(), "PYTHONPATH": str(_package_with_the_toy(tmp_path / "package"))}
    work = tmp_path / "work"
    experiment = _experiment(tmp_path / "class_prior.yaml", {
        "class_prior": {}, "class_prior_mle": {"learner": "class_prior", "smoothing": 0}})
    config = ("--config", f"experiments=[{experiment}]", f"data_mirror={smoke.MIRROR}")
    result = smoke.run_snakemake(work, *config, cores=2, env=env)
    assert result.returncode == 0, smoke.output_of(result)[-5000:]
    records = pd.read_parquet(work / "results" / "class_prior_curve" / "records.parquet")
    iris = load_dataset("iris", mirror=smoke.MIRROR)
    for label, smoothing in (("class_prior", 1.0), ("class_prior_mle", 0.0)):
        got = records[records["algorithm"] == label].sort_values(["fold", "point"])
        assert got["value"].tolist() == _expected_accuracy(iris, smoothing, seed=11), label
    # The dry run asks the new learner about its parameters, as any other.
    bad = _experiment(tmp_path / "bad.yaml", {"class_prior": {"smoothing": -1}})
    refused = smoke.run_snakemake(work, "-n", "--config", f"experiments=[{bad}]",
                                  f"data_mirror={smoke.MIRROR}", cores=1, env=env)
    output = smoke.output_of(refused)
    assert refused.returncode != 0, output[-3000:]
    quoted = " ".join(re.search(r"stops before any job with\n`(.*?)`", GUIDE.read_text(), re.S)[1].split())
    assert quoted.replace("class_prior.yaml", str(bad)) in " ".join(output.split()), output[-3000:]
