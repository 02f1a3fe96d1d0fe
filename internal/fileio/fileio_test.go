package fileio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

func TestReadRegular(t *testing.T) {
	small := filepath.Join(t.TempDir(), "small")
	if err := os.WriteFile(small, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	type tcase struct {
		name, path string
		limit      int64
		want       error
		mention    string
	}
	cases := []tcase{
		{"regular", small, 5, nil, ""},
		{"over the limit", small, 4, ErrTooLarge, "5 bytes, over the limit of 4"},
		{"missing", small + ".nope", 1 << 20, os.ErrNotExist, "small.nope"},
	}
	for _, bp := range testutil.BadPaths(t) {
		cases = append(cases, tcase{bp.Name, bp.Path, 1 << 20, ErrNotRegular, bp.Kind})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ReadRegular(tc.path, tc.limit)
			if tc.want == nil {
				if err != nil || string(b) != "hello" {
					t.Fatalf("got %q, %v", b, err)
				}
				return
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("error %v, want %v mentioning %q", err, tc.want, tc.mention)
			}
		})
	}
}
