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
// Run guardvet -help for the flags and exit codes; docs/ has the
// directives and the rules.
package main

import (
	"os"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/guardvet/guardvet/analyzer/suite"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/driver"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/vetproto"
)

func main() {
	analyzers := suite.Analyzers()
	if vetproto.IsInvocation(os.Args[1:]) {
		vetproto.Setup(os.Args[1:], analyzers, os.Stdout, os.Stderr)
		if code, ran := vetproto.RunSorted(os.Args[1:], os.Stderr); ran {
			os.Exit(code) // a child ran unitchecker; its JSON, sorted, is written
		}
		unitchecker.Main(analyzers...) // the go vet protocol; never returns
	}
	os.Exit(driver.Main(os.Args[1:], analyzers, os.Stdout, os.Stderr))
}
