package human

import "testing"

func TestFormats(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Bytes(512), "512 B"}, {Bytes(2048), "2.0 KiB"}, {Bytes(3 << 20), "3.0 MiB"},
		{FLOPs(12), "12"}, {FLOPs(19072), "19.1k"}, {FLOPs(1_140_000), "1.14M"}, {FLOPs(4_090_000_000), "4.09G"},
		{Percent(0, 0), "0%"}, {Percent(8, 10), "80%"}, {Percent(19072, 19328), "98.7%"}, {Percent(99999, 100000), ">99.9%"}, {Percent(5, 5), "100%"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
