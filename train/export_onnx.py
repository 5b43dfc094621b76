"""Export a fine-tuned MiniLM folder to the ONNX file codesift ships: the encoder's last hidden state
(codesift mean-pools and normalises after the graph), weights stored as int8 with one scale per output
channel (per row for embedding tables) and turned back into floats by a Cast and a Mul in the graph —
the format of the base model codesift shipped before, so the runtime, its speed and its memory are the
same.

    python train/export_onnx.py /tmp/code-minilm/model src/codesift/models/code-minilm/model.onnx
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import helper, numpy_helper
from transformers import AutoModel

MIN_QUANT_SIZE = 4096  # biases and LayerNorm vectors stay float


class _Encoder(torch.nn.Module):
    def __init__(self, inner: torch.nn.Module) -> None:
        super().__init__()
        self.inner = inner

    def forward(self, input_ids, attention_mask, token_type_ids):  # noqa: ANN001, ANN201
        return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                          token_type_ids=token_type_ids).last_hidden_state


def export_float(model_dir: Path, out: Path) -> None:
    model = _Encoder(AutoModel.from_pretrained(model_dir, attn_implementation="eager")).eval()
    # Example inputs with padding, so that nothing about the mask is traced as a constant.
    ids = torch.randint(1000, 2000, (2, 16), dtype=torch.long)
    mask = torch.ones((2, 16), dtype=torch.long)
    mask[1, 10:] = 0
    batch, seq = torch.export.Dim("batch"), torch.export.Dim("seq", max=512)
    shapes = {"input_ids": {0: batch, 1: seq}, "attention_mask": {0: batch, 1: seq},
              "token_type_ids": {0: batch, 1: seq}}
    torch.onnx.export(model, (ids, mask, torch.zeros_like(ids)), str(out), dynamo=True, opset_version=17,
                      input_names=["input_ids", "attention_mask", "token_type_ids"],
                      output_names=["last_hidden_state"], dynamic_shapes=shapes, external_data=False)


def quantize_weights(graph_path: Path, out: Path) -> None:
    """Store every weight matrix as int8 + per-channel float scale, dequantized inside the graph."""
    m = onnx.load(str(graph_path))
    keep, nodes = [], []
    for init in m.graph.initializer:
        a = numpy_helper.to_array(init)
        if a.dtype != np.float32 or a.ndim != 2 or a.size < MIN_QUANT_SIZE:
            keep.append(init)
            continue
        axis = 1 if "embeddings" in init.name else 0  # tables: one scale per row; MatMul (in, out): per column
        scale = np.abs(a).max(axis=axis, keepdims=True) / 127.0
        scale[scale == 0] = 1.0
        q = np.clip(np.round(a / scale), -127, 127).astype(np.int8)
        keep.append(numpy_helper.from_array(q, init.name + "_q"))
        keep.append(numpy_helper.from_array(scale.astype(np.float32), init.name + "_scale"))
        nodes.append(helper.make_node("Cast", [init.name + "_q"], [init.name + "_f"], to=onnx.TensorProto.FLOAT))
        nodes.append(helper.make_node("Mul", [init.name + "_f", init.name + "_scale"], [init.name]))
    del m.graph.initializer[:]
    m.graph.initializer.extend(keep)
    old = list(m.graph.node)
    del m.graph.node[:]
    m.graph.node.extend(nodes + old)
    onnx.checker.check_model(m)
    onnx.save(m, str(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model_dir", type=Path)
    ap.add_argument("out", type=Path)
    args = ap.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".float.onnx")
    export_float(args.model_dir, tmp)
    quantize_weights(tmp, args.out)
    tmp.unlink()
    print(f"{args.out}: {args.out.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
