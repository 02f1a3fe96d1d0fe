// Package npy reads and writes NumPy .npy files: the format etgo's CLI and tests use to exchange
// tensors with the official toolchain.
//
// Invariants:
//   - An Array always holds its elements in C (row-major) order, little-endian, packed: Data has
//     exactly NumElements()*DType.Size() bytes. Big-endian files are converted on read; Fortran-order
//     files are refused (nothing in the ExecuTorch flow writes them, and silently transposing
//     would hide a mistake).
//   - A .npy file is untrusted input. Decode verifies the magic, version, header length, every
//     header field, every dimension and the payload length before anything is allocated from
//     them; a bad file yields an error wrapping ErrFormat that says which part is wrong. Nothing
//     panics on bad bytes.
//   - Memory is bounded by what the file declares and by MaxReadBytes (2 GiB of payload). Read and
//     Load allocate as bytes arrive, never ahead of them, so a header that lies costs what the
//     stream actually sent; a header declaring more than MaxReadBytes is refused (ErrTooLarge)
//     before its payload is read. Load reads files through Read: a regular file whose size
//     cannot hold the declared payload is refused before reading it, a FIFO or device is read as
//     a stream (so `--input <(...)` works and /dev/zero fails at its magic), a directory is
//     refused (ErrNotRegularFile). Decode takes bytes already in memory and needs no budget.
//   - Encode writes format version 1.0 (2.0 only when the header needs it) with the header padded
//     to a multiple of 64 bytes, as numpy does, so files round-trip byte-for-byte with numpy's
//     numpy.save for the supported dtypes.
package npy
