"""Write the PyTorch reference fixtures that tests/cpp/test_torch_reference.cpp compares against.

    /usr/bin/python3 tests/reference/make_fixtures.py [--out DIR]

For each configuration below it draws parameters and a copy-task batch from its own seeded torch
generator, computes the loss and every gradient in float64 with tests/reference/torch_model.py, and
writes tests/fixtures/torch_<name>.txt (format: fixture_format.py).  The output is deterministic, so
rerunning it must leave the files unchanged.

Small fixtures (one per scale mode) list every parameter and gradient.  The canonical-size fixture
generates its parameters from param_uniform lines and samples its large gradients, because listing
its ~100k parameters and gradients would take about 5 MB.
"""
import argparse
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture_format  # noqa: E402
import torch_model  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "fixtures"))

# d_ff 32 (not 4 * d_model) keeps each file under 300 KB and exercises d_ff != 4 * d_model.
SMALL = dict(n_layers=2, d_model=16, n_heads=2, d_ff=32, copy_length=3, n_symbols=5, batch=3)
CANONICAL = dict(n_layers=2, d_model=64, n_heads=1, d_ff=256, copy_length=10, n_symbols=10, batch=4)

# (name, config, seed, whether parameters are generated rather than listed)
FIXTURES = [
    ("scaled", torch_model.Config(**SMALL, scale="scaled"), 101, False),
    ("unscaled", torch_model.Config(**SMALL, scale="unscaled"), 102, False),
    ("alpha", torch_model.Config(**SMALL, scale="alpha", alpha=0.25), 103, False),
    ("qknorm", torch_model.Config(**SMALL, scale="qknorm"), 104, False),
    ("canonical", torch_model.Config(**CANONICAL, scale="scaled"), 105, True),
]


def parameter_role(name):
    """What a parameter is, which decides how it is drawn."""
    if name in ("wte", "wpe"):
        return "embedding"
    if name.endswith("qk_gain"):
        return "gain_qk"
    if name.endswith(".weight"):  # only LayerNorms use PyTorch's names; Linears are w*, b*
        return "gain_ln"
    if name.rsplit(".", 1)[1].startswith("w"):
        return "weight"
    return "bias"


def draw_normal(name, shape, cfg, generator):
    """Small fixtures: weights N(0, 1/fan_in) so q.k logits have std ~ sqrt(d_k) * scale (attention
    neither uniform nor saturated), and every bias and gain off its trivial value so that a gradient
    that ignores it shows."""
    role = parameter_role(name)
    noise = torch.randn(shape, generator=generator, dtype=torch.float64)
    if role == "embedding":
        return noise
    if role == "weight":
        return noise / math.sqrt(shape[0])
    if role == "gain_ln":
        return 1.0 + 0.2 * noise
    if role == "gain_qk":
        return math.sqrt(cfg.d_k) + 0.3 * noise
    return 0.2 * noise


def uniform_spec(name, shape, cfg, seed):
    """Canonical fixture: (center, halfwidth, seed) of a param_uniform line; weights get the power of
    two nearest sqrt(3 / fan_in), i.e. about unit-variance projections."""
    role = parameter_role(name)
    if role == "embedding":
        return 0.0, 1.0, seed
    if role == "weight":
        return 0.0, 2.0 ** round(math.log2(math.sqrt(3.0 / shape[0]))), seed
    if role == "gain_ln":
        return 1.0, 0.25, seed
    if role == "gain_qk":
        return math.sqrt(cfg.d_k), 0.25, seed
    return 0.0, 0.125, seed


def build_fixture(cfg, seed, generated):
    generator = torch.Generator().manual_seed(seed)
    params, specs = {}, {}
    for index, (name, shape) in enumerate(torch_model.parameter_shapes(cfg)):
        if generated:
            specs[name] = uniform_spec(name, shape, cfg, seed * 1000 + index)
            params[name] = fixture_format.uniform_values(shape, *specs[name])
        else:
            params[name] = draw_normal(name, shape, cfg, generator)
    symbols = torch.randint(0, cfg.n_symbols, (cfg.batch, cfg.copy_length), generator=generator)
    inputs, targets = torch_model.copy_batch(cfg, symbols)
    loss, grads = torch_model.loss_and_grads(params, cfg, inputs, targets)
    config = {key: getattr(cfg, key) for key in fixture_format.CONFIG_KEYS}
    return fixture_format.Fixture(config, inputs, targets, loss, params, specs, grads)


def check_round_trip(path, written):
    """Re-read the file: same parameters bit for bit, and the same loss recomputed from them."""
    read = fixture_format.read_fixture(path)
    for name, tensor in written.params.items():
        if not torch.equal(read.params[name], tensor):
            raise AssertionError(f"{path}: {name} does not round-trip")
    cfg = torch_model.Config(**read.config)
    loss, _ = torch_model.loss_and_grads(read.params, cfg, read.inputs, read.targets)
    if loss != written.loss:
        raise AssertionError(f"{path}: loss {loss!r} recomputed from the file, {written.loss!r} written")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=DEFAULT_OUT, help="output directory (default: tests/fixtures)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, cfg, seed, generated in FIXTURES:
        fixture = build_fixture(cfg, seed, generated)
        path = os.path.join(args.out, f"torch_{name}.txt")
        comments = [f"PyTorch {torch.__version__} float64 reference for the '{name}' configuration.",
                    "Written by tests/reference/make_fixtures.py; format in tests/reference/fixture_format.py."]
        fixture_format.write_fixture(path, fixture, comments)
        check_round_trip(path, fixture)
        print(f"{path}: loss {fixture.loss:.6f}, {os.path.getsize(path) / 1024:.0f} KB")


if __name__ == "__main__":
    main()
