"""The figures' shared drawing helpers (:mod:`redecorate.report.figures`)."""

from __future__ import annotations


def test_dataset_labels_of_a_scatter_do_not_overlap_where_there_is_room() -> None:
    """Five datasets within half a point of each other (Figures 4.1-4.4 at 100 %): each label
    goes where it covers no other, the same places every time."""
    from redecorate.report.figures import annotate_points, new_figure

    points = [("anneal", 95.0, 95.1), ("audio", 95.2, 95.0), ("autos", 95.1, 95.3), ("breast-w", 94.9, 95.2),
              ("credit-a", 95.3, 95.15)]

    def boxes() -> list:
        fig = new_figure((4.8, 4.8))
        ax = fig.add_subplot()
        ax.scatter([p[1] for p in points], [p[2] for p in points])
        ax.set_xlim(90, 100)
        ax.set_ylim(90, 100)
        ax.set_aspect("equal")
        texts = annotate_points(ax, points)
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        return [(t.get_text(), t.get_window_extent(renderer)) for t in texts]

    placed = boxes()
    assert sorted(name for name, _ in placed) == sorted(p[0] for p in points)
    overlapping = [(a, b) for i, (a, box_a) in enumerate(placed) for b, box_b in placed[i + 1:] if box_a.overlaps(box_b)]
    assert not overlapping, overlapping
    assert [(n, tuple(b.bounds)) for n, b in placed] == [(n, tuple(b.bounds)) for n, b in boxes()]
