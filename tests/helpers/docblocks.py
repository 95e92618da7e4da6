"""The code blocks of the README and docs/, and what each one's marker says to do with it.

A block is marked by an HTML comment on the line before its fence (invisible on the site):

    <!-- doc: not run: REASON -->          kept as text; the reason is required
    <!-- doc: output of: COMMAND -->       the output of COMMAND, compared loosely with a real run
    <!-- doc: save as FILE -->             a file other blocks use (python: it must import)
    <!-- doc: run -->                      shell: each command runs in a copy of the project
    <!-- doc: run -k "EXPR" -->            the same, each pytest command narrowed to EXPR (cheap)
    <!-- doc: run; expect: TEXT -->        the same, and the output must contain TEXT

A python block with no marker is run as a script. Any other unmarked block is an error, and so is
an indented code block (write a fenced block with a marker).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)(?P<lang>[\w+-]*)\s*$")
MARKER = re.compile(r"^\s*<!-- doc: (?P<body>.*?) -->\s*$")
RUN = re.compile(r'^run(?: -k "(?P<k>[^"]+)")?(?:; expect: (?P<expect>.+))?$')
LIST_ITEM = re.compile(r"^\s*([-*+]|\d+\.)\s")


@dataclass(frozen=True, kw_only=True)
class Block:
    path: Path
    line: int  # 1-based line of the opening fence
    lang: str
    marker: str | None  # the text after "doc: ", or None
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def blocks(path: Path) -> tuple[list[Block], list[str]]:
    """The fenced blocks of one file, and a problem line for each indented code block."""
    lines = path.read_text().splitlines()
    found: list[Block] = []
    problems: list[str] = []
    i = 0
    in_list = False
    while i < len(lines):
        line = lines[i]
        opening = FENCE.match(line)
        if opening and opening["lang"] is not None:
            indent, fence = len(opening["indent"]), opening["fence"]
            end = i + 1
            while end < len(lines) and lines[end].strip() != fence:
                end += 1
            body = "\n".join(raw[indent:] for raw in lines[i + 1:end])
            before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
            mark = MARKER.match(before)
            found.append(Block(path=path, line=i + 1, lang=opening["lang"], text=body + "\n",
                               marker=mark["body"] if mark else None))
            i = end + 1
            continue
        if line.strip():
            if LIST_ITEM.match(line):
                in_list = True
            elif not line.startswith(" "):
                in_list = line.startswith("|") and in_list
            indented = line.startswith("    ") and i > 0 and not lines[i - 1].strip()
            if indented and not in_list:
                problems.append(f"{path.relative_to(ROOT)}:{i + 1}: an indented code block "
                                "(write a fenced block with a <!-- doc: … --> marker)")
                while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                    i += 1
                continue
        i += 1
    return found, problems


def all_blocks() -> tuple[list[Block], list[str]]:
    every: list[Block] = []
    problems: list[str] = []
    for path in markdown_files():
        found, bad = blocks(path)
        every += found
        problems += bad
    return every, problems


def kind(block: Block) -> str:
    """What the test does with the block: not-run, output-of, save-as, run or python."""
    if block.marker is None:
        return "python" if block.lang == "python" else "unmarked"
    for prefix, name in (("not run: ", "not-run"), ("output of: ", "output-of"), ("save as ", "save-as")):
        if block.marker.startswith(prefix) and block.marker[len(prefix):].strip():
            return name
    return "run" if RUN.match(block.marker) else "unknown"
