"""The README is a front door and the guides stand on their own: short, every link inside the
repository and resolving, nothing pointing outside it."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_readme_is_short_and_starts_with_the_two_set_up_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 200
    block = lines[lines.index("```sh") + 1:lines.index("```sh") + 3]
    assert "pip install -e '.[test]'" in block[0] and "designer make" in block[0]
    assert "python -m pytest" in block[1]
    assert "python -m pytest" in (ROOT / ".ci" / "run").read_text()  # the same test command


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_resolves_inside_the_repository(page):
    text = page.read_text()
    assert "../shared" not in text and "SPEC.md" not in text
    for target in LINK.findall(text):
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        assert resolved.is_relative_to(ROOT), target
        assert resolved.exists(), f"{page.name}: {target} does not exist"
        if anchor and resolved.suffix == ".md":
            slugs = {re.sub(r"[^\w\- ]", "", h.lower()).strip().replace(" ", "-")
                     for h in re.findall(r"^#+ (.+)$", resolved.read_text(), re.M)}
            assert anchor in slugs, f"{page.name}: #{anchor} is not a heading of {resolved.name}"


def test_every_guide_is_linked_from_the_readme():
    readme = (ROOT / "README.md").read_text()
    for page in (ROOT / "docs").glob("*.md"):
        assert f"docs/{page.name}" in readme, page.name


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_python_example_in_the_guides_runs(page, monkeypatch):
    """A reader copies these: each ```python block of a page runs as it stands, from the checkout
    (their paths are the repository's)."""
    monkeypatch.chdir(ROOT)
    for block in re.findall(r"```python\n(.*?)```", page.read_text(), re.S):
        exec(compile(block, f"{page.name} example", "exec"), {})


@pytest.mark.slow
def test_every_quick_start_line_runs_as_written(tmp_path):
    """A newcomer types the README's Quick start in the clone's folder: every line runs (the studio,
    which serves until Ctrl-C, is started by its own tests)."""
    import os
    import shutil
    import subprocess
    import sys

    text = (ROOT / "README.md").read_text()
    block = text[text.index("## Quick start"):]
    block = block[block.index("```console") + len("```console"):block.index("```", block.index("```console") + 3)]
    lines = [line[2:].split("#", 1)[0].strip() for line in block.splitlines() if line.startswith("$ ")]
    assert any(line.startswith("cp examples/maps/") for line in lines)
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    for line in lines:
        if line == "designer studio":
            continue
        done = subprocess.run(line, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
        assert done.returncode == 0, f"{line}: {done.stderr}"
