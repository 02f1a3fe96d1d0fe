package xnngraph_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/xnntest"
)

// TestEncodeRoundTrip: every official blob (quantized ones included), decoded and encoded
// again, decodes to the same graph, and encoding is a fixed point.
func TestEncodeRoundTrip(t *testing.T) {
	blobs, _ := xnntest.Blobs(t)
	for i, b := range blobs {
		g, err := xnngraph.ParseBlob(b)
		if err != nil {
			t.Fatalf("blob %d: %v", i, err)
		}
		enc, err := g.Encode()
		if err != nil {
			t.Fatalf("blob %d: encode: %v", i, err)
		}
		g2, err := xnngraph.ParseBlob(enc)
		if err != nil {
			t.Fatalf("blob %d: re-parse: %v", i, err)
		}
		if !reflect.DeepEqual(g, g2) {
			t.Errorf("blob %d: graph changed in a round trip", i)
		}
		enc2, err := g2.Encode()
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Errorf("blob %d: encoding is not a fixed point (%v)", i, err)
		}
		if len(enc) > len(b)+64 {
			t.Errorf("blob %d: %d bytes re-encoded, %d official", i, len(enc), len(b))
		}
	}
}
