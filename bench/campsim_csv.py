"""campsim's run files (NAME.jobs.csv, NAME.campaigns.csv) for the bench scripts: one reader, so
that every script takes the same fields as possibly unknown and names bad input the same way."""
import csv
import sys

# campsim leaves these empty (or writes -1) for a job it never started or that never ended, and
# for a campaign that never finished: read as -1. Any other empty number is bad input.
MAYBE_UNKNOWN = frozenset(("start_s", "end_s", "wait_s", "response_s", "run_s", "flow_s"))


def read(path, whole=(), real=()):
    """The rows of a campsim CSV as dicts, the columns in `whole` as ints and those in `real` as
    floats (an empty MAYBE_UNKNOWN field: -1); the other columns stay text. Raises ValueError
    naming the file and the columns it lacks, or the file, line and column of a value that is no
    number."""
    rows = []
    with open(path, newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in (*whole, *real) if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{path}: no column {', '.join(missing)} (not a campsim run file)")
        for line, row in enumerate(reader, start=2):
            for columns, kind in ((whole, int), (real, float)):
                for column in columns:
                    text = row[column]
                    if text == "" and column in MAYBE_UNKNOWN:
                        text = "-1"
                    try:
                        row[column] = kind(float(text))
                    except (TypeError, ValueError):
                        raise ValueError(f"{path}: line {line}: {column} '{row[column]}' is not"
                                         " a number") from None
            rows.append(row)
    return rows


def read_or_exit(program, path, whole=(), real=()):
    """read(), but bad input stops `program` with its message."""
    try:
        return read(path, whole, real)
    except ValueError as bad:
        sys.exit(f"{program}: {bad}")
