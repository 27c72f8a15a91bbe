"""The harsher fuzz of the command line (issue 63): inputs a careless or hostile user makes.

Each case writes its input into a folder of its own, runs ``kernel-patterns`` on it in a
subprocess (with a time limit) and reports: the exit code, the last line of stderr, the
time, whether the input is unchanged, whether anything was written outside the output
folder, and whether a traceback was printed. A case passes when it exits 0, or 2 with one
line on stderr and no traceback, within the time limit, with its input unchanged and
nothing written outside ``--out``.

Families: binary garbage, NUL bytes, UTF-16/UTF-32, mixed and ``\\r`` line endings, one
20 MB line, 20,000 columns, 200,000 rows, huge integers, subnormals, header oddities, broken
and partitioned Parquet (nested and binary columns, a corrupt footer, parts whose schemas
disagree, locally and with ``--scheduler``), a corrupt ``.csv.gz`` and argument abuse
(``--out`` at the input file or at the folder holding it, a folder the tool did not make,
``--out .``, ``--blocksize 0``, no command).

Usage::

    python benchmarks/fuzz_cli.py                 # every case but the slow ones
    python benchmarks/fuzz_cli.py --all           # with 200,000 rows and the 20 MB line
    python benchmarks/fuzz_cli.py -k parquet      # the cases whose name holds "parquet"

Exit status 1 when a case fails. ``--scheduler`` cases start a local Dask cluster (two
workers, one thread each) and are left out with ``--no-dask``.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

Builder = Callable[[Path], list[str]]  # writes the inputs into a folder, returns the argv


@dataclass
class Case:
    name: str
    build: Builder
    slow: bool = False
    dask: bool = False
    expect: tuple[int, ...] = (0, 2)


@dataclass
class Result:
    name: str
    code: int | None
    line: str
    seconds: float
    unchanged: bool
    outside: list[str] = field(default_factory=list)
    traceback: bool = False

    def ok(self, expect: tuple[int, ...]) -> bool:
        return (self.code in expect and self.unchanged and not self.outside
                and not self.traceback and (self.code == 0 or bool(self.line)))


CASES: list[Case] = []


def case(name: str, **kw: object) -> Callable[[Builder], Builder]:
    def register(build: Builder) -> Builder:
        CASES.append(Case(name, build, **kw))  # type: ignore[arg-type]
        return build
    return register


def _blobs(n: int = 40, d: int = 2, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.r_[rng.normal(size=(n // 2, d)), rng.normal(size=(n - n // 2, d)) + 6.0]


def _csv_text(X: np.ndarray, sep: str = ",", header: bool = True) -> str:
    head = sep.join(f"x{j}" for j in range(X.shape[1])) + "\n" if header else ""
    return head + "\n".join(sep.join(f"{v:.6g}" for v in row) for row in X) + "\n"


def _write(folder: Path, name: str, data: str | bytes) -> Path:
    p = folder / name
    p.write_bytes(data.encode() if isinstance(data, str) else data)
    return p


def _cluster(p: Path, *extra: str, method: str = "kernel-kmeans") -> list[str]:
    return ["cluster", str(p), "--method", method, "--n-clusters", "2", *extra]


# binary garbage, NUL bytes, encodings, line endings --------------------------------------------

@case("binary-garbage")
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "g.csv", np.random.default_rng(0).bytes(5000)))


@case("nul-bytes")
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "n.csv", _csv_text(_blobs()).replace("\n", "\x00\n", 3)))


@case("utf16-bom")
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "u.csv", _csv_text(_blobs()).encode("utf-16")))


@case("utf16-odd-bytes")
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "u.csv", _csv_text(_blobs()).encode("utf-16")[:-1]))


@case("utf32-bom")
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "u.csv", _csv_text(_blobs()).encode("utf-32")))


@case("cr-line-endings")
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "r.csv", _csv_text(_blobs()).replace("\n", "\r")))


@case("mixed-line-endings")
def _(f: Path) -> list[str]:
    lines = _csv_text(_blobs()).splitlines()
    ends = ["\n", "\r\n", "\r"]
    return _cluster(_write(f, "m.csv", "".join(ln + ends[i % 3] for i, ln in enumerate(lines))))


@case("corrupt-csv-gz")
def _(f: Path) -> list[str]:
    data = bytearray(gzip.compress(_csv_text(_blobs(400)).encode()))
    data[40:60] = b"\xff" * 20
    return _cluster(_write(f, "c.csv.gz", bytes(data)))


# shapes ------------------------------------------------------------------------------------

@case("one-20MB-line", slow=True)
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "l.csv", "1.5," * (20 * 2**20 // 4)))


def _wide(f: Path) -> Path:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 20_000))
    return _write(f, "w.csv", "id," + _csv_text(X).replace("\n", "\nr,", 5)[:-2])


@case("20000-columns-gp")
def _(f: Path) -> list[str]:
    return _cluster(_wide(f), method="gp")


@case("20000-columns-spectral")
def _(f: Path) -> list[str]:
    return _cluster(_wide(f), method="spectral")


@case("20000-columns-embed-mds")
def _(f: Path) -> list[str]:
    return ["embed", str(_wide(f)), "--method", "mds"]


@case("20000-columns-rank")
def _(f: Path) -> list[str]:
    return ["rank", str(_wide(f)), "--target", "x0", "--bins", "2"]


@case("200000-rows-rank", slow=True)
def _(f: Path) -> list[str]:
    X = np.random.default_rng(0).normal(size=(200_000, 2))
    return ["rank", str(_write(f, "big.csv", "a,score\n" + "\n".join(
        f"{a:.5f},{b:.5f}" for a, b in X) + "\n")), "--target", "score", "--bins", "3"]


@case("huge-ints")
def _(f: Path) -> list[str]:
    rows = "\n".join(f"{2**70 + i},{10**30 * (i % 3)}" for i in range(30))
    return _cluster(_write(f, "h.csv", "a,b\n" + rows + "\n"))


@case("subnormals")
def _(f: Path) -> list[str]:
    rows = "\n".join(f"{1e-320 * (i % 5)},{5e-324 * i}" for i in range(30))
    return _cluster(_write(f, "s.csv", "a,b\n" + rows + "\n"))


# header oddities ---------------------------------------------------------------------------

@case("header-repeated-names")
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "h.csv", "a,a\n" + _csv_text(_blobs(), header=False)))


@case("header-empty-names")
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "h.csv", ",\n" + _csv_text(_blobs(), header=False)))


@case("header-unicode-and-long-names")
def _(f: Path) -> list[str]:
    head = "é" * 500 + ",\U0001f600 名前\n"
    return _cluster(_write(f, "h.csv", head + _csv_text(_blobs(), header=False)))


@case("header-only-numbers")
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "h.csv", _csv_text(_blobs(), header=False)))


# Parquet -----------------------------------------------------------------------------------

def _parquet(f: Path, name: str, table: object) -> Path:
    import pyarrow.parquet as pq
    p = f / name
    pq.write_table(table, p)  # type: ignore[arg-type]
    return p


@case("parquet-struct-and-map")
def _(f: Path) -> list[str]:
    import pyarrow as pa
    X = _blobs()
    t = pa.table({"a": X[:, 0], "b": X[:, 1],
                  "s": pa.array([{"u": 1, "v": "x"}] * len(X)),
                  "m": pa.array([[("k", 1)]] * len(X), type=pa.map_(pa.string(), pa.int64()))})
    return _cluster(_parquet(f, "n.parquet", t))


@case("parquet-binary-column")
def _(f: Path) -> list[str]:
    import pyarrow as pa
    X = _blobs()
    t = pa.table({"a": X[:, 0], "b": X[:, 1],
                  "blob": pa.array([b"\xff\xfe" + bytes([i]) for i in range(len(X))])})
    return _cluster(_parquet(f, "b.parquet", t))


@case("parquet-corrupt-footer")
def _(f: Path) -> list[str]:
    import pyarrow as pa
    X = _blobs()
    p = _parquet(f, "c.parquet", pa.table({"a": X[:, 0], "b": X[:, 1]}))
    data = bytearray(p.read_bytes())
    data[-40:-8] = b"\x13" * 32
    p.write_bytes(bytes(data))
    return _cluster(p)


@case("parquet-random-bytes")
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "r.parquet", b"PAR1" + np.random.default_rng(1).bytes(3000)
                           + b"PAR1"))


def _partitioned(f: Path) -> Path:
    import pyarrow as pa
    X = _blobs()
    d = f / "parts"
    d.mkdir()
    _parquet(d, "part-0.parquet", pa.table({"a": X[:20, 0], "b": X[:20, 1]}))
    _parquet(d, "part-1.parquet", pa.table({"a": X[20:, 0], "c": X[20:, 1]}))
    return d


@case("parquet-parts-disagree-local")
def _(f: Path) -> list[str]:
    return _cluster(_partitioned(f))


@case("parquet-parts-disagree-scheduler", dask=True)
def _(f: Path) -> list[str]:
    return _cluster(_partitioned(f), "--scheduler", "{scheduler}")


@case("csv-glob-mixed-encodings-scheduler", dask=True)
def _(f: Path) -> list[str]:
    X = _blobs(400)
    _write(f, "p0.csv", ("é," + _csv_text(X[:200])[2:]).encode("utf-8"))
    _write(f, "p1.csv", ("é," + _csv_text(X[200:])[2:]).encode("cp1252"))
    return _cluster(Path(f / "p*.csv"), "--scheduler", "{scheduler}")


@case("blocksize-0-scheduler", dask=True)
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "t.csv", _csv_text(_blobs())), "--scheduler", "{scheduler}",
                    "--blocksize", "0")


# argument abuse ----------------------------------------------------------------------------

@case("out-is-the-input-file")
def _(f: Path) -> list[str]:
    p = _write(f, "t.csv", _csv_text(_blobs()))
    return _cluster(p, "--out", str(p), "--force")


@case("out-is-the-inputs-folder-force")
def _(f: Path) -> list[str]:
    p = _write(f, "t.csv", _csv_text(_blobs()))
    return _cluster(p, "--out", str(f), "--force")


@case("out-is-a-foreign-folder-force")
def _(f: Path) -> list[str]:
    p = _write(f, "t.csv", _csv_text(_blobs()))
    (f / "mine").mkdir()
    _write(f / "mine", "notes.txt", "mine")
    return _cluster(p, "--out", str(f / "mine"), "--force")


@case("out-dot")
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "t.csv", _csv_text(_blobs())), "--out", ".")


@case("out-dot-force")
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "t.csv", _csv_text(_blobs())), "--out", ".", "--force")


@case("out-dotdot-force")
def _(f: Path) -> list[str]:
    return _cluster(_write(f, "t.csv", _csv_text(_blobs())), "--out", "..", "--force")


@case("n-clusters-abuse")
def _(f: Path) -> list[str]:
    return ["cluster", str(_write(f, "t.csv", _csv_text(_blobs()))), "--method",
            "kernel-kmeans", "--n-clusters", "-1"]


@case("no-command", expect=(2,))
def _(f: Path) -> list[str]:
    return []


# running -----------------------------------------------------------------------------------

def _snapshot(folder: Path, skip: Path) -> dict[str, str]:
    """sha256 of every file under ``folder`` (the output folder ``skip`` left out)."""
    found = {}
    for root, dirs, files in os.walk(folder):
        if Path(root) == skip or skip in Path(root).parents:
            dirs[:] = []
            continue
        for name in files:
            p = Path(root) / name
            found[str(p.relative_to(folder))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return found


def run_case(c: Case, work: Path, scheduler: str | None, timeout: float) -> Result:
    folder = work / c.name / "data"
    folder.mkdir(parents=True)
    argv = [a.replace("{scheduler}", scheduler or "") for a in c.build(folder)]
    out = folder.parent / "results"
    if argv and "--out" not in argv:
        argv += ["--out", str(out)]
    elif "--out" in argv:
        given = Path(argv[argv.index("--out") + 1])
        out = given if given.is_absolute() else (folder / given)
    skip = out.resolve()
    if skip == folder.resolve() or skip in folder.resolve().parents:
        skip = folder.parent / "nothing to skip"  # --out holds the input: watch everything
    before = _snapshot(folder.parent, skip)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    start = time.perf_counter()
    try:
        r = subprocess.run([sys.executable, "-m", "kernel_patterns.cli", "--quiet", *argv]
                           if argv else [sys.executable, "-m", "kernel_patterns.cli"],
                           cwd=folder, capture_output=True, text=True, timeout=timeout,
                           env=env, check=False)
        code, err = r.returncode, r.stderr
    except subprocess.TimeoutExpired as exc:
        code, err = None, f"timed out after {timeout:.0f} s {exc.stderr or ''}"
    seconds = time.perf_counter() - start
    after = _snapshot(folder.parent, skip)
    unchanged = all(after.get(k) == v for k, v in before.items())
    outside = sorted(set(after) - set(before))
    lines = [ln for ln in str(err).strip().splitlines() if ln.strip()]
    return Result(c.name, code, lines[-1][:160] if lines else "", seconds, unchanged, outside,
                  "Traceback" in str(err))


@contextlib.contextmanager
def local_scheduler(enabled: bool) -> Iterator[str | None]:
    if not enabled:
        yield None
        return
    from distributed import LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--all", action="store_true", help="also the slow cases")
    ap.add_argument("--no-dask", action="store_true", help="leave out the --scheduler cases")
    ap.add_argument("-k", default="", help="only the cases whose name holds this")
    ap.add_argument("--timeout", type=float, default=120.0)
    args = ap.parse_args(argv)
    chosen = [c for c in CASES if args.k in c.name and (args.all or not c.slow)
              and not (args.no_dask and c.dask)]
    failed = 0
    print(f"{'case':40s} {'exit':>4s} {'time':>7s} {'input':>9s}  stderr (last line)")
    with tempfile.TemporaryDirectory() as tmp, \
            local_scheduler(any(c.dask for c in chosen)) as scheduler:
        for c in chosen:
            r = run_case(c, Path(tmp), scheduler, args.timeout)
            ok = r.ok(c.expect)
            failed += not ok
            state = "unchanged" if r.unchanged else "CHANGED"
            extra = (" TRACEBACK" if r.traceback else "") + (
                f" WROTE {r.outside[:3]}" if r.outside else "")
            print(f"{r.name:40s} {r.code!s:>4s} {r.seconds:6.1f}s {state:>9s}  "
                  f"{'ok ' if ok else 'FAIL'} {r.line}{extra}", flush=True)
    print(f"{len(chosen) - failed} of {len(chosen)} cases pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
