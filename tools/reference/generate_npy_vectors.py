#!/usr/bin/env python3
"""Write .npy test vectors with numpy itself, for etgo's npy reader and writer.

testdata/npy/<name>.npy are written by numpy.save; testdata/npy/vectors.json records, for each,
the dtype, shape and flattened values numpy holds (or the error etgo must give). Only numpy is
needed:  python tools/reference/generate_npy_vectors.py
"""

import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[2] / "testdata" / "npy"


def vectors():
    rng = np.random.default_rng(1234)
    yield "f32_2x3", rng.standard_normal((2, 3)).astype(np.float32)
    yield "f32_scalar", np.array(3.5, dtype=np.float32)
    yield "f32_empty", np.zeros((2, 0, 3), dtype=np.float32)
    yield "f32_1d", np.array([-0.0, 1e-30, 3.4e38, -7.25], dtype=np.float32)
    yield "f16_2x2", np.array([[1.0, -2.5], [65504.0, 6.1e-05]], dtype=np.float16)
    yield "f64_3", np.array([1.0 / 3.0, -1e300, 2.0 ** -1074], dtype=np.float64)
    yield "i64_2x3", np.array([[0, -1, 2**62], [-(2**63), 7, 2**63 - 1]], dtype=np.int64)
    yield "i32_4", np.array([-(2**31), -1, 0, 2**31 - 1], dtype=np.int32)
    yield "i16_3", np.array([-32768, 5, 32767], dtype=np.int16)
    yield "i8_3", np.array([-128, 0, 127], dtype=np.int8)
    yield "u8_2x2", np.array([[0, 1], [128, 255]], dtype=np.uint8)
    yield "bool_5", np.array([True, False, False, True, True])
    yield "f32_be_3", np.array([1.5, -2.0, 1e-3], dtype=">f4")
    yield "i64_be_2", np.array([1, -300], dtype=">i8")
    yield "f32_rank5", rng.standard_normal((1, 2, 1, 3, 2)).astype(np.float32)


ERRORS = {
    # numpy writes these, etgo refuses them with a message containing this text.
    "f32_fortran": (np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)), "fortran_order"),
    "complex64": (np.array([1 + 2j], dtype=np.complex64), "not supported"),
    "unicode": (np.array(["ab"]), "not supported"),
}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    record = {}
    for name, a in vectors():
        np.save(OUT / f"{name}.npy", a)
        values = a.astype(np.float64).ravel().tolist() if a.dtype.kind == "f" else a.ravel().tolist()
        record[name] = {"dtype": a.dtype.newbyteorder("=").name, "shape": list(a.shape), "values": values}
    for name, (a, err) in ERRORS.items():
        np.save(OUT / f"{name}.npy", a)
        record[name] = {"error": err}
    record["_numpy_version"] = np.__version__
    (OUT / "vectors.json").write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
