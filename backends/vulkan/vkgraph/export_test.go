package vkgraph

import "github.com/etgo/etgo/internal/fbverify"

func FbverifyCompare(fbs string) []string { return fbverify.CompareFBS(fbs, specGraph) }
