"""An independent PyTorch implementation of the sqrtdk lab model, used to produce reference values.

It is written from the architecture and op definitions (src/core/nn/model.hpp, layers.hpp, config.hpp,
copy_layout.hpp) with plain torch ops, and its gradients come from autograd: nothing here transcribes
the C++ backward, so agreement between the two is evidence that both are right.

Parameters use the C++ names and layouts, so a tensor can be exchanged with the C++ model by name:
Linear weights are (in, out), i.e. y = x @ W + b (PyTorch's nn.Linear weight transposed).

    wte (V, C)  wpe (T, C)
    blocks.{l}.ln1.weight (C)  blocks.{l}.ln1.bias (C)
    blocks.{l}.attn.wq (C, C)  .bq (C)  .wk (C, C)  .bk (C)  .wv (C, C)  .bv (C)  .wo (C, C)  .bo (C)
    blocks.{l}.attn.qk_gain (H)          only when scale = qknorm
    blocks.{l}.ln2.weight (C)  blocks.{l}.ln2.bias (C)
    blocks.{l}.mlp.w1 (C, F)  .b1 (F)  .w2 (F, C)  .b2 (C)
    lnf.weight (C)  lnf.bias (C)  head.w (C, V)  head.b (V)

Run it with Debian's interpreter, /usr/bin/python3, which is the one that has torch.
"""
import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F

SCALE_MODES = ("scaled", "unscaled", "alpha", "qknorm")
LAYERNORM_EPS = 1e-5  # PyTorch's nn.LayerNorm default, as in layers.cpp
HEADNORM_EPS = 1e-6   # QK-norm: q / sqrt(|q|^2 + eps) per head

# Copy-task token ids (copy_layout.hpp): 0 = BOS, 1 = SEP, 2 .. n_symbols+1 = the symbols.
BOS, SEP, FIRST_SYMBOL = 0, 1, 2


@dataclass(frozen=True)
class Config:
    n_layers: int
    d_model: int
    n_heads: int
    d_ff: int
    copy_length: int
    n_symbols: int
    batch: int
    scale: str = "scaled"
    alpha: float = 0.5

    def __post_init__(self):
        if self.scale not in SCALE_MODES:
            raise ValueError(f"scale must be one of {SCALE_MODES}, got {self.scale!r}")
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model ({self.d_model}) must be divisible by n_heads ({self.n_heads})")
        if self.d_ff <= 0:
            raise ValueError("d_ff must be given explicitly (the C++ 0 = 4 * d_model is resolved by the caller)")

    @property
    def d_k(self):
        return self.d_model // self.n_heads

    @property
    def vocab(self):
        return self.n_symbols + 2

    @property
    def positions(self):
        return 2 * self.copy_length + 1

    def attention_factor(self):
        """The fixed factor on q.k; qknorm's factor is the learned per-head gain instead."""
        if self.scale == "scaled":
            return 1.0 / math.sqrt(self.d_k)
        if self.scale == "alpha":
            return self.d_k ** -self.alpha
        return 1.0


def parameter_shapes(cfg):
    """[(name, shape)] in the C++ layout order."""
    C, F_, V, T, H = cfg.d_model, cfg.d_ff, cfg.vocab, cfg.positions, cfg.n_heads
    shapes = [("wte", (V, C)), ("wpe", (T, C))]
    for l in range(cfg.n_layers):
        p = f"blocks.{l}."
        shapes += [(p + "ln1.weight", (C,)), (p + "ln1.bias", (C,))]
        for w in "qkvo":
            shapes += [(p + f"attn.w{w}", (C, C)), (p + f"attn.b{w}", (C,))]
        if cfg.scale == "qknorm":
            shapes.append((p + "attn.qk_gain", (H,)))
        shapes += [(p + "ln2.weight", (C,)), (p + "ln2.bias", (C,)),
                   (p + "mlp.w1", (C, F_)), (p + "mlp.b1", (F_,)),
                   (p + "mlp.w2", (F_, C)), (p + "mlp.b2", (C,))]
    shapes += [("lnf.weight", (C,)), ("lnf.bias", (C,)), ("head.w", (C, V)), ("head.b", (V,))]
    return shapes


def copy_batch(cfg, symbols):
    """Inputs and targets (B, T) for symbol sequences (B, L) of ids in [0, n_symbols).

    The sequence is BOS x1..xL SEP x1..xL; the input drops its last token, the target its first.
    """
    B = symbols.shape[0]
    x = symbols.long() + FIRST_SYMBOL
    bos = torch.full((B, 1), BOS, dtype=torch.long)
    sep = torch.full((B, 1), SEP, dtype=torch.long)
    sequence = torch.cat([bos, x, sep, x], dim=1)
    return sequence[:, :-1].contiguous(), sequence[:, 1:].contiguous()


def scored_positions(cfg):
    """(T,) bool: the positions L+1 .. 2L, whose targets are the copy x1 .. xL."""
    return torch.arange(cfg.positions) >= cfg.copy_length + 1


def linear(x, w, b):
    return x @ w + b


def layer_norm(x, params, prefix):
    return F.layer_norm(x, x.shape[-1:], params[prefix + ".weight"], params[prefix + ".bias"], LAYERNORM_EPS)


def head_normalize(x):
    # Not F.normalize: that divides by max(|x|, eps), the C++ by sqrt(|x|^2 + eps).
    return x / torch.sqrt((x * x).sum(dim=-1, keepdim=True) + HEADNORM_EPS)


def attention(x, params, prefix, cfg):
    """Causal multi-head self-attention, x (B, T, C) -> (B, T, C) after the output projection."""
    B, T, C = x.shape
    H, D = cfg.n_heads, cfg.d_k

    def split_heads(t):  # (B, T, C) -> (B, H, T, D); head h owns columns h*D .. h*D+D-1
        return t.reshape(B, T, H, D).transpose(1, 2)

    q = split_heads(linear(x, params[prefix + ".wq"], params[prefix + ".bq"]))
    k = split_heads(linear(x, params[prefix + ".wk"], params[prefix + ".bk"]))
    v = split_heads(linear(x, params[prefix + ".wv"], params[prefix + ".bv"]))
    if cfg.scale == "qknorm":
        q, k = head_normalize(q), head_normalize(k)
        factor = params[prefix + ".qk_gain"].reshape(1, H, 1, 1)
    else:
        factor = cfg.attention_factor()
    scores = factor * (q @ k.transpose(-2, -1))
    future = torch.ones(T, T, dtype=torch.bool).triu(diagonal=1)
    weights = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
    y = (weights @ v).transpose(1, 2).reshape(B, T, C)
    return linear(y, params[prefix + ".wo"], params[prefix + ".bo"])


def mlp(x, params, prefix):
    h = F.gelu(linear(x, params[prefix + ".w1"], params[prefix + ".b1"]), approximate="tanh")
    return linear(h, params[prefix + ".w2"], params[prefix + ".b2"])


def logits(params, cfg, inputs):
    """(B, T, V) logits for inputs (B, T) of token ids."""
    T = inputs.shape[1]
    x = params["wte"][inputs] + params["wpe"][:T]
    for l in range(cfg.n_layers):
        p = f"blocks.{l}."
        x = x + attention(layer_norm(x, params, p + "ln1"), params, p + "attn", cfg)
        x = x + mlp(layer_norm(x, params, p + "ln2"), params, p + "mlp")
    return linear(layer_norm(x, params, "lnf"), params["head.w"], params["head.b"])


def copy_loss(params, cfg, inputs, targets):
    """Mean cross-entropy over the scored (copy-half) positions of every sequence."""
    scored = scored_positions(cfg)
    z = logits(params, cfg, inputs)[:, scored]
    return F.cross_entropy(z.reshape(-1, cfg.vocab), targets[:, scored].reshape(-1))


def loss_and_grads(values, cfg, inputs, targets):
    """Loss (float) and {name: gradient} in float64 for parameter values {name: tensor}.

    Checks that exactly the C++ parameter set is given, with the C++ shapes.
    """
    expected = dict(parameter_shapes(cfg))
    if set(values) != set(expected):
        raise ValueError(f"parameter names differ from the layout: {sorted(set(values) ^ set(expected))}")
    params = {}
    for name, shape in expected.items():
        if tuple(values[name].shape) != shape:
            raise ValueError(f"{name}: shape {tuple(values[name].shape)}, layout says {shape}")
        params[name] = values[name].detach().to(torch.float64).clone().requires_grad_(True)
    loss = copy_loss(params, cfg, inputs.long(), targets.long())
    names = list(params)
    grads = torch.autograd.grad(loss, [params[n] for n in names])
    return loss.item(), dict(zip(names, grads))
