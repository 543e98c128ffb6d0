"""PyTorch peer of the lab's benchmark: training steps/s of the same model, task and optimizer on one CPU thread.

    /usr/bin/python3 tests/reference/bench_torch.py [--json | --serve] [--repeats N] [--seconds S] [--warmup S]

The model is torch_model.py's (the independent implementation the test fixtures come from), in float32, with
the C++ trainer's Xavier init; each step samples a fresh copy-task batch (torch_model.copy_batch: same layout,
batch 32, copy length 10, 10 symbols), runs forward and backward by autograd and takes an Adam step with the
lab's defaults (lr 1e-3, betas 0.9/0.98, eps 1e-9).  Evaluation is off, as in the lab's figures.  The C++ step
also computes its metrics (gradient norms, attention entropy, top weight); this one does not, which only
favours PyTorch.

Timing follows src/bench/timing.cpp: warm up until the rate stops improving, then the median of repeats.
The output names the BLAS that torch's matrix products went through (read from the libraries mapped into this
process, not assumed) and its thread count.  With --serve it is a step server instead (protocol in
scripts/bench/protocol.mjs), driven by scripts/bench.mjs.  Run with Debian's /usr/bin/python3, the interpreter
with torch.
"""
import os

# One thread everywhere, set before torch (and the BLAS it loads) starts its thread pools: OpenBLAS reads
# OPENBLAS_NUM_THREADS once, at load time, and torch.set_num_threads does not reach it.
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import ctypes  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import torch  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_model  # noqa: E402

# The two configurations of the benchmark (C++: bench_configs() in src/bench/bench_main.cpp).
TASK = dict(copy_length=10, n_symbols=10, batch=32)
CONFIGS = [
    ("canonical", torch_model.Config(n_layers=2, d_model=64, n_heads=1, d_ff=256, **TASK)),
    ("wide", torch_model.Config(n_layers=2, d_model=128, n_heads=4, d_ff=512, **TASK)),
]
ADAM = dict(lr=1e-3, betas=(0.9, 0.98), eps=1e-9)  # OptimConfig's defaults (src/core/settings/config.hpp)


def xavier_parameters(cfg, generator):
    """float32 leaves in the C++ layout, drawn like Model::initialize with InitScheme::xavier."""
    params = {}
    for name, shape in torch_model.parameter_shapes(cfg):
        if name in ("wte", "wpe"):
            value = torch.randn(shape, generator=generator)
        elif name.endswith(".weight"):  # LayerNorm gains
            value = torch.ones(shape)
        elif len(shape) == 2:  # Linear weights (in, out)
            bound = math.sqrt(6.0 / (shape[0] + shape[1]))
            value = (torch.rand(shape, generator=generator) * 2 - 1) * bound
        else:  # Linear and LayerNorm biases
            value = torch.zeros(shape)
        params[name] = value.float().requires_grad_(True)
    return params


class CopyTaskTrainer:
    """One training run: parameters, Adam and the data stream of a seed."""

    def __init__(self, cfg, seed=0):
        self.cfg = cfg
        self.generator = torch.Generator().manual_seed(seed)
        self.params = xavier_parameters(cfg, self.generator)
        self.optimizer = torch.optim.Adam(self.params.values(), **ADAM)
        self.last_loss = float("nan")

    def step(self):
        cfg = self.cfg
        symbols = torch.randint(0, cfg.n_symbols, (cfg.batch, cfg.copy_length), generator=self.generator)
        inputs, targets = torch_model.copy_batch(cfg, symbols)
        loss = torch_model.copy_loss(self.params, cfg, inputs, targets)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        self.last_loss = loss.item()
        if not math.isfinite(self.last_loss):
            raise RuntimeError("the run diverged: its steps/s would not be a training rate")

    def steps(self, n):
        for _ in range(n):
            self.step()


# ---- timing (the protocol of src/bench/timing.cpp) --------------------------------------------------

def seconds_per_call(run, calls):
    t0 = time.perf_counter()
    run(calls)
    return (time.perf_counter() - t0) / calls


def calls_lasting(seconds, per_call):
    return max(1, round(seconds / per_call))


def warm_up(run, p):
    """Seconds per call of the last warm-up round, and the time spent warming up."""
    start = time.perf_counter()
    last, calls = 0.0, 0
    while calls < p["warmup_min_calls"] or time.perf_counter() - start < p["warmup_seconds"]:
        last = seconds_per_call(run, 1)
        calls += 1
    while time.perf_counter() - start < p["warmup_max_seconds"]:
        round_time = seconds_per_call(run, calls_lasting(p["repeat_seconds"], last))
        improving = round_time < 0.95 * last
        last = round_time
        if not improving:
            break
    return last, time.perf_counter() - start


def time_steps(trainer, p):
    """The whole protocol for one configuration, standalone."""
    last, warmup_seconds = warm_up(trainer.steps, p)
    per_repeat_calls = calls_lasting(p["repeat_seconds"], last)
    per_repeat = [seconds_per_call(trainer.steps, per_repeat_calls) for _ in range(p["repeats"])]
    return {
        "steps_per_second": 1.0 / statistics.median(per_repeat),
        "steps_per_second_repeats": [1.0 / s for s in per_repeat],
        "steps_per_repeat": per_repeat_calls,
        "warmup_seconds": warmup_seconds,
        "last_loss": trainer.last_loss,
    }


def serve(trainers, p, ready):
    """The step-server loop: one request per stdin line, one JSON line back."""
    def send(reply):
        print(json.dumps(reply), flush=True)

    send(dict(ready=True, **ready))
    for line in sys.stdin:
        op, *rest = line.split() or [""]
        if op == "finish":
            send({"configs": [{"name": name, "last_loss": t.last_loss} for name, t in trainers.items()]})
            return 0
        trainer = trainers.get(rest[0]) if rest else None
        if trainer is None or op not in ("warmup", "run"):
            send({"error": f"bad request: {line.strip()}"})
            return 1
        try:
            if op == "warmup":
                last, spent = warm_up(trainer.steps, p)
                send({"seconds_per_step": last, "warmup_seconds": spent})
            else:
                steps = int(rest[1])
                send({"seconds": steps * seconds_per_call(trainer.steps, steps)})
        except (RuntimeError, ValueError, IndexError) as error:
            send({"error": str(error)})
            return 1
    return 1  # input ended without "finish"


# ---- which BLAS ------------------------------------------------------------------------------------------

def mapped_blas_libraries():
    """Real paths of the BLAS libraries mapped into this process (after a matrix product has run)."""
    paths = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1] if len(line.split()) >= 6 else ""
            if "blas" in os.path.basename(path).lower():
                paths.add(os.path.realpath(path))
    return sorted(paths)


def blas_in_use():
    torch.ones(64, 64) @ torch.ones(64, 64)  # makes sure the BLAS behind torch's products is loaded
    info = {"libraries": mapped_blas_libraries(), "name": "unknown", "threads": None}
    for path in info["libraries"]:
        lib = ctypes.CDLL(path)
        if hasattr(lib, "openblas_get_config"):
            lib.openblas_get_config.restype = ctypes.c_char_p
            info["name"] = lib.openblas_get_config().decode().strip()  # "OpenBLAS 0.3.21 ..."
            info["threads"] = lib.openblas_get_num_threads()
            break
    else:
        if any("/blas/" in p for p in info["libraries"]):
            info["name"] = "reference BLAS (Netlib, libblas3)"
    return info


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true", help="print JSON")
    mode.add_argument("--serve", action="store_true", help="be a step server on stdin/stdout")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=0.4, help="length of one repeat")
    parser.add_argument("--warmup", type=float, default=1.0, help="minimum warm-up")
    args = parser.parse_args()
    protocol = dict(warmup_seconds=args.warmup, warmup_max_seconds=15.0, warmup_min_calls=5,
                    repeats=args.repeats, repeat_seconds=args.seconds)
    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    ready = {"torch": torch.__version__, "threads": torch.get_num_threads(), "blas": blas_in_use()}
    trainers = {name: CopyTaskTrainer(cfg) for name, cfg in CONFIGS}
    if args.serve:
        return serve(trainers, protocol, ready)
    report = dict(ready, configs=[dict(name=name, **time_steps(t, protocol)) for name, t in trainers.items()])
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"torch {report['torch']}, {report['threads']} thread, BLAS: {report['blas']['name']} "
          f"({', '.join(report['blas']['libraries'])}, {report['blas']['threads']} thread)")
    for c in report["configs"]:
        print(f"  {c['name']}: {c['steps_per_second']:.1f} steps/s (last loss {c['last_loss']:.3g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
