package races

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/tools/go/ssa"
)

func TestDbgFV(t *testing.T) {
	p, err := load([]string{"dispatch"}, Options{Dir: "testdata/src/dispatch", Env: append(os.Environ(), "GOPATH=/work/main/races/testdata", "GO111MODULE=off", "GOFLAGS=", "GOWORK=off")})
	if err != nil {
		t.Fatal(err)
	}
	a := &run{p: p, locks: map[*ssa.Function]*bodyLocks{}, spawns: map[spawnKey]*root{}, escaping: map[*ssa.Parameter]escapeKind{}, pubMemo: map[pubKey]bool{}, wrappers: map[*ssa.Function]wrapped{}, fresh: map[resultKey]bool{}, handMemo: map[handKey]bool{}, waits: map[*ssa.Function][]ssa.Instruction{}, spawnMemo: map[ssa.Instruction]spawnFound{}, signalMemo: map[frame]map[string]bool{}, receiveMemo: map[frame]map[string]bool{}, effects: map[*ssa.Function]counts{}, calls: map[*ssa.Function][]callSite{}, fnKeys: map[*ssa.Function]string{}}
	own := p.ownFuncs()
	a.aliases = findAliases(own)
	a.budget = newBudget(0)
	a.pts = newPoints(own, p.callees, a.budget)
	a.walkOwned(own)
	for _, r := range a.roots {
		fmt.Println("ROOT", r.label, r.fns, r.params)
		for fn, cs := range r.ctxs {
			if fn.Name() != "withRecover" {
				continue
			}
			for _, c := range cs {
				for _, s := range a.callsOf(fn) {
					fmt.Println("  call", s.site, "callees", s.callees, "targets", a.targets(fn, c, s))
					for o := range a.objectsIn(fn, c, s.site.Common().Value) {
						fmt.Println("    obj", o, a.pts.fnOf[o])
					}
				}
			}
		}
	}
}
