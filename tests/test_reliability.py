"""The reliability suite: each case an audit found breaking the contract (one line, the right
status, nothing lost, whole files), kept fixed. Numbers refer to the audit's table."""

import json
import re

import pytest
from conftest import one_error_line

from designer.cli import main
from designer.export.play import page
from designer.formats import read_levels

LEVEL = "#G#\n#.#\n#S#\n"


def test_13_a_pack_name_cannot_bend_the_page_script(tmp_path):
    pack = tmp_path / "pack"
    pack.mkdir()
    for name in ("<!--<script>", "<b>x", "plain"):
        (pack / f"{name}.txt").write_text(LEVEL)
    html = page([(name, level) for name, level, _ in read_levels(pack)], title="t")
    assert html.count("<script>") == 1 and html.count("</script>") == 1 and "<!--" not in html
    data = re.search(r"const LEVELS = (.*);\n", html).group(1)
    assert "<" not in data and ">" not in data
    assert sorted(entry["name"] for entry in json.loads(data)) == ["<!--<script>", "<b>x", "plain"]


@pytest.mark.parametrize("field", ["version", "height", "generator", "extra"])
@pytest.mark.parametrize("command", ["solve", "analyze", "render", "play", "export"])
def test_6_a_huge_integer_in_a_json_level_is_one_line(tmp_path, capsys, field, command):
    obj = {"format": "ice-level", "version": 1, "rows": LEVEL.split()}
    digits = "9" * 5000
    text = json.dumps(obj)[:-1] + f', "{field}": ' + (digits if field != "generator" else f'{{"seed": {digits}}}') + "}"
    path = tmp_path / "huge.json"
    path.write_text(text)
    args = {"solve": ["solve", str(path)], "analyze": ["analyze", str(path)],
            "render": ["render", str(path), "-o", str(tmp_path / "x.svg")],
            "play": ["play", str(path), "-o", str(tmp_path / "x.html")],
            "export": ["export", str(path), "--to", "tiled", "-o", str(tmp_path / "x.tmj")]}[command]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "an integer of 5,000 digits" in err


@pytest.mark.parametrize("address", ["", "tcp://", "tls://127.0.0.1:1", "inproc://", "ucx://x:1", "tcp://host:99999",
                                     "tcp://:8786", "127.0.0.1:8786"])
@pytest.mark.parametrize("command", [["make", "--min-stops", "3"], ["records", "--rocks", "1"]])
def test_12_a_dask_address_is_checked_before_any_work(capsys, address, command):
    assert main([*command, "--dask", address]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "--dask takes 'local' or a scheduler address tcp://HOST:PORT" in err


@pytest.mark.parametrize("command", [["compare", "--min-stops", "5", "--seeds", "1", "--budget", "1"],
                                     ["pareto", "--time-limit", "5"]])
def test_17_a_plot_is_a_png(tmp_path, capsys, command):
    gif = tmp_path / "x.gif"
    assert main([*command, "--plot", str(gif)]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "is written as FILE.png" in err and not gif.exists()


def test_17_dash_is_standard_output(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["make", "--min-stops", "3", "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 12 and "S" in out and not (tmp_path / "-").exists()
