package xnnpack

// FP16NonfiniteDivergence are the fp16 fixtures (testdata/fp16) whose NaN/Inf inputs etgo's fp16
// run time does not yet carry through as the official runtime does, on the official .pte alike
// (finite inputs match; package lower's TestFP16LoweredRuns keeps the same list). Not done: each is
// an open item of issue #15; the tests fail once a divergence disappears, so the entry goes.
var FP16NonfiniteDivergence = map[string]string{
	// XNNPACK's f16 1×1 depthwise convolution (a decomposed batch norm) turns a NaN input into
	// -Inf and spreads -Inf to neighbouring outputs (deterministically); etgo keeps NaN and
	// finite values (3 of 100 outputs)
	"batchnorm": "fp16 1×1 depthwise convolution: NaN/-Inf spread as the official does",
}
