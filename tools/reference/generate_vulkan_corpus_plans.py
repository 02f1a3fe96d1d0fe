#!/usr/bin/env python3
"""Record the official VulkanPartitioner's plan for the public model corpus.

For every testdata/corpus/<model>/model.pt2 (smallest first, at most --limit models, each under
--max-bytes), this runs to_edge_transform_and_lower(ep, partitioner=[VulkanPartitioner()]) with
the partitioner wrapped so that its proposal is recorded and nothing is lowered (the plan
without Vulkan preprocess, which is what etgo's partitioner is compared with; a model with an
operator the partitioner keeps whole is lowered for real, as that operator must then be
delegated): the targets of
each proposed region in graph order and the count per target of the call_function nodes left
outside. Writes testdata/vulkan/corpus_plans.json.

Usage:
  python tools/reference/generate_vulkan_corpus_plans.py [--limit 60] [--only a,b]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_zoo import target_name  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def recorder(inner, lower_too: bool = False):
    from executorch.exir.backend.partitioner import Partitioner, PartitionResult

    class Recorder(Partitioner):
        def __init__(self):
            super().__init__()
            self.delegation_spec = inner.delegation_spec
            self.plan = None

        def ops_to_not_decompose(self, ep):
            return inner.ops_to_not_decompose(ep)

        def partition(self, ep):
            result = inner.partition(ep)
            regions, outside = {}, {}
            for node in ep.graph_module.graph.nodes:
                tag = node.meta.get("delegation_tag") if lower_too else node.meta.pop("delegation_tag", None)
                if node.op != "call_function":
                    continue
                t = target_name(node.target)
                if tag:
                    regions.setdefault(tag, []).append(t)
                elif t != "getitem":
                    outside[t] = outside.get(t, 0) + 1
            self.plan = {"regions": list(regions.values()), "non_delegated_targets": dict(sorted(outside.items()))}
            if lower_too:
                return result
            return PartitionResult(tagged_exported_program=ep, partition_tags={})

    return Recorder()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=60)
    ap.add_argument("--max-bytes", type=int, default=8 << 20)
    ap.add_argument("--only", default="")
    args = ap.parse_args()

    from executorch.backends.vulkan.partitioner.vulkan_partitioner import VulkanPartitioner
    from executorch.exir import to_edge_transform_and_lower

    corpus = REPO / "testdata" / "corpus"
    only = {s for s in args.only.split(",") if s}
    files = sorted((p for p in corpus.glob("*/model.pt2") if (not only or p.parent.name in only)), key=lambda p: p.stat().st_size)
    files = [p for p in files if p.stat().st_size <= args.max_bytes][: args.limit]
    out_path = REPO / "testdata" / "vulkan" / "corpus_plans.json"
    plans = json.loads(out_path.read_text()) if out_path.exists() and only else {}
    for p in files:
        name = p.parent.name
        t0 = time.time()
        try:
            ep = torch.export.load(p)
            r = recorder(VulkanPartitioner())
            try:
                to_edge_transform_and_lower(ep, partitioner=[r])
            except RuntimeError as e:
                # An operator kept whole (hardswish, pixel_shuffle, upsample_nearest2d) must then be
                # delegated: record the proposal while lowering for real (Vulkan preprocess runs).
                if "was not decomposed or delegated" not in str(e):
                    raise
                r = recorder(VulkanPartitioner(), lower_too=True)
                to_edge_transform_and_lower(ep, partitioner=[r])
            plans[name] = r.plan
            summary = f"{len(r.plan['regions'])} regions, outside {r.plan['non_delegated_targets']}"
        except Exception as e:
            plans[name] = {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc(limit=3)}
            summary = plans[name]["error"]
        print(f"{name:32} {time.time() - t0:6.1f}s  {summary}"[:400], flush=True)
        out_path.write_text(json.dumps(dict(sorted(plans.items())), indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
