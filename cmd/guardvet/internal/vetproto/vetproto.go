// Package vetproto is guardvet under go vet (go vet -vettool): it tells
// the go vet protocol from a standalone run, prepares the command line
// unitchecker parses (guardvet's version for -V=full, the standalone
// spellings of options, the standalone-only flags refused with a
// message), and sorts the JSON diagnostics go vet prints.
package vetproto

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/configfile"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/configflag"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/version"
)

// IsInvocation reports whether go vet is driving us: it first asks for
// -V=full and -flags, then passes a single *.cfg file per package.
func IsInvocation(args []string) bool {
	for _, a := range args {
		if a == "-V=full" || a == "--V=full" || a == "-flags" || a == "--flags" {
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

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
	{"baseline", "run guardvet -baseline FILE ./... (the standalone command and its pre-commit hooks read a baseline)", false},
	{"write-baseline", "run guardvet -write-baseline -baseline FILE ./...", true},
	{"new-from-rev", "run guardvet -new-from-rev REV ./...", false},
	{"new-from-merge-base", "run guardvet -new-from-merge-base REF ./...", false},
	{"config-file", "go vet does not read " + configfile.Name + "; the standalone guardvet does, and under go vet the flags set the same", false},
}

// FlagsHelp is the part of guardvet -help that says which flags work
// under go vet.
const FlagsHelp = `Under go vet (go vet -vettool=$(command -v guardvet) [flags] ./...):
  the rule flags (-NAME, -NAME=false), -ANALYZER.FLAG, -infer, -suggest, -strict,
  -json and -fix work as standalone, and -diff with -fix only
  (go vet -fix -diff -vettool=$(command -v guardvet) ./...); -C and -tags
  are go vet's own; -sarif, -test, -version, -cache, -cpuprofile,
  -memprofile, -baseline, -write-baseline, -new-from-rev,
  -new-from-merge-base and -config-file are standalone-only (go vet does
  not read .guardvet.yaml).
`

// Setup prepares the go vet protocol path before unitchecker.Main
// parses the command line (flag.CommandLine): it registers guardvet's
// version flag (-V=full, with the version in it), the standalone
// spellings -infer, -suggest and -strict, and the standalone-only flags, which stop
// with a message naming them instead of being silently accepted. args are
// the arguments go vet passed.
func Setup(args []string, analyzers []*analysis.Analyzer, stdout, stderr io.Writer) {
	fs := flag.CommandLine
	fs.Var(vetVersionFlag{stdout}, "V", "print the version and exit (-V=full: the go vet protocol's form)")
	fs.BoolFunc("infer", configflag.InferUsage, func(s string) error {
		if err := config.Analyzer.Flags.Set("infer", s); err != nil {
			return err
		}
		if on, _ := strconv.ParseBool(s); on && otherRuleNamed(args, analyzers) { // s parsed as a bool just above
			// As standalone: -infer with rules named (-infer -shared)
			// adds inference's rule to them.
			return fs.Set("guardinfer", "true")
		}
		return nil
	})
	fs.BoolFunc("strict", configflag.StrictUsage, func(s string) error { return config.Analyzer.Flags.Set("strict", s) })
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
			os.Exit(output.ExitError)
			return nil
		}
		if f.isBool {
			fs.BoolFunc(name, "standalone only", reject)
		} else {
			fs.Func(name, "standalone only", reject)
		}
	}
	if ruleNamed(args, "shared") {
		configflag.MustSet("shared", "true") // as standalone: naming the rule turns it on
	}
	if guardinferAlone(args) {
		// -guardinfer alone turns inference on, as standalone does. Set
		// before parsing, so an explicit -infer=false still wins.
		configflag.MustSet("infer", "true")
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

// otherRuleNamed reports whether the flags in args name a rule other
// than guardinfer (-NAME), which runs only the rules named.
func otherRuleNamed(args []string, analyzers []*analysis.Analyzer) bool {
	for _, a := range analyzers {
		if a.Name != "guardinfer" && a != config.Analyzer && ruleNamed(args, a.Name) {
			return true
		}
	}
	return false
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

// vetVersionFlag is the -V flag of the go vet protocol. go vet runs the
// tool with -V=full and keys its cache on the answer: for a line of the
// form "NAME version devel ... buildID=ID" it uses ID, here a hash of the
// executable, so a rebuilt guardvet never reuses stale results. The
// version and revision go in the middle, where go vet ignores them
// (x/tools' unitchecker prints "comments-go-here" there). Plain -V prints
// version.Line.
type vetVersionFlag struct{ stdout io.Writer }

func (vetVersionFlag) IsBoolFlag() bool { return true }
func (vetVersionFlag) String() string   { return "" }
func (f vetVersionFlag) Set(s string) error {
	if s != "full" {
		fmt.Fprintln(f.stdout, version.Line())
		os.Exit(0)
	}
	line, err := vetVersionFull()
	if err != nil {
		return err
	}
	fmt.Fprintln(f.stdout, line)
	os.Exit(0)
	return nil
}

func vetVersionFull() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	file, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer file.Close()
	h := sha256.New()
	if _, err := io.Copy(h, file); err != nil {
		return "", err
	}
	middle := "guardvet-" + version.Module()
	if rev, modified := version.Revision(); rev != "" {
		middle += " revision-" + rev
		if modified {
			middle += "-modified"
		}
	}
	return fmt.Sprintf("%s version devel %s buildID=%02x", exe, middle, h.Sum(nil)), nil
}
