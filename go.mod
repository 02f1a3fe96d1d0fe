module github.com/etgo/etgo

go 1.26.0

require (
	github.com/dlclark/regexp2/v2 v2.13.0
	github.com/google/flatbuffers v25.12.19+incompatible
	github.com/google/go-cmp v0.7.0
	github.com/x448/float16 v0.8.4
	golang.org/x/sys v0.50.0
	golang.org/x/text v0.44.0
)
