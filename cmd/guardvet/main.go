// Command guardvet checks lock discipline in Go code: fields guarded by a
// lock, function lock contracts and lock balance, driven by //guard:
// directives.
//
// Standalone:
//
//	guardvet [flags] packages...
//
// As a vet tool:
//
//	go vet -vettool=$(command -v guardvet) ./...
//
// See the README for the directives, the rules and the exit codes.
package main

import (
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/guardvet/guardvet/analyzer/suite"
)

func main() {
	multichecker.Main(suite.Analyzers()...)
}
