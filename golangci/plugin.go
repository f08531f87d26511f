// Package golangci is guardvet's golangci-lint v2 module plugin.
//
// Importing it registers the plugin "guardvet" with
// github.com/golangci/plugin-module-register. golangci-lint turns all of the
// plugin's analyzers into one linter named guardvet. Build a golangci-lint
// that contains it with `golangci-lint custom` and a .custom-gcl.yml such as
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/guardvet/guardvet
//	    import: github.com/guardvet/guardvet/golangci
//	    version: vX.Y.Z
//
// and enable it in .golangci.yml:
//
//	version: "2"
//	linters:
//	  default: none
//	  enable: [guardvet]
//	  settings:
//	    custom:
//	      guardvet:
//	        type: module
//	        description: lock discipline from //guard: directives
//	        settings:
//	          disable: [unusedignore]
//
// The settings are decoded strictly (see [Settings]): an unknown key, an
// unknown rule or an unknown analyzer flag is an error, never ignored.
//
// Each finding is one golangci-lint issue: its related positions (such as
// where the other lock of a lock-order inversion was taken) are appended to
// its message, "...; related: related.go:23:2: Account.mu locked here",
// instead of becoming issues of their own, so //nolint:guardvet on the
// finding's line silences the whole finding.
package golangci

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/suite"
)

// Name is the plugin's name, and so the golangci-lint linter's name: the key
// under linters.settings.custom and in linters.enable.
const Name = "guardvet"

func init() {
	register.Plugin(Name, New)
}

// Settings are the plugin's settings, the value of
// linters.settings.custom.guardvet.settings. They map onto the guardvet
// command's flags.
type Settings struct {
	// Disable lists rules to switch off, by analyzer name (as the command's
	// -NAME=false): directives, guardedby, unusedignore. Disabling
	// directives only hides its diagnostics; the directives are still read.
	Disable []string `json:"disable"`

	// Flags sets analyzer flags (the command's -ANALYZER.FLAG=VALUE),
	// either nested, ANALYZER: {FLAG: VALUE}, or with a dotted key,
	// "ANALYZER.FLAG": VALUE. Values may be strings, numbers or booleans.
	// Flags of analyzers the rules require (the engine) may be set too.
	//
	// golangci-lint reads its configuration with viper, which lowercases
	// keys and splits dotted keys into nested maps; both spellings end up
	// the same.
	Flags Flags `json:"flags"`
}

// settingKeys are the JSON keys of Settings, for error messages.
var settingKeys = []string{"disable", "flags"}

// Flags holds analyzer flag values: analyzer name, then flag name, then the
// value as it would be written on the command line.
type Flags map[string]map[string]string

// UnmarshalJSON accepts both the nested and the dotted spelling.
func (fl *Flags) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*fl = nil
		return nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		return errors.New(`flags: want a map such as {ANALYZER: {FLAG: VALUE}} or {"ANALYZER.FLAG": VALUE}`)
	}
	out := Flags{}
	set := func(analyzer, name string, raw json.RawMessage) error {
		val, err := scalar(raw)
		if err != nil {
			return fmt.Errorf("flags: %s.%s: %v", analyzer, name, err)
		}
		if out[analyzer] == nil {
			out[analyzer] = map[string]string{}
		}
		if _, dup := out[analyzer][name]; dup {
			return fmt.Errorf("flags: %s.%s is set twice", analyzer, name)
		}
		out[analyzer][name] = val
		return nil
	}
	for _, key := range sortedKeys(top) {
		raw := top[key]
		if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' {
			var inner map[string]json.RawMessage
			if err := json.Unmarshal(t, &inner); err != nil {
				return fmt.Errorf("flags: %s: %v", key, err)
			}
			for _, name := range sortedKeys(inner) {
				if err := set(key, name, inner[name]); err != nil {
					return err
				}
			}
			continue
		}
		analyzer, name, ok := strings.Cut(key, ".")
		if !ok || analyzer == "" || name == "" {
			return fmt.Errorf("flags: key %q: want ANALYZER.FLAG, or ANALYZER with a map of flags", key)
		}
		if err := set(analyzer, name, raw); err != nil {
			return err
		}
	}
	*fl = out
	return nil
}

// scalar renders a JSON string, number or boolean as a flag value.
func scalar(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", errors.New("missing value")
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		return s, nil
	case '{', '[':
		return "", errors.New("want a string, number or boolean value")
	case 'n':
		return "", errors.New("missing value (null)")
	}
	return string(raw), nil // a number or true/false, as written
}

// New is the plugin constructor golangci-lint calls with the raw settings.
func New(conf any) (register.LinterPlugin, error) {
	return newPlugin(conf, suite.Analyzers())
}

// newPlugin is New with the analyzer list as a parameter, for tests.
func newPlugin(conf any, analyzers []*analysis.Analyzer) (*plugin, error) {
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		return nil, fmt.Errorf("%s settings: %w (valid keys: %s)", Name, err, strings.Join(settingKeys, ", "))
	}

	var names []string // the rules: config holds options and reports nothing
	for _, a := range analyzers {
		if a != config.Analyzer {
			names = append(names, a.Name)
		}
	}
	off := map[string]bool{}
	for _, d := range s.Disable {
		if !slices.Contains(names, d) {
			return nil, fmt.Errorf("%s settings: disable: unknown rule %q (valid rules: %s)", Name, d, strings.Join(names, ", "))
		}
		off[d] = true
	}
	p := &plugin{}
	for _, a := range analyzers {
		if !off[a.Name] && a != config.Analyzer { // config runs through Requires
			p.analyzers = append(p.analyzers, a)
		}
	}
	if len(p.analyzers) == 0 {
		return nil, fmt.Errorf("%s settings: disable switches off every rule; remove %s from linters.enable instead", Name, Name)
	}

	// Flags may belong to any analyzer reachable through Requires.
	all := map[string]*analysis.Analyzer{}
	var walk func(a *analysis.Analyzer)
	walk = func(a *analysis.Analyzer) {
		if all[a.Name] != nil {
			return
		}
		all[a.Name] = a
		for _, r := range a.Requires {
			walk(r)
		}
	}
	for _, a := range analyzers {
		walk(a)
	}
	for _, aname := range sortedKeys(s.Flags) {
		for _, fname := range sortedKeys(s.Flags[aname]) {
			var f *flag.Flag
			if a := all[aname]; a != nil {
				f = lookupFlag(&a.Flags, fname)
			}
			if f == nil {
				return nil, fmt.Errorf("%s settings: flags: unknown flag %q; %s", Name, aname+"."+fname, flagHelp(all))
			}
			p.flags = append(p.flags, flagSetting{all[aname], f.Name, s.Flags[aname][fname]})
		}
	}
	return p, nil
}

type flagSetting struct {
	analyzer *analysis.Analyzer
	name     string
	value    string
}

type plugin struct {
	analyzers []*analysis.Analyzer
	flags     []flagSetting
}

// BuildAnalyzers applies the configured analyzer flags and returns the
// enabled rules, in the order of suite.Analyzers, as copies that fold each
// diagnostic's related positions into its message (see foldRelated).
// guardvet's flags are options of its configuration: the config
// analyzer's (config.*) and the rules' own (noblock.all) go into a
// configuration of the plugin's own, which the copies are bound to
// (config.Bind), so the flags other users of the package read are left
// alone. A flag of any other analyzer is set on it.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	cfg := config.FromFlags()
	for _, f := range p.flags {
		var err error
		switch {
		case f.analyzer == config.Analyzer:
			cfg, err = cfg.With(f.name, f.value)
		case config.IsRuleOption(f.analyzer.Name, f.name):
			cfg, err = cfg.With(f.analyzer.Name+"."+f.name, f.value)
		default:
			fs := &f.analyzer.Flags
			old := fs.Lookup(f.name).Value.String()
			if err = fs.Set(f.name, f.value); err != nil {
				_ = fs.Set(f.name, old) // a failed Set may have stored a zero value
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s settings: flags: %s.%s: %w", Name, f.analyzer.Name, f.name, err)
		}
	}
	return foldRelated(config.Bind(p.analyzers, cfg)), nil
}

// GetLoadMode asks golangci-lint for syntax and type information.
func (p *plugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}

// lookupFlag finds a flag by name, ignoring case as a fallback because
// golangci-lint's configuration loader lowercases keys.
func lookupFlag(fs *flag.FlagSet, name string) *flag.Flag {
	if f := fs.Lookup(name); f != nil {
		return f
	}
	var found *flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if strings.EqualFold(f.Name, name) {
			found = f
		}
	})
	return found
}

// flagHelp lists every settable flag as ANALYZER.FLAG.
func flagHelp(all map[string]*analysis.Analyzer) string {
	var valid []string
	for _, name := range sortedKeys(all) {
		all[name].Flags.VisitAll(func(f *flag.Flag) {
			valid = append(valid, name+"."+f.Name)
		})
	}
	if len(valid) == 0 {
		return "no guardvet analyzer has flags in this version"
	}
	return "valid flags: " + strings.Join(valid, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
