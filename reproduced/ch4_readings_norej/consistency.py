"""Do the thesis's Tables 4.13-4.16 (and 4.8-4.12) compose with its Tables 4.2-4.5? The GM error
ratios of one set of runs must.

Tables 4.13-4.16 (DECORATE without rejection against DECORATE, J48, Bagging and AdaBoost.M1,
§4.7) print only summary rows; each point's GM error ratio is the geometric mean over the 15
datasets of E_A / E_B. Over the same datasets and runs such ratios compose exactly: GM(NoRej /
DECORATE) = GM(NoRej / J48) / GM(DECORATE / J48), and likewise through Bagging (Tables 4.15 and
4.3) and AdaBoost.M1 (4.16 and 4.5). So the printed Table 4.13 can be set beside three values
implied by the other printed tables, and the reproduction's four routes must give one number.
Where the printed routes differ from each other by more than any of them differs from the
reproduction, no single set of runs reproduces all of Tables 4.13-4.16 and 4.2-4.5: the §4.7
tables came from runs of their own.

    PYTHONPATH=src python3 reproduced/ch4_readings_norej/consistency.py   # writes consistency.md and .csv here
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
REPRODUCED = HERE.parent
PUBLISHED = REPRODUCED.parent / "config" / "published"
ROUTES = {"J48": ("4.14", "4.2"), "Bagging": ("4.15", "4.3"), "AdaBoost.M1": ("4.16", "4.5")}


def published_gm() -> pd.DataFrame:
    """The printed GM error ratios: one column per table, one row per point."""
    frames = [pd.read_csv(PUBLISHED / name, sep="\t", dtype={"table": str})
              for name in ("ch4_summary_4.2-4.5.tsv", "ch4_summary_4.8-4.16.tsv")]  # fmt: skip
    rows = pd.concat(frames)
    return rows[rows["statistic"] == "gm_ratio"].pivot_table(index="point", columns="table", values="value")


def reproduced_gm() -> pd.DataFrame:
    """The reproduced GM error ratios of the committed reports (ch4_passive, ch4_no_rejection)."""
    frames = [pd.read_csv(REPRODUCED / name / "replication_conclusions.csv", dtype={"table": str})
              for name in ("ch4_passive", "ch4_no_rejection")]  # fmt: skip
    return pd.concat(frames).pivot_table(index="point", columns="table", values="reproduced_gm")


def routes(gm: pd.DataFrame) -> pd.DataFrame:
    """GM(NoRej / DECORATE) as Table 4.13 gives it and as each other route implies it."""
    out = {"Table 4.13": gm["4.13"]}
    for via, (norej, decorate) in ROUTES.items():
        out[f"via {via} (Table {norej} / Table {decorate})"] = gm[norej] / gm[decorate]
    return pd.DataFrame(out).dropna()


def decorate_against(gm: pd.DataFrame) -> pd.DataFrame:
    """GM(DECORATE / X) for X = J48, Bagging, AdaBoost.M1: as Tables 4.2, 4.3, 4.5 print it and
    as §4.7's own tables imply it (Table 4.14, 4.15, 4.16 over Table 4.13)."""
    out = {}
    for via, (norej, decorate) in ROUTES.items():
        out[f"{via}: Table {decorate}"] = gm[decorate]
        out[f"{via}: Table {norej} / Table 4.13"] = gm[norej] / gm["4.13"]
    return pd.DataFrame(out).dropna()


VARIANTS = {"DECORATE (Unlabeled), §4.6.1": ("4.10", "4.8"), "DECORATE (Uniform), §4.6.2": ("4.12", "4.11"),
            "DECORATE (No Rejection), §4.7": ("4.13", "4.14")}
"""Per variant V of §4.6-4.7: (the table of V against DECORATE, the table of V against J48)."""


def through_j48(gm: pd.DataFrame) -> pd.DataFrame:
    """GM(V / DECORATE) for each variant V: as printed, and as implied through J48 with Table
    4.2 (V's table against J48 over GM(DECORATE / J48) of Table 4.2). The control: a variant
    whose tables came from the runs of Table 4.2 composes."""
    out = {}
    for variant, (against_decorate, against_j48) in VARIANTS.items():
        out[f"{variant}: Table {against_decorate}"] = gm[against_decorate]
        out[f"{variant}: Table {against_j48} / Table 4.2"] = gm[against_j48] / gm["4.2"]
    return pd.DataFrame(out).dropna(how="all")


def main() -> None:
    printed, ours = routes(published_gm()), routes(reproduced_gm())
    against = decorate_against(published_gm())
    table = pd.concat({"published": printed, "reproduced": ours}, axis=1)
    table.to_csv(HERE / "consistency.csv", float_format="%.4f")
    spread = printed.max(axis=1) - printed.min(axis=1)
    ours_spread = ours.max(axis=1) - ours.min(axis=1)
    inside = ((ours["Table 4.13"] >= printed.min(axis=1)) & (ours["Table 4.13"] <= printed.max(axis=1)))
    lines = ["# Tables 4.13-4.16 against Tables 4.2-4.5: GM error ratios that must compose", "",
             "Written by `consistency.py` from the printed summary rows (`config/published/ch4_summary_*.tsv`) "
             "and the committed reports of `ch4_passive` and `ch4_no_rejection` (both 10 runs of 10-fold CV "
             "on the 15 datasets of Table 4.1). GM(DECORATE without rejection / DECORATE) per point: as Table "
             "4.13 prints it, and as the ratio of two other printed tables implies it (the same datasets and "
             "runs would make all four equal).", "",
             "Published:", "", printed.to_markdown(floatfmt=".3f"), "",
             "Reproduced (one set of runs: the four routes agree to rounding):", "",
             ours.to_markdown(floatfmt=".3f"), "",
             f"The printed routes span {spread.min():.3f}-{spread.max():.3f} per point (median "
             f"{spread.median():.3f}); the reproduced ones at most {ours_spread.max():.1e}. The reproduced "
             f"ratio lies between the lowest and the highest printed route at {int(inside.sum())} of "
             f"{len(inside)} points.", "",
             "The same from the other side: GM(DECORATE / X) as Tables 4.2, 4.3 and 4.5 print it, and as "
             "§4.7's tables imply it for the DECORATE they ran beside the variant (X's table over Table "
             "4.13). Below 1 DECORATE is ahead; §4.7's DECORATE is much closer to J48 and Bagging than "
             "Table 4.2's and 4.3's:", "", against.to_markdown(floatfmt=".3f"), "",
             "Every variant of §4.6-4.7 through J48 and Table 4.2 (blank: a point the table does not print). "
             "The uniform variant's tables compose with Table 4.2 to within a few hundredths, so the check "
             "is not one every printed table fails; the unlabeled variant's, like the no-rejection ones, do "
             "not:", "", through_j48(published_gm()).to_markdown(floatfmt=".3f"), ""]
    (HERE / "consistency.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
