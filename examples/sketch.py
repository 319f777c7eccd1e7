"""What the studio shows, called from Python (``designer.ops.levels``): the live figures of a
sketch. While free cells (``?``) remain, each route says what a fill can still reach; once the
grid is filled, each route has its numbered path, its traps and the moves left from every cell.

Run: python examples/sketch.py
"""

from designer.ops.sketch_figures import figures

room = ["#####3######"] + ["#" + "?" * 10 + "#"] * 4 + ["2" + "?" * 10 + "#"] + ["#" + "?" * 10 + "#"] * 4 + [
    "#####1######"]
for route in figures(room)["routes"]:  # free cells are the fill's: bounds, not a verdict
    reach = route["fill"]
    print(f"route {route['route']}: a fill can reach at most {reach['at_most']} stops"
          + (f", {reach['parity']} counts only" if reach["parity"] else ""))

level = ["###G####", "#......#", "#.#....#", "#....#.#", "#.#....#", "####S###"]
route = figures(level)["routes"][0]
print(f"\n{route['route']}: {route['min_stops']} stops, {route['class']}, "
      f"{'reversible' if route['reversible'] else 'not reversible'}")
board = [list(row) for row in level]
for k, (r, c) in enumerate(route["path"]):  # the numbered path, as the studio draws it
    board[r][c] = str(k % 10)
for r, c in route["traps"]:
    board[r][c] = "x"
print("\n".join("".join(row) for row in board))
left = {(r, c): n for r, c, n in route["moves_left"]}
print(f"moves left from the start: {left[tuple(route['start'])]}")
