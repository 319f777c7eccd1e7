"""Boolean algebra over CP-SAT literals and Python constants (``Literals``): every literal of the
model is built through it, so constants (frame rocks, pinned ends) fold away and identical
conjunctions are shared."""

from __future__ import annotations

from typing import Any

from designer.models.loader import cp_model

#: A literal of the model, or a constant that folds away: a CP-SAT Boolean variable (or its
#: negation) or a Python bool. OR-Tools' own types do not say which of its calls take both.
Lit = Any


class Literals:
    """Boolean algebra over CP-SAT literals and Python constants, with folding and sharing."""

    def __init__(self, model: cp_model.CpModel):
        self.model = model
        self._and_cache: dict[tuple[int, ...], Lit] = {}

    @staticmethod
    def negate(lit):
        if lit is True or lit is False:
            return not lit
        return ~lit

    def conj(self, lits):
        """A literal equal to the conjunction of ``lits`` (True for none)."""
        seen: dict[int, Lit] = {}
        for lit in lits:
            if lit is False:
                return False
            if lit is True:
                continue
            seen[lit.index] = lit
        if any(-i - 1 in seen for i in seen):
            return False
        if not seen:
            return True
        if len(seen) == 1:
            return next(iter(seen.values()))
        key = tuple(sorted(seen))
        if key not in self._and_cache:
            var = self.model.new_bool_var("and")
            parts = list(seen.values())
            self.model.add_bool_and(parts).only_enforce_if(var)
            self.model.add_bool_or([~p for p in parts] + [var])
            self._and_cache[key] = var
        return self._and_cache[key]

    def disj(self, lits):
        return self.negate(self.conj([self.negate(lit) for lit in lits]))

    @staticmethod
    def _live(conditions) -> list | None:
        """The conditions that are not constants; None when one is False (nothing to enforce)."""
        conditions = list(conditions)
        if any(lit is False for lit in conditions):
            return None
        return [lit for lit in conditions if lit is not True]

    def implies(self, conditions, consequence_lits):
        """AND(conditions) => OR(consequence_lits), folded."""
        live = self._live(conditions)
        if live is None:
            return
        clause = [~lit for lit in live]
        for lit in consequence_lits:
            if lit is True:
                return
            if lit is not False:
                clause.append(lit)
        if not clause:
            raise ValueError("constraint folds to false")
        self.model.add_bool_or(clause)

    def enforce(self, constraint, conditions):
        """Make a linear constraint hold when all ``conditions`` do (folded)."""
        lits = self._live(conditions)
        if lits is not None:
            self.model.add(constraint).only_enforce_if(lits)
