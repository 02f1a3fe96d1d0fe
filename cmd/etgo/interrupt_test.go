//go:build unix

package main

import (
	"bytes"
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/etgo/etgo/internal/testutil"
)

// TestInterrupt: run and bench stop on Ctrl-C with "interrupted" and exit status 130, both
// when the context is already cancelled and on a real SIGINT in the middle of a benchmark.
func TestInterrupt(t *testing.T) {
	pte := testutil.Testdata(t, "zoo", "mobilenet_v2_small", "xnnpack.pte")
	input := testutil.Testdata(t, "zoo", "mobilenet_v2_small", "inputs", "input_0.npy")
	saved := interruptible
	defer func() { interruptible = saved }()
	interruptible = func() (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx, cancel
	}
	for _, args := range [][]string{
		{"run", pte, "--input", input},
		{"bench", pte, "--input", input, "--iterations", "3", "--warmup", "0"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitInterrupted || !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("%v with a cancelled context: exit %d, stderr %q", args[0], code, errb.String())
		}
	}

	interruptible = saved
	done := make(chan int, 1)
	var errb bytes.Buffer
	go func() {
		done <- run([]string{"bench", pte, "--input", input, "--iterations", "1000000", "--warmup", "0"}, &bytes.Buffer{}, &errb)
	}()
	time.Sleep(300 * time.Millisecond) // let it load and start iterating
	sent := time.Now()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		t.Logf("bench stopped %v after SIGINT", time.Since(sent))
		if code != exitInterrupted || !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("bench after SIGINT: exit %d, stderr %q", code, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("bench did not stop on SIGINT")
	}
}
