#!/usr/bin/env python3
"""Check that the project's tracked text speaks of the project.

Code, comments, tests, README, RESULTS, BENCHMARKS and docs name commits, dates and
sections of this repository, which every reader can follow. They do not name:

- work-log numbers (`session N`, `sessions N`, `issue N`, `issue #N`, `issues N`,
  `stop N`): the repository holds no issues and no log of sessions, so a reader cannot
  look them up;
- paths of one machine: `/work/` anywhere, `/tmp/` in Markdown (a file that lived there
  is gone for every other reader);
- relative Markdown links (`[text](target)`, `<img src="...">`) whose target is not a
  file or folder of the repository, or whose `#anchor` names no heading of the Markdown
  file it points into (GitHub's heading ids), and relative paths in code spans that leave
  their folder (`` `../dir/file.ext` ``) and name no file of the repository.

Run from anywhere inside the repository (`scripts/test.sh` runs it after `cargo fmt`).
Prints file:line and the offending text of each finding and exits with 1 if there is
any, 0 otherwise. Standard library only.
"""

import re
import subprocess
import sys
from pathlib import Path

# File types read as text. A file without an extension is read when it is UTF-8 text.
TEXT_SUFFIXES = {".md", ".rs", ".sh", ".py", ".toml", ".txt"}

# `session N`, `Sessions N and M`, `issue N's`, `issue #N`, `Stop N` (N a number): a
# work-log word, then the number. Not preceded by `-` (an option such as `--stop 5`), and the
# number not followed by a letter, a digit, `-letter` ("issue 0-based") or a decimal
# part ("stop 1.5 s"), so that measures and counts do not count as references.
WORK_LOG = re.compile(
    r"(?<![-\w])(?:sessions?|issues?|stop)\s+#?\d+(?![\w]|-[A-Za-z]|\.\d)",
    re.IGNORECASE,
)
WORK_PATH = re.compile(r"/work/")
TMP_PATH = re.compile(r"/tmp/")

# `[text](target)` and `[text](target "title")`, images `![alt](target)` included; the
# text may wrap across lines.
MD_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
IMG_SRC = re.compile(r"<img\b[^>]*\bsrc\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)
FENCE = re.compile(r"^\s*(```|~~~)")
# A code span: a run of backticks, anything (line breaks too), the same run again.
CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.DOTALL)
HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$")
# `../shared/X.md` in a code span: a path that leaves its folder, with a file extension.
CODE_PATH = re.compile(r"`(\.\./[\w./-]*\.\w+)`")

# Allowed exceptions, each with its reason: (path, the line's text contains, reason).
ALLOW = [
    ("scripts/check-text.py", "/work/", "this checker names the path it looks for"),
]


def allowed(path: str, line: str) -> bool:
    return any(path == p and needle in line for p, needle, _ in ALLOW)


def tracked_files(root: Path) -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=root, check=True, capture_output=True
    ).stdout
    return [p for p in out.decode("utf-8").split("\0") if p]


def read_text(root: Path, path: str) -> str | None:
    p = root / path
    suffix = p.suffix if not p.name.startswith(".") or p.name.count(".") > 1 else ""
    if suffix and suffix not in TEXT_SUFFIXES:
        return None
    try:
        data = p.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return None  # deleted in the work tree, or a submodule
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def heading_ids(text: str) -> set[str]:
    """The ids GitHub gives a Markdown file's headings: lower case, punctuation dropped,
    spaces as hyphens, a repeated id numbered -1, -2, ..."""
    ids: set[str] = set()
    seen: dict[str, int] = {}
    in_fence = False
    for line in text.splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        m = None if in_fence else HEADING.match(line)
        if not m:
            continue
        title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1))  # a link's text
        slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        ids.add(slug if n == 0 else f"{slug}-{n}")
    return ids


def link_problem(root: Path, path: str, text: str, target: str) -> str | None:
    """What is wrong with a link from `path` (whose text is `text`) to `target`, if any."""
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
        return None  # http(s), mailto and other schemes
    file_part, _, anchor = target.partition("#")
    file_part = file_part.split("?", 1)[0]
    if file_part.startswith("/"):
        return "an absolute path, never a file of the repository"
    if file_part:
        resolved = (root / path).parent / file_part
        try:
            resolved.resolve().relative_to(root.resolve())
        except ValueError:
            return "outside the repository"
        if not resolved.exists():
            return "no such file"
        if not anchor or resolved.suffix != ".md" or not resolved.is_file():
            return None
        text = resolved.read_text(encoding="utf-8")
    if anchor and anchor.lower() not in heading_ids(text):
        return "no heading with that id"
    return None


def blank(m: re.Match) -> str:
    """The match with every character but line breaks made a space (line numbers kept)."""
    return re.sub(r"[^\n]", " ", m.group(0))


def prose(text: str) -> str:
    """A Markdown file's text without fenced code blocks and code spans, which show
    commands and output rather than links; line breaks stay where they were."""
    lines = text.split("\n")
    in_fence = False
    for i, line in enumerate(lines):
        if FENCE.match(line):
            in_fence = not in_fence
            lines[i] = ""
        elif in_fence:
            lines[i] = ""
    return CODE_SPAN.sub(blank, "\n".join(lines))


def check_file(root: Path, path: str, text: str) -> list[str]:
    findings = []
    lines = text.split("\n")
    is_md = path.endswith(".md")
    for number, line in enumerate(lines, start=1):
        where = f"{path}:{number}"
        if allowed(path, line):
            continue
        for m in WORK_LOG.finditer(line):
            findings.append(f"{where}: work-log number {m.group(0)!r}: {line.strip()}")
        if WORK_PATH.search(line):
            findings.append(f"{where}: machine path /work/: {line.strip()}")
        if is_md and TMP_PATH.search(line):
            findings.append(f"{where}: machine path /tmp/: {line.strip()}")
        if is_md:
            for m in CODE_PATH.finditer(line):
                if link_problem(root, path, text, m.group(1)):
                    findings.append(
                        f"{where}: path to no file of the repository {m.group(1)!r}: "
                        f"{line.strip()}"
                    )
    if not is_md:
        return findings
    # Links may wrap across lines, so they are found in the whole text.
    body = prose(text)
    for m in [*MD_LINK.finditer(body), *IMG_SRC.finditer(body)]:
        number = body.count("\n", 0, m.start(1)) + 1
        line = lines[number - 1]
        if allowed(path, line):
            continue
        problem = link_problem(root, path, text, m.group(1))
        if problem:
            findings.append(
                f"{path}:{number}: broken link {m.group(1)!r} ({problem}): {line.strip()}"
            )
    return findings


def main() -> int:
    here = Path(__file__).resolve().parent
    top = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"],
        cwd=here,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    root = Path(top)
    findings = []
    for path in tracked_files(root):
        text = read_text(root, path)
        if text is not None:
            in_file = check_file(root, path, text)
            in_file.sort(key=lambda f: int(f[len(path) + 1 :].split(":", 1)[0]))
            findings.extend(in_file)
    for finding in findings:
        print(finding)
    if findings:
        print(
            f"check-text: {len(findings)} finding(s): name a commit, a date or a section "
            "instead of a work-log number or a machine's path, and link to files of the "
            "repository",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
