#!/usr/bin/env python3
"""Record the official Vulkan preprocess's blobs for the public model corpus.

For every model of testdata/vulkan/corpus_plans.json (smallest first; --resume continues a
partial file) the official partitioner delegates (no
error, at least one region), this runs to_edge_transform_and_lower(ep,
partitioner=[VulkanPartitioner()]) and records, per Vulkan delegate in order, the blob's size
and sha256 (a lowering that fails is recorded with its error). Writes
testdata/vulkan/corpus_blobs.json; etgo's TestCorpusPreprocess compares its blobs with them.
With --graphs, the decoded graphs are written too (to --graphs-dir, not committed: for diffing).

Usage:
  python tools/reference/generate_vulkan_corpus_blobs.py [--only a,b] [--graphs-dir /tmp/g]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_vulkan_fixtures import describe_blob, named_data_of  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="")
    ap.add_argument("--graphs-dir", default="")
    ap.add_argument("--resume", action="store_true", help="keep the recorded models, lower the others")
    args = ap.parse_args()

    from executorch.backends.vulkan.partitioner.vulkan_partitioner import VulkanPartitioner
    from executorch.exir import to_edge_transform_and_lower

    plans = json.loads((REPO / "testdata" / "vulkan" / "corpus_plans.json").read_text())
    only = {s for s in args.only.split(",") if s}
    out_path = REPO / "testdata" / "vulkan" / "corpus_blobs.json"
    out = json.loads(out_path.read_text()) if out_path.exists() and (only or args.resume) else {}
    corpus = REPO / "testdata" / "corpus"
    # Smallest first, the file rewritten after each model, so a partial run is usable.
    for name in sorted(plans, key=lambda n: (corpus / n / "model.pt2").stat().st_size if (corpus / n / "model.pt2").exists() else 1 << 62):
        if args.resume and name in out:
            continue
        p = plans[name]
        if p.get("error") or not p.get("regions") or (only and name not in only):
            continue
        try:
            ep = torch.export.load(REPO / "testdata" / "corpus" / name / "model.pt2")
            edge = to_edge_transform_and_lower(ep, partitioner=[VulkanPartitioner()])
            gm = edge.exported_program().graph_module
            blobs = []
            named = named_data_of(edge) if args.graphs_dir else {}
            for node in gm.graph.nodes:
                if node.op == "get_attr" and node.name.startswith("lowered_module_"):
                    lm = getattr(gm, node.name)
                    if lm.backend_id != "VulkanBackend":
                        continue
                    b = lm.processed_bytes
                    blobs.append({"name": node.name, "size": len(b), "sha256": hashlib.sha256(b).hexdigest()})
                    if args.graphs_dir:
                        d = Path(args.graphs_dir) / name
                        d.mkdir(parents=True, exist_ok=True)
                        (d / f"{node.name}.json").write_text(json.dumps(describe_blob(b, named), indent=1, default=str))
            out[name] = {"blobs": blobs}
        except Exception as e:  # the official lowering refused the model
            out[name] = {"error": f"{type(e).__name__}: {e}"[:500]}
        print(name, out[name].get("error") or len(out[name]["blobs"]), flush=True)
        out_path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
