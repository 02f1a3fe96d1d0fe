module github.com/etgo/etgo

go 1.26.0

require github.com/x448/float16 v0.8.4

require (
	github.com/google/flatbuffers v25.12.19+incompatible // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
