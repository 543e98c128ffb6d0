"""The PyTorch export is the lab's experiment: its runs reach the rates of the lab's claims table.

    /usr/bin/python3 tests/torch_export/check.py build/release/sqrtdk [--seeds N]

1. `sqrtdk export-torch` writes the default exercise (the 'adam' preset) and the 'sgd' preset over N seeds
   (default 10) as scripts; both run at once, one core and one torch thread each, headless (MPLBACKEND=Agg).
2. Each run is read as the script reads it (its RESULTS: learned, steps to threshold), and every claim of the
   preset that a loss curve decides (learns, fails, slower, similar; not the mechanism claims, which need the
   lab's per-layer metrics) is counted over the seeds the way the lab counts it (src/core/claims/claims.cpp),
   next to the same count over the claims table's 20 seeds (`sqrtdk claims --json` gives them seed by seed).
3. The tolerance: the lab's count is k of K seeds, PyTorch's j of n, two binomial samples.  Their random numbers
   differ, so only rates can agree: the check fails when Fisher's exact test says two samples of one rate would be
   this far apart less than 1 time in 100 (two-sided p < 0.01).  At K = 20 and n = 10: a claim the lab measured on
   20 of 20 seeds must hold on at least 7 of 10 here, 19 of 20 on at least 6, 16 of 20 on 3 to 10.  The accepted
   range is printed for each claim.
4. The notebook of a small exercise (2 seeds, 60 steps) is valid nbformat 4, and its code cells run in order in
   one namespace.

Prints each count beside the table's and the run time.  Exit status 0 when every check holds.
"""
import json
import math
import os
import runpy
import subprocess
import sys
import tempfile
import time
from math import comb

SIGNIFICANCE = 0.01
PRESETS = {"adam": [], "sgd": ["--scenario", "sgd"]}  # the default exercise is the 'adam' preset
LOSS_CLAIMS = ("learns", "fails", "slower", "similar")


def fisher_p(k, K, j, n):
    """Two-sided p of Fisher's exact test: k of K against j of n."""
    total, hits = K + n, k + j

    def table(x):  # probability of x hits in the first sample, margins fixed
        return comb(K, x) * comb(n, hits - x) / comb(total, hits)

    observed = table(k)
    return sum(table(x) for x in range(max(0, hits - n), min(K, hits) + 1) if table(x) <= observed * (1 + 1e-9))


def accepted(k, K, n):
    """The PyTorch counts j of n that pass against the lab's k of K."""
    ok = [j for j in range(n + 1) if fisher_p(k, K, j, n) >= SIGNIFICANCE]
    return (min(ok), max(ok)) if ok else None


def claim_count(claim, variants):
    """Seeds on which a claim holds, as src/core/claims/claims.cpp counts it (the reference is the first variant).

    variants: {name: [{"learned": bool, "steps": first step below the threshold}, one per seed]}, the lab's
    measurement (`sqrtdk claims --json`) and PyTorch's runs alike, so both are counted by this one function.
    """
    runs = variants[claim["variant"]]
    reference = next(iter(variants.values()))
    kind, parameter = claim["kind"], claim["parameter"]
    if kind == "learns":
        return sum(r["learned"] for r in runs)
    if kind == "fails":
        return sum(not r["learned"] for r in runs)
    k = 0
    for a, r in zip(runs, reference):
        if not r["learned"]:
            continue
        ratio = a["steps"] / r["steps"] if a["learned"] else math.inf
        k += ratio >= parameter if kind == "slower" else 1 / parameter < ratio < parameter
    return k


def run_script(path, out):
    """Child: run a generated script as a learner would, on one thread; write each run's summary to `out`."""
    import torch
    torch.set_num_threads(1)
    namespace = runpy.run_path(path, run_name="__main__")
    results = {v: [{"learned": r["summary"]["learned"], "steps": r["summary"]["steps_to_threshold"]} for r in runs]
               for v, runs in namespace["RESULTS"].items()}
    with open(out, "w") as f:
        json.dump(results, f)


def run_notebook(path):
    """Validate a notebook and run its code cells in order in one namespace."""
    import nbformat
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    namespace = {"__name__": "__main__"}
    cells = [c for c in notebook.cells if c.cell_type == "code"]
    for cell in cells:
        exec(compile(cell.source, path, "exec"), namespace)
    results = namespace["RESULTS"]
    assert len(results) == 2 and all(len(runs) == 2 for runs in results.values()), results.keys()
    assert all(len(r["loss"]) == 60 for runs in results.values() for r in runs)
    print(f"notebook: valid nbformat {notebook.nbformat}.{notebook.nbformat_minor}, "
          f"{len(cells)} code cells ran in order")


def export(sqrtdk, args, path):
    with open(path, "w") as f:
        subprocess.run([sqrtdk, "export-torch", *args], stdout=f, check=True)


def main():
    if sys.argv[1] == "--run-script":
        return run_script(sys.argv[2], sys.argv[3])
    sqrtdk = os.path.abspath(sys.argv[1])
    seeds = int(sys.argv[sys.argv.index("--seeds") + 1]) if "--seeds" in sys.argv else 10
    started = time.time()
    claims = {s["id"]: s for s in json.loads(subprocess.run([sqrtdk, "claims", "--json"], capture_output=True,
                                                            check=True, text=True).stdout)["scenarios"]}
    env = dict(os.environ, MPLBACKEND="Agg", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    failures = []
    with tempfile.TemporaryDirectory() as work:
        children = {}
        for preset, args in PRESETS.items():
            script = os.path.join(work, f"{preset}.py")
            export(sqrtdk, [*args, "--seeds", str(seeds)], script)
            out = os.path.join(work, f"{preset}.json")
            children[preset] = (subprocess.Popen([sys.executable, __file__, "--run-script", script, out], cwd=work,
                                                 env=env, stdout=subprocess.DEVNULL), out)
        notebook = os.path.join(work, "small.ipynb")
        export(sqrtdk, ["--notebook", "--seeds", "2", "--steps", "60"], notebook)
        for preset, (child, out) in children.items():
            if child.wait() != 0:
                failures.append(f"{preset}: the script exited with {child.returncode}")
                continue
            with open(out) as f:
                variants = json.load(f)
            table = claims[preset]
            lab = {v: [{"learned": o["learned"], "steps": o["reached"]} for o in seeds]
                   for v, seeds in table["variants"].items()}
            for claim in table["claims"]:
                if claim["kind"] not in LOSS_CLAIMS:
                    continue
                j, n = claim_count(claim, variants), len(variants[claim["variant"]])
                k, K = claim_count(claim, lab), len(lab[claim["variant"]])
                p = fisher_p(k, K, j, n)
                lo, hi = accepted(k, K, n)
                what = f"{preset}: {claim['variant']} {claim['kind']}" + (
                    f" {claim['parameter']:g}" if claim["kind"] in ("slower", "similar") else "")
                print(f"{what:<28} lab {k:>2} of {K}   PyTorch {j:>2} of {n} (accepted {lo}-{hi}, p = {p:.3g})")
                if p < SIGNIFICANCE:
                    failures.append(f"{what}: PyTorch {j} of {n} against the lab's {k} of {K} (p = {p:.3g})")
        cwd = os.getcwd()
        os.chdir(work)
        os.environ["MPLBACKEND"] = "Agg"
        import torch
        torch.set_num_threads(1)
        try:
            run_notebook(notebook)
        except Exception as e:  # noqa: BLE001 - any failure of the notebook is the check's failure
            failures.append(f"notebook: {type(e).__name__}: {e}")
        os.chdir(cwd)
    print(f"run time {time.time() - started:.0f} s ({seeds} seeds per variant)")
    for failure in failures:
        print("FAIL", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
