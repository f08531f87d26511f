// Package configfile reads guardvet's configuration file, .guardvet.yaml:
// which rules run, guard inference and its settings, analyzer flags, the
// baseline's path, and overrides for parts of the tree (generated code,
// vendored trees, tests). The standalone command finds it from the
// working directory upward to the repository root (outside a repository,
// the module root); its flags override it.
//
// The file is YAML, read with gopkg.in/yaml.v3's node API so that every
// error names the file, the line and the valid choices: an unknown key, a
// rule that does not exist, a value of the wrong kind, a bad glob. Nothing
// in it is ignored.
package configfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"gopkg.in/yaml.v3"
)

// Name is the file's name.
const Name = ".guardvet.yaml"

// File is a parsed configuration file.
type File struct {
	Path string // as found or given
	Dir  string // its directory, absolute: paths in it are relative to it

	// Rules are the rule settings for the whole tree: rule name → on.
	// Rules not listed keep their default.
	Rules map[string]bool
	// Flags are command-line flags the file sets (-NAME=VALUE), in the
	// file's order: analyzer flags, inference's settings, tests, tags.
	Flags []Flag
	// Baseline is the baseline file's path, absolute ("" for none).
	Baseline string
	// Overrides change the rules for the files their paths match; later
	// ones win.
	Overrides []Override
	// NoHints turns off the hints guardvet prints on stderr (hints:
	// false), such as the one for a run on packages with no directive.
	NoHints bool
}

// Flag is a flag the file sets, with the line that sets it.
type Flag struct {
	Name, Value string
	Line        int
}

// Override is one entry of overrides:.
type Override struct {
	Paths   []string // doublestar globs relative to the file's directory
	Exclude bool     // no finding is reported in these files
	Rules   map[string]bool
	Line    int
}

// Schema says what the file may name: the rules, and a check of an
// analyzer flag and its value (nil when the flag does not exist).
type Schema struct {
	Rules []string
	Flag  func(name, value string) error
}

// Error is an error at a position of the file.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Find returns the path of the configuration file in dir or the nearest
// directory above it, up to the repository root (the directory with
// .git), so that one file at the root of a repository serves the modules
// in its subdirectories too; outside a repository, up to the module root
// (the nearest directory with a go.mod). "" when there is none.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	stop := boundary(dir)
	for {
		path := filepath.Join(dir, Name)
		if st, err := os.Stat(path); err == nil && !st.IsDir() {
			return path, nil
		}
		parent := filepath.Dir(dir)
		if dir == stop || parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// boundary is the directory where Find stops: the repository root above
// dir, else the module root, else dir itself.
func boundary(dir string) string {
	module := ""
	for d := dir; ; {
		if exists(filepath.Join(d, ".git")) {
			return d
		}
		if module == "" && exists(filepath.Join(d, "go.mod")) {
			module = d
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if module != "" {
		return module
	}
	return dir
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Load reads and parses the file at path.
func Load(path string, schema Schema) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, schema)
}

// Parse parses a configuration file's content.
func Parse(path string, data []byte, schema Schema) (*File, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	f := &File{Path: path, Dir: filepath.Dir(abs), Rules: map[string]bool{}}
	p := &parser{file: f, schema: schema}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return f, nil // an empty file: nothing set
		}
		return nil, &Error{File: path, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if err := p.top(&doc); err != nil {
		return nil, err
	}
	return f, nil
}

type parser struct {
	file   *File
	schema Schema
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) error {
	return &Error{File: p.file.Path, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)}
}

// topKeys are the keys of the file's top level.
var topKeys = []string{"baseline", "disable", "enable", "flags", "hints", "infer", "inference", "overrides", "shared", "tags", "tests"}

// overrideKeys are the keys of an entry of overrides:.
var overrideKeys = []string{"disable", "enable", "exclude", "infer", "paths", "shared"}

// inferenceKeys are the keys of inference:, each a -config.infer.KEY flag.
var inferenceKeys = []string{"explain", "locked", "prose", "ratio", "score"}

func (p *parser) top(doc *yaml.Node) error {
	if len(doc.Content) == 0 {
		return nil
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return p.errorf(m, "want a mapping of settings (keys: %s)", strings.Join(topKeys, ", "))
	}
	return p.mapping(m, topKeys, func(key string, k, v *yaml.Node) error {
		switch key {
		case "disable", "enable", "infer", "shared":
			return p.rule(key, v, p.file.Rules)
		case "baseline":
			s, err := p.str(v)
			if err == nil && s != "" {
				p.file.Baseline = filepath.Join(p.file.Dir, filepath.FromSlash(s))
			}
			return err
		case "tests":
			return p.flag(v, "test", "bool")
		case "hints":
			on, err := p.boolean(v)
			p.file.NoHints = err == nil && !on
			return err
		case "tags":
			tags, err := p.strs(v)
			if err == nil {
				p.file.Flags = append(p.file.Flags, Flag{Name: "tags", Value: strings.Join(tags, ","), Line: v.Line})
			}
			return err
		case "inference":
			return p.mapping(v, inferenceKeys, func(key string, _, v *yaml.Node) error {
				return p.flag(v, "config.infer."+key, "")
			})
		case "flags":
			return p.flags(v)
		case "overrides":
			return p.overrides(v)
		}
		return nil
	})
}

// mapping walks a mapping node's keys, each of which must be one of keys.
func (p *parser) mapping(m *yaml.Node, keys []string, each func(key string, k, v *yaml.Node) error) error {
	if m.Kind != yaml.MappingNode {
		return p.errorf(m, "want a mapping (keys: %s)", strings.Join(keys, ", "))
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if !slices.Contains(keys, k.Value) {
			return p.errorf(k, "unknown key %q; the keys here are %s", k.Value, strings.Join(keys, ", "))
		}
		if line, dup := seen[k.Value]; dup {
			return p.errorf(k, "%s is set twice (first at line %d)", k.Value, line)
		}
		seen[k.Value] = k.Line
		if err := each(k.Value, k, v); err != nil {
			return err
		}
	}
	return nil
}

// rule reads a rule setting (disable:, enable:, infer:, shared:) into rules.
func (p *parser) rule(key string, v *yaml.Node, rules map[string]bool) error {
	switch key {
	case "infer", "shared":
		on, err := p.boolean(v)
		if err != nil {
			return err
		}
		name := map[string]string{"infer": "guardinfer", "shared": "shared"}[key]
		rules[name] = on
		return nil
	}
	names, err := p.strs(v)
	if err != nil {
		return err
	}
	for i, name := range names {
		if !slices.Contains(p.schema.Rules, name) {
			return p.errorf(v.Content[i], "no rule %q; the rules are %s", name, strings.Join(p.schema.Rules, ", "))
		}
		rules[name] = key == "enable"
	}
	return nil
}

// flags reads flags:, a mapping of -ANALYZER.FLAG names (without the
// dash) to values, nested (noblock: {all: true}) or dotted (noblock.all: true).
func (p *parser) flags(v *yaml.Node) error {
	if v.Kind != yaml.MappingNode {
		return p.errorf(v, "want a mapping of analyzer flags, e.g. noblock.all: true")
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if val.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(val.Content); j += 2 {
				if err := p.flag(val.Content[j+1], k.Value+"."+val.Content[j].Value, ""); err != nil {
					return err
				}
			}
			continue
		}
		if err := p.flag(val, k.Value, ""); err != nil {
			return err
		}
	}
	return nil
}

// flag records a flag set to a scalar value, after the schema's check.
// kind "bool" asks for true or false.
func (p *parser) flag(v *yaml.Node, name, kind string) error {
	var value string
	var err error
	if kind == "bool" {
		var b bool
		b, err = p.boolean(v)
		value = fmt.Sprint(b)
	} else {
		value, err = p.str(v)
	}
	if err != nil {
		return err
	}
	if p.schema.Flag != nil {
		if err := p.schema.Flag(name, value); err != nil {
			return p.errorf(v, "%s: %v", name, err)
		}
	}
	p.file.Flags = append(p.file.Flags, Flag{Name: name, Value: value, Line: v.Line})
	return nil
}

func (p *parser) overrides(v *yaml.Node) error {
	if v.Kind != yaml.SequenceNode {
		return p.errorf(v, "want a list of overrides, each with paths: and what changes there")
	}
	for _, item := range v.Content {
		o := Override{Rules: map[string]bool{}, Line: item.Line}
		err := p.mapping(item, overrideKeys, func(key string, k, v *yaml.Node) error {
			switch key {
			case "paths":
				paths, err := p.strs(v)
				for i, pat := range paths {
					if !doublestar.ValidatePattern(pat) {
						return p.errorf(v.Content[i], "bad glob %q (the syntax is doublestar's: *, **, ?, [a-z], {a,b})", pat)
					}
				}
				o.Paths = paths
				return err
			case "exclude":
				b, err := p.boolean(v)
				o.Exclude = b
				return err
			}
			return p.rule(key, v, o.Rules)
		})
		if err != nil {
			return err
		}
		if len(o.Paths) == 0 {
			return p.errorf(item, "an override needs paths: (globs relative to %s)", filepath.Base(p.file.Dir))
		}
		p.file.Overrides = append(p.file.Overrides, o)
	}
	return nil
}

func (p *parser) boolean(v *yaml.Node) (bool, error) {
	var b bool
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!bool" || v.Decode(&b) != nil {
		return false, p.errorf(v, "want true or false, got %s", describe(v))
	}
	return b, nil
}

func (p *parser) str(v *yaml.Node) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", p.errorf(v, "want a single value, got %s", describe(v))
	}
	return v.Value, nil
}

// strs reads a list of strings; a single string is a list of one.
func (p *parser) strs(v *yaml.Node) ([]string, error) {
	if v.Kind == yaml.ScalarNode {
		return []string{v.Value}, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, p.errorf(v, "want a list, got %s", describe(v))
	}
	var out []string
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode {
			return nil, p.errorf(item, "want a name, got %s", describe(item))
		}
		out = append(out, item.Value)
	}
	return out, nil
}

func describe(v *yaml.Node) string {
	switch v.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", v.Value)
}

// Excluded reports whether an override excludes file (an absolute path).
func (f *File) Excluded(file string) bool {
	excluded := false
	for _, o := range f.matching(file) {
		if o.Exclude {
			excluded = true
		}
	}
	return excluded
}

// Top is rule's setting at the top level of the file, outside every
// override: def when the file does not set it there.
func (f *File) Top(rule string, def bool) bool {
	if v, ok := f.Rules[rule]; ok {
		return v
	}
	return def
}

// RuleOn reports whether rule runs on file (an absolute path): its
// default, then the file's top-level setting, then each override that
// matches the file, in order.
func (f *File) RuleOn(rule, file string, def bool) bool {
	on := f.Top(rule, def)
	for _, o := range f.matching(file) {
		if v, ok := o.Rules[rule]; ok {
			on = v
		}
	}
	return on
}

// RuleAnywhere reports whether rule runs on some file: at the top level
// or in an override.
func (f *File) RuleAnywhere(rule string, def bool) bool {
	on := f.Top(rule, def)
	for _, o := range f.Overrides {
		if o.Rules[rule] {
			on = true
		}
	}
	return on
}

// Varies reports whether an override sets rule other than the top level
// does (def when the top level does not set it).
func (f *File) Varies(rule string, def bool) bool {
	top := f.Top(rule, def)
	for _, o := range f.Overrides {
		if v, ok := o.Rules[rule]; ok && v != top {
			return true
		}
	}
	return false
}

// RulesSet are the rules the file sets somewhere, sorted.
func (f *File) RulesSet() []string {
	set := map[string]bool{}
	for r := range f.Rules {
		set[r] = true
	}
	for _, o := range f.Overrides {
		for r := range o.Rules {
			set[r] = true
		}
	}
	out := make([]string, 0, len(set))
	for r := range set {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// matching are the overrides whose paths match file. A pattern matches
// the file's path relative to the file's directory, or a directory above
// it: internal/gen matches internal/gen/x.go.
func (f *File) matching(file string) []Override {
	rel, err := filepath.Rel(f.Dir, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil
	}
	rel = filepath.ToSlash(rel)
	var out []Override
	for _, o := range f.Overrides {
		for _, pat := range o.Paths {
			pat = strings.TrimPrefix(pat, "./")
			if ok, _ := doublestar.Match(pat, rel); ok { // patterns were validated
				out = append(out, o)
				break
			}
			if ok, _ := doublestar.Match(strings.TrimSuffix(pat, "/")+"/**", rel); ok {
				out = append(out, o)
				break
			}
		}
	}
	return out
}
