// Package schema holds the flatbuffer accessors that flatc generates from vulkan.fbs, etgo's
// definition of the Vulkan delegate graph (file identifier VK00).
//
// The generated accessors trust their buffer: read a graph through them only after
// package vkgraph's verifier accepted it.
package schema

//go:generate sh gen.sh
