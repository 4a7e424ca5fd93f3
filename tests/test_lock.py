"""The locked install (``requirements.lock``) is complete, exact and consistent.

What a stranger installs decides whether they get the committed numbers again: the lock must
pin every package ``pyproject.toml`` asks for (extras included) at a version its range
admits, pin it exactly, name what computed the committed records, and ``environment.yml``
(conda) must pin the same versions; the README's commands, ``.ci/run`` and the SLURM docs
must install with it.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

REPO = Path(__file__).resolve().parents[1]
LOCK = REPO / "requirements.lock"

#: conda-forge's name for a PyPI distribution, where they differ
CONDA_NAMES = {"matplotlib": "matplotlib-base", "snakemake": "snakemake-minimal"}


def locked() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([^\s;]+)", line)
        assert match, f"requirements.lock: {line!r} is not an exact pin (name==version)"
        name = canonicalize_name(match.group(1))
        assert name not in pins, f"requirements.lock pins {name} twice"
        pins[name] = Version(match.group(2))
    return pins


def project_requirements() -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project.get("optional-dependencies", {})
    return [Requirement(r) for r in [*project["dependencies"], *(r for group in extras.values() for r in group)]]


def test_the_lock_pins_every_requirement_of_pyproject_within_its_range() -> None:
    pins = locked()
    for requirement in project_requirements():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"requirements.lock does not pin {requirement.name} (pyproject.toml: {requirement})"
        assert requirement.specifier.contains(pins[name], prereleases=True), \
            f"requirements.lock pins {name}=={pins[name]}, outside pyproject.toml's {requirement}"


def test_the_lock_holds_the_versions_that_computed_the_committed_records() -> None:
    pins = locked()
    recorded: dict[str, set[str]] = {}
    for path in sorted((REPO / "reproduced").glob("**/provenance.json")):
        packages = json.loads(path.read_text(encoding="utf-8")).get("packages", {})
        for name, version in packages.items():
            if version is not None and name not in ("python", "redecorate"):
                recorded.setdefault(canonicalize_name(name), set()).add(version)
    assert recorded, "no committed provenance.json names its packages"
    for name, versions in recorded.items():
        assert name in pins, f"the committed records were computed with {name} {versions}, which the lock omits"
        assert {Version(v) for v in versions} == {pins[name]}, \
            f"the committed records were computed with {name} {sorted(versions)}, the lock pins {pins[name]}"


def test_environment_yml_pins_the_locked_versions() -> None:
    pins = locked()
    environment = yaml.safe_load((REPO / "environment.yml").read_text(encoding="utf-8"))
    conda_to_pypi = {conda: pypi for pypi, conda in CONDA_NAMES.items()}
    seen = 0
    for entry in environment["dependencies"]:
        specs = entry["pip"] if isinstance(entry, dict) else [entry]
        for spec in specs:
            if spec in ("pip", "-e .") or spec.startswith("python="):
                continue
            match = re.fullmatch(r"([A-Za-z0-9_.\-]+)={1,2}([^\s=]+)", spec)
            assert match, f"environment.yml: {spec!r} is not pinned to one version"
            name = canonicalize_name(conda_to_pypi.get(match.group(1), match.group(1)))
            assert name in pins, f"environment.yml pins {spec}, which requirements.lock does not"
            assert Version(match.group(2)) == pins[name], f"environment.yml pins {spec}, the lock {name}=={pins[name]}"
            seen += 1
    direct = {canonicalize_name(r.name) for r in project_requirements()}
    pinned = {canonicalize_name(conda_to_pypi.get(n, n)) for n in _conda_names(environment)}
    assert direct <= pinned, f"environment.yml leaves out {sorted(direct - pinned)}"
    assert seen >= len(direct)


def _conda_names(environment: dict) -> set[str]:
    names = set()
    for entry in environment["dependencies"]:
        for spec in entry["pip"] if isinstance(entry, dict) else [entry]:
            match = re.match(r"([A-Za-z0-9_.\-]+)", spec)
            if match and spec not in ("pip", "-e ."):
                names.add(match.group(1))
    return names


def test_every_documented_install_uses_the_lock() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    installs = re.findall(r"python3 -m pip install[^\n&]*", readme)
    assert installs, "the README shows no install command"
    for command in installs:
        assert "-c requirements.lock" in command, f"README install without the lock: {command!r}"
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"pip install -c requirements\.lock -e '\.\[test,slurm\]'", ci), ".ci/run does not install the lock"
    slurm = (REPO / "workflow" / "profiles" / "slurm" / "config.yaml").read_text(encoding="utf-8")
    assert "requirements.lock" in slurm, "the SLURM profile does not say to install the lock"
