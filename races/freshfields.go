package races

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Fields that only ever hold what was new when it was stored.
//
// badger's Open makes a database and opens its value log: vlog.open
// takes each log file back out of vlog.filesMap and sets it up. The files
// are new ones populateFilesMap made and put there; but a load from a
// map is whatever any code put there, and the shared database's writer
// puts files into its own map too, so the set-up looked like writes on
// files other goroutines read. Where every value ever stored into a field
// (every entry ever put into a map of the type a field holds) is an
// object new at the store, one its maker had handed to nobody yet, a
// load from the field of an object no other goroutine can reach gives an
// object no other goroutine can reach either: whoever stored it there
// had the container, so it was the loading goroutine (or, for
// beyondSpawned, one it started), and the object was new then.
//
// What this takes on trust: that the maker, after the store, hands the
// object to nobody else too. A constructor that stores a new object into
// its fresh container and also into a shared one makes its later set-up
// through the container look unshared. RacerD takes the same trust
// further (whatever is reached through an owned object is owned).

// freshFields works out, once, the fields of the program's own code that
// only ever hold nil or what was new when it was stored (key fieldKey),
// and the map fields whose maps were made new and whose entries are too
// (key fieldKey + "[]"): every entry put into a map loaded from the
// field, or into a map made and stored there, and into any map of the
// type that is neither (a parameter), and no map of the type handed to
// a dependency.
func (a *run) freshFields() map[string]bool {
	if a.fresher != nil {
		return a.fresher
	}
	sc := &freshScan{a: a, seen: map[string]bool{}, bad: map[string]bool{}, badMaps: map[string]bool{}, dirty: map[*ssa.MakeMap]bool{}}
	for _, fn := range a.p.ownFuncs() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				sc.scan(instr)
			}
		}
	}
	a.fresher = map[string]bool{}
	for k := range sc.seen {
		if !sc.bad[k] {
			a.fresher[k] = true
		}
	}
	for _, m := range sc.made {
		if sc.dirty[m.mk] {
			sc.bad[m.key+"[]"] = true
		}
	}
	for _, m := range sc.mapFields {
		if a.fresher[m.key] && !sc.bad[m.key+"[]"] && !sc.badMaps[typeKey(m.typ)] {
			a.fresher[m.key+"[]"] = true
		}
	}
	return a.fresher
}

// freshScan is what freshFields gathers from the program's instructions.
type freshScan struct {
	a         *run
	seen, bad map[string]bool       // fields (and map fields' entries, +"[]") met, and set to what was not new
	mapFields []mapField            // the fields that hold maps of pointers
	badMaps   map[string]bool       // map types some entry of which was not new
	made      []madeMap             // maps made and stored into fields
	dirty     map[*ssa.MakeMap]bool // maps made that get an entry not new
}

// mapField is a field that holds a map whose entries are pointers.
type mapField struct {
	key string
	typ *types.Map
}

// madeMap is a map made (make, or a literal) and stored into a field.
type madeMap struct {
	key string
	mk  *ssa.MakeMap
}

func (sc *freshScan) scan(instr ssa.Instruction) {
	switch x := instr.(type) {
	case *ssa.FieldAddr:
		k := fieldKey(x.X.Type(), x.Field)
		if k == "" {
			return
		}
		sc.seen[k] = true
		if !onlyStoredLoaded(x) {
			sc.bad[k] = true
		}
		if t, ok := deref(x.Type()).Underlying().(*types.Map); ok && pointerLike(t.Elem()) {
			sc.mapFields = append(sc.mapFields, mapField{k, t})
		}
	case *ssa.Store:
		sc.a.checkFreshStore(x, sc.bad)
		mk, made := x.Val.(*ssa.MakeMap)
		if fa, ok := x.Addr.(*ssa.FieldAddr); ok && made {
			sc.made = append(sc.made, madeMap{fieldKey(fa.X.Type(), fa.Field), mk})
		}
	case *ssa.MapUpdate:
		if !sc.a.newAt(x.Value, x) {
			sc.notNew(x.Map)
		}
	case ssa.CallInstruction:
		// A map handed to a dependency (maps.Copy into it) may be
		// filled with anything.
		if _, builtin := x.Common().Value.(*ssa.Builtin); builtin {
			return // len, delete, clear
		}
		if callee := x.Common().StaticCallee(); callee != nil && sc.a.follows(callee) {
			return
		}
		for _, arg := range x.Common().Args {
			if _, ok := deref(arg.Type()).Underlying().(*types.Map); ok {
				sc.badMaps[typeKey(deref(arg.Type()))] = true
			}
		}
	}
}

// notNew marks m, a map given an entry that was not new: the field it
// was loaded from, the map made, or (neither) every map of its type.
func (sc *freshScan) notNew(m ssa.Value) {
	switch x := m.(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			sc.bad[fieldKey(fa.X.Type(), fa.Field)+"[]"] = true
			return
		}
	case *ssa.MakeMap:
		sc.dirty[x] = true
		return
	}
	sc.badMaps[typeKey(m.Type())] = true
}

// typeKey names a type the same wherever it is written.
func typeKey(t types.Type) string {
	return types.TypeString(t.Underlying(), nil)
}

// checkFreshStore marks in bad the fields st can set to something not
// new: the field it stores into, or, for a struct value stored whole,
// each field of the struct.
func (a *run) checkFreshStore(st *ssa.Store, bad map[string]bool) {
	if _, isStruct := st.Val.Type().Underlying().(*types.Struct); isStruct {
		if !a.literalValue(st.Val) {
			for _, k := range structFields(st.Addr.Type(), 0) {
				bad[k] = true
			}
		}
		return
	}
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return
	}
	k := fieldKey(fa.X.Type(), fa.Field)
	if k == "" {
		return
	}
	if !a.newAt(st.Val, st) {
		bad[k] = true
	}
	if _, isMap := st.Val.Type().Underlying().(*types.Map); isMap {
		// A new map a call returns may come full of anything: its
		// entries are new only in a map made here (and kept so).
		_, made := st.Val.(*ssa.MakeMap)
		if c, isConst := st.Val.(*ssa.Const); !made && !(isConst && c.IsNil()) {
			bad[k+"[]"] = true
		}
	}
}

// literalValue reports whether v, a struct value copied in whole, sets
// no field to what another struct holds: the zero value, a literal built
// in place (whose fields' stores, and whole copies into it, are checked
// one by one), a copy of a new object nothing else uses, or what a call
// returns that is always one of those (getTopologyConfiguration's
// return TopologyConfiguration{...} and return *config.Clone()).
func (a *run) literalValue(v ssa.Value) bool {
	switch v.(type) {
	case *ssa.Call, *ssa.Extract:
		return a.everyCallee(v, func(callee *ssa.Function, i int) bool {
			for _, r := range returns(callee) {
				if ret := r.(*ssa.Return); i >= len(ret.Results) || !a.movedValue(ret.Results[i]) {
					return false
				}
			}
			return true
		})
	}
	return a.movedValue(v)
}

// movedValue is literalValue without following calls' returns.
func (a *run) movedValue(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Const:
		return true
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return false
		}
		switch from := x.X.(type) {
		case *ssa.Alloc:
			return true
		case *ssa.Call:
			return len(*from.Referrers()) == 1 && (a.freshValue(from) || a.handedOver(from, toAnyone))
		}
	}
	return false
}

// newAt reports whether v, stored at instr, is nil or an object new
// there: made by its function (or by a call that returns what it makes)
// and handed to no other goroutine before instr.
func (a *run) newAt(v ssa.Value, instr ssa.Instruction) bool {
	if !pointerLike(v.Type()) {
		return true
	}
	switch x := v.(type) {
	case *ssa.Const:
		return x.IsNil()
	case *ssa.Alloc, *ssa.MakeMap, *ssa.MakeSlice, *ssa.MakeChan:
	case *ssa.Call, *ssa.Extract:
		if !a.freshValue(v) && !a.handedOver(v, toAnyone) {
			return false // not what the call made (or nil), handed to nobody
		}
	default:
		return false
	}
	return !a.published(v, instr, false, toAnyone)
}

// freshBox is, for own, the object v was loaded from, where freshLoad
// finds one and no goroutine but fn's, and those it started, has that
// object at the load: what its maker stored there, as own as it.
func (a *run) freshBox(fn *ssa.Function, c *context, v ssa.Value) (ssa.Value, bool) {
	box, ok := a.freshLoad(v)
	load, isInstr := v.(ssa.Instruction)
	if !ok || !isInstr || !a.unsharedBefore(fn, c, box, load, false, beyondSpawned) {
		return nil, false
	}
	return box, true
}

// freshLoad is the object v was loaded from, if v is a load of a field
// that only ever holds what was new when stored, or an entry (looked up,
// or ranged over) of a map such a field holds whose entries are too, or
// of a map its function made, that only ever gets new entries and goes
// nowhere (amqp091's snapshot of cloned topologies).
func (a *run) freshLoad(v ssa.Value) (ssa.Value, bool) {
	fresh := a.freshFields()
	entry := ""
	switch x := v.(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && fresh[fieldKey(fa.X.Type(), fa.Field)] {
			return fa.X, true
		}
		return nil, false
	case *ssa.Lookup:
		if x.CommaOk {
			return nil, false
		}
		v, entry = x.X, "[]"
	case *ssa.Extract:
		switch t := x.Tuple.(type) {
		case *ssa.Lookup:
			if x.Index != 0 {
				return nil, false
			}
			v, entry = t.X, "[]"
		case *ssa.Next:
			rng, ok := t.Iter.(*ssa.Range)
			if !ok || t.IsString || x.Index != 2 {
				return nil, false
			}
			v, entry = rng.X, "[]"
		default:
			return nil, false
		}
	default:
		return nil, false
	}
	if mk, made := v.(*ssa.MakeMap); made && a.onlyNewEntries(mk) {
		return mk, true // a map the function made and keeps to itself
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok || !fresh[fieldKey(fa.X.Type(), fa.Field)+entry] {
		return nil, false
	}
	return fa.X, true
}

// onlyNewEntries reports whether mk, a map, only ever gets entries new
// when put there, and is only looked up, ranged over, measured and
// deleted from: stored nowhere, handed to no call, captured by no
// literal.
func (a *run) onlyNewEntries(mk *ssa.MakeMap) bool {
	for _, ref := range *mk.Referrers() {
		switch x := ref.(type) {
		case *ssa.MapUpdate:
			if x.Map != ssa.Value(mk) || x.Value == ssa.Value(mk) || x.Key == ssa.Value(mk) || !a.newAt(x.Value, x) {
				return false
			}
		case *ssa.Lookup, *ssa.Range, *ssa.DebugRef:
		case *ssa.Call:
			if !keepsNothing(x) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
