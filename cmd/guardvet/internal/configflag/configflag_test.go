package configflag

import (
	"flag"
	"fmt"
	"strings"
	"testing"
)

// TestMustSet: mustSet sets the option; an option that does not exist, or
// a value of the wrong type, is guardvet's bug: a panic naming the flag.
// It runs on a flag set of its own, not the config analyzer's flags,
// which other tests read.
func TestMustSet(t *testing.T) {
	t.Parallel()
	fs := flag.NewFlagSet("config", flag.ContinueOnError)
	strict := fs.Bool("strict", false, "")
	mustSet(fs, "strict", "true")
	if !*strict {
		t.Error("-config.strict is still false after mustSet")
	}
	for _, c := range [][2]string{{"nosuch", "true"}, {"strict", "maybe"}} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "-config."+c[0]+"="+c[1]) {
					t.Errorf("mustSet(%q, %q): recovered %v; want a panic naming -config.%s=%s", c[0], c[1], r, c[0], c[1])
				}
			}()
			mustSet(fs, c[0], c[1])
		}()
	}
}
