// Package pte reads and writes ExecuTorch program files (.pte): the flatbuffer of program.fbs
// (our own schema definition, pte/schema), the optional extended header, and the segments that
// hold constants and delegate blobs.
//
// A .pte is untrusted input. Parse verifies the flatbuffer against the schema and checks every
// index, offset and size (segments, constants, delegate data) against the file before anything
// reads through it; a bad file yields an error wrapping ErrInvalidProgram (or ErrNotProgram,
// naming what the bytes are) that says what is wrong and where. Nothing panics on bad bytes.
//
// Memory: a File aliases its bytes and copies nothing. Open memory-maps regular files, so a
// program's size costs address space, not resident memory, until its constants are read; where
// the OS cannot map, it reads the file whole, refusing files over MaxReadBytes. Open refuses
// anything but a regular file (ErrNotRegularFile) before opening it: a device such as /dev/zero
// would never end and a FIFO would block.
//
// A File is immutable and safe for concurrent use; the slices it returns are valid until Close.
package pte

// MaxReadBytes bounds a .pte that Open has to read into memory because it cannot map it (no
// mmap on this OS, or a file system that refuses it): 8 GiB, above the largest programs the
// official toolchain writes for on-device use.
const MaxReadBytes = 8 << 30
