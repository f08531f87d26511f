// Command guardvet-bench measures guardvet's whole-process cost against a
// type-check-only floor measured in the same run. It is what `make bench`
// runs; speed is measured, not asserted.
//
// Usage:
//
//	guardvet-bench -guardvet BIN -floor BIN [flags]
//
// For each package set it runs three commands on the same packages:
//
//	guardvet PKGS                   the binary under test (prebuilt, -guardvet)
//	typecheckfloor [-facts] PKGS    the floor (prebuilt from internal/tools/typecheckfloor, -floor)
//	guardvet -infer PKGS            guard inference on, reported against the default run (-infer)
//	guardvet races PKGS             the whole-program race mode, reported against the default run (-races)
//	go vet PKGS                     plain standard go vet, a familiar reference point
//
// Each command runs -runs times. The runs are interleaved round-robin
// (guardvet, floor, vet, guardvet, floor, vet, ...) so that drift on a noisy
// machine hits all commands alike, after one untimed warm-up round. The
// runner does not build anything: build the binaries first with `go build
// -o`. Run it from the module root (the default "module" set is ./...).
//
// # What is measured
//
// Wall time is the whole process, from start to exit, including package
// loading (`go list`), parsing, type-checking and analysis.
//
// Peak RSS is the largest resident set of any single process among the
// command and the descendants it waited for: every command runs under a
// small wrapper (this binary in its internal -measure mode) that starts it,
// waits, and reads getrusage(RUSAGE_CHILDREN).ru_maxrss. For guardvet and
// the floor that is the analysis process itself (its `go list` child is
// smaller). For go vet it is the largest of the go command and each vet or
// compile process it ran; go vet runs several vet processes at once, so its
// total footprint at a moment may be larger than this number, up to about
// GOMAXPROCS times it.
//
// CPU time is user plus system time of the command and the same waited-for
// descendants, from the same getrusage call. It is reported beside wall
// time because it is less disturbed by other load on the machine, though
// not immune to it.
//
// Medians, minimum and maximum are over the timed runs; ratios are of
// medians against the floor's medians.
//
// # Noise
//
// On a shared or small machine the spread between runs can exceed the 5%
// target. To see how much, run an A/A comparison, with the floor binary
// also given as -guardvet: the reported overhead should then be zero, and
// whatever it shows is noise. Use more -runs, and a quiet machine, before
// reading a few percent into a result.
//
// # Caches
//
// guardvet and the floor load packages with go/packages, which runs `go
// list -export`; the compiled export data of the packages is cached in the
// Go build cache after the warm-up round, the same for both. Neither has a
// result cache: every run parses and type-checks from source the named
// packages and, because guardvet's analyzers declare facts (and the floor
// matches them with -facts), all their dependencies too.
//
// go vet (Go 1.26) caches each package's vet result (facts and output) in
// the build cache, keyed by the vet flags, and replays it when nothing
// changed: a repeated `go vet` of unchanged packages takes well under a
// second and does no analysis. By default every go vet run here gets a
// flag that changes nothing but the cache key (-printf.funcs= with a fresh
// random name), so each run really analyses every package, dependencies
// included, as on a clean vet cache. Because any explicit vet flag does so,
// go vet then also runs its cheap unsafeptr check on standard-library
// packages, which it otherwise leaves out there. -vet-cache lets go vet
// replay instead.
//
// # Flags
//
//	-guardvet PATH     prebuilt guardvet binary (required)
//	-floor PATH        prebuilt typecheckfloor binary (required)
//	-runs N            timed runs per command (default 5)
//	-set NAME[@DIR]=PKG,...  a package set, run in DIR; repeatable, in order; any -set
//	                   replaces the default sets
//	-floor-facts       run the floor with -facts=true (default true; guardvet's
//	                   analyzers declare facts, which makes the driver
//	                   type-check dependencies from source)
//	-vet               also run go vet (default true)
//	-vet-cache         let go vet replay its cached results (default false)
//	-infer             also run guardvet -infer, and report its median wall
//	                   time and peak RSS over the default run's (default true)
//	-races             also run guardvet races, and report the same (default true)
//	-go PATH           go command for go vet (default "go")
//	-json              print the results as JSON instead of tables
//
// The default sets are "directive-free", a fixed subset of the standard
// library (no guardvet directives, so this is the target's case: under 5%
// wall-time overhead over the floor), "module", ./... of the current
// module, and "tcpip", gVisor's pkg/tcpip/... from the pinned corpus module
// in testdata/corpus (annotated in the checklocks dialect). A set given as
// -set NAME@DIR=PKG,... runs in DIR.
//
// Progress goes to standard error, results to standard output. The runner
// exits non-zero if a command crashes (is killed by a signal or prints a Go
// panic or fatal error). A non-zero exit because of findings is not an
// error: exit codes are recorded, and codes other than the expected ones (0
// and 1 for the analysis drivers, whose 1 means findings; 0 and 1 for go
// vet) are reported as notes.
package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// defaultSets are the package sets used when no -set flag is given.
var defaultSets = []PackageSet{
	{
		Name: "directive-free",
		Packages: []string{
			"archive/zip", "crypto/tls", "database/sql", "encoding/json",
			"encoding/xml", "go/types", "html/template", "net/http",
			"net/rpc", "text/template",
		},
	},
	{Name: "module", Packages: []string{"./..."}},
	// gVisor's network stack, annotated in the checklocks dialect: the
	// annotated case at real size, from the pinned corpus module.
	{Name: "tcpip", Dir: "testdata/corpus", Packages: []string{"gvisor.dev/gvisor/pkg/tcpip/..."}},
}

// config is the parsed command line.
type config struct {
	guardvet   string
	floor      string
	goCmd      string
	runs       int
	sets       setsFlag
	floorFacts bool
	vet        bool
	vetCache   bool
	infer      bool
	races      bool
	cache      bool
	json       bool
}

func main() {
	var cfg config
	var measureFD int
	fs := flag.CommandLine
	fs.StringVar(&cfg.guardvet, "guardvet", "", "prebuilt guardvet binary (required)")
	fs.StringVar(&cfg.floor, "floor", "", "prebuilt typecheckfloor binary (required)")
	fs.StringVar(&cfg.goCmd, "go", "go", "go command used for go vet")
	fs.IntVar(&cfg.runs, "runs", 5, "timed runs per command, interleaved round-robin after one untimed warm-up round")
	fs.Var(&cfg.sets, "set", "package set `NAME[@DIR]=PKG,PKG,...` (run in DIR); repeatable; replaces the default sets\n"+
		"(default: "+describeSets(defaultSets)+")")
	fs.BoolVar(&cfg.floorFacts, "floor-facts", true, "run the floor with -facts=true, so that it type-checks dependencies from source as guardvet does (its analyzers declare facts)")
	fs.BoolVar(&cfg.vet, "vet", true, "also run plain go vet as a reference point")
	fs.BoolVar(&cfg.vetCache, "vet-cache", false, "let go vet replay cached results (default: defeat the vet cache with a per-run nonce flag so every run analyses every package)")
	fs.BoolVar(&cfg.infer, "infer", true, "also run guardvet -infer (guard inference) and report its cost over the default run")
	fs.BoolVar(&cfg.races, "races", true, "also run guardvet races (the whole-program race mode) and report its cost over the default run")
	fs.BoolVar(&cfg.cache, "cache", true, "also run guardvet on a warm result cache, and, in sets that are writable copies, after a one-file edit of a leaf package and of a widely imported one; the other guardvet commands run with the cache off")
	fs.BoolVar(&cfg.json, "json", false, "print results as JSON instead of tables")
	fs.IntVar(&measureFD, "measure", 0, "internal: run the command after -- and report its wall time, exit status and peak RSS as JSON on file descriptor `FD` (2 for standard error)")
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: guardvet-bench -guardvet BIN -floor BIN [flags]\n\n")
		fmt.Fprintf(w, "Runs guardvet, the type-check-only floor and go vet on each package set,\n")
		fmt.Fprintf(w, "interleaved round-robin after one untimed warm-up round, and reports whole-process\n")
		fmt.Fprintf(w, "wall time, peak RSS (largest single process among the command and its waited-for\n")
		fmt.Fprintf(w, "descendants) and CPU time: medians, min, max and ratios against the floor.\n")
		fmt.Fprintf(w, "Run from the module root. See `go doc ./internal/tools/guardvet-bench` for cache behaviour.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	flag.Parse()

	if measureFD > 0 {
		os.Exit(measureMain(measureFD, fs.Args()))
	}
	if err := run(&cfg, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "guardvet-bench: %v\n", err)
		os.Exit(1)
	}
}

// run executes the benchmark described by cfg and writes results to out
// and progress to progress.
func run(cfg *config, out, progress io.Writer) error {
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (package sets are given with -set)", flag.Args())
	}
	if cfg.runs < 1 {
		return fmt.Errorf("-runs must be at least 1")
	}
	if cfg.guardvet == "" || cfg.floor == "" {
		return fmt.Errorf("-guardvet and -floor are required (build them first with go build -o)")
	}
	for _, p := range []string{cfg.guardvet, cfg.floor} {
		if err := checkExecutable(p); err != nil {
			return err
		}
	}
	goPath := ""
	if cfg.vet {
		var err error
		if goPath, err = exec.LookPath(cfg.goCmd); err != nil {
			return fmt.Errorf("go command: %v", err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("locating own executable for -measure: %v", err)
	}
	sets := []PackageSet(cfg.sets)
	if len(sets) == 0 {
		var cleanup func()
		if sets, cleanup, err = defaultSetsWithCopies(); err != nil {
			return err
		}
		defer cleanup()
	}
	scratch, err := os.MkdirTemp("", "guardvet-bench-cache-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)

	res := Results{
		GoVersion:   goVersion(cfg.goCmd),
		NumCPU:      runtime.NumCPU(),
		Runs:        cfg.runs,
		WarmupRuns:  1,
		FloorFacts:  cfg.floorFacts,
		VetCache:    cfg.vetCache,
		RSSMeaning:  "peak RSS = largest ru_maxrss of any single process among the command and its waited-for descendants",
		CacheNotice: cacheNotice(cfg),
	}
	for _, set := range sets {
		cmds, samples, err := measureSet(cfg, self, goPath, set, scratch, progress)
		if err != nil {
			return err
		}
		res.Sets = append(res.Sets, summarize(set, cmds, samples))
	}

	if cfg.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	_, err = io.WriteString(out, formatText(res))
	return err
}

// measureSet runs the set's commands, interleaved round-robin after one
// untimed warm-up round, and returns each command's timed samples.
func measureSet(cfg *config, self, goPath string, set PackageSet, scratch string, progress io.Writer) ([]Command, [][]Sample, error) {
	cmds, err := commandsFor(cfg, goPath, set, scratch)
	if err != nil {
		return nil, nil, err
	}
	samples := make([][]Sample, len(cmds))
	for round := 0; round <= cfg.runs; round++ {
		for i, c := range cmds {
			argv := c.argv()
			if c.Prepare != nil {
				if err := c.Prepare(); err != nil {
					return nil, nil, fmt.Errorf("[%s] %s: %v", set.Name, c.Name, err)
				}
			}
			s, err := measureCommand(self, c.Dir, argv, c.Env)
			if c.Cleanup != nil {
				if cerr := c.Cleanup(); cerr != nil && err == nil {
					err = cerr
				}
			}
			label := fmt.Sprintf("run %d/%d", round, cfg.runs)
			if round == 0 {
				label = "warm-up"
			}
			if err != nil {
				return nil, nil, fmt.Errorf("[%s] %s %s: %v", set.Name, label, c.Name, err)
			}
			fmt.Fprintf(progress, "[%s] %-8s %-14s %7.2f s wall %7.1f MiB %7.2f s CPU  exit %d\n",
				set.Name, label, c.Name, s.WallSeconds, s.PeakRSSMiB, s.CPUSeconds, s.ExitCode)
			if round > 0 {
				samples[i] = append(samples[i], s)
			}
		}
	}
	return cmds, samples, nil
}

// Command is one benchmarked command of a set.
type Command struct {
	Name string   // role: "guardvet", "typecheckfloor" or "go vet"
	Path string   // executable
	Args []string // arguments before the packages
	// Nonce, when set, returns extra arguments that differ on each run
	// (used to defeat go vet's result cache).
	Nonce    func() []string
	Packages []string
	// ExpectedExit lists the exit codes that are normal for the command.
	ExpectedExit []int
	// Dir is the directory the command runs in (the set's Dir).
	Dir string
	// Env is added to the environment (GUARDVETCACHE for guardvet).
	Env []string
	// Prepare runs before each run of the command and Cleanup after it
	// (the edits of the edit commands); neither is timed.
	Prepare, Cleanup func() error
}

func (c Command) argv() []string {
	argv := append([]string{c.Path}, c.Args...)
	if c.Nonce != nil {
		argv = append(argv, c.Nonce()...)
	}
	return append(argv, c.Packages...)
}

// display is the command line shown in reports, with a placeholder for
// the nonce.
func (c Command) display() string {
	parts := append([]string{c.Path}, c.Args...)
	if c.Nonce != nil {
		parts = append(parts, "-printf.funcs=<nonce>")
	}
	return strings.Join(append(parts, c.Packages...), " ")
}

func commandsFor(cfg *config, goPath string, set PackageSet, scratch string) ([]Command, error) {
	cold := []string{"GUARDVETCACHE=off"} // the cold runs: no result cache
	cmds := []Command{
		{Name: "guardvet", Path: cfg.guardvet, Packages: set.Packages, ExpectedExit: []int{0, 1}, Dir: set.Dir, Env: cold},
		{
			Name: "typecheckfloor", Path: cfg.floor,
			Args:     []string{fmt.Sprintf("-facts=%t", cfg.floorFacts)},
			Packages: set.Packages, ExpectedExit: []int{0, 1}, Dir: set.Dir,
		},
	}
	if cfg.infer && set.Locks == 0 {
		cmds = append(cmds, Command{Name: "guardvet -infer", Path: cfg.guardvet, Args: []string{"-infer"}, Packages: set.Packages, ExpectedExit: []int{0, 1}, Dir: set.Dir, Env: cold})
	}
	if cfg.races && set.Locks == 0 {
		cmds = append(cmds, Command{Name: "guardvet races", Path: cfg.guardvet, Args: []string{"races"}, Packages: set.Packages, ExpectedExit: []int{0, 1}, Dir: set.Dir})
	}
	if cfg.cache && set.Locks == 0 {
		cached, err := cacheCommands(cfg, set, scratch)
		if err != nil {
			return nil, err
		}
		cmds = append(cmds, cached...)
	}
	if cfg.vet && set.Locks == 0 {
		vet := Command{Name: "go vet", Path: goPath, Args: []string{"vet"}, Packages: set.Packages, ExpectedExit: []int{0, 1}, Dir: set.Dir}
		if !cfg.vetCache {
			vet.Nonce = func() []string { return []string{"-printf.funcs=guardvetbench_nonce_" + nonce()} }
		}
		cmds = append(cmds, vet)
	}
	return cmds, nil
}

// nonce returns a fresh random identifier.
func nonce() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func cacheNotice(cfg *config) string {
	n := "guardvet and the floor: compiled export data (go list -export) is cached after the warm-up round, the same for both; guardvet and guardvet -infer run with its result cache off (GUARDVETCACHE=off)."
	if cfg.cache {
		n += " guardvet warm: the result cache filled by the warm-up round, replayed by every timed run; leaf edit and shared edit: a comment with a fresh nonce added to one file before each run, on a cache of their own, warm otherwise."
	}
	if !cfg.vet {
		return n
	}
	if cfg.vetCache {
		return n + " go vet: result cache ALLOWED, so timed runs replay cached results and do little or no analysis."
	}
	return n + " go vet: result cache defeated with a per-run -printf.funcs nonce, so every run analyses every package, dependencies included (as on a clean vet cache; this also enables unsafeptr on std packages)."
}

func checkExecutable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("%v (build it first with go build -o)", err)
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return fmt.Errorf("%s is not an executable file", path)
	}
	return nil
}

func goVersion(goCmd string) string {
	out, err := exec.Command(goCmd, "env", "GOVERSION").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}
