package driver

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/guardvet/guardvet/analyzer/config"
)

// standaloneOnly are the standalone flags go vet cannot pass on, with what
// to do instead. -cpuprofile and -memprofile are standalone-only too, but
// unitchecker never lists them to go vet, so go vet rejects them itself
// (and guardvet help lists them as standalone-only).
var standaloneOnly = []struct {
	name, instead string
	isBool        bool
}{
	{"sarif", "run guardvet -sarif ./... (under go vet, go vet -json gives JSON)", true},
	{"test", "go vet decides which test files it checks; run guardvet -test=false ./...", true},
	{"version", "run guardvet -version (go vet itself asks guardvet -V=full)", true},
	{"cache", "the go command caches vet results itself (GOCACHE; GOCACHEPROG to share them)", false},
}

// vetFlagsHelp is the part of the usage that says which flags work under
// go vet.
const vetFlagsHelp = `Under go vet (go vet -vettool=$(command -v guardvet) [flags] ./...):
  the rule flags (-NAME, -NAME=false), -ANALYZER.FLAG, -infer, -suggest,
  -json, -fix and -diff work as standalone; -C and -tags are go vet's own;
  -sarif, -test, -version, -cache, -cpuprofile and -memprofile are
  standalone-only.
`

// SetupVet prepares the go vet protocol path before unitchecker.Main
// parses the command line (flag.CommandLine): it registers guardvet's
// version flag (-V=full, with the version in it), the standalone
// spellings -infer and -suggest, and the standalone-only flags, which stop
// with a message naming them instead of being silently accepted. args are
// the arguments go vet passed.
func SetupVet(args []string, stdout, stderr io.Writer) {
	fs := flag.CommandLine
	fs.Var(vetVersionFlag{stdout}, "V", "print the version and exit (-V=full: the go vet protocol's form)")
	fs.BoolFunc("infer", "infer guards for fields without directives (same as -config.infer)", func(s string) error {
		return config.Analyzer.Flags.Set("infer", s)
	})
	fs.BoolFunc("suggest", "report the directives guard inference would add, with evidence and a fix, and nothing else (same as -config.infer.suggest -guardinfer)", func(s string) error {
		if err := config.Analyzer.Flags.Set("infer.suggest", s); err != nil {
			return err
		}
		if on, _ := strconv.ParseBool(s); on { // s parsed as a bool just above
			// As standalone: suggestions come from guard inference alone.
			return fs.Set("guardinfer", "true")
		}
		return nil
	})
	for _, f := range standaloneOnly {
		name, instead := f.name, f.instead
		reject := func(string) error {
			if vetxOnly(args) {
				return nil // a dependency, analysed for facts: say it once per package asked for
			}
			// Exit here rather than return an error: flag.CommandLine
			// would print the error with its whole usage after it, and
			// the one line is what helps.
			fmt.Fprintf(stderr, "guardvet: -%s works only standalone, not under go vet: %s\n", name, instead)
			os.Exit(ExitError)
			return nil
		}
		if f.isBool {
			fs.BoolFunc(name, "standalone only", reject)
		} else {
			fs.Func(name, "standalone only", reject)
		}
	}
	if ruleNamed(args, "shared") {
		mustSetConfig("shared", "true") // as standalone: naming the rule turns it on
	}
	if guardinferAlone(args) {
		// -guardinfer alone turns inference on, as standalone does. Set
		// before parsing, so an explicit -infer=false still wins.
		mustSetConfig("infer", "true")
	}
}

// vetxOnly reports whether go vet runs guardvet on a dependency for its
// facts only (the *.cfg file's VetxOnly), not on a package it reports on.
func vetxOnly(args []string) bool {
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return false
	}
	data, err := os.ReadFile(args[len(args)-1])
	if err != nil {
		return false
	}
	var cfg struct{ VetxOnly bool }
	return json.Unmarshal(data, &cfg) == nil && cfg.VetxOnly
}

// guardinferAlone reports whether the flags in args turn the guardinfer
// rule on by name (-guardinfer or -guardinfer=true), which means running
// guard inference.
func guardinferAlone(args []string) bool { return ruleNamed(args, "guardinfer") }

// ruleNamed reports whether the flags in args turn rule on by name (-rule
// or -rule=true).
func ruleNamed(args []string, rule string) bool {
	on := false
	for _, a := range args {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") { // a flag's value, or the .cfg file
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name != rule {
			continue
		}
		on = true
		if hasValue {
			on, _ = strconv.ParseBool(value) // not a bool: the flag parser reports it; not on
		}
	}
	return on
}
