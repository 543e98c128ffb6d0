"""Reading and writing the torch reference fixtures (tests/fixtures/torch_*.txt).

A fixture is plain text that C++ reads with an ifstream, one record per line, fields separated by
spaces, every real written with %.17g (exact for float64).  Lines starting with '#' are comments.

    format sqrtdk-torch-fixture 1
    config KEY VALUE         n_layers d_model n_heads d_ff copy_length n_symbols batch scale alpha
                             (scale is scaled|unscaled|alpha|qknorm; alpha matters for scale alpha only)
    inputs v...              B*T token ids, row-major (B, T), in the copy_layout.hpp layout
    targets v...             B*T token ids
    loss v                   mean cross-entropy over the scored positions
    param NAME NDIM D0 .. values...
    param_uniform NAME NDIM D0 .. CENTER HALFWIDTH SEED
    grad NAME NDIM D0 .. values...
    grad_sampled NAME NDIM D0 .. STRIDE SUM L2 values...

param_uniform generates a tensor instead of listing it, so that a canonical-size model (~100k
parameters, several MB of text) fits in a small file.  With SplitMix64 seeded by SEED, value i is
CENTER + HALFWIDTH * u_i, where u_i = ((next() >> 40) - 2^23) * 2^-23 is in [-1, 1).  HALFWIDTH is a
power of two, so the product is exact and the one rounding (the addition) is the same in every language.

grad_sampled stands for a large gradient: its flat elements 0, STRIDE, 2*STRIDE, ... and the SUM and
L2 norm of the whole tensor.  Gradients of at most FULL_GRADIENT_LIMIT elements are written in full.
"""
import math
from dataclasses import dataclass, field

import torch

FORMAT_LINE = "format sqrtdk-torch-fixture 1"
CONFIG_KEYS = ("n_layers", "d_model", "n_heads", "d_ff", "copy_length", "n_symbols", "batch", "scale", "alpha")
FULL_GRADIENT_LIMIT = 1024
SAMPLES_PER_GRADIENT = 128

MASK64 = (1 << 64) - 1


def splitmix64(seed):
    """SplitMix64 (Steele, Lea, Flood 2014), the same generator as sqrtdk::Rng::next_u64."""
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def is_power_of_two(x):
    return x > 0 and math.frexp(x)[0] == 0.5


def uniform_values(shape, center, halfwidth, seed):
    """The tensor a param_uniform line stands for (float64)."""
    if not is_power_of_two(halfwidth):
        raise ValueError(f"halfwidth must be a power of two, got {halfwidth}")
    stream = splitmix64(seed)
    n = math.prod(shape)
    values = [center + halfwidth * (((next(stream) >> 40) - (1 << 23)) * 2.0 ** -23) for _ in range(n)]
    return torch.tensor(values, dtype=torch.float64).reshape(shape)


def sample_stride(shape):
    """A stride giving about SAMPLES_PER_GRADIENT samples, coprime with the row length so that the
    samples visit every column residue instead of a few columns."""
    stride = max(1, math.ceil(math.prod(shape) / SAMPLES_PER_GRADIENT))
    while math.gcd(stride, shape[-1]) != 1:
        stride += 1
    return stride


@dataclass
class SampledGradient:
    shape: tuple
    stride: int
    total: float
    l2: float
    samples: torch.Tensor


@dataclass
class Fixture:
    config: dict
    inputs: torch.Tensor           # (B, T) int64
    targets: torch.Tensor          # (B, T) int64
    loss: float
    params: dict                   # name -> float64 tensor (param_uniform lines already generated)
    param_specs: dict = field(default_factory=dict)  # name -> (center, halfwidth, seed) for param_uniform
    grads: dict = field(default_factory=dict)        # name -> float64 tensor, written in full
    sampled: dict = field(default_factory=dict)      # name -> SampledGradient


def _real(x):
    return "%.17g" % x


def _shape_fields(shape):
    return [str(len(shape))] + [str(d) for d in shape]


def _tensor_line(kind, name, tensor):
    values = tensor.detach().to(torch.float64).reshape(-1).tolist()
    return " ".join([kind, name] + _shape_fields(tuple(tensor.shape)) + [_real(v) for v in values])


def _gradient_line(name, grad):
    if grad.numel() <= FULL_GRADIENT_LIMIT:
        return _tensor_line("grad", name, grad)
    shape = tuple(grad.shape)
    stride = sample_stride(shape)
    flat = grad.detach().to(torch.float64).reshape(-1)
    fields = ["grad_sampled", name] + _shape_fields(shape)
    fields += [str(stride), _real(flat.sum().item()), _real(flat.norm().item())]
    fields += [_real(v) for v in flat[::stride].tolist()]
    return " ".join(fields)


def write_fixture(path, fixture, comments=()):
    """Write a Fixture; parameters named in param_specs are written as param_uniform lines."""
    lines = [f"# {c}" for c in comments] + [FORMAT_LINE]
    lines += [f"config {key} {fixture.config[key]}" for key in CONFIG_KEYS]
    lines.append("inputs " + " ".join(str(v) for v in fixture.inputs.reshape(-1).tolist()))
    lines.append("targets " + " ".join(str(v) for v in fixture.targets.reshape(-1).tolist()))
    lines.append("loss " + _real(fixture.loss))
    for name, tensor in fixture.params.items():
        if name in fixture.param_specs:
            center, halfwidth, seed = fixture.param_specs[name]
            lines.append(" ".join(["param_uniform", name] + _shape_fields(tuple(tensor.shape))
                                  + [_real(center), _real(halfwidth), str(seed)]))
        else:
            lines.append(_tensor_line("param", name, tensor))
    lines += [_gradient_line(name, grad) for name, grad in fixture.grads.items()]
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


def _parse_config(key, value):
    if key == "scale":
        return value
    if key == "alpha":
        return float(value)
    return int(value)


def read_fixture(path):
    """Parse a fixture file into a Fixture (full and sampled gradients kept apart)."""
    fixture = Fixture(config={}, inputs=None, targets=None, loss=None, params={})
    tokens_by_kind = {"inputs": [], "targets": []}
    with open(path) as lines:
        for line in lines:
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            kind, rest = fields[0], fields[1:]
            if kind == "format":
                if line.strip() != FORMAT_LINE:
                    raise ValueError(f"{path}: unsupported format line {line.strip()!r}")
            elif kind == "config":
                fixture.config[rest[0]] = _parse_config(rest[0], rest[1])
            elif kind in tokens_by_kind:
                tokens_by_kind[kind] = [int(v) for v in rest]
            elif kind == "loss":
                fixture.loss = float(rest[0])
            else:
                _parse_tensor_record(fixture, kind, rest, path)
    B = fixture.config["batch"]
    fixture.inputs = torch.tensor(tokens_by_kind["inputs"], dtype=torch.long).reshape(B, -1)
    fixture.targets = torch.tensor(tokens_by_kind["targets"], dtype=torch.long).reshape(B, -1)
    return fixture


def _parse_tensor_record(fixture, kind, rest, path):
    name, ndim = rest[0], int(rest[1])
    shape = tuple(int(d) for d in rest[2:2 + ndim])
    values = rest[2 + ndim:]
    if kind == "param":
        fixture.params[name] = torch.tensor([float(v) for v in values], dtype=torch.float64).reshape(shape)
    elif kind == "param_uniform":
        center, halfwidth, seed = float(values[0]), float(values[1]), int(values[2])
        fixture.param_specs[name] = (center, halfwidth, seed)
        fixture.params[name] = uniform_values(shape, center, halfwidth, seed)
    elif kind == "grad":
        fixture.grads[name] = torch.tensor([float(v) for v in values], dtype=torch.float64).reshape(shape)
    elif kind == "grad_sampled":
        stride, total, l2 = int(values[0]), float(values[1]), float(values[2])
        samples = torch.tensor([float(v) for v in values[3:]], dtype=torch.float64)
        fixture.sampled[name] = SampledGradient(shape, stride, total, l2, samples)
    else:
        raise ValueError(f"{path}: unknown record {kind!r}")
