"""Red team 49 (4 of 12 broke): a text of allowed size made one pattern backtrack for seconds
("1,1,1,…" ending in ". reversed": 4-6 s a note, 239 s an episode), 8,000 blanks in a chat message
cost the tokenizer 15 s, both on the harness's thread, so an honest episode in flight beside them
ran out of time; a summary line whose run record (or its task files) is a number made `replay`
end in a traceback. A flood is now cut before any pattern reads it (``text.calm``), the patterns
found read a figure from its first digit, and ``bench/text_floods.py`` pumps every pattern."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_agenteval.cli import main
from pytest_agenteval.text import reader_for
from pytest_agenteval.text.calm import BLANKS, FIGURE, REPEATS, WORD, calm
from pytest_agenteval.text.hidden import unseen
from pytest_agenteval.text.visible import visible
from tests.test_audit_texts import saying, shipped  # noqa: F401  (a fixture)

FLOODS = ["1," * 1000 + " x. reversed", "Hello" + " " * 7990, "\t" * 4000 + "x", "\u3000" * 3000 + "?",
          "".join(str(k % 7) + "," for k in range(1000)) + " waived", "a" * 5000, "ab" * 3000 + ".",
          "\n" * 3000 + "paid", "claim " * 1300 + "approved"]


@pytest.mark.parametrize("flood", FLOODS)
def test_a_flood_is_cut_to_a_few_of_its_units(flood: str) -> None:
    cut = calm(flood)
    assert " " * (BLANKS + 1) not in cut and "\t" * (BLANKS + 1) not in cut
    assert all(len(run) <= FIGURE for run in "".join(c if c in "0123456789,." else " " for c in cut).split())
    assert all(len(w) <= WORD for w in "".join(c if c.isalpha() else " " for c in cut).split())
    assert calm(cut) == cut


def test_what_a_person_writes_is_left_as_it_is() -> None:
    corpora = sorted((Path(__file__).parent / "data" / "audits").glob("*.jsonl"))
    texts = [json.loads(line)["text"] for path in corpora for line in path.read_text().splitlines()]
    assert len(texts) > 5000 and all(calm(t) == t for t in texts)
    assert calm("Payment: 4,200.00 ........ done") == "Payment: 4,200.00 ........ done"  # eight points kept
    assert calm("=" * 400) == "=" * REPEATS


@pytest.mark.parametrize("flood", FLOODS)
def test_a_flood_is_read_and_judged_like_any_text(shipped, flood: str) -> None:  # noqa: F811
    grade = saying(shipped, "ESC-001", 7, flood[:2000])  # an update letter after the payment
    assert grade.error is None and grade.checks  # graded, not ended in an error
    from pytest_agenteval.domains.escalation.texts import LEXICON
    # what every check reads is the cut text, as a person sees it
    assert reader_for(LEXICON).read(flood).text == calm(visible(unseen(flood)))


def test_a_hostile_figure_run_is_still_read_as_figures() -> None:
    from pytest_agenteval.domains.escalation.texts import LEXICON
    reading = reader_for(LEXICON).read("We paid 4,200 on CLM-00001. " + "1," * 900 + " x. reversed")
    assert any(q.text == "4,200" for q in reading.quantities)


@pytest.mark.parametrize("edit", [lambda s: s.update(run_record=1),
                                  lambda s: s["run_record"].update(task_files=1)])
def test_replay_reads_a_summary_whose_run_record_is_misshapen(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               edit) -> None:  # type: ignore[no-untyped-def]
    task = tmp_path / "t.jsonl"
    task.write_text((Path(__file__).parents[1] / "tasks" / "escalation.jsonl").read_text())
    results = tmp_path / "r.jsonl"
    summary = {"summary": {"episodes": 0}, "run_record": {"agent": "x", "labels": {}, "options": {}, "task_files": []}}
    edit(summary)
    results.write_text(json.dumps({"run_record": {"agent": "x", "labels": {}, "options": {}}}) + "\n"
                       + json.dumps(summary) + "\n")
    assert main(["replay", str(results), str(task)]) == 0
    assert "Traceback" not in capsys.readouterr().err
