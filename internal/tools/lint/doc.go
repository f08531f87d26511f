// Package lint pins the linters make lint runs on guardvet itself, in a
// module of their own so that the product's go.mod stays small:
// staticcheck (honnef.co/go/tools), run as
// go tool -modfile=internal/tools/lint/go.mod staticcheck ./...
package lint
