#!/usr/bin/env python3
"""spark-pgn.py: `arbiter --pgn` over Apache Spark, answering as one arbiter does.

Run with spark-submit (PySpark and a Java runtime installed; see docs/pgn.md), which
takes a Python application by its .py name:

  spark-submit scripts/spark-pgn.py [--to check|pgn|uci|epd] [--keep-broken]
                                 [--partitions N] [--arbiter PATH] --out DIR INPUT...

INPUT is a directory of shards (or a file glob): each file a slice of whole games,
read as bytes, sorted by name, one file per partition; or one PGN file, which is cut
at game boundaries here into --partitions slices (default: twice the cores Spark
has, and one per 128 MiB at least), each read by its task from the same path (so on
a cluster a single file must be where every executor sees it at that path; shards
may be anywhere Spark reads, hdfs:// or s3a:// too).

Each partition goes through `arbiter --pgn --to MODE` on its own executor, as bytes:
no decoding, so Latin-1 and Windows-1252 games come out as one arbiter writes them.
The driver gathers the partitions' answers in database order, one partition at a time,
and writes into DIR (created, or emptied of these files):
  DIR/output   what one `arbiter --pgn --to MODE` writes on stdout: the converted
               games, or the verdicts and one summary line for --to check; the game
               numbers count from 1 across the whole database
  DIR/broken   the broken games' reports, numbered the same way (one arbiter's stderr
               for a conversion; the error verdicts for --to check)
  DIR/check    for a conversion: the --to check verdicts and summary of the same games
               (each partition is also checked: that is what numbers the reports)
and prints the summary line "games T ok O errors E plies P" on stdout.

--arbiter PATH  the arbiter binary, the same absolute path on every executor (default:
                `arbiter` on the driver's PATH, made absolute).
Exit status: 0 when every game is correct, 1 when some game is broken, 2 when arbiter
refuses its arguments (its message is printed) or cannot be run, or on bad usage.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

from pyspark import StorageLevel
from pyspark.sql import SparkSession

# A game boundary: a result token, a word of its own, ending its line, then (past blank
# lines) a line starting `[`: the next game's tags. Where arbiter's reader would read on
# (a result line that opens a tag, an escape or a `;` comment) is checked apart.
BOUNDARY = re.compile(rb"(?<![^\s])(?:1-0|0-1|1/2-1/2|\*)[ \t\r]*\n(?:[ \t\r]*\n)*(?=\[)")
GAME_LINE = re.compile(rb"^game (\d+) ")
SUMMARY = re.compile(rb"^games (\d+) ok (\d+) errors (\d+) plies (\d+)$")
SCAN = 1 << 20


def boundary_after(handle, offset, size):
    """The first game boundary at or after `offset`: the offset of the next game's
    first tag line, or `size` when none follows."""
    handle.seek(offset)
    held = b""
    start = offset
    if offset > 0:
        # From the next line's start: the line `offset` falls in may be a tag's.
        while b"\n" not in held:
            more = handle.read(SCAN)
            if not more:
                return size
            held += more
        skip = held.index(b"\n") + 1
        start += skip
        held = held[skip:]
    while True:
        more = handle.read(SCAN)
        held += more
        for match in BOUNDARY.finditer(held):
            line = held[held.rfind(b"\n", 0, match.start()) + 1 : match.end()]
            if line.startswith((b"[", b"%")) or b";" in line:
                continue
            if match.end() < len(held) or not more:
                return start + match.end()
        if not more:
            return size
        # Keep a line's worth, so a boundary across two reads is still seen.
        cut = held.rfind(b"\n", 0, max(0, len(held) - 64))
        if cut > 0:
            start += cut
            held = held[cut:]


def slices_of(path, parts):
    """Cuts the file at `path` into at most `parts` slices of whole games: (start, end)."""
    size = os.path.getsize(path)
    cuts = [0]
    with open(path, "rb") as handle:
        for k in range(1, parts):
            at = boundary_after(handle, max(cuts[-1], size * k // parts), size)
            if at >= size:
                break
            if at > cuts[-1]:
                cuts.append(at)
    cuts.append(size)
    return list(zip(cuts, cuts[1:]))


def read_slice(item):
    path, start, end = item
    with open(path, "rb") as handle:
        handle.seek(start)
        return handle.read(end - start)


def arbiter_task(arbiter, mode, keep_broken):
    """The function each partition runs: its bytes through arbiter, and, for a
    conversion, through `--to check` too."""

    def run(_index, records):
        data = b"".join(records)
        args = [arbiter, "--pgn", "--to", mode] + (["--keep-broken"] if keep_broken else [])
        try:
            converted = subprocess.run(args, input=data, capture_output=True)
        except OSError as error:
            yield (2, b"", f"spark-pgn: cannot run {arbiter}: {error}\n".encode(), b"")
            return
        checked = b""
        if mode != "check" and converted.returncode < 2:
            checked = subprocess.run(
                [arbiter, "--pgn", "--to", "check"], input=data, capture_output=True
            ).stdout
        yield (converted.returncode, converted.stdout, converted.stderr, checked)

    return run


def renumber(text, offset, out, other=None):
    """Writes the `game N` lines of `text` to `out` with N moved on by `offset`; other
    lines go to `other` (dropped when None). Returns the summary line's numbers."""
    summary = None
    for line in text.splitlines(keepends=True):
        game = GAME_LINE.match(line)
        if game:
            out.write(b"game %d " % (int(game.group(1)) + offset) + line[game.end() :])
            continue
        totals = SUMMARY.match(line.rstrip(b"\n"))
        if totals:
            summary = [int(n) for n in totals.groups()]
        elif other is not None:
            other.write(line)
    return summary


def partitions_of(sc, inputs, parts):
    """The input as an RDD whose partition i holds the i-th slice of the database."""
    if len(inputs) == 1 and os.path.isfile(inputs[0]):
        path = os.path.abspath(inputs[0])
        if parts is None:
            size = os.path.getsize(path)
            parts = max(2 * sc.defaultParallelism, -(-size // (128 << 20)))
        slices = [(path, a, b) for a, b in slices_of(path, parts)] or [(path, 0, 0)]
        return sc.parallelize(slices, len(slices)).map(read_slice)
    jvm = sc._jvm
    conf = sc._jsc.hadoopConfiguration()
    names = []
    for given in inputs:
        pattern = jvm.org.apache.hadoop.fs.Path(given)
        fs = pattern.getFileSystem(conf)
        statuses = fs.globStatus(pattern) or []
        for status in statuses:
            found = fs.listStatus(status.getPath()) if status.isDirectory() else [status]
            for entry in found:
                name = entry.getPath().getName()
                if entry.isFile() and not name.startswith(("_", ".")):
                    names.append(entry.getPath().toString())
    if not names:
        raise FileNotFoundError(f"no files in {' '.join(inputs)}")
    # One file per partition, in name order: binaryFiles of one file is one partition,
    # and a union keeps its parts' partitions in order.
    return sc.union([sc.binaryFiles(name).values() for name in sorted(names)])


def run(sc, inputs, mode, out_dir, keep_broken=False, parts=None, arbiter="arbiter"):
    """Runs the job and writes DIR's files as the module says. Returns the exit status
    and what to say: the summary line, or with status 2 arbiter's message."""
    arbiter_path = shutil.which(arbiter) or arbiter
    arbiter_path = os.path.abspath(arbiter_path) if os.sep in arbiter_path else arbiter_path
    rdd = partitions_of(sc, inputs, parts)
    answers = rdd.mapPartitionsWithIndex(arbiter_task(arbiter_path, mode, keep_broken))
    # Every partition runs at once, its answers kept by its executor (spilled to disk if
    # need be); then the driver fetches them one partition at a time, in order.
    # toLocalIterator alone would run one partition after the other.
    answers.persist(StorageLevel.MEMORY_AND_DISK)
    answers.count()
    os.makedirs(out_dir, exist_ok=True)
    names = ["output", "broken"] + (["check"] if mode != "check" else [])
    files = {name: open(os.path.join(out_dir, name), "wb") for name in names}
    if mode == "check" and os.path.exists(os.path.join(out_dir, "check")):
        os.remove(os.path.join(out_dir, "check"))
    totals = [0, 0, 0, 0]
    refused = []
    try:
        for code, stdout, stderr, checked in answers.toLocalIterator():
            if code not in (0, 1):
                refused.append(stderr)
                continue
            offset = totals[0]
            if mode == "check":
                summary = renumber(stdout, offset, files["output"])
                errors = b"".join(l for l in stdout.splitlines(keepends=True) if b" error " in l)
                renumber(errors, offset, files["broken"])
            else:
                files["output"].write(stdout)
                summary = renumber(checked, offset, files["check"])
                renumber(stderr, offset, files["broken"], sys.stderr.buffer)
            if summary is None:
                refused.append(b"spark-pgn: a partition gave no summary line\n")
                continue
            totals = [a + b for a, b in zip(totals, summary)]
        line = b"games %d ok %d errors %d plies %d\n" % tuple(totals)
        files["check" if mode != "check" else "output"].write(line)
    finally:
        for handle in files.values():
            handle.close()
        answers.unpersist()
    if refused:
        # Every partition refuses arguments alike: one message says it.
        return 2, refused[0]
    return (1 if totals[2] else 0), line


def main():
    parser = argparse.ArgumentParser(
        prog="spark-pgn", description="arbiter --pgn over Spark; see the top of this file"
    )
    parser.add_argument("--to", default="check", help="check (default), pgn, uci or epd")
    parser.add_argument("--keep-broken", action="store_true")
    parser.add_argument("--partitions", type=int, default=None)
    parser.add_argument("--arbiter", default="arbiter")
    parser.add_argument("--out", required=True)
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args()
    if args.partitions is not None and args.partitions < 1:
        parser.error("--partitions needs a positive integer")

    spark = SparkSession.builder.appName("spark-pgn").getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    try:
        status, said = run(
            spark.sparkContext,
            args.inputs,
            args.to,
            args.out,
            keep_broken=args.keep_broken,
            parts=args.partitions,
            arbiter=args.arbiter,
        )
    finally:
        spark.stop()
    (sys.stderr if status == 2 else sys.stdout).buffer.write(said)
    sys.exit(status)


if __name__ == "__main__":
    main()
