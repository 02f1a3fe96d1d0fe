// Package schema holds the flatbuffer accessors and builders that flatc generates from
// program.fbs, etgo's own definition of the ExecuTorch program schema (identifier ET12).
//
// The generated accessors trust their buffer and index it without bounds checks: read a buffer
// through them only after package pte's verifier accepted it.
package schema

//go:generate sh gen.sh
