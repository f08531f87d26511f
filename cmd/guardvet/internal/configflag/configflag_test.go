package configflag

import (
	"fmt"
	"strings"
	"testing"

	"github.com/guardvet/guardvet/analyzer/config"
)

// TestMustSet: MustSet sets the config analyzer's option, which the
// analysis then reads; an option that does not exist, or a value of the
// wrong type, is guardvet's bug: a panic naming the flag.
func TestMustSet(t *testing.T) {
	before := config.Analyzer.Flags.Lookup("strict").Value.String()
	defer MustSet("strict", before)
	MustSet("strict", fmt.Sprint(before != "true"))
	if got := config.Analyzer.Flags.Lookup("strict").Value.String(); got == before || config.Current().Strict() != (got == "true") {
		t.Errorf("-config.strict is %s after MustSet, Current().Strict() %v; want it changed from %s", got, config.Current().Strict(), before)
	}
	for _, c := range [][2]string{{"nosuch", "true"}, {"strict", "maybe"}} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "-config."+c[0]+"="+c[1]) {
					t.Errorf("MustSet(%q, %q): recovered %v; want a panic naming -config.%s=%s", c[0], c[1], r, c[0], c[1])
				}
			}()
			MustSet(c[0], c[1])
		}()
	}
}
