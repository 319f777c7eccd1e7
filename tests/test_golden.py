"""The golden set (tests/golden.py): every command's output over every kind of puzzle, byte for
byte as recorded, apart from clocks. A difference is a change of behaviour: a refactoring must
keep them all; a change the spec records writes them again (``python tests/golden.py NAME``)."""

import difflib

import pytest
from golden import CASES, RECORDS, record


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_output_is_as_recorded(name):
    expected = (RECORDS / f"{name}.txt").read_text()
    got = record(name)
    if got != expected:
        diff = difflib.unified_diff(expected.splitlines(), got.splitlines(), "recorded", "now",
                                    lineterm="", n=1)
        pytest.fail(f"{name} differs from its record:\n" + "\n".join(list(diff)[:60]))


def test_every_record_has_its_case():
    assert {path.stem for path in RECORDS.glob("*.txt")} == set(CASES)
