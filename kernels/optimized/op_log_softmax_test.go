package optimized

import "testing"

// logSoftmaxTol: the result is x - (max + log sum); its error is that of the log of a sum within
// 1e-5 relative, so about 1e-5 absolute, plus a float32 rounding of values as large as x.
var logSoftmaxTol = tol{abs: 2e-5, rel: 2e-6}

func TestLogSoftmaxMatchesPortable(t *testing.T) {
	softmaxCases(t, "aten::_log_softmax.out", logSoftmaxTol)
}
