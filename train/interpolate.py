"""Interpolate two checkpoints of the same architecture: ``alpha`` × tuned + (1 − alpha) × base, tensor by
tensor (weight-space ensembling; keeps more of the base model's general behaviour).

    python train/interpolate.py /tmp/code-minilm/model /tmp/code-minilm-mix --alpha 0.5
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch
from transformers import AutoModel, AutoTokenizer

from train_model import base_model_dir


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tuned", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--alpha", type=float, default=0.5, help="share of the tuned weights")
    args = ap.parse_args()
    base = AutoModel.from_pretrained(base_model_dir())
    tuned = AutoModel.from_pretrained(args.tuned)
    mixed = tuned.state_dict()
    with torch.no_grad():
        for name, value in base.state_dict().items():
            if value.is_floating_point():
                mixed[name] = args.alpha * mixed[name] + (1 - args.alpha) * value
    tuned.load_state_dict(mixed)
    tuned.save_pretrained(args.out)
    AutoTokenizer.from_pretrained(args.tuned).save_pretrained(args.out)
    print(f"{args.out}: alpha {args.alpha}")


if __name__ == "__main__":
    main()
