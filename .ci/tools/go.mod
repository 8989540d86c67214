// Module tools pins the command-line tools that CI and the Dockerfile
// install: GoNB (the Go Jupyter kernel) and goimports, which GoNB needs.
// The module proxy here refuses @latest for github.com/janpfeifer/*, so the
// versions are pinned in this file; `go install tool` builds both.
module dpbtools

go 1.26.0

tool (
	github.com/janpfeifer/gonb
	golang.org/x/tools/cmd/goimports
)

require (
	github.com/fatih/color v1.18.0 // indirect
	github.com/fsnotify/fsnotify v1.8.0 // indirect
	github.com/go-logr/logr v1.4.2 // indirect
	github.com/go-zeromq/goczmq/v4 v4.2.2 // indirect
	github.com/go-zeromq/zmq4 v0.17.0 // indirect
	github.com/gofrs/uuid v4.4.0+incompatible // indirect
	github.com/gx-org/backend v0.3.0 // indirect
	github.com/gx-org/gx v0.6.1 // indirect
	github.com/janpfeifer/gonb v0.11.4 // indirect
	github.com/janpfeifer/must v0.2.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.3.4 // indirect
	go.lsp.dev/jsonrpc2 v0.10.0 // indirect
	go.lsp.dev/pkg v0.0.0-20210717090340-384b27a52fb2 // indirect
	go.lsp.dev/protocol v0.12.0 // indirect
	go.lsp.dev/uri v0.3.0 // indirect
	go.uber.org/multierr v1.11.0 // indirect
	go.uber.org/zap v1.27.0 // indirect
	golang.org/x/exp v0.0.0-20250106191152-7588d65b2ba8 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/telemetry v0.0.0-20261009151841-97e8ea77aa2a // indirect
	golang.org/x/text v0.21.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
	k8s.io/klog/v2 v2.130.1 // indirect
)
