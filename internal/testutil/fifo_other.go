//go:build !unix

package testutil

import "errors"

func mkfifo(string) error { return errors.New("FIFOs are a unix feature") }
