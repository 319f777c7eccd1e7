"""Choices, not railroads: levels with a guaranteed length AND real decisions, from Python.

Run: python examples/choices.py   (from any folder)
(the compiled kernels are needed: the chains that count choices are C.)
"""

from designer.analysis.graph import analyze
from designer.core.request import LayoutRequest
from designer.search.design import design
from designer.studies.pareto import pareto


def figures(level) -> str:
    a = analyze(level)
    return (f"{a.min_stops} stops, {a.options} options ({a.per_stop:.2f} a stop), {a.rail_stops} rail stops, "
            f"{a.solutions} fewest-moves solution{'s' if a.solutions != 1 else ''}")


# The same length twice: first the designer's usual level, then the most choices it finds in 5 s.
band = LayoutRequest(min_stops=25, max_stops=25)
plain = design(band, seed=1)
print("plain:   ", figures(plain.level))
rich = design(band, seed=1, time_limit=5, maximize_choices=True)
print("choices: ", figures(rich.level))
print(rich.level)

# A guarantee, like min stops: at least 34 options along the solution, and exactly one
# fewest-moves solution (an unambiguous par).
sure = design(LayoutRequest(min_stops=21, max_stops=21, min_choices=34, unique=True), seed=2, time_limit=60)
print("guaranteed:", figures(sure.level))

# The Pareto front over (min stops, options) on a small grid, none dominated.
front = pareto(LayoutRequest(height=10, width=10), time_limit=12, seed=1)
print("front:", [(point.min_stops, point.options) for point in front.levels])
print("every run:", [(point.min_stops, point.options) for point in front.tried])
