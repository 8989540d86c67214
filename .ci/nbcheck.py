#!/usr/bin/python3
"""Checks executed Jupyter notebooks for failures that nbconvert lets through.

GoNB (v0.11.4) makes a panic, os.Exit(n) or a failing %test an "error"
output of the cell; a failing !cmd still only prints "exit status N"; and a
failed check of dpb prints "CHECK FAILED" in a cell that succeeds. CI runs
nbconvert with --allow-errors (so that it writes the executed notebook) and
reads the notebook. A notebook fails when a code cell

  * has an "error" output,
  * was not executed (execution_count is null) although it has source,
  * prints (stdout, stderr, or any text/* display output) a line matching
    exit status [1-9] (a failing !cmd) or the check layer's marker
    "CHECK FAILED" (dpb's verdict tables print it for any failed check that
    is not a documented erratum),
  * calls a display function (dpbplot.Show…, gonbui.Display…) but shows
    nothing: GoNB can drop the display of a program that exits at once, so
    a cell that should show a figure or a table and shows none fails
    (cells without "%%" or func main only declare, and are not counted),
  * shows a "DECLARED SKIP" (dpbplot.ShowSkip: an input such as the replay
    data is absent, the cell computes nothing and says which command gets
    it) although the notebook's metadata does not declare that it may skip
    ("dpb": {"declared_skip": "why"}). In a notebook that declares it, a
    skip is accepted and reported as "skip", never as "ok".

A notebook that dpb course wrote for CI (metadata "dpb": {"course":
{"solution_cells": N, "expect_fail": [{"cell": ID, "tests": [...]}]}}: the
solution notebook, then its exercise cells as students get them and with the
kept wrong solutions, each followed by its %test cells) must show, in each
expected cell, an error output and "--- FAIL: T" for each of its tests T;
every other cell is judged as above. --strip-course then cuts it back to the
solution notebook (the first N cells, without the course metadata), in place.

Usage: nbcheck.py [--expect-fail | --expect-skip | --expect-no-skip] NOTEBOOK...
       nbcheck.py --strip-course NOTEBOOK...   (see above; in place)
       nbcheck.py --normalize NOTEBOOK...   (drop per-cell execution timestamps
                                             and write the repository's absolute
                                             path as <repo>, in place, so re-runs
                                             diff cleanly and committed outputs
                                             carry no build-machine path)
Exit status 0 when every notebook passes (with --expect-fail: when every one
fails; --expect-skip: passes showing a declared skip; --expect-no-skip: passes
without one), 1 otherwise. Python standard library only (Debian's /usr/bin/python3).
"""

import json
import os
import re
import sys

# The repository root (this file is .ci/nbcheck.py): GoNB's %goworkfix prints
# it ("Added replace rule ... to local directory ..."); committed outputs say <repo>.
REPO = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))

BAD_LINE = re.compile(r"exit status [1-9]|CHECK FAILED")
SKIP = "DECLARED SKIP"
# A GoNB cell runs code only with a "%%" line or a func main; other cells only
# declare functions and show nothing by design.
RUNS = re.compile(r"^%%|^func main\(", re.M)
DISPLAYS = re.compile(r"\b(?:dpbplot|plot)\.Show\w*\(|\bgonbui\.Display\w*\(")


def texts(output):
    """Yields the text a cell output shows (streams, results, displays)."""
    kind = output.get("output_type")
    if kind == "stream":
        yield output.get("name", "stream"), join(output.get("text", ""))
    elif kind in ("display_data", "execute_result", "update_display_data"):
        for mime, value in output.get("data", {}).items():
            if mime.startswith("text/"):
                # Skip the inlined echarts library: minified JS, not output.
                v = join(value)
                if mime == "text/html" and len(v) > 200_000:
                    continue
                yield mime, v


def join(value):
    return "".join(value) if isinstance(value, list) else str(value)


def check(path):
    """Returns (problems, skips) of the notebook at path: skips lists the
    cells showing a declared skip."""
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    meta = nb.get("metadata", {}).get("dpb") or {}
    declared = meta.get("declared_skip")
    expect = {e["cell"]: e["tests"] for e in (meta.get("course") or {}).get("expect_fail", [])}
    problems, skips = [], []
    code_cells = 0
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        code_cells += 1
        where = f"cell {i} ({cell.get('id', '?')})"
        if cell.get("id") in expect:
            problems += expected_failure(where, cell, expect.pop(cell.get("id")))
            continue
        if join(cell.get("source", "")).strip() and cell.get("execution_count") is None:
            problems.append(f"{where}: not executed")
        src = join(cell.get("source", ""))
        shown = [o for o in cell.get("outputs", [])
                 if o.get("output_type") in ("display_data", "execute_result", "update_display_data")]
        if DISPLAYS.search(src) and RUNS.search(src) and not shown and cell.get("execution_count") is not None:
            problems.append(f"{where}: calls a display function but shows nothing (display lost?)")
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                problems.append(
                    f"{where}: error output {out.get('ename', '')}: {out.get('evalue', '')}".rstrip()
                )
                continue
            for name, text in texts(out):
                if SKIP in text:
                    if declared:
                        skips.append(where)
                    else:
                        problems.append(f"{where}: shows a {SKIP} but the notebook's metadata does not declare one (\"dpb\": {{\"declared_skip\": ...}})")
                for line in text.splitlines():
                    if BAD_LINE.search(line):
                        problems.append(f"{where}: {name}: {line.strip()[:200]}")
    if code_cells == 0:
        problems.append("no code cells")
    for cell_id in expect:
        problems.append(f"cell {cell_id}: expected to fail, not in the notebook")
    return problems, sorted(set(skips))


def expected_failure(where, cell, tests):
    """Returns the problems of a cell that must fail: an error output, and
    "--- FAIL: T" for each test T (its test rejects the student's stub or the
    kept wrong solution)."""
    outs = cell.get("outputs", [])
    text = "".join(t for o in outs for _, t in texts(o))
    problems = []
    if not any(o.get("output_type") == "error" for o in outs):
        problems.append(f"{where}: must fail (a stub or a wrong solution), shows no error")
    for t in tests:
        if not re.search(rf"^--- FAIL: {re.escape(t)} ", text, re.M):
            problems.append(f"{where}: {t} must fail here, does not print \"--- FAIL: {t}\"")
    return problems


def strip_course(path):
    """Cuts a notebook of dpb course back to its solution cells, in place."""
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    meta = nb.get("metadata", {}).get("dpb") or {}
    course = meta.pop("course", None)
    if course is None:
        return
    nb["cells"] = nb["cells"][: course["solution_cells"]]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write("\n")


def scrub(value):
    """Writes the repository's absolute path as <repo> in an output value."""
    if isinstance(value, list):
        return [scrub(v) for v in value]
    if isinstance(value, str):
        return value.replace(REPO, "<repo>")
    return value


def normalize(path):
    """Removes nbclient's per-cell execution timestamps from the notebook and
    writes the repository's absolute path as <repo> in text outputs."""
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    for cell in nb.get("cells", []):
        cell.get("metadata", {}).pop("execution", None)
        for out in cell.get("outputs", []):
            if "text" in out:
                out["text"] = scrub(out["text"])
            for mime, value in out.get("data", {}).items():
                if mime.startswith("text/"):
                    out["data"][mime] = scrub(value)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write("\n")


def main(argv):
    if argv and argv[0] == "--normalize":
        for path in argv[1:]:
            normalize(path)
        return 0
    if argv and argv[0] == "--strip-course":
        for path in argv[1:]:
            strip_course(path)
        return 0
    expect_fail = False
    expect_skip = None
    if argv and argv[0] == "--expect-fail":
        expect_fail, argv = True, argv[1:]
    elif argv and argv[0] in ("--expect-skip", "--expect-no-skip"):
        expect_skip, argv = argv[0] == "--expect-skip", argv[1:]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    ok = True
    for path in argv:
        skips = []
        try:
            problems, skips = check(path)
        except (OSError, ValueError) as e:
            problems = [f"unreadable: {e}"]
        if problems:
            print(f"{'caught' if expect_fail else 'FAILED'}  {path}")
            for p in problems[:20]:
                print(f"        {p}")
            if len(problems) > 20:
                print(f"        … and {len(problems) - 20} more")
        elif skips:
            print(f"skip    {path} (declared skip in {', '.join(skips)})")
        else:
            print(f"ok      {path}")
        if expect_skip is not None and not problems and bool(skips) != expect_skip:
            ok = False
            print(f"        expected {'a declared skip' if expect_skip else 'no skip'}, found {'one' if skips else 'none'}")
        if bool(problems) != expect_fail:
            ok = False
            if expect_fail:
                print(f"        expected failures, found none")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
