module github.com/guardvet/guardvet

go 1.26.0

require (
	github.com/creack/pty v1.1.24
	github.com/golangci/plugin-module-register v0.1.2
	go.uber.org/goleak v1.3.0
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
