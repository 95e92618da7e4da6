"""Ctrl-C between an episode's tally and its results line: both or neither."""

from __future__ import annotations

import signal

import pytest

from pytest_agenteval.plugin.held import interrupts_held
from tests.helpers.tasks import result_lines, task_line


def test_a_ctrl_c_inside_the_block_is_raised_when_it_ends() -> None:
    done = []
    with pytest.raises(KeyboardInterrupt), interrupts_held():
        signal.raise_signal(signal.SIGINT)
        done.append("after the signal")
    assert done == ["after the signal"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_second_ctrl_c_inside_the_block_ends_it_at_once() -> None:
    done = []
    with pytest.raises(KeyboardInterrupt), interrupts_held():
        signal.raise_signal(signal.SIGINT)
        signal.raise_signal(signal.SIGINT)
        done.append("never")
    assert done == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_the_handler_in_place_gets_the_signal_and_nothing_without_one() -> None:
    seen: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
    try:
        with interrupts_held():
            pass
        assert seen == []
        with interrupts_held():
            signal.raise_signal(signal.SIGINT)
            assert seen == []
        assert seen == [signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, previous)


def test_an_ignored_ctrl_c_stays_ignored() -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # nohup, a background job
    try:
        with interrupts_held():
            signal.raise_signal(signal.SIGINT)
            signal.raise_signal(signal.SIGINT)
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def closing_tasks(pytester: pytest.Pytester, count: int) -> None:
    """``count`` tasks, EX-0…, each passed by closing T-0001."""
    path = [[{"action": "close_ticket", "arguments": {"ticket_id": "T-0001"}}]]
    (pytester.path / "tasks").mkdir()
    lines = [task_line(task_id=f"EX-{i}", acceptable_action_paths=path) for i in range(count)]
    (pytester.path / "tasks" / "t.jsonl").write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("where", ["before", "before-twice", "after", "after-twice"])
def test_ctrl_c_as_an_episode_is_reported_keeps_the_summary_true_to_the_lines(pytester: pytest.Pytester,
                                                                            where: str) -> None:
    """Ctrl-C, once or twice (red team 27), as the second episode is handed to the hooks: before
    the results file's own implementation writes it, or after. The summary counts exactly the
    grade lines in the file, whichever way it ends."""
    closing_tasks(pytester, 3)
    pytester.makepyfile(closer='''
class Agent:
    def run(self, episode):
        episode.call("close_ticket", {"ticket_id": "T-0001"})
''')
    pytester.makeconftest(f'''
import signal
import pytest

WHERE = {where!r}


def _ctrl_c(grade):
    if grade["task_id"] == "EX-1":
        for _ in range(2 if WHERE.endswith("twice") else 1):
            signal.raise_signal(signal.SIGINT)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_agenteval_episode_graded(grade):
    if WHERE.startswith("before"):
        _ctrl_c(grade)
    return (yield)


class After:
    @pytest.hookimpl(trylast=True)
    def pytest_agenteval_episode_graded(self, grade):
        if WHERE.startswith("after"):
            _ctrl_c(grade)


def pytest_configure(config):
    config.pluginmanager.register(After(), "after")
''')
    out = pytester.path / "r.jsonl"
    result = pytester.runpytest_subprocess("--agent=closer:Agent", f"--agenteval-results={out}",
                                           "-p", "no:cacheprovider", "-p", "no:randomly")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    records = result_lines(out)
    grades = [r["task_id"] for r in records if "task_id" in r]
    assert grades in (["EX-0"], ["EX-0", "EX-1"])
    assert grades == ["EX-0", "EX-1"] or where == "before-twice"  # one Ctrl-C waits for the line
    assert records[-1]["summary"]["episodes"] == len(grades)


def test_a_second_ctrl_c_while_pytest_handles_the_first_still_marks_the_run_interrupted(
        pytester: pytest.Pytester) -> None:
    """pytest sets the interrupted status only after its ``pytest_keyboard_interrupt`` hook: a Ctrl-C
    pressed again inside it ended the session with status OK, and the summary (signed, with a
    gate) said nothing of the tasks never played (red team 28)."""
    closing_tasks(pytester, 4)
    pytester.makepyfile(closer='''
import signal

class Agent:
    def run(self, episode):
        if episode.task_id == "EX-1":
            signal.raise_signal(signal.SIGINT)
        episode.call("close_ticket", {"ticket_id": "T-0001"})
''')
    pytester.makeconftest('''
import signal

def pytest_keyboard_interrupt(excinfo):
    signal.raise_signal(signal.SIGINT)  # the second press, while pytest reports the first
''')
    out = pytester.path / "r.jsonl"
    result = pytester.runpytest_subprocess("--agent=closer:Agent", f"--agenteval-results={out}",
                                           "--agenteval-fail-under=0.5", "-p", "no:cacheprovider", "-p", "no:randomly")
    assert result.ret != pytest.ExitCode.OK
    summary = result_lines(out)[-1]["summary"]
    assert summary.get("interrupted") is True
