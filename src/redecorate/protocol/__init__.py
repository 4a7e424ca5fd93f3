"""Experiment primitives: seeds, cross-validation folds, learning curves, the job.

* :mod:`~redecorate.protocol.seeds`: :func:`seed_sequence`, every random stream keyed by name.
* :mod:`~redecorate.protocol.folds`: :func:`stratified_folds` (Weka-style stratification).
* :mod:`~redecorate.protocol.curve`: :func:`curve_sizes`, :func:`training_order` (nested subsets).
* :mod:`~redecorate.protocol.job`: :class:`Protocol`, :func:`learner_seed`, :class:`JobError`.
* :mod:`~redecorate.protocol.settings`: the settings jobs and reports read.
"""

from redecorate.protocol.curve import curve_size, curve_sizes, training_order
from redecorate.protocol.folds import run_folds, stratified_folds
from redecorate.protocol.job import (
    RECORD_COLUMNS,
    JobError,
    Protocol,
    learner_seed,
)
from redecorate.protocol.seeds import derive_seed, key_words, seed_sequence

__all__ = [
    "RECORD_COLUMNS",
    "JobError",
    "Protocol",
    "curve_size",
    "curve_sizes",
    "derive_seed",
    "key_words",
    "learner_seed",
    "run_folds",
    "seed_sequence",
    "stratified_folds",
    "training_order",
]
