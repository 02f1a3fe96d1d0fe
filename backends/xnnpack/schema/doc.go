// Package schema holds the flatbuffer accessors that flatc generates from xnnpack.fbs, etgo's
// definition of the XNNPACK delegate graph (identifiers XN00 and XN01).
//
// The generated accessors trust their buffer: read a graph through them only after the
// backend's verifier accepted it.
package schema

//go:generate sh gen.sh
