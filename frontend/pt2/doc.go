// Package pt2 reads the .pt2 archives that torch.export.save writes into an ir.Graph: the
// serialized ExportedProgram (graph, tensor metadata with symbolic sizes and their ranges, the
// graph signature) and the weights, which stay in the archive's bytes (entries are stored
// uncompressed, so weights are read in place).
//
// An archive is untrusted input: entry sizes are bounded before they are read, every value a
// node uses must be defined earlier, weights must match their metadata, and pickled objects are
// refused. Errors name the entry, node or argument at fault.
//
// Memory is bounded by the archive and by these budgets:
//   - Open reads only a regular file, of at most MaxArchiveBytes (8 GiB); a directory, device or
//     FIFO is refused (ErrNotRegularFile) before it is opened.
//   - A JSON entry (the model, the weights and constants configs) is at most MaxJSONBytes
//     (64 MiB, 140 times the largest zoo model's) by its header. Decoding it and building the
//     graph allocate about seven times its size (3 MB for MobileNetV2's 467 KB).
//   - A stored entry costs nothing: it is a slice of the archive. A compressed entry (torch never
//     writes one; a hand re-zipped archive has them) is inflated to its declared size and no
//     further: a byte past it refuses the entry. A compressed weight must declare exactly its
//     tensor's size from the weights config (the contract), checked before inflating anything,
//     so an 864-byte weight whose entry claims a gigabyte costs nothing. All inflation together
//     is bounded by MaxInflation (64) times the archive's size, charged before anything is
//     allocated: a 1 MB archive costs at most 64 MB more, however many tensors name the same
//     compressed entry and whatever sizes its JSON declares. (Torch's graph JSON deflates 25-32
//     times, weights barely; deflate itself reaches about 1000.)
//
// So Parse holds at most the archive, MaxInflation times it, and the decoded graph.
package pt2
