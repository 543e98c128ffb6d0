"""Recompute a `sqrtdk dump` in PyTorch and report how far its loss and gradients are from torch's.

    sqrtdk dump --out state.json
    /usr/bin/python3 tests/reference/check_dump.py state.json [--loss-tol 1e-13] [--grad-tol 1e-11]

The dump is JSON:
    {"config": {"n_layers", "d_model", "n_heads", "d_ff", "copy_length", "n_symbols", "batch",
                "scale", "alpha", "init", "seed"},
     "inputs": [[...], ...], "targets": [[...], ...],          (B x T token ids)
     "loss": x,
     "params": [{"name", "shape": [...], "values": [row-major flat]}, ...],
     "grads":  [{"name", "shape": [...], "values": [...]}, ...]}

Torch recomputes the loss and every gradient in float64 from the dumped parameters and batch
(tests/reference/torch_model.py).  Gradient errors are measured as in tests/cpp/test_torch_reference.cpp:
per tensor, max |dump - torch| / max(max |torch|, SCALE_FLOOR * the largest |torch gradient| of the
model).  `sqrtdk dump` computes loss and gradients in double (from float32 parameters), so the default
tolerances are that test's double ones; for a dump of float gradients use --loss-tol 1e-6 --grad-tol 1e-4.
Exit status: 0 within tolerance, 1 outside, 2 if the dump is malformed.
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_model  # noqa: E402

SCALE_FLOOR = 1e-2
DOUBLE_LOSS_TOLERANCE = 1e-13
DOUBLE_GRAD_TOLERANCE = 1e-11


class DumpError(ValueError):
    pass


def config_from_dump(c):
    """torch_model.Config from the dump's config object (d_ff 0 means 4 * d_model, as in C++)."""
    scale, alpha = str(c["scale"]), float(c.get("alpha", 0.5))
    if scale.startswith("alpha="):  # scale_label() form, e.g. "alpha=0.25"
        scale, alpha = "alpha", float(scale.split("=", 1)[1])
    d_ff = int(c["d_ff"]) or 4 * int(c["d_model"])
    return torch_model.Config(n_layers=int(c["n_layers"]), d_model=int(c["d_model"]), n_heads=int(c["n_heads"]),
                              d_ff=d_ff, copy_length=int(c["copy_length"]), n_symbols=int(c["n_symbols"]),
                              batch=int(c["batch"]), scale=scale, alpha=alpha)


def tensors_from_dump(entries, what):
    """{name: float64 tensor} from [{"name", "shape", "values"}], checking that values fill the shape."""
    tensors = {}
    for entry in entries:
        name, shape = entry["name"], tuple(entry["shape"])
        values = torch.tensor(entry["values"], dtype=torch.float64)
        if values.numel() != torch.Size(shape).numel():
            raise DumpError(f"{what} {name}: {values.numel()} values for shape {shape}")
        if name in tensors:
            raise DumpError(f"{what} {name} appears twice")
        tensors[name] = values.reshape(shape)
    return tensors


def tokens_from_dump(rows, cfg, what):
    tokens = torch.tensor(rows, dtype=torch.long)
    if tokens.dim() != 2 or tokens.shape[1] != cfg.positions:
        raise DumpError(f"{what}: expected B x {cfg.positions} token ids, got shape {tuple(tokens.shape)}")
    if tokens.min() < 0 or tokens.max() >= cfg.vocab:
        raise DumpError(f"{what}: token ids must be in [0, {cfg.vocab})")
    return tokens


def gradient_errors(dumped, reference):
    """[(name, max |torch|, max abs error, normalised error)] in the reference's (layout) order."""
    if set(dumped) != set(reference):
        raise DumpError(f"gradient names differ from the layout: {sorted(set(dumped) ^ set(reference))}")
    model_scale = max(g.abs().max().item() for g in reference.values())
    rows = []
    for name, ref in reference.items():
        if tuple(dumped[name].shape) != tuple(ref.shape):
            raise DumpError(f"gradient {name}: shape {tuple(dumped[name].shape)}, layout says {tuple(ref.shape)}")
        scale = max(ref.abs().max().item(), SCALE_FLOOR * model_scale)
        error = (dumped[name] - ref).abs().max().item()
        rows.append((name, ref.abs().max().item(), error, error / scale))
    return rows


def check(dump, loss_tol, grad_tol, out=sys.stdout):
    """Print the comparison; return True when loss and every gradient are within tolerance."""
    cfg = config_from_dump(dump["config"])
    inputs = tokens_from_dump(dump["inputs"], cfg, "inputs")
    targets = tokens_from_dump(dump["targets"], cfg, "targets")
    if inputs.shape != targets.shape:
        raise DumpError(f"inputs {tuple(inputs.shape)} and targets {tuple(targets.shape)} differ in shape")
    params = tensors_from_dump(dump["params"], "param")
    loss, grads = torch_model.loss_and_grads(params, cfg, inputs, targets)
    rows = gradient_errors(tensors_from_dump(dump["grads"], "grad"), grads)

    loss_error = abs(float(dump["loss"]) - loss) / abs(loss)
    print(f"config: {cfg}", file=out)
    print(f"loss: dump {float(dump['loss']):.17g}  torch {loss:.17g}  relative error {loss_error:.3e}", file=out)
    print(f"{'gradient':28s} {'max|torch|':>12s} {'max abs err':>12s} {'normalised':>12s}", file=out)
    for name, scale, error, normalised in rows:
        flag = "  <-- over tolerance" if normalised > grad_tol else ""
        print(f"{name:28s} {scale:12.4e} {error:12.4e} {normalised:12.4e}{flag}", file=out)
    worst = max(rows, key=lambda r: r[3])
    ok = loss_error <= loss_tol and worst[3] <= grad_tol
    print(f"worst gradient error {worst[3]:.3e} ({worst[0]}); tolerances: loss {loss_tol:g}, gradients {grad_tol:g}: "
          f"{'OK' if ok else 'FAIL'}", file=out)
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump", help="JSON file written by `sqrtdk dump --out FILE.json`")
    parser.add_argument("--loss-tol", type=float, default=DOUBLE_LOSS_TOLERANCE, help="relative (default %(default)g)")
    parser.add_argument("--grad-tol", type=float, default=DOUBLE_GRAD_TOLERANCE,
                        help="normalised, see above (default %(default)g)")
    args = parser.parse_args()
    with open(args.dump) as f:
        dump = json.load(f)
    try:
        ok = check(dump, args.loss_tol, args.grad_tol)
    except KeyError as e:
        print(f"{args.dump}: malformed dump: missing field {e}", file=sys.stderr)
        sys.exit(2)
    except ValueError as e:  # DumpError, and torch_model's checks of names and shapes
        print(f"{args.dump}: malformed dump: {e}", file=sys.stderr)
        sys.exit(2)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
