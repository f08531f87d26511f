package main

import (
	"fmt"
	"slices"
	"strings"
)

// PackageSet is a named list of package patterns, resolved in Dir (the
// current directory when empty), so a set may name another module's
// packages, such as the pinned corpus in testdata/corpus.
type PackageSet struct {
	Name     string   `json:"name"`
	Dir      string   `json:"dir,omitempty"`
	Packages []string `json:"packages"`
	// LeafEdit and SharedEdit are files (relative to Dir) of a package
	// nothing else in the set imports and of one much of it imports: the
	// "leaf edit" and "shared edit" commands change one of them before
	// each run, on an otherwise warm result cache. Only for sets in a
	// writable copy.
	LeafEdit   string `json:"leaf_edit,omitempty"`
	SharedEdit string `json:"shared_edit,omitempty"`
	// Locks is the number of locks of a generated long-function set.
	Locks int `json:"locks,omitempty"`
}

// setsFlag collects repeated -set NAME=PKG,PKG,... flags in order.
type setsFlag []PackageSet

func (f *setsFlag) String() string {
	if f == nil {
		return ""
	}
	return describeSets(*f)
}

func (f *setsFlag) Set(v string) error {
	s, err := parseSet(v)
	if err != nil {
		return err
	}
	for _, old := range *f {
		if old.Name == s.Name {
			return fmt.Errorf("package set %q given twice", s.Name)
		}
	}
	*f = append(*f, s)
	return nil
}

// parseSet parses NAME=PKG,PKG,... .
func parseSet(v string) (PackageSet, error) {
	name, list, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	name, dir, _ := strings.Cut(name, "@")
	if !ok || name == "" {
		return PackageSet{}, fmt.Errorf("want NAME[@DIR]=PKG,PKG,..., got %q", v)
	}
	if strings.ContainsAny(name, " \t,") {
		return PackageSet{}, fmt.Errorf("package set name %q contains a space or comma", name)
	}
	var pkgs []string
	for p := range strings.SplitSeq(list, ",") {
		if p = strings.TrimSpace(p); p != "" {
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) == 0 {
		return PackageSet{}, fmt.Errorf("package set %q has no packages", name)
	}
	return PackageSet{Name: name, Dir: dir, Packages: pkgs}, nil
}

func describeSets(sets []PackageSet) string {
	var parts []string
	for _, s := range sets {
		name := s.Name
		if s.Dir != "" {
			name += "@" + s.Dir
		}
		parts = append(parts, name+"="+strings.Join(s.Packages, ","))
	}
	return strings.Join(parts, " ")
}

// Results is everything one benchmark run reports.
type Results struct {
	GoVersion   string      `json:"go_version"`
	NumCPU      int         `json:"num_cpu"`
	Runs        int         `json:"runs"`
	WarmupRuns  int         `json:"warmup_runs"`
	FloorFacts  bool        `json:"floor_facts"`
	VetCache    bool        `json:"vet_cache_allowed"`
	RSSMeaning  string      `json:"rss_meaning"`
	CacheNotice string      `json:"cache_notice"`
	Sets        []SetResult `json:"sets"`
}

// SetResult is the outcome for one package set.
type SetResult struct {
	PackageSet
	Commands []CommandResult `json:"commands"`
	// Overhead is guardvet's median wall time and median peak RSS over
	// the floor's, in percent.
	Overhead struct {
		WallPercent float64 `json:"wall_percent"`
		RSSPercent  float64 `json:"rss_percent"`
		CPUPercent  float64 `json:"cpu_percent"`
	} `json:"guardvet_overhead"`
	// Infer is guardvet -infer's median wall time, peak RSS and CPU time
	// over the default run's, as ratios (when it was run).
	Infer *struct {
		Wall float64 `json:"wall_ratio"`
		RSS  float64 `json:"rss_ratio"`
		CPU  float64 `json:"cpu_ratio"`
	} `json:"infer_over_guardvet,omitempty"`
	// Races is guardvet races' (the whole-program mode) median wall time,
	// peak RSS and CPU time over the default run's (when it was run).
	Races *Ratios `json:"races_over_guardvet,omitempty"`
	// Cache is the median wall time of the runs on the result cache over
	// the cold run's (guardvet with the cache off), as ratios.
	Cache *CacheRatios `json:"cache_over_cold,omitempty"`
	Notes []string     `json:"notes,omitempty"`
}

// CacheRatios are cached runs' median wall times over the cold run's.
type CacheRatios struct {
	Warm       float64 `json:"warm"`
	LeafEdit   float64 `json:"leaf_edit,omitempty"`
	SharedEdit float64 `json:"shared_edit,omitempty"`
}

// CommandResult summarizes the timed runs of one command.
type CommandResult struct {
	Name         string   `json:"name"`
	CommandLine  string   `json:"command_line"`
	Runs         []Sample `json:"runs"`
	MedianWall   float64  `json:"median_wall_s"`
	MinWall      float64  `json:"min_wall_s"`
	MaxWall      float64  `json:"max_wall_s"`
	MedianRSSMiB float64  `json:"median_peak_rss_mib"`
	MedianCPU    float64  `json:"median_cpu_s"`
	WallRatio    float64  `json:"wall_ratio_vs_floor"`
	RSSRatio     float64  `json:"rss_ratio_vs_floor"`
	CPURatio     float64  `json:"cpu_ratio_vs_floor"`
	ExitCodes    []int    `json:"exit_codes"` // distinct, sorted
}

// median returns the median of xs (the mean of the two middle values for
// an even count), or 0 for none. xs is not modified.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// summarize computes medians and ratios for one set. samples[i] are the
// timed runs of cmds[i]; the floor is the command named "typecheckfloor".
func summarize(set PackageSet, cmds []Command, samples [][]Sample) SetResult {
	res := SetResult{PackageSet: set}
	for i, c := range cmds {
		var walls, rss, cpu []float64
		var codes []int
		for _, s := range samples[i] {
			walls = append(walls, s.WallSeconds)
			rss = append(rss, s.PeakRSSMiB)
			cpu = append(cpu, s.CPUSeconds)
			if !slices.Contains(codes, s.ExitCode) {
				codes = append(codes, s.ExitCode)
			}
		}
		slices.Sort(codes)
		cr := CommandResult{
			Name:         c.Name,
			CommandLine:  c.display(),
			Runs:         samples[i],
			MedianWall:   median(walls),
			MedianRSSMiB: median(rss),
			MedianCPU:    median(cpu),
			ExitCodes:    codes,
		}
		if len(walls) > 0 {
			cr.MinWall, cr.MaxWall = slices.Min(walls), slices.Max(walls)
		}
		for _, code := range codes {
			if !slices.Contains(c.ExpectedExit, code) {
				res.Notes = append(res.Notes, fmt.Sprintf("%s exited %d (expected one of %v; if that is a load or build error, those runs are not comparable); check its output by running: %s",
					c.Name, code, c.ExpectedExit, c.display()))
			}
		}
		res.Commands = append(res.Commands, cr)
	}
	floor := res.command("typecheckfloor")
	if floor == nil {
		return res
	}
	floorWall, floorRSS, floorCPU := floor.MedianWall, floor.MedianRSSMiB, floor.MedianCPU
	for i := range res.Commands {
		c := &res.Commands[i]
		c.WallRatio = ratio(c.MedianWall, floorWall)
		c.RSSRatio = ratio(c.MedianRSSMiB, floorRSS)
		c.CPURatio = ratio(c.MedianCPU, floorCPU)
	}
	if gv := res.command("guardvet"); gv != nil {
		res.Overhead.WallPercent = (gv.WallRatio - 1) * 100
		res.Overhead.RSSPercent = (gv.RSSRatio - 1) * 100
		res.Overhead.CPUPercent = (gv.CPURatio - 1) * 100
	}
	return res.withInfer().withRaces().withCache()
}

// withCache adds the cached runs' cost over the cold run, when they ran.
func (r SetResult) withCache() SetResult {
	gv, warm := r.command("guardvet"), r.command("guardvet warm")
	if gv == nil || warm == nil {
		return r
	}
	r.Cache = &CacheRatios{Warm: ratio(warm.MedianWall, gv.MedianWall)}
	if c := r.command("leaf edit"); c != nil {
		r.Cache.LeafEdit = ratio(c.MedianWall, gv.MedianWall)
	}
	if c := r.command("shared edit"); c != nil {
		r.Cache.SharedEdit = ratio(c.MedianWall, gv.MedianWall)
	}
	return r
}

// withInfer adds guardvet -infer's cost over the default run, when both
// ran.
func (r SetResult) withInfer() SetResult {
	gv, in := r.command("guardvet"), r.command("guardvet -infer")
	if gv == nil || in == nil {
		return r
	}
	r.Infer = &struct {
		Wall float64 `json:"wall_ratio"`
		RSS  float64 `json:"rss_ratio"`
		CPU  float64 `json:"cpu_ratio"`
	}{ratio(in.MedianWall, gv.MedianWall), ratio(in.MedianRSSMiB, gv.MedianRSSMiB), ratio(in.MedianCPU, gv.MedianCPU)}
	return r
}

// Ratios are one command's medians over another's.
type Ratios struct {
	Wall float64 `json:"wall_ratio"`
	RSS  float64 `json:"rss_ratio"`
	CPU  float64 `json:"cpu_ratio"`
}

// withRaces adds guardvet races' cost over the default run, when both
// ran.
func (r SetResult) withRaces() SetResult {
	gv, rc := r.command("guardvet"), r.command("guardvet races")
	if gv == nil || rc == nil {
		return r
	}
	r.Races = &Ratios{ratio(rc.MedianWall, gv.MedianWall), ratio(rc.MedianRSSMiB, gv.MedianRSSMiB), ratio(rc.MedianCPU, gv.MedianCPU)}
	return r
}

func (r *SetResult) command(name string) *CommandResult {
	for i := range r.Commands {
		if r.Commands[i].Name == name {
			return &r.Commands[i]
		}
	}
	return nil
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// formatText renders results as plain-text tables, one per set.
func formatText(res Results) string {
	var b strings.Builder
	fmt.Fprintf(&b, "guardvet-bench: %s, %d CPUs, %d timed runs per command, interleaved round-robin after %d untimed warm-up round\n",
		res.GoVersion, res.NumCPU, res.Runs, res.WarmupRuns)
	fmt.Fprintf(&b, "floor: typecheckfloor -facts=%t\n", res.FloorFacts)
	fmt.Fprintf(&b, "wall: whole process; %s; CPU = user+system time of the command and its waited-for descendants (less sensitive than wall to other load)\n", res.RSSMeaning)
	fmt.Fprintf(&b, "caches: %s\n", res.CacheNotice)
	for _, s := range res.Sets {
		fmt.Fprintf(&b, "\n== %s: %s\n", s.Name, strings.Join(s.Packages, " "))
		fmt.Fprintf(&b, "%-15s  %11s  %8s  %8s  %10s  %10s  %9s  %10s  %9s  %s\n",
			"command", "median wall", "min", "max", "median RSS", "wall/floor", "RSS/floor", "median CPU", "CPU/floor", "exit")
		for _, c := range s.Commands {
			fmt.Fprintf(&b, "%-15s  %9.2f s  %6.2f s  %6.2f s  %6.1f MiB  %10.3f  %9.3f  %8.2f s  %9.3f  %s\n",
				c.Name, c.MedianWall, c.MinWall, c.MaxWall, c.MedianRSSMiB, c.WallRatio, c.RSSRatio,
				c.MedianCPU, c.CPURatio, joinInts(c.ExitCodes))
		}
		fmt.Fprintf(&b, "runs, in order (wall s / peak RSS MiB / CPU s):\n")
		for _, c := range s.Commands {
			fmt.Fprintf(&b, "  %-15s", c.Name)
			for _, r := range c.Runs {
				fmt.Fprintf(&b, "  %.2f/%.0f/%.2f", r.WallSeconds, r.PeakRSSMiB, r.CPUSeconds)
			}
			b.WriteString("\n")
		}
		for _, n := range s.Notes {
			fmt.Fprintf(&b, "note: %s\n", n)
		}
		if s.command("guardvet") != nil {
			fmt.Fprintf(&b, "guardvet overhead over floor on %s: %+.1f%% wall, %+.1f%% RSS (%+.1f%% CPU)\n",
				s.Name, s.Overhead.WallPercent, s.Overhead.RSSPercent, s.Overhead.CPUPercent)
		}
		if s.Infer != nil {
			fmt.Fprintf(&b, "guardvet -infer over guardvet on %s: %.2fx wall, %.2fx RSS (%.2fx CPU)\n",
				s.Name, s.Infer.Wall, s.Infer.RSS, s.Infer.CPU)
		}
		if s.Races != nil {
			fmt.Fprintf(&b, "guardvet races over guardvet on %s: %.2fx wall, %.2fx RSS (%.2fx CPU)\n",
				s.Name, s.Races.Wall, s.Races.RSS, s.Races.CPU)
		}
		if s.Cache != nil {
			fmt.Fprintf(&b, "result cache on %s, wall over the cold run: warm %.2fx", s.Name, s.Cache.Warm)
			if s.Cache.LeafEdit > 0 {
				fmt.Fprintf(&b, ", leaf edit (%s) %.2fx", s.LeafEdit, s.Cache.LeafEdit)
			}
			if s.Cache.SharedEdit > 0 {
				fmt.Fprintf(&b, ", shared edit (%s) %.2fx", s.SharedEdit, s.Cache.SharedEdit)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString(formatSlope(res.Sets))
	return b.String()
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ",")
}
