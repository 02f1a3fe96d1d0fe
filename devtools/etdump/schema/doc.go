// Package schema holds the flatbuffer accessors and builders that flatc generates from
// etdump.fbs, etgo's description of the ETDump format (identifier ED00).
//
// The generated accessors trust their buffer and index it without bounds checks: read a buffer
// through them only after package etdump's verifier accepted it.
package schema

//go:generate sh gen.sh
