package runcache

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"hash"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/internal/resultcache"
)

// What decides a package's result, and so its cache key:
//
//   - guardvet itself: the SHA-256 of the running executable, as go vet's
//     -V=full reports it, so any rebuild invalidates every entry;
//   - the Go toolchain and build configuration: the go command's GOVERSION,
//     GOOS, GOARCH, CGO_ENABLED, GOEXPERIMENT and GOFLAGS, the -tags and
//     -test flags, and the package's module and its go version;
//   - every flag that can change a finding: the rules enabled and each
//     rule's and the config analyzer's options (output format flags are
//     left out: -json and text runs share entries);
//   - the package: its ID and every file of it (Go files as compiled, the
//     other files, and the files its build constraints exclude, which the
//     assembly fallback reads), by content;
//   - recursively, the keys of the packages it imports, whose facts it
//     reads.
//
// The key of a package is the hash of all of that, so an edit to one file
// changes the key of its package and of every package that imports it,
// directly or not, and of nothing else.

// metaMode loads what the keys need and nothing more: go list's answer,
// with no parsing or type checking.
const metaMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedModule | packages.NeedForTest

// outputOnly are the flags that choose how findings are shown, not which:
// they stay out of the key.
var outputOnly = map[string]bool{
	"json": true, "sarif": true, "fix": true, "diff": true, "cpuprofile": true, "memprofile": true,
	"C": true, "version": true, "V": true, "cache": true,
	// Applied to a run's findings after the analysis (adopt); what
	// the configuration file sets is in the other flags' values.
	"baseline": true, "write-baseline": true, "new-from-rev": true, "new-from-merge-base": true, "config-file": true,
}

// runKey hashes what every package's result in this run depends on
// besides the package: guardvet, the toolchain, the configuration and the
// flags. It fails when guardvet's executable or the go command's
// environment cannot be read; the run then goes without the cache.
func runKey(fs *flag.FlagSet, conf *config.Config, enabled []*analysis.Analyzer, dir string) (resultcache.Key, error) {
	h := sha256.New()
	fmt.Fprintf(h, "guardvet result cache 1\n%s\n", runtime.Version())
	exe, err := os.Executable()
	if err != nil {
		return resultcache.Key{}, err
	}
	f, err := os.Open(exe)
	if err != nil {
		return resultcache.Key{}, err
	}
	_, err = io.Copy(h, f)
	f.Close()
	if err != nil {
		return resultcache.Key{}, err
	}
	cmd := exec.Command("go", "env", "-json", "GOVERSION", "GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT", "GOFLAGS", "GOROOT")
	cmd.Dir = dir
	env, err := cmd.Output()
	if err != nil {
		return resultcache.Key{}, fmt.Errorf("go env: %v", err)
	}
	h.Write(env)
	for _, a := range enabled {
		fmt.Fprintf(h, "rule %s\n", a.Name)
	}
	var flags []string
	fs.VisitAll(func(f *flag.Flag) {
		if !outputOnly[f.Name] {
			flags = append(flags, f.Name+"="+f.Value.String())
		}
	})
	sort.Strings(flags)
	fmt.Fprintf(h, "flags %q\n", flags)
	fmt.Fprintf(h, "config %q\n", conf.String()) // a mode's pass differs from the flags (adopt.Modes)
	var k resultcache.Key
	h.Sum(k[:0])
	return k, nil
}

// packageKeys computes the key of every package in the metadata graph
// below roots. A file that cannot be read fails the whole computation.
type packageKeys struct {
	run  resultcache.Key
	keys map[*packages.Package]resultcache.Key
	// files are the SHA-256 of each file read, by name.
	files map[string][sha256.Size]byte
	err   error
}

func newPackageKeys(run resultcache.Key) *packageKeys {
	return &packageKeys{run: run, keys: map[*packages.Package]resultcache.Key{}, files: map[string][sha256.Size]byte{}}
}

// of returns p's key (and records the first error).
func (pk *packageKeys) of(p *packages.Package) resultcache.Key {
	if k, ok := pk.keys[p]; ok {
		return k
	}
	h := sha256.New()
	h.Write(pk.run[:])
	fmt.Fprintf(h, "package %q %q %q\n", p.ID, p.PkgPath, p.Name)
	if p.Module != nil {
		fmt.Fprintf(h, "module %q %q\n", p.Module.Path, p.Module.GoVersion)
	}
	for _, group := range [][]string{p.CompiledGoFiles, p.OtherFiles, p.IgnoredFiles} {
		fmt.Fprintf(h, "files %d\n", len(group))
		for _, name := range group {
			pk.hashFile(h, name)
		}
	}
	paths := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		dep := pk.of(p.Imports[path])
		fmt.Fprintf(h, "import %q %x\n", path, dep)
	}
	var k resultcache.Key
	h.Sum(k[:0])
	pk.keys[p] = k
	return k
}

func (pk *packageKeys) hashFile(h hash.Hash, name string) {
	sum, ok := pk.files[name]
	if !ok {
		data, err := os.ReadFile(name)
		if err != nil && pk.err == nil {
			pk.err = err
		}
		sum = sha256.Sum256(data)
		pk.files[name] = sum
	}
	fmt.Fprintf(h, "file %q %x\n", name, sum)
}

// loadErrors reports whether any package of the graph has an error: such a
// load is not cached at all, so errors are always found and printed anew.
func loadErrors(pkgs []*packages.Package) bool {
	failed := false
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 || len(p.TypeErrors) > 0 || (p.Module != nil && p.Module.Error != nil) {
			failed = true
		}
	})
	return failed
}

// basePath is the import path whose load yields p: a test variant
// (p [p.test]), an external test package (p_test) and a test main (p.test)
// all come from loading p with tests.
func basePath(p *packages.Package) string {
	if p.ForTest != "" {
		return p.ForTest
	}
	if p.Name == "main" && strings.HasSuffix(p.PkgPath, ".test") && strings.HasSuffix(p.ID, ".test") {
		return strings.TrimSuffix(p.PkgPath, ".test")
	}
	return p.PkgPath
}

// hashOf is the SHA-256 of the parts, each length-prefixed.
func hashOf(parts ...[]byte) [sha256.Size]byte {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:", len(p))
		h.Write(p)
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}
