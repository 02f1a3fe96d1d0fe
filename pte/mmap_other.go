//go:build !unix

package pte

func mapFile(path string) ([]byte, func() error, error) { return readFile(path) }
