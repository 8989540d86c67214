#!/usr/bin/python3
"""Checks executed Jupyter notebooks for failures that nbconvert lets through.

GoNB v0.11.1 reports a panic, os.Exit(n), a failing %test or a failing !cmd
only as text on the cell's stderr and nbconvert still exits 0, so CI reads the
executed notebook. A notebook fails when a code cell

  * has an "error" output,
  * was not executed (execution_count is null) although it has source,
  * prints (stdout, stderr, or any text/* display output) a line matching
    exit status [1-9], "panic: ", "--- FAIL", "signal: ", or the check layer's
    marker "CHECK FAILED" (dpb's verdict tables print it for any failed check
    that is not a documented erratum),
  * calls a display function (dpbplot.Show…, gonbui.Display…) but shows
    nothing: GoNB can drop the display of a program that exits at once, so
    a cell that should show a figure or a table and shows none fails.

Usage: nbcheck.py [--expect-fail] NOTEBOOK...
       nbcheck.py --normalize NOTEBOOK...   (drop per-cell execution timestamps
                                             in place, so re-runs diff cleanly)
Exit status 0 when every notebook passes (with --expect-fail: when every one
fails), 1 otherwise. Python standard library only (Debian's /usr/bin/python3).
"""

import json
import re
import sys

BAD_LINE = re.compile(
    r"exit status [1-9]|panic: |--- FAIL|signal: [A-Za-z]|CHECK FAILED"
)
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
    """Returns a list of problems found in the notebook at path."""
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    problems = []
    code_cells = 0
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        code_cells += 1
        where = f"cell {i} ({cell.get('id', '?')})"
        if join(cell.get("source", "")).strip() and cell.get("execution_count") is None:
            problems.append(f"{where}: not executed")
        src = join(cell.get("source", ""))
        shown = [o for o in cell.get("outputs", [])
                 if o.get("output_type") in ("display_data", "execute_result", "update_display_data")]
        if DISPLAYS.search(src) and not shown and cell.get("execution_count") is not None:
            problems.append(f"{where}: calls a display function but shows nothing (display lost?)")
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                problems.append(
                    f"{where}: error output {out.get('ename', '')}: {out.get('evalue', '')}".rstrip()
                )
                continue
            for name, text in texts(out):
                for line in text.splitlines():
                    if BAD_LINE.search(line):
                        problems.append(f"{where}: {name}: {line.strip()[:200]}")
    if code_cells == 0:
        problems.append("no code cells")
    return problems


def normalize(path):
    """Removes nbclient's per-cell execution timestamps from the notebook."""
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    for cell in nb.get("cells", []):
        cell.get("metadata", {}).pop("execution", None)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write("\n")


def main(argv):
    if argv and argv[0] == "--normalize":
        for path in argv[1:]:
            normalize(path)
        return 0
    expect_fail = False
    if argv and argv[0] == "--expect-fail":
        expect_fail, argv = True, argv[1:]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    ok = True
    for path in argv:
        try:
            problems = check(path)
        except (OSError, ValueError) as e:
            problems = [f"unreadable: {e}"]
        if problems:
            print(f"{'caught' if expect_fail else 'FAILED'}  {path}")
            for p in problems[:20]:
                print(f"        {p}")
            if len(problems) > 20:
                print(f"        … and {len(problems) - 20} more")
        else:
            print(f"ok      {path}")
        if bool(problems) != expect_fail:
            ok = False
            if expect_fail:
                print(f"        expected failures, found none")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
